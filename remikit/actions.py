"""Actions: one registry of the kinds of action, each a frozen record with the text form
of game records.

A kind of action is a frozen dataclass that subclasses :class:`Action` and declares in
one place everything the code asks of it: its verb and how its record text reads
(:meth:`Action.read`), its structured JSON (:meth:`Action.as_json`, docs/protocol.md),
its tokens for the environments (:attr:`Action.sections`, :meth:`Action.encode`) and
where it moves cards and who sees them (:meth:`Action.moves`; :mod:`remikit.kinds`).
The kinds every variant shares live here; a variant declares its own kinds in its
package and registers them (:func:`register_kind`) when it is imported, so
:func:`parse_action` reads every verb of every variant.

>>> parse_action("draw discard 3")
Draw(source='discard', depth=3)
>>> str(parse_action("close ah"))
'close Ah'
>>> parse_seat_action("p2 discard 10h")
(2, Discard(card=Card('Th')))
>>> str(Play.parse("p1 pass"))
'p1 pass'
>>> parse_action("discard 7h").moves(None)
(Move(source=<Place.HAND: 'hand'>, to=<Place.PILE: 'pile'>, cards=(Card('7h'),), top=0),)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self, TypeVar

from remikit.action_words import (
    DEPTH_REFUSAL,
    MELD_NUMBER_REFUSAL,
    ActionSyntaxError,
    card_with_joker,
    count_arg,
    read_number,
    with_jokers,
)
from remikit.cards import Card, CardError
from remikit.kinds import MELD_CARD, Move, Place, TokenCodec, TokenSection

# -- the kinds ----------------------------------------------------------------------------


class Action:
    """A kind of action (subclassed by a frozen dataclass; module docstring)."""

    verb: ClassVar[str]
    """The first word of the record text, and the ``type`` of the JSON form."""
    sections: ClassVar[tuple[TokenSection, ...]] = ()
    """The token sections of the kind (:mod:`remikit.envs.tokens`)."""
    calls: ClassVar[bool] = False
    """A call on another seat's discard, the answer to a call window besides ``pass``."""
    eager: ClassVar[bool] = False
    """Taken by a random player whenever legal: a deal that waits for it (a close) would
    otherwise hardly ever end the way the rules mean it to."""
    missed: ClassVar[str | None] = None
    """The message id a game review gives when the search preferred this kind and the seat
    took another (``{card}``: the card it lets go of)."""
    said: ClassVar[str | None] = None
    """The message id of a log line telling this action (``{who}``, ``{card}``, ``{k}``: its
    depth), for a kind of one variant: the browser words its log with it (the variant's
    ``client``, docs/protocol.md §3.1); the shared kinds it words itself."""

    @classmethod
    def read(cls, args: Sequence[str]) -> Self | None:
        """The action of the words after the verb, or None when they do not fit. Raises
        :class:`ActionSyntaxError` or :class:`~remikit.cards.CardError` for a bad word."""
        raise NotImplementedError

    def json_fields(self) -> dict[str, Any]:
        """The fields of the structured form besides ``type`` and ``text``."""
        return {}

    def as_json(self) -> dict[str, Any]:
        """The structured form (docs/protocol.md), with the record text as ``text``."""
        return {"type": self.verb, **self.json_fields(), "text": str(self)}

    def encode(self, codec: TokenCodec) -> tuple[int, ...]:
        """The action's token sequence."""
        raise NotImplementedError

    @classmethod
    def from_token(cls, section: str, i: int) -> Self | None:
        """The action the ``i``-th token of one of the kind's sections is by itself, or
        None for a token that only begins an action (a meld's card)."""
        return None

    def moves(self, previous: Play | None) -> tuple[Move, ...]:
        """The cards the action moves, in order; ``previous`` is the play just before it
        in the deal (None for the first)."""
        return ()


A = TypeVar("A", bound=type[Action])

_KINDS: dict[str, type[Action]] = {}


def register_kind(kind: A) -> A:
    """Register a kind of action under its verb (a class decorator); the verb must be new."""
    other = _KINDS.get(kind.verb)
    if other is not None and other is not kind:
        raise ValueError(f"the verb {kind.verb!r} is taken by {other.__name__}")
    _KINDS[kind.verb] = kind
    return kind


