"""What a Three-Thirteen round has beyond every variant's: how it ends (R3-6) and the
fields of its views (R3-3, R3-6).

>>> ThreeThirteenViewPart(wild_rank="3").as_json()
{'wild_rank': '3', 'went_out': None, 'shown_melds': []}
>>> sorted(str(c) for c in ThreeThirteenViewPart(wild_rank="10").observed().cards["wild"])
['Tc', 'Td', 'Th', 'Ts']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from remikit.cards import Card
from remikit.views import DealEnding, Observed, ViewPart


class ThreeThirteenEnding(DealEnding):
    """How a Three-Thirteen round ends beyond the action limit."""

    OUT = "out"  # R3-6: a player went out and the others took their last turns
    STOCK = "stock"  # R3-5: no card left to make a new stock of


@dataclass(frozen=True)
class ThreeThirteenViewPart(ViewPart):
    """What a Three-Thirteen view shows beyond every variant's."""

    wild_rank: str | None = None  # this round's wild rank (R3-3), as written: "3" … "10", "K"
    went_out: int | None = None  # the seat that went out, while the others take final turns
    shown_melds: tuple[tuple[str, ...], ...] = ()  # the melds it showed (R3-6)

    def as_json(self) -> dict[str, Any]:
        return {
            "wild_rank": self.wild_rank,
            "went_out": self.went_out,
            "shown_melds": [list(m) for m in self.shown_melds],
        }

    def observed(self) -> Observed:
        wild = {} if self.wild_rank is None else {"wild": _rank_cards(self.wild_rank)}
        out = {} if self.went_out is None else {"went_out": self.went_out}
        return Observed(cards=wild, seats=out)


@cache
def _rank_cards(rank: str) -> tuple[Card, ...]:
    """The four natural cards of a rank written as in the notation (``7``, ``Q``)."""
    return tuple(Card.parse(rank + suit) for suit in "cdhs")
