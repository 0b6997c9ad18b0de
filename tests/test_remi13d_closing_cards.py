"""Remi 13 D closing cards valued as what they are (R13-7, R13-10, R13-11): one card from a
close, the greedy bot, the hints and the strong bot keep the only ace or joker that can
close, close with it, and still throw a spare ace.

The positions are stacked (seat 0 plays first, draws the stock's top card and decides),
one replayed from a seeded arena game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from remikit.actions import Action, Discard, Draw
from remikit.bots import make_bot
from remikit.bots.strong.search import QUICK
from remikit.cards import Card, parse_cards
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.advice import Remi13DAdvice
from remikit.variants.remi13d.hints import best_discard, closing_card, worth
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
from remikit.variants.remi13d.tactics import SHORTFALL_POINTS, Remi13DTactics, shortfall
from remikit.views import PlayerView
from tests.stacked import Stacked, act

# 3s-6s (the pure run), 9h Th Jh, 7c 7d 7s, Kd Kc: a king or a joker makes it all melds
NEAR = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc"
# Ah 2h 3h 4h (the pure run, the ace in it), 9c Tc Jc, 7c 7d 7s, Kd Kc
ACE_IN_RUN = "Ah 2h 3h 4h 9c Tc Jc 7c 7d 7s Kd Kc"
C = Card.parse


def drawn(stacked: Stacked, hand: str, stock: str) -> Remi13DGame:
    """Seat 0 holds ``hand`` and has drawn the first card of ``stock``."""
    game = Remi13DGame(Remi13DOptions.from_mapping({"games": 1}), auto_deal=False)
    deal = stacked(game.full_deck(), {0: hand}, dealer=3, stock=stock, players=4, size=13)
    game.start_deal(deal, dealer=3)
    act(game, "s0 draw stock")
    return game


def greedy(view: PlayerView) -> Action:
    return make_bot("greedy", seed=1).choose(view)


def hint(view: PlayerView) -> Action:
    """The web table's best arrangement (the terminal's ``m`` is the same arrangement)."""
    discard = Remi13DAdvice().best(view)["discard"]
    assert discard is not None
    return Discard(C(discard))


def strong(seed: int) -> Callable[[PlayerView], Action]:
    return lambda view: make_bot("strong@0.1", seed=seed).choose(view)


DECIDERS = {"greedy": greedy, "hint": hint, "strong-1": strong(1), "strong-2": strong(2)}


def test_R13_11_one_card_from_a_close_the_closing_card_counts_its_bonus() -> None:
    # R13-12 alone: 20 with the ace dead (-15), 30 with the eight dead (-5) instead
    with_ace, with_eight = parse_cards(f"{NEAR} Ah"), parse_cards(f"{NEAR} 8d")
    assert closing_card(with_ace, pure_run="strict") == C("Ah")
    assert worth(with_ace, pure_run="strict") == (1, 50 + 35)  # Remi As and the other 12
    assert closing_card(with_eight, pure_run="strict") is None
    assert worth(with_eight, pure_run="strict") == (1, 30)
    # a joker fills the kings (R13-12: 85); as the closing card it is Remi Joker, 75 + 35
    assert worth(parse_cards(f"{NEAR} Jk"), pure_run="strict") == (1, 110)
    # two cards from a close the ace is a dead card as R13-10 says
    far = parse_cards("3s 4s 5s 6s 9h Th Jh 7c 7d Qd Kd Kc Ah")
    assert closing_card(far, pure_run="strict") is None
    assert worth(far, pure_run="strict") == (1, 40 - 10 - 30 - 15)  # 7c 7d, Qd Kd Kc, Ah dead


def test_R13_7_the_strong_bot_sets_the_closing_card_aside() -> None:
    tactics = Remi13DTactics()
    tactics.effort = QUICK
    # one card from a close: only the kings' pair is left out; with an eight, no closer
    assert tactics.prior(parse_cards(f"{NEAR} Ah"), "strict") == -SHORTFALL_POINTS * 2
    assert shortfall(parse_cards(f"{NEAR} Ah")) > 2
    assert tactics.prior(parse_cards(f"{NEAR} 8d"), "strict") < -SHORTFALL_POINTS * 2


# Game 132 of the arena match of bench/bench_strength.py --suite remi13d (seed 2024), after
# 41 moves: seat 0 holds Qd Kd Ad, Jh Qh Kh Ah (the pure run), 7s 8s 9s, 4d 5d 7d and has
# drawn Ac, its only ace outside the melds; the 4d or the 7d goes, and a 3d, 6d or joker
# closes. A distance to a close that counts the Ac as a card to meld throws it.
ARENA_DECK = """
9c 8c 4c Js 5d 6c 4h 3d 3s Th 5h 6d Kd 3c 2s Qd 8s 7d 2d Td Ac Qc 5s Ks 7c Qh 2s
Td 5d 3h 2c Qs Jh Jk As Jh Kh Ts Th 4c Ad 2h 6d 5c 7s Ks Qs 3h 8s Jc 6s 6h 4d 7d
9s 8d 5h Ah Kh 2d 6h Js Qh 7h 4d 2h Qc Tc 9h 7s 6c Jd 4h 8c Kc 7h 3c Jk Kc 3d 8d
Ac Kd Jk Jc Jd 8h 9d 6s 3s As Qd 9d 5c Ah 9s Ts 5s 4s 2c 9h Tc 9c 7c 8h 4s Ad Jk
"""
ARENA_MOVES = """
p0 draw stock, p0 discard 5d, p1 draw discard, p1 discard Ks, p2 draw discard, p2 discard 6s,
p3 draw discard, p3 discard Jh, p0 draw stock, p0 discard 3s, p1 draw discard, p1 discard Jc,
p2 draw stock, p2 discard 9s, p3 draw discard, p3 discard Qd, p0 draw discard, p0 discard 8s,
p1 draw stock, p1 discard Ts, p2 draw stock, p2 discard 5s, p3 draw stock, p3 discard Ah,
p0 draw discard, p0 discard 9c, p1 draw stock, p1 discard Qc, p2 draw stock, p2 discard 2s,
p3 draw stock, p3 discard 9s, p0 draw discard, p0 discard 7c, p1 draw discard, p1 discard 2h,
p2 draw discard, p2 discard Th, p3 draw stock, p3 discard Js, p0 draw stock
"""


def arena_game(stacked: Stacked) -> Remi13DGame:
    """The arena game's position (its own deck: ``stacked`` is not needed)."""
    game = Remi13DGame(Remi13DOptions.from_mapping({"games": 1}), auto_deal=False)
    game.start_deal(parse_cards(ARENA_DECK), dealer=3)
    act(game, *(move.strip() for move in ARENA_MOVES.split(",")))
    return game


