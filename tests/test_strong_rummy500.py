"""The strong bot's Rummy 500 tactics: the quick meld test and the refined worlds."""

from __future__ import annotations

import random
from collections import Counter

from remikit.actions import Discard
from remikit.bots import make_bot
from remikit.bots.strong.determinize import determinize, knowledge
from remikit.cards import JOKER, Card, parse_cards
from remikit.variants import find_variant
from remikit.variants.rummy500.hints import has_partner, opens_call
from remikit.variants.rummy500.melds import card_points, playable
from remikit.variants.rummy500.new_melds import candidate_melds
from remikit.variants.rummy500.plan import table_of
from remikit.variants.rummy500.rollouts import may_meld
from remikit.variants.rummy500.tactics import Rummy500Tactics
from remikit.views import PlayerView


def test_may_meld_never_misses_a_meld() -> None:
    deck = [Card(i) for i in range(52)] + [JOKER, JOKER]
    rng = random.Random(3)
    for _ in range(3000):
        hand = rng.sample(deck, rng.randint(1, 10))
        assert may_meld(hand) or not candidate_melds(hand), hand
    assert not may_meld(parse_cards("2c 5h 9s Kd Jc"))
    assert may_meld(parse_cards("Qh Kh Ah"))  # the ace above the king
    assert may_meld(parse_cards("Ah 2h Jk"))


def test_refined_worlds_look_played() -> None:
    """Other hands hold nothing they could have laid; sizes, cards and known cards stay."""
    info = find_variant("rummy500")
    tactics = Rummy500Tactics()
    rng = random.Random(5)
    misfits = {"sampled": 0, "refined": 0}
    for seed in range(4):
        game = info.game_class()(
            info.game_class().options_type.from_mapping({"players": 4}), rng=random.Random(seed)
        )
        bots = [make_bot("greedy", seed=s) for s in range(4)]
        for _ in range(20):
            deal = game.deal
            if game.over or deal is None or deal.is_over:
                break
            seat = game.to_play
            assert seat is not None
            view = game.view(seat)
            known = knowledge(view)
            world = determinize(view, rng, known=known)
            refined = tactics.refine(view, world, known, rng)
            assert refined.hands[seat] == view.hand
            assert [len(h) for h in refined.hands] == [len(h) for h in world.hands]
            assert Counter(c for h in refined.hands for c in h) + Counter(refined.stock) == Counter(
                c for h in world.hands for c in h
            ) + Counter(world.stock)
            table = table_of(view)
            for other in range(4):
                assert not Counter(known.known[other]) - Counter(refined.hands[other])
                if other == seat:
                    continue
                for name, hand in (
                    ("sampled", world.hands[other]),
                    ("refined", refined.hands[other]),
                ):
                    free = Counter(hand) - Counter(known.known[other])
                    misfits[name] += any(
                        playable(c, table, joker_layoff="runs") for c in free
                    ) or any(free & Counter(m.cards) for m in candidate_melds(hand))
            game.apply(seat, bots[seat].choose(view))
    assert misfits["refined"] * 5 < misfits["sampled"], misfits


def test_rollout_seats_lay_and_discard_as_the_greedy_bot() -> None:
    """After the draw, the rollout policy plays a seat's turn as the greedy bot would:
    the same melds and lay-offs, and a discard it ranks as high (safe, unpartnered,
    highest value)."""

    def rank(card: Card, view: PlayerView) -> tuple[bool, bool, bool, int]:
        table = table_of(view)
        return (
            not opens_call(card, view.discard_pile, table, "runs"),
            not card.is_joker,
            not has_partner(card, view.hand),
            card_points(card, "standard"),
        )

    info = find_variant("rummy500")
    rng = random.Random(0)
    turns = 0
    for seed in range(6):
        game = info.game_class()(
            info.game_class().options_type.from_mapping({"players": 4}), rng=random.Random(seed)
        )
        bots = [make_bot("greedy", seed=s) for s in range(4)]
        tactics = Rummy500Tactics()
        while not game.over and turns < 300:
            if game.needs_deal:
                game.start_deal()
            seat = game.to_play
            deal = game.deal
            assert seat is not None and deal is not None
            view = game.view(seat)
            action = bots[seat].choose(view)
            if view.phase == "discard":
                played = tactics.policy(deal, seat, rng)
                if isinstance(action, Discard) and isinstance(played, Discard):
                    # among cards the greedy bot ranks alike, either may go
                    assert rank(played.card, view) == rank(action.card, view), view.log[-3:]
                    turns += 1
                else:
                    assert played == action, view.log[-3:]
            game.apply(seat, action)
    assert turns >= 300
