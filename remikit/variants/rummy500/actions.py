"""Rummy 500's own kinds of action: the Rummy call (R5-10) and the decline (R5-9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from remikit.action_words import DEPTH_REFUSAL, count_arg
from remikit.actions import Action, FixedAction, Play, register_kind
from remikit.i18n import N_
from remikit.kinds import Move, Place, TokenCodec, TokenSection


@register_kind
@dataclass(frozen=True)
class CallRummy(Action):
    """Call "Rummy!" on the ``depth``-th discard from the top, taking it and every card
    above it (R5-10)."""

    verb: ClassVar[str] = "rummy"
    sections: ClassVar[tuple[TokenSection, ...]] = (TokenSection("rummy", 80, "depth"),)
    calls: ClassVar[bool] = True
    said: ClassVar[str | None] = N_("act.rummy")
    depth: int

    def __str__(self) -> str:
        return f"rummy {self.depth}"

    @classmethod
    def read(cls, args: Sequence[str]) -> Self | None:
        if len(args) > 1:
            return None
        return cls(count_arg(args[0], DEPTH_REFUSAL) if args else 1)

    def json_fields(self) -> dict[str, Any]:
        return {"depth": self.depth}

    def encode(self, codec: TokenCodec) -> tuple[int, ...]:
        return (codec.at("rummy", self.depth - 1),)

    @classmethod
    def from_token(cls, section: str, i: int) -> Self | None:
        return cls(i + 1)

    def moves(self, previous: Play | None) -> tuple[Move, ...]:
        return (Move(Place.PILE, Place.HAND, top=self.depth),)


@register_kind
@dataclass(frozen=True)
class Decline(FixedAction):
    """Decline to draw at an empty stock, ending the hand (R5-9)."""

    verb: ClassVar[str] = "decline"
    sections: ClassVar[tuple[TokenSection, ...]] = (TokenSection("decline", 70, "one"),)
    said: ClassVar[str | None] = N_("act.decline")
