"""What a Gin Rummy hand has beyond every variant's: its phases (G-3, G-6, G-8), how
it ends (G-7, G-8) and the fields of its views (G-5, G-10).

>>> GinPhase.LAY_OFF, GinEnding.WALL
(<GinPhase.LAY_OFF: 'lay_off'>, <GinEnding.WALL: 'wall'>)
>>> GinViewPart(knock_limit=10).as_json()
{'knock_limit': 10, 'game_bonuses': []}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from remikit.deal import DealPhase
from remikit.views import DealEnding, Observed, PlayerView, ViewPart


class GinPhase(DealPhase):
    """The phases of a Gin Rummy hand beyond draw, discard and over."""

    OFFER = "offer"  # G-3: the first upcard is offered, taken or passed
    WALL = "wall"  # G-8: two cards left in the stock, knock or pass
    LAY_DOWN = "lay_down"  # G-6: the knocker lays down melds
    LAY_OFF = "lay_off"  # G-6: the defender lays off on them
    DEFEND = "defend"  # G-6: the defender lays down melds


LAY_PHASES = frozenset({GinPhase.LAY_DOWN, GinPhase.LAY_OFF, GinPhase.DEFEND})
"""The phases of laying down after a knock (G-6)."""


class GinEnding(DealEnding):
    """How a Gin Rummy hand ends beyond the action limit (G-9 also ends it as ``limit``)."""

    KNOCK = "knock"  # G-7: a player knocked (or went gin)
    WALL = "wall"  # G-8: two cards left in the stock and nobody knocked


@dataclass(frozen=True)
class GinViewPart(ViewPart):
    """What a Gin Rummy view shows beyond every variant's."""

    knock_limit: int | None = None  # the most deadwood a knock may leave this hand (G-5)
    game_bonuses: tuple[int, ...] = ()  # each seat's bonuses once the game is over (G-10)

    def as_json(self) -> dict[str, Any]:
        return {"knock_limit": self.knock_limit, "game_bonuses": list(self.game_bonuses)}

    def observed(self) -> Observed:
        limit = self.knock_limit
        return Observed(numbers={} if limit is None else {"knock_limit": limit})


def view_limit(view: PlayerView, default: int) -> int:
    """The knock limit ``view`` shows, or ``default`` where it shows none (before the
    first hand is dealt)."""
    limit = GinViewPart.of(view).knock_limit
    return default if limit is None else limit
