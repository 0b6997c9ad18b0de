"""Gin Rummy's own kind of action: the knock (G-5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from remikit.actions import CardAction, Draw, Play, register_kind
from remikit.i18n import N_
from remikit.kinds import Move, Place, TokenSection


@register_kind
@dataclass(frozen=True)
class Knock(CardAction):
    """Discard ``card`` face down and knock (G-5); at the wall, after taking the upcard
    (G-8)."""

    verb: ClassVar[str] = "knock"
    sections: ClassVar[tuple[TokenSection, ...]] = (TokenSection("knock", 50, "cards"),)
    missed: ClassVar[str | None] = N_("review.reason.missed_knock")
    said: ClassVar[str | None] = N_("act.knock")

    def moves(self, previous: Play | None) -> tuple[Move, ...]:
        """The knock card onto the pile; at the wall (no draw just before, G-8) the upcard
        into the hand first."""
        discard = Move(Place.HAND, Place.PILE, (self.card,))
        if previous is not None and isinstance(previous.action, Draw):
            return (discard,)
        return (Move(Place.PILE, Place.HAND, top=1), discard)
