"""What a Remi 13 D hand can do: quick tests the greedy bot and the terminal's hints share,
and the best arrangement the terminal's ``m`` and the web table's hints show.

>>> from remikit.cards import parse_cards
>>> may_hold_pure_run(parse_cards("3s 4s 5s 6s 9h"))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from remikit.cards import Card
from remikit.melds import Meld, PureRun
from remikit.solver import Goal
from remikit.variants.remi13d import scoring


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
    """The best close of 14 cards (R13-7), else the best discard and arrangement with a
    pure run, else the best arrangement without one; of 13 cards the best arrangement
    (R13-12), with or without a pure run. ``keep`` is a card that may not be discarded."""
    solver = scoring.solver(pure_run)
    if len(hand) > scoring.HAND_SIZE:
        best = scoring.best_close(hand, pure_run=pure_run)
        if best is not None and best.closing is not None:
            return Arranged(best.melds, (), best.points, True, close=best.closing)
        found = solver.solve(hand, goal=Goal(discard=True, need_pure=True, keep=keep))
        if found is not None and found.discard is not None:
            return Arranged(found.melds, found.dead, found.value, True, discard=found.discard)
        relaxed = solver.solve(hand, goal=Goal(discard=True, keep=keep))
        assert relaxed is not None
        rest = list(hand)
        if relaxed.discard is not None:
            rest.remove(relaxed.discard)
        points = scoring.dead_points(rest)
        return Arranged(relaxed.melds, relaxed.dead, points, False, discard=relaxed.discard)
    score = scoring.hand_score(hand, pure_run=pure_run)
    if score.melds:
        return Arranged(score.melds, score.dead, score.points, True)
    relaxed = solver.solve(hand)
    assert relaxed is not None
    return Arranged(relaxed.melds, relaxed.dead, score.points, False)
