"""Gin Rummy's greedy and strong bots (rules.md §4, G-1 … G-10)."""

from __future__ import annotations

import random

import pytest

from remikit.actions import Discard, Draw, LayOff, Pass
from remikit.bots import make_bot
from remikit.bots.strong.determinize import hand_chances, knowledge
from remikit.cards import parse_cards
from remikit.cli.arena import make_arena
from remikit.deal import DealPhase, Phase
from remikit.variants.gin.actions import Knock
from remikit.variants.gin.game import GinGame
from remikit.variants.gin.greedy import GinStrategy, defence
from remikit.variants.gin.options import GinOptions
from remikit.variants.gin.rules import GinDeal, min_deadwood
from remikit.variants.gin.state import GinPhase
from remikit.variants.gin.tactics import GinTactics, danger
from tests.stacked import Stacked, act, deal_stacked


def play_hands(level: str, hands: int, seed: int) -> set[DealPhase]:
    """Play ``hands`` hands with ``level`` in both seats, checking every choice is legal;
    the phases the bots were asked in."""
    seen: set[DealPhase] = set()
    for n in range(hands):
        game = GinGame(GinOptions(target=1), rng=random.Random(seed + n))
        bots = [make_bot(level, seed=seed + n + s) for s in (0, 1)]
        while not game.over:
            seat = game.to_play
            assert seat is not None
            view = game.view(seat)
            action = bots[seat].choose(view)
            assert action in view.legal_actions, (view.phase, action)
            seen.add(view.phase)
            game.apply(seat, action)
    return seen


def wall_phases(level: str, seed: int) -> set[DealPhase]:
    """A hand whose seats pass the upcard and throw each card they draw until the wall
    (G-8), ``level`` in both seats from there; the phases the bots were asked in."""
    game = GinGame(GinOptions(target=1), rng=random.Random(seed))
    bots = [make_bot(level, seed=seed + s) for s in (0, 1)]
    seen: set[DealPhase] = set()
    while not game.over:
        seat = game.to_play
        assert seat is not None
        view = game.view(seat)
        if view.phase is GinPhase.WALL or seen:
            action = bots[seat].choose(view)
            assert action in view.legal_actions, (view.phase, action)
            seen.add(view.phase)
        elif view.phase is Phase.DISCARD:
            action = Discard(view.hand[-1])
        else:
            action = Pass() if view.phase is GinPhase.OFFER else Draw("stock")
        game.apply(seat, action)
    return seen


def test_greedy_plays_legally_in_every_phase() -> None:
    """G-3 … G-8: offer, draw, discard, wall, lay down, lay off, defend."""
    seen = play_hands("greedy", 300, 1) | wall_phases("greedy", 7)
    assert seen >= {
        GinPhase.OFFER,
        Phase.DRAW,
        Phase.DISCARD,
        GinPhase.WALL,
        GinPhase.LAY_DOWN,
        GinPhase.LAY_OFF,
        GinPhase.DEFEND,
    }


def test_strong_plays_legally() -> None:
    seen = play_hands("strong@0.01", 6, 5)
    assert {Phase.DRAW, Phase.DISCARD, GinPhase.LAY_DOWN} <= seen


def test_defence_chains_lay_offs() -> None:
    """G-6: a lay-off extends the meld, so the next card may follow it."""
    hand = frozenset(parse_cards("8s 9s Kd Qc"))
    left, layoffs = defence(hand, (tuple(parse_cards("5s 6s 7s")),))
    assert left == 20
    assert [(str(c), n) for c, n in layoffs] == [("8s", 1), ("9s", 1)]


def test_defence_keeps_its_own_meld() -> None:
    """Laying 7s off on the knocker's sevens would break the defender's own run."""
    hand = frozenset(parse_cards("7s 8s 9s 2h Kd"))
    left, layoffs = defence(hand, (tuple(parse_cards("7h 7d 7c")),))
    assert (left, layoffs) == (12, ())


def test_defence_is_the_least_over_every_order() -> None:
    """Against two melds, the best defence takes the lay-offs that leave least."""
    hand = frozenset(parse_cards("4d 8d 9d 5h 4h Kc"))
    table = (tuple(parse_cards("5d 6d 7d")), tuple(parse_cards("6h 7h 8h")))
    left, layoffs = defence(hand, table)
    assert left == 10
    assert [str(c) for c, n in layoffs if n == 2] == ["5h", "4h"]  # 4h only after 5h
    assert {str(c) for c, n in layoffs if n == 1} == {"4d", "8d", "9d"}


def first_knockable(seed: int) -> tuple[GinGame, int]:
    """A greedy game played to the first view where a knock is legal."""
    for n in range(200):
        game = GinGame(GinOptions(target=1), rng=random.Random(seed + n))
        bot = make_bot("greedy", seed=0)
        while not game.over:
            seat = game.to_play
            assert seat is not None
            view = game.view(seat)
            if view.phase is Phase.DISCARD and any(
                isinstance(a, Knock) for a in view.legal_actions
            ):
                return game, seat
            game.apply(seat, bot.choose(view))
    raise AssertionError("no knock in 200 hands")


def test_greedy_knocks_when_it_can() -> None:
    """G-5: the greedy bot knocks at its first chance, leaving the least deadwood."""
    game, seat = first_knockable(11)
    view = game.view(seat)
    action = GinStrategy().discard(view)
    assert isinstance(action, Knock)
    rest = list(view.hand)
    rest.remove(action.card)
    least = min(
        min_deadwood([c for c in view.hand if c is not k.card])
        for k in view.legal_actions
        if isinstance(k, Knock)
    )
    assert min_deadwood(rest) == least


