"""Actions as frozen records with the text form of game records.

>>> parse_action("draw discard 3")
Draw(source='discard', depth=3)
>>> str(parse_action("close ah"))
'close Ah'
>>> parse_seat_action("p2 discard 10h")
(2, Discard(card=Card('Th')))
>>> str(Play.parse("p1 pass"))
'p1 pass'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from remikit.cards import Card, CardError
from remikit.errors import Refusal
from remikit.i18n import N_


class ActionSyntaxError(Refusal, ValueError):
    """Text that is not an action: ``key`` and ``params`` name the message of
    :mod:`remikit.i18n` that says why; ``str()`` is English, :meth:`text` any language."""


@dataclass(frozen=True)
class Draw:
    """Take the top stock card, or the discard (``depth`` K: the K-th card from the top
    and every card above it)."""

    source: Literal["stock", "discard"]
    depth: int = 1

    def __str__(self) -> str:
        if self.source == "discard" and self.depth != 1:
            return f"draw discard {self.depth}"
        return f"draw {self.source}"


@dataclass(frozen=True)
class Discard:
    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class Close:
    """Remi 13 D: close ("tutup") with ``card`` as the closing card."""

    card: Card

    def __str__(self) -> str:
        return f"close {self.card}"


@dataclass(frozen=True)
class MeldCards:
    """Rummy 500: lay a new meld; ``stands_for`` gives, per card, what a joker is (else None)."""

    cards: tuple[Card, ...]
    stands_for: tuple[Card | None, ...]

    def __str__(self) -> str:
        return "meld " + _with_jokers(self.cards, self.stands_for)


@dataclass(frozen=True)
class LayOff:
    """Rummy 500: add a card to table meld number ``meld`` (from 1)."""

    card: Card
    meld: int
    stands_for: Card | None = None

    def __str__(self) -> str:
        return f"layoff {_with_jokers((self.card,), (self.stands_for,))} to {self.meld}"


@dataclass(frozen=True)
class CallRummy:
    """Rummy 500: call "Rummy!" on the ``depth``-th discard from the top."""

    depth: int

    def __str__(self) -> str:
        return f"rummy {self.depth}"


@dataclass(frozen=True)
class Decline:
    """Rummy 500: decline to draw at an empty stock, ending the hand."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True)
class Knock:
    """Gin Rummy: discard ``card`` face down and knock (G-5)."""

    card: Card

    def __str__(self) -> str:
        return f"knock {self.card}"


@dataclass(frozen=True)
class Pass:
    """Decline: a Rummy call window (R5-10); in Gin Rummy the first upcard, a knock at
    the wall, or more melds and lay-offs (G-3, G-8, G-6)."""

    def __str__(self) -> str:
        return "pass"


Action = Draw | Discard | Close | Knock | MeldCards | LayOff | CallRummy | Decline | Pass


@dataclass(frozen=True)
class Play:
    """One entry of a deal's log: ``seat`` took ``action`` (text ``p1 discard 7h``)."""

    seat: int
    action: Action

    def __str__(self) -> str:
        return f"p{self.seat} {self.action}"

    @classmethod
    def parse(cls, text: str) -> Play:
        """Read a record line ``pN action``."""
        return cls(*parse_seat_action(text))


def _with_jokers(cards: tuple[Card, ...], stands_for: tuple[Card | None, ...]) -> str:
    pairs = zip(cards, stands_for, strict=True)
    return " ".join(str(c) if s is None else f"{c}={s}" for c, s in pairs)


def _card_with_joker(token: str) -> tuple[Card, Card | None]:
    if "=" in token:
        left, right = token.split("=", 1)
        card = Card.parse(left)
        if not card.is_joker:
            raise ActionSyntaxError("action.only_joker_declares", token=repr(token))
        stands = Card.parse(right)
        if stands.is_joker:
            raise ActionSyntaxError("action.joker_natural", token=repr(token))
        return card, stands
    return Card.parse(token), None


_NUMBER = re.compile(r"[0-9]{1,18}")
"""A number in an action: decimal digits (``²`` or a 5000-digit number is none)."""


def _number(token: str) -> int | None:
    return int(token) if _NUMBER.fullmatch(token) else None


def _count(token: str, refusal: str) -> int:
    """A number from 1; else the :class:`ActionSyntaxError` with the message ``refusal``."""
    count = _number(token)
    if count is None or count < 1:
        raise ActionSyntaxError(refusal, token=repr(token))
    return count


_DEPTH = N_("action.bad_depth")
_MELD_NUMBER = N_("action.bad_meld_number")


def parse_action(text: str) -> Action:
    """Read an action in record notation (CONTRACT.md); any letter case."""
    words = text.split()
    if not words:
        raise ActionSyntaxError("action.empty")
    verb, args = words[0].lower(), words[1:]
    try:
        if verb == "draw" and args:
            source = args[0].lower()
            if source == "stock" and len(args) == 1:
                return Draw("stock")
            if source == "discard" and len(args) <= 2:
                depth = _count(args[1], _DEPTH) if len(args) == 2 else 1
                return Draw("discard", depth)
        elif verb == "discard" and len(args) == 1:
            return Discard(Card.parse(args[0]))
        elif verb == "close" and len(args) == 1:
            return Close(Card.parse(args[0]))
        elif verb == "knock" and len(args) == 1:
            return Knock(Card.parse(args[0]))
        elif verb == "meld" and args:
            pairs = [_card_with_joker(a) for a in args]
            return MeldCards(tuple(c for c, _ in pairs), tuple(s for _, s in pairs))
        elif verb == "layoff" and len(args) == 3 and args[1].lower() == "to":
            card, stands = _card_with_joker(args[0])
            return LayOff(card, _count(args[2], _MELD_NUMBER), stands)
        elif verb == "rummy" and len(args) <= 1:
            return CallRummy(_count(args[0], _DEPTH) if args else 1)
        elif verb == "decline" and not args:
            return Decline()
        elif verb == "pass" and not args:
            return Pass()
    except CardError as exc:
        raise ActionSyntaxError("action.bad_card", why=exc) from exc
    raise ActionSyntaxError("action.unknown", text=repr(text))


def parse_seat_action(text: str) -> tuple[int, Action]:
    """Read a record line ``pN action``."""
    words = text.split(maxsplit=1)
    seat = _number(words[0][1:]) if words and words[0][:1].lower() == "p" else None
    if len(words) != 2 or seat is None:
        raise ActionSyntaxError("action.need_seat", text=repr(text))
    return seat, parse_action(words[1])


__all__ = [
    "Action",
    "ActionSyntaxError",
    "CallRummy",
    "Close",
    "Decline",
    "Discard",
    "Draw",
    "Knock",
    "LayOff",
    "MeldCards",
    "Pass",
    "Play",
    "parse_action",
    "parse_seat_action",
]
