"""The learned leaf value of the Gin Rummy outlook (remikit.variants.gin.value)."""

from __future__ import annotations

import random

from remikit.bots import make_bot
from remikit.bots.strong.determinize import knowledge
from remikit.cards import parse_cards
from remikit.deal import Phase
from remikit.variants.gin import value
from remikit.variants.gin.game import GinGame
from remikit.variants.gin.options import GinOptions
from remikit.variants.gin.scoring import SOLVER
from remikit.variants.gin.tactics import learned_leaf
from tests.hidden import blind_view


def arranged(text: str):  # type: ignore[no-untyped-def]
    best = SOLVER.solve(parse_cards(text))
    assert best is not None
    return best


def test_features_read_the_arrangement_and_the_live_cards() -> None:
    """G-2: sets of 3-4, runs of 3+. Dead Kc Kd (a pair: Kh Ks meld it), 4h, 9h; the set
    of sevens takes 7s, the run A-3 of spades takes 4s."""
    best = arranged("As 2s 3s 7h 7d 7c Kd Kc 4h 9h")
    row = value.features(best, set(parse_cards("Kh Ks 7s 4s 5h")), 12, 8, 9, 1)
    named = dict(zip(value.FEATURES, row, strict=True))
    assert named["deadwood"] == 3.3 and named["dead"] == 0.4
    assert (named["pairs"], named["runs"], named["gaps"], named["high"]) == (1, 0, 0, 3)
    assert named["outs"] == 0.4  # Kh Ks 7s 4s; 5h melds nothing here
    assert named["draws"] == 1.2 and named["took"] == 1
    gone = value.features(best, set(parse_cards("7s 4s")), 12, 8, 9, 1)
    assert dict(zip(value.FEATURES, gone, strict=True))["outs"] == 0.2


def test_near_runs_and_gaps_count_their_cards() -> None:
    best = arranged("5h 6h 9c Jc Ks Kh Kd 2d 3d 4d")
    named = dict(zip(value.FEATURES, value.features(best, set(), 0, 10, 10, 0), strict=True))
    assert (named["runs"], named["gaps"], named["pairs"]) == (1, 1, 0)


def test_the_network_folds_its_standardisation() -> None:
    weights = {
        "features": list(value.FEATURES),
        "mean": [1.0] * 12,
        "scale": [2.0] * 12,
        "w1": [[1.0] + [0.0] * 11, [-1.0] + [0.0] * 11],
        "b1": [0.5, 0.0],
        "w2": [3.0, 5.0],
        "b2": -1.0,
    }
    net = value.Value(weights)
    x = [5.0] + [0.0] * 11  # standardised: 2.0; units 2.5 and -2.0 (cut to 0)
    assert abs(net(x) - (-1.0 + 3.0 * 2.5)) < 1e-12


def test_the_shipped_value_prefers_a_pair_that_can_still_meld() -> None:
    net = value.trained()
    assert net is not None
    best = arranged("As 2s 3s 7h 7d 7c Kd Kc 4h 9h")
    live = net(value.features(best, set(parse_cards("Kh Ks 7s 4s")), 12, 8, 9, 0))
    dead = net(value.features(best, set(), 12, 8, 9, 0))
    assert live > dead


def test_the_leaf_reads_only_the_seat_view() -> None:
    """The leaf depends on the seat's own view: the same with every hidden card replaced."""
    checked = 0
    for g in range(4):
        game = GinGame(GinOptions(), rng=random.Random(g))
        bots = [make_bot("greedy", seed=g * 2 + s) for s in range(2)]
        deal = game.current()
        while not deal.is_over:
            seat = deal.to_play
            assert seat is not None
            view = game.view(seat)
            if view.phase is Phase.DISCARD:
                blind = blind_view(game, seat)
                leaf, same = (
                    learned_leaf(view, knowledge(view)),
                    learned_leaf(blind, knowledge(blind)),
                )
                assert leaf is not None and same is not None
                hand = list(view.hand)[:10]
                best = arranged(" ".join(map(str, hand)))
                assert leaf(best, 2) == same(best, 2)
                checked += 1
            game.apply(seat, bots[seat].choose(view))
    assert checked > 20
