"""What one seat may see: the only picture of a game that leaves the engine.

A :class:`PlayerView` holds the seat's own hand, everything public (discard
pile, table melds, hand sizes, the public log of actions, scores), and the
seat's legal actions. Other hands appear only as counts. A spectator's view
(``seat`` None) has no hand at all. What only one variant shows (Gin Rummy's
knock limit) is in the view's :class:`ViewPart`, a type the variant declares.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import islice
from typing import TYPE_CHECKING, Any, Self, overload

from remikit.actions import Action, Discard, Play
from remikit.cards import Card

if TYPE_CHECKING:
    from remikit.deal import DealPhase
    from remikit.engine import Options


class PlayLog(Sequence[Play]):
    """The first ``length`` plays of a deal's log, read-only, without copying them: a
    view holds the log as it was, although the deal goes on appending to it (a deal's
    log only grows). Equal to any sequence of the same plays, a tuple included.

    >>> plays: list[Play] = []
    >>> log = PlayLog(plays, 0)
    >>> plays.append(Play(0, Discard(Card(3))))
    >>> len(log), len(PlayLog(plays, 1)), PlayLog(plays, 1) == tuple(plays)
    (0, 1, True)
    """

    __slots__ = ("_length", "_plays")

    def __init__(self, plays: list[Play], length: int) -> None:
        self._plays = plays
        self._length = length

    @property
    def source(self) -> list[Play]:
        """The deal's whole log this one is the start of (read it; never change it)."""
        return self._plays

    def __reduce__(self) -> tuple[type[PlayLog], tuple[list[Play], int]]:
        """Pickled as its own plays only (not the rest of the deal's log)."""
        return (PlayLog, (self._plays[: self._length], self._length))

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Play: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Play, ...]: ...
    def __getitem__(self, index: int | slice) -> Play | tuple[Play, ...]:
        if isinstance(index, slice):
            return tuple(self._plays[: self._length][index])
        if not -self._length <= index < self._length:
            raise IndexError("log index out of range")
        return self._plays[index % self._length]

    def __iter__(self) -> Iterator[Play]:
        return islice(self._plays, self._length)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(other) == self._length and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"PlayLog({list(self)!r})"


@dataclass(frozen=True)
class Laid:
    """Cards one seat put on one table meld (Rummy 500, R5-12): a meld it laid
    (``layoff`` false) or its lay-offs onto a meld, its own or another seat's."""

    meld: int  # the table meld's number
    owner: int  # the seat that laid the meld
    cards: tuple[str, ...]  # a joker as ``Jk=4h``
    points: int  # what these cards score for the seat (R5-11)
    layoff: bool


@dataclass(frozen=True)
class SeatResult:
    """One seat's result of a finished deal, shown to everyone (R13-14)."""

    points: int
    melds: tuple[tuple[str, ...], ...]
    dead: tuple[Card, ...]
    closing: Card | None = None
    bonus: int = 0
    went_out: bool = False
    laid: tuple[Laid, ...] = ()  # Rummy 500: what ``melds`` scored, meld by meld
    held: int | None = None  # Rummy 500: the points of ``dead``, taken off (R5-12)


class DealEnding(StrEnum):
    """How a deal ended: a member of :class:`EndedBy`, the endings every variant has, or
    of a variant's own endings, an enum its package declares as a subclass of this one
    (with values of its own: the protocol sends the value)."""


class EndedBy(DealEnding):
    """The endings every variant has."""

    LIMIT = "limit"  # RULES.md §0: the action limit, scored as an exhausted stock


@dataclass(frozen=True)
class DealSummary:
    """A finished deal as everyone sees it."""

    number: int
    ended_by: DealEnding
    by_seat: int | None
    results: tuple[SeatResult, ...]

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(r.points for r in self.results)


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table (Rummy 500): cards, what jokers stand for, who laid each card."""

    number: int
    cards: tuple[Card, ...]
    stands_for: tuple[Card | None, ...]
    laid_by: tuple[int, ...]


@dataclass(frozen=True)
class Observed:
    """What a :class:`ViewPart` puts in the segments of an environment's observation
    (:mod:`remikit.envs.planes`), by segment name: cards counted in a card plane, a seat
    marked in a one-hot of the seats, a number."""

    cards: Mapping[str, Sequence[Card]] = field(default_factory=dict)
    seats: Mapping[str, int] = field(default_factory=dict)
    numbers: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class ViewPart:
    """The fields of a view that only one variant has (:attr:`PlayerView.extra`): a
    subclass declared in the variant's package, made by its game (:meth:`Game.view_part
    <remikit.engine.Game.view_part>`), which also says how the fields travel. This base
    is the part of a variant that has none."""

    @classmethod
    def of(cls, view: PlayerView) -> Self:
        """The part of ``view``, a view of the variant that declares this type."""
        if not isinstance(view.extra, cls):
            raise TypeError(f"a view of {view.variant} has no {cls.__name__}")
        return view.extra

    def as_json(self) -> dict[str, Any]:
        """The fields as keys of the view object (docs/protocol.md §5.2), in JSON types."""
        return {}

    def observed(self) -> Observed:
        """The fields in an environment's observation (docs/envs.md)."""
        return Observed()


@dataclass(frozen=True)
class PlayerView:
    """One seat's view of a game (``seat`` None: a spectator)."""

    variant: str
    seat: int | None
    players: int
    options: Options
    deal_number: int
    dealer: int
    to_play: int | None
    phase: DealPhase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_pile: tuple[Card, ...]
    log: Sequence[Play]
    totals: tuple[int, ...]
    finished_deals: tuple[DealSummary, ...]
    legal_actions: tuple[Action, ...] = ()
    game_over: bool = False
    winner: int | None = None
    table: tuple[TableMeld, ...] = ()
    taken_from_discard: tuple[tuple[int, Card], ...] = field(default=())
    extra: ViewPart = ViewPart()  # the variant's own fields

    @property
    def top_discard(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def kept_card(self) -> Card | None:
        """The card in hand that may not be discarded now (just taken from the discard)."""
        allowed = {a.card for a in self.legal_actions if isinstance(a, Discard)}
        return next((card for card in self.hand if card not in allowed), None)