def kind_of(verb: str) -> type[Action] | None:
    """The kind of action with ``verb`` (lower case), of any variant (the variants
    register their kinds when imported)."""
    if verb not in _KINDS:
        import remikit.variants  # noqa: F401

    return _KINDS.get(verb)


@register_kind
@dataclass(frozen=True)
class Draw(Action):
    """Take the top stock card, or the discard (``depth`` K: the K-th card from the top
    and every card above it)."""

    verb: ClassVar[str] = "draw"
    sections: ClassVar[tuple[TokenSection, ...]] = (
        TokenSection("draw_stock", 10, "one"),
        TokenSection("draw_discard", 20, "depth"),
    )
    source: Literal["stock", "discard"]
    depth: int = 1

    def __str__(self) -> str:
        if self.source == "discard" and self.depth != 1:
            return f"draw discard {self.depth}"
        return f"draw {self.source}"

    @classmethod
    def read(cls, args: Sequence[str]) -> Self | None:
        source = args[0].lower() if args else None
        if source == "stock" and len(args) == 1:
            return cls("stock")
        if source == "discard" and len(args) <= 2:
            return cls("discard", count_arg(args[1], DEPTH_REFUSAL) if len(args) == 2 else 1)
        return None

    def json_fields(self) -> dict[str, Any]:
        return {"source": self.source, "depth": self.depth}

    def encode(self, codec: TokenCodec) -> tuple[int, ...]:
        if self.source == "stock":
            return (codec.at("draw_stock", 0),)
        return (codec.at("draw_discard", self.depth - 1),)

    @classmethod
    def from_token(cls, section: str, i: int) -> Self | None:
        return cls("stock") if section == "draw_stock" else cls("discard", i + 1)

    def moves(self, previous: Play | None) -> tuple[Move, ...]:
        if self.source == "stock":
            return (Move(Place.STOCK, Place.HAND, top=1),)
        return (Move(Place.PILE, Place.HAND, top=self.depth),)


@dataclass(frozen=True)
class CardAction(Action):
    """A kind whose record text is its verb and one card, one token per card."""

    card: Card

    def __str__(self) -> str:
        return f"{self.verb} {self.card}"

    @classmethod
    def read(cls, args: Sequence[str]) -> Self | None:
        return cls(Card.parse(args[0])) if len(args) == 1 else None

    def json_fields(self) -> dict[str, Any]:
        return {"card": str(self.card)}

    def encode(self, codec: TokenCodec) -> tuple[int, ...]:
        return (codec.at(self.sections[0].name, self.card.index),)

    @classmethod
    def from_token(cls, section: str, i: int) -> Self | None:
        return cls(Card(i))


@register_kind
@dataclass(frozen=True)
class Discard(CardAction):
    verb: ClassVar[str] = "discard"
    sections: ClassVar[tuple[TokenSection, ...]] = (TokenSection("discard", 30, "cards"),)

    def moves(self, previous: Play | None) -> tuple[Move, ...]:
        return (Move(Place.HAND, Place.PILE, (self.card,)),)


@dataclass(frozen=True)
class FixedAction(Action):
    """A kind that is its verb alone, one token."""

    def __str__(self) -> str:
        return self.verb

    @classmethod
    def read(cls, args: Sequence[str]) -> Self | None:
        return None if args else cls()

    def encode(self, codec: TokenCodec) -> tuple[int, ...]:
        return (codec.at(self.sections[0].name, 0),)

    @classmethod
    def from_token(cls, section: str, i: int) -> Self | None:
        return cls()


@register_kind
@dataclass(frozen=True)
class Pass(FixedAction):
    """Decline: a Rummy call window (R5-10); in Gin Rummy the first upcard, a knock at
    the wall, or more melds and lay-offs (G-3, G-8, G-6)."""

    verb: ClassVar[str] = "pass"
    sections: ClassVar[tuple[TokenSection, ...]] = (TokenSection("pass", 60, "one"),)


