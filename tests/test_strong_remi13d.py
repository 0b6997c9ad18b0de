"""The strong bot's Remi 13 D tactics: the way to a close, what the next stock card
promises, the draw (RULES.md §1, R13-5 and R13-7)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from remikit.actions import Discard, Draw
from remikit.bots.strong.determinize import knowledge
from remikit.bots.strong.search import QUICK
from remikit.cards import Card, make_deck, parse_cards
from remikit.variants.remi13d.lite import best_close, masks, usefulness
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
from remikit.variants.remi13d.tactics import (
    LATER,
    MAX_FUTURES,
    NO_CLOSER,
    SIMS_PER_FUTURE,
    Remi13DTactics,
    draw_gain,
    later_close,
    shortfall,
    shortfall14,
)

FULL = make_deck(decks=2, jokers=4)
READY = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Ks"  # 13 cards in melds, a pure run: no closer
OTHERS = [
    "2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs",
    "2d 3d 4d 5d 6d 8h 8s Qc Qd 4c 4s Jk Tc",
    "2c 3c 5c 6h 7h 8s Jd Jc Qh Td 9d 2s 3s",
]


def test_usefulness_counts_run_and_set_neighbours() -> None:
    rows, ranks, jokers = masks(parse_cards("4s 6s 7s 5h 5d Jk"))
    assert jokers == 1
    five = Card.parse("5s")
    assert usefulness(five.index, rows, ranks) > usefulness(Card.parse("9s").index, rows, ranks)
    assert usefulness(Card.parse("Kc").index, rows, ranks) == 0


def test_a_hand_in_melds_lacks_only_its_closing_card_R13_7() -> None:
    hand = parse_cards(READY)
    assert shortfall(hand) == NO_CLOSER
    assert best_close([*hand, Card.parse("Ah")]) is not None
    assert best_close([*hand, Card.parse("2h")]) is None


def test_a_fourteenth_card_never_lengthens_the_way_to_a_close() -> None:
    rng = random.Random(5)
    for _ in range(30):
        hand = rng.sample(FULL, 13)
        now = shortfall(hand, 1)
        for card in set(FULL):
            assert shortfall14([*hand, card], 1) <= now


def test_draw_gain_counts_the_stock_cards_that_help() -> None:
    hand = parse_cards(READY)
    ace, two = Card.parse("Ah"), Card.parse("2h")
    assert draw_gain(hand, Counter({ace: 2, two: 2})) == NO_CLOSER / 2
    assert draw_gain(hand, Counter({two: 2})) == 0


Stacked = Callable[..., list[Card]]


def _seat1_to_draw(stacked: Stacked, discard: str) -> Remi13DGame:
    game = Remi13DGame(Remi13DOptions.from_mapping({"games": 1}), auto_deal=False)
    hands = [OTHERS[0], READY, OTHERS[1], OTHERS[2]]
    game.start_deal(stacked(FULL, hands, dealer=3, stock="8d"), dealer=3)
    game.apply(0, Draw("stock"))
    game.apply(0, Discard(Card.parse(discard)))
    return game


def test_the_draw_takes_a_discard_that_closes_and_leaves_one_that_does_not(
    stacked: Stacked,
) -> None:
    tactics = Remi13DTactics()
    tactics.effort = QUICK
    assert tactics.draw(_seat1_to_draw(stacked, "Ah").view(1)) == Draw("discard")
    assert tactics.draw(_seat1_to_draw(stacked, "Qs").view(1)) == Draw("stock")


def test_a_later_close_counts_less_for_each_turn_it_waits_R13_7() -> None:
    hand = parse_cards(READY)
    ace, two, nine = Card.parse("Ah"), Card.parse("2h"), Card.parse("9d")
    assert later_close(hand, [[ace, two], [two, nine]]) == 0  # the next draw is not later
    assert later_close(hand, [[two, ace, nine]]) == LATER
    assert later_close(hand, [[two, nine, ace], [two, nine, nine]]) == LATER**2 / 2
    assert later_close(hand, []) == 0


def test_futures_are_the_unseen_cards_and_only_the_effort_beyond_the_rollouts_buys_them(
    stacked: Stacked,
) -> None:
    view = _seat1_to_draw(stacked, "Qs").view(1)
    tactics = Remi13DTactics()
    tactics.effort = 100  # 0.1 s: the rollouts take it all, the choice is as without
    assert tactics.max_rollouts == 100 and tactics.futures(view, 4) == []
    tactics.effort = 1000
    futures = tactics.futures(view, 4)
    assert len(futures) == 900 // SIMS_PER_FUTURE
    unseen = Counter(knowledge(view).unseen)
    for future in futures:
        assert len(future) == 4 and not Counter(future) - unseen
    assert futures == tactics.futures(view, 4)  # the same for every candidate
    tactics.effort = 10**9
    assert len(tactics.futures(view, 4)) == MAX_FUTURES