POSITIONS: dict[str, tuple[Callable[[Stacked], Remi13DGame], set[str]]] = {
    "only-ace": (lambda stacked: drawn(stacked, f"{NEAR} Ah", "8d"), {"8d"}),
    "ace-beside-an-ace-in-the-pure-run": (
        lambda stacked: drawn(stacked, f"{ACE_IN_RUN} Ad", "8d"),
        {"8d"},
    ),
    "arena-game": (arena_game, {"4d", "7d"}),
    # 2s 2h 2d, 3s 3h 3d, Js Qs Ks As (the pure run), 6s 7s: a 5s, 8s or joker, then Ah
    "ace-beside-pairs": (
        lambda stacked: drawn(stacked, "2s Ks 2h 6s Qs 3s Ah Js 7s 4d 3d As 3h", "2d"),
        {"4d"},
    ),
    "only-joker": (lambda stacked: drawn(stacked, f"{NEAR} Jk", "8d"), {"8d"}),
    # 8c 8s 8d, Tc Jc Qc Kc (the pure run), 3s 4s 5s, 2s 2d: a two, then Jk closes (75);
    # R13-12 alone would rather meld the joker in a run and throw the 2d
    "joker-beside-pairs": (
        lambda stacked: drawn(stacked, "8c 8s 8d 2s 3s 4s 5s Tc Jc Qc Kc 2d Jk", "6c"),
        {"6c"},
    ),
}


@pytest.mark.parametrize("decider", DECIDERS)
@pytest.mark.parametrize("position", POSITIONS)
def test_R13_7_one_card_from_a_close_the_closing_card_and_the_close_are_kept(
    stacked: Stacked, decider: str, position: str
) -> None:
    build, keeping = POSITIONS[position]
    view = build(stacked).view(0)
    assert not any(isinstance(a, Close) for a in view.legal_actions)
    action = DECIDERS[decider](view)
    assert isinstance(action, Discard) and str(action.card) in keeping


@pytest.mark.parametrize("decider", DECIDERS)
def test_R13_10_with_two_aces_and_one_needed_the_spare_goes(stacked: Stacked, decider: str) -> None:
    view = drawn(stacked, f"{NEAR} Ah", "Ad").view(0)
    action = DECIDERS[decider](view)
    assert isinstance(action, Discard) and action.card in parse_cards("Ah Ad")
    assert best_discard(view.hand, None, pure_run="strict")[0] == (1, 85)


@pytest.mark.parametrize("level", ["greedy", "strong@0.1"])
def test_R13_7_R13_11_the_bot_keeps_its_ace_and_closes_with_it(
    stacked: Stacked, level: str
) -> None:
    # seat 0 draws the eight, the others draw and throw a card each, seat 0 draws the king
    game = drawn(stacked, f"{NEAR} Ah", "8d 5c Js 2c Kh")
    bot = make_bot(level, seed=3)
    game.apply(0, bot.choose(game.view(0)))
    while game.to_play != 0:
        seat = game.to_play
        assert seat is not None
        before = Counter(game.view(seat).hand)
        game.apply(seat, Draw("stock"))
        (card,) = Counter(game.view(seat).hand) - before
        game.apply(seat, Discard(card))
    assert bot.choose(game.view(0)) == Draw("stock")
    game.apply(0, Draw("stock"))
    assert bot.choose(game.view(0)) == Close(C("Ah"))
    game.apply(0, Close(C("Ah")))
    assert game.over and game.totals[0] == 135  # docs/rules.md §5's worked example