def test_greedy_throws_the_card_fewest_draws_would_meld(stacked: Stacked) -> None:
    """Jh, Qh and Kd leave the same deadwood; Jh and Qh wait for 10h or Kh, Kd for nothing:
    the greedy bot throws Kd."""
    game = GinGame(GinOptions(), auto_deal=False)
    hands = ["As 2s 3s 7h 7d 7c Jh Qh 9c 4d", "Ad 2d 3d 5h 6s 8s 9s Td 3h 4h"]
    deal_stacked(game, stacked, hands, dealer=1, up="Ac", stock="Kd")
    act(game, "p0 pass", "p1 pass", "p0 draw stock")
    view = game.view(0)
    assert view.phase is Phase.DISCARD and view.hand[-1] == parse_cards("Kd")[0]
    assert GinStrategy().discard(view) == Discard(parse_cards("Kd")[0])


def test_greedy_lays_off_to_the_least_deadwood() -> None:
    """G-6: over many hands, the defender's deadwood after its lay-offs and melds is the
    least any order of lay-offs leaves."""
    checked = 0
    for n in range(120):
        game = GinGame(GinOptions(target=1), rng=random.Random(300 + n))
        bots = [make_bot("greedy", seed=s) for s in (0, 1)]
        best: int | None = None
        deal: object = None
        while not game.over:
            seat = game.to_play
            assert seat is not None
            view = game.view(seat)
            if view.phase is GinPhase.LAY_OFF and best is None:
                best = defence(frozenset(view.hand), tuple(m.cards for m in view.table))[0]
                deal = game.deal
            game.apply(seat, bots[seat].choose(view))
        if isinstance(deal, GinDeal) and best is not None and deal.knocker is not None:
            defender = 1 - deal.knocker
            assert sum(min(int(c.rank), 10) for c in deal.hands[defender]) == best
            checked += 1
    assert checked > 20


def test_lay_off_action_is_legal() -> None:
    """The defence's first lay-off is one of the view's lay-offs."""
    for n in range(120):
        game = GinGame(GinOptions(target=1), rng=random.Random(500 + n))
        bot = make_bot("greedy", seed=0)
        while not game.over:
            seat = game.to_play
            assert seat is not None
            view = game.view(seat)
            action = bot.choose(view)
            if view.phase is GinPhase.LAY_OFF and isinstance(action, LayOff):
                assert action in view.legal_actions
                return
            game.apply(seat, action)
    pytest.fail("no lay-off in 120 hands")


def test_danger_is_a_chance_and_follows_the_reading() -> None:
    """A discard's danger is a chance, plain or weighted by the reading of play; a card
    whose partners the reading makes likelier is more dangerous."""
    game, seat = first_knockable(21)
    view = game.view(seat)
    known = knowledge(view)
    chances = hand_chances(view, known)
    assert chances is not None
    for card in view.hand:
        assert 0.0 <= danger(card, view, known, None) <= 1.0
        assert 0.0 <= danger(card, view, known, chances[1 - seat]) <= 1.0
    card = view.hand[0]
    likely = dict.fromkeys(known.unseen, 0.9)
    unlikely = dict.fromkeys(known.unseen, 0.01)
    assert danger(card, view, known, likely) > danger(card, view, known, unlikely)


def test_strong_tactics_knock_is_the_favourite() -> None:
    game, seat = first_knockable(31)
    tactics = GinTactics()
    tactics.effort = 40
    plans = tactics.candidates(game.view(seat))
    assert isinstance(plans[0][0][0], Knock)
    assert all(p[1] <= plans[0][1] for p in plans)
    assert isinstance(plans[-1][0][0], Knock | Pass) or len(plans) == 2


def test_strong_does_not_feed_a_meld_the_other_seat_shows(
    stacked: Stacked, monkeypatch: pytest.MonkeyPatch
) -> None:
    """G-4: the other seat took Kh and Ks from the pile, so Kd would give it a set. Kd is
    otherwise the card to throw (greedy throws it, and so does strong when feeding costs
    nothing); strong keeps it."""
    game = GinGame(GinOptions(), auto_deal=False)
    hands = ["As 2s 3s 4c 5c 6c Th 9h Ks 7d", "2h 3h Jc Tc 8s 8c 6h 4d 3d 2c"]
    deal_stacked(game, stacked, hands, dealer=1, up="Kh", stock="Kd 5h")
    act(game, "p0 pass", "p1 draw discard", "p1 discard 2h", "p0 draw stock", "p0 discard Ks")
    act(game, "p1 draw discard", "p1 discard 3h", "p0 draw stock")
    view = game.view(0)
    king = parse_cards("Kd")[0]
    assert view.phase is Phase.DISCARD and king in view.hand
    assert GinStrategy().discard(view) == Discard(king)
    tactics = GinTactics()
    tactics.effort = 400
    chosen = tactics.discards(view)[0][0][0]
    assert isinstance(chosen, Discard) and chosen.card != king
    monkeypatch.setattr("remikit.variants.gin.tactics.FEED", 0.0)
    assert tactics.discards(view)[0][0][0] == Discard(king)


@pytest.mark.slow
def test_strong_beats_greedy() -> None:
    """A short seeded arena of hands: the strong bot wins more hands than greedy."""
    arena = make_arena("gin", "strong@0.05,greedy", games=10, seed=4)
    result = arena.run(per_deal=True)
    strong, greedy = result.stats
    assert strong.wins > greedy.wins
