"""What a Remi 13 D hand can do: quick tests the greedy bot and the terminal's hints share.

>>> from remikit.cards import parse_cards
>>> may_hold_pure_run(parse_cards("3s 4s 5s 6s 9h"))
True
"""

from __future__ import annotations

from collections.abc import Sequence

from remikit.cards import Card


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