@register_kind
@dataclass(frozen=True)
class MeldCards(Action):
    """Lay a new meld; ``stands_for`` gives, per card, what a joker is (else None)."""

    verb: ClassVar[str] = "meld"
    sections: ClassVar[tuple[TokenSection, ...]] = (
        MELD_CARD,
        TokenSection("meld_end", 100, "one"),
    )
    cards: tuple[Card, ...]
    stands_for: tuple[Card | None, ...]

    def __str__(self) -> str:
        return "meld " + with_jokers(self.cards, self.stands_for)

    @classmethod
    def read(cls, args: Sequence[str]) -> Self | None:
        if not args:
            return None
        pairs = [card_with_joker(a) for a in args]
        return cls(tuple(c for c, _ in pairs), tuple(s for _, s in pairs))

    def json_fields(self) -> dict[str, Any]:
        return {
            "cards": [str(c) for c in self.cards],
            "stands_for": [None if s is None else str(s) for s in self.stands_for],
        }

    def encode(self, codec: TokenCodec) -> tuple[int, ...]:
        pairs = zip(self.cards, self.stands_for, strict=True)
        return (*(codec.card_token(c, s) for c, s in pairs), codec.at("meld_end", 0))

    def moves(self, previous: Play | None) -> tuple[Move, ...]:
        return (Move(Place.HAND, Place.TABLE, self.cards),)


@register_kind
@dataclass(frozen=True)
class LayOff(Action):
    """Add a card to table meld number ``meld`` (from 1)."""

    verb: ClassVar[str] = "layoff"
    sections: ClassVar[tuple[TokenSection, ...]] = (
        MELD_CARD,
        TokenSection("layoff", 110, "melds"),
    )
    card: Card
    meld: int
    stands_for: Card | None = None

    def __str__(self) -> str:
        return f"layoff {with_jokers((self.card,), (self.stands_for,))} to {self.meld}"

    @classmethod
    def read(cls, args: Sequence[str]) -> Self | None:
        if len(args) != 3 or args[1].lower() != "to":
            return None
        card, stands = card_with_joker(args[0])
        return cls(card, count_arg(args[2], MELD_NUMBER_REFUSAL), stands)

    def json_fields(self) -> dict[str, Any]:
        stands = None if self.stands_for is None else str(self.stands_for)
        return {"card": str(self.card), "meld": self.meld, "stands_for": stands}

    def encode(self, codec: TokenCodec) -> tuple[int, ...]:
        return (codec.at("layoff", self.meld - 1), codec.card_token(self.card, self.stands_for))

    def moves(self, previous: Play | None) -> tuple[Move, ...]:
        return (Move(Place.HAND, Place.TABLE, (self.card,)),)


@dataclass(frozen=True, slots=True)
class Play:
    """One entry of a deal's log: ``seat`` took ``action`` (text ``p1 discard 7h``).
    Slotted: a long game keeps thousands, and each would otherwise bring a dict for the
    garbage collector to walk."""

    seat: int
    action: Action
    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    def __str__(self) -> str:
        return self.text

    @property
    def text(self) -> str:
        """The record line, made once."""
        text = self._text
        if text is None:
            text = f"p{self.seat} {self.action}"
            object.__setattr__(self, "_text", text)
        return text

    def __reduce__(self) -> tuple[Callable[[str], Play], tuple[str]]:
        """Pickled as its record line: a view's log crosses to a bot's worker process
        cheaply."""
        return (_play, (self.text,))

    @classmethod
    def parse(cls, text: str) -> Play:
        """Read a record line ``pN action``."""
        return cls(*parse_seat_action(text))


def _play(text: str) -> Play:
    """A pickled :class:`Play` read back from its record line."""
    return Play.parse(text)


# -- record text --------------------------------------------------------------------------


def parse_action(text: str) -> Action:
    """Read an action in record notation (CONTRACT.md) of any variant; any letter case."""
    words = text.split()
    if not words:
        raise ActionSyntaxError("action.empty")
    kind = kind_of(words[0].lower())
    try:
        action = kind.read(words[1:]) if kind is not None else None
    except CardError as exc:
        raise ActionSyntaxError("action.bad_card", why=exc) from exc
    if action is None:
        raise ActionSyntaxError("action.unknown", text=repr(text))
    return action


def parse_seat_action(text: str) -> tuple[int, Action]:
    """Read a record line ``pN action``."""
    words = text.split(maxsplit=1)
    seat = read_number(words[0][1:]) if words and words[0][:1].lower() == "p" else None
    if len(words) != 2 or seat is None:
        raise ActionSyntaxError("action.need_seat", text=repr(text))
    return seat, parse_action(words[1])


__all__ = [
    "Action",
    "CardAction",
    "Discard",
    "Draw",
    "FixedAction",
    "LayOff",
    "MeldCards",
    "Pass",
    "Play",
    "kind_of",
    "parse_action",
    "parse_seat_action",
    "register_kind",
]
