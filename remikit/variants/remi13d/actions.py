"""Remi 13 D's own kind of action: the close, tutup (R13-7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from remikit.actions import CardAction, Play, register_kind
from remikit.i18n import N_
from remikit.kinds import Move, Place, TokenSection


@register_kind
@dataclass(frozen=True)
class Close(CardAction):
    """Close ("tutup") with ``card`` as the closing card, laid face up (R13-7)."""

    verb: ClassVar[str] = "close"
    sections: ClassVar[tuple[TokenSection, ...]] = (TokenSection("close", 40, "cards"),)
    eager: ClassVar[bool] = True
    missed: ClassVar[str | None] = N_("review.reason.missed_close")
    said: ClassVar[str | None] = N_("act.close")

    def moves(self, previous: Play | None) -> tuple[Move, ...]:
        return (Move(Place.HAND, Place.OUT, (self.card,)),)
