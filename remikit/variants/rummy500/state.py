"""What a Rummy 500 hand has beyond every variant's: the call window (R5-10), how a hand
ends (R5-8, R5-9) and the fields of its views.

>>> Rummy500Phase.CALL.is_call_window, Rummy500Ending.DECLINED
(True, <Rummy500Ending.DECLINED: 'declined'>)
>>> Rummy500ViewPart().as_json()
{'must_meld': None}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from remikit.cards import Card
from remikit.deal import DealPhase
from remikit.views import DealEnding, Observed, ViewPart


class Rummy500Phase(DealPhase):
    """The phases of a Rummy 500 hand beyond draw, discard and over."""

    CALL = "call"  # R5-10: the seats after a discard answer, call or pass

    @property
    def is_call_window(self) -> bool:
        return self is Rummy500Phase.CALL


class Rummy500Ending(DealEnding):
    """How a Rummy 500 hand ends beyond the action limit."""

    OUT = "out"  # R5-8: a player went out
    DECLINED = "declined"  # R5-9: the player to draw at an empty stock declined


@dataclass(frozen=True)
class Rummy500ViewPart(ViewPart):
    """What a Rummy 500 view shows beyond every variant's."""

    must_meld: Card | None = None  # the card the seat to play must meld this turn (R5-3, R5-10)

    def as_json(self) -> dict[str, Any]:
        return {"must_meld": None if self.must_meld is None else str(self.must_meld)}

    def observed(self) -> Observed:
        owed = self.must_meld
        return Observed(cards={} if owed is None else {"must_meld": (owed,)})
