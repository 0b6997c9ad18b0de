"""What a Remi 13 D hand can do and is worth: the quick tests, the rating and the discard
the greedy bot, the hints (the terminal's ``m``, the web table's advice) and the strong
bot share.

>>> from remikit.cards import parse_cards
>>> may_hold_pure_run(parse_cards("3s 4s 5s 6s 9h"))
True

One card from a close (R13-7), the only ace is the closing card: it is worth its bonus
(R13-11), not its dead-card points (R13-10), so the hand throws the two instead. Its
worth is the bonus 50 and the 35 points of the other 12 cards, where R13-12 alone would
say 20 (with the two thrown) against 30 (with the ace thrown):

>>> hand = parse_cards("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Ah 2d")
>>> best_discard(hand, None, pure_run="strict")
((1, 85), Card('2d'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from remikit.cards import JOKER, Card
from remikit.melds import Meld, PureRun
from remikit.solver import NEG, Goal, Solver
from remikit.variants.remi13d import scoring

Worth = tuple[int, int]
"""A 13-card hand's worth (:func:`worth`); the greater is the better."""
NEED_PURE = Goal(need_pure=True)


def may_hold_pure_run(hand: Sequence[Card]) -> bool:
    """Whether ``hand`` has four natural cards in a row of one suit (R13-7's pure run).

    A cheap test that spares the solver a search that cannot succeed; the
    royal flush holds such a row too, and so does a pure run under either
    ``pure_run`` option (R13-6).
    """
    rows = [0, 0, 0, 0]
    for card in hand:
        if not card.is_joker:
            position = int(card.rank) - 1
            rows[card.suit] |= 1 << position
            if position == 0:
                rows[card.suit] |= 1 << 13  # the ace high
    return any(row & row >> 1 & row >> 2 & row >> 3 for row in rows)


def without(hand: Sequence[Card], card: Card) -> list[Card]:
    """``hand`` less one copy of ``card``."""
    rest = list(hand)
    rest.remove(card)
    return rest


def _closing(hand: Sequence[Card], solver: Solver) -> tuple[int, Card | None]:
    """Of the closing cards of 13 cards whose 12 other cards one more card makes all melds
    with a pure run (R13-7), the one whose close scores most: its bonus (R13-11) and the
    R13-12 points of those 12 cards, and the card; ``(NEG, None)`` when there is none."""
    best: tuple[int, Card | None] = (NEG, None)
    for closing in scoring.closing_candidates(hand):
        rest = without(hand, closing)
        if solver.value([*rest, JOKER], goal=scoring.CLOSE_GOAL) > NEG // 2:
            points = scoring.closing_bonus(closing) + solver.value(rest, goal=NEED_PURE)
            best = max(best, (points, closing), key=lambda pc: pc[0])
    return best


def closing_card(hand: Sequence[Card], *, pure_run: PureRun) -> Card | None:
    """The ace or joker 13 cards one card from a close keep to close with (R13-7): the other
    12 cards and one more card are all melds with a pure run. None when there is none."""
    if not may_hold_pure_run(hand):
        return None
    return _closing(hand, scoring.solver(pure_run))[1]


def worth(hand: Sequence[Card], *, pure_run: PureRun) -> Worth:
    """What 13 cards are worth: ``(1, points)`` with a pure run of 4+, where the points are
    R13-12's, or, one card from a close, what its :func:`closing_card` is, when that is
    more: the close's bonus (R13-11) and the points of the other 12 cards. Throwing the
    only ace or joker then costs the close; throwing a second ace costs its -15 (R13-10).

    Without a pure run R13-12 makes every card dead, which would only say "throw away the
    jokers and aces" (the closing cards), so such hands are ``(0, points)`` of the melds
    they hold, as if the pure run were already there. What a pure run is follows the
    table's ``pure_run`` option (R13-6).
    """
    solver = scoring.solver(pure_run)
    if may_hold_pure_run(hand):
        value = solver.value(hand, goal=NEED_PURE)
        if value > NEG // 2:
            return (1, max(value, _closing(hand, solver)[0]))
    return (0, solver.value(hand))


def best_discard(
    hand14: Sequence[Card], keep: Card | None, *, pure_run: PureRun
) -> tuple[Worth, Card | None]:
    """The :func:`worth` after the best discard of 14 cards, and that discard (never
    ``keep``; None only if the solver names none)."""
    solver = scoring.solver(pure_run)
    found = None
    if may_hold_pure_run(hand14):
        found = solver.solve(hand14, goal=Goal(discard=True, need_pure=True, keep=keep))
    if found is None:
        found = solver.solve(hand14, goal=Goal(discard=True, keep=keep))
        assert found is not None
        return (0, found.value), found.discard
    best: tuple[Worth, Card | None] = ((1, found.value), found.discard)
    if scoring.closing_candidates(hand14):  # a closing card may count as what it is
        for card in dict.fromkeys(hand14):
            if card is not keep:
                rated = worth(without(hand14, card), pure_run=pure_run)
                if rated > best[0]:
                    best = rated, card
    return best


@dataclass(frozen=True)
class Arranged:
    """The best arrangement of a Remi 13 D hand, as the hints show it (the terminal's ``m``,
    the web table's advice)."""

    melds: tuple[Meld, ...]
    dead: tuple[Card, ...]
    points: int
    """The score it earns: R13-11 with a close, else R13-12 (every card dead without a
    pure run; the discard, with 14 cards, not counted)."""
    pure: bool
    """The melds hold the pure run of 4+ that R13-12 needs; without it they score nothing."""
    close: Card | None = None
    discard: Card | None = None


def arrange(hand: Sequence[Card], *, pure_run: PureRun, keep: Card | None = None) -> Arranged:
    """The best close of 14 cards (R13-7), else the best discard (:func:`best_discard`) and
    the arrangement of the rest; of 13 cards the best arrangement (R13-12), with or without a
    pure run. ``keep`` is a card that may not be discarded."""
    if len(hand) > scoring.HAND_SIZE:
        best = scoring.best_close(hand, pure_run=pure_run)
        if best is not None and best.closing is not None:
            return Arranged(best.melds, (), best.points, True, close=best.closing)
        _, discard = best_discard(hand, keep, pure_run=pure_run)
        rest = hand if discard is None else without(hand, discard)
        return replace(_arranged(rest, pure_run), discard=discard)
    return _arranged(hand, pure_run)


def _arranged(hand: Sequence[Card], pure_run: PureRun) -> Arranged:
    """The best arrangement of ``hand`` (R13-12), with or without a pure run."""
    score = scoring.hand_score(hand, pure_run=pure_run)
    if score.melds:
        return Arranged(score.melds, score.dead, score.points, True)
    relaxed = scoring.solver(pure_run).solve(hand)
    assert relaxed is not None
    return Arranged(relaxed.melds, relaxed.dead, score.points, False)
