"""Rummy 500 table melds: the cards on the table, card values, lay-offs.

The table of a Rummy 500 hand is a list of :class:`PlacedMeld`; each card on
it is a :class:`Slot` that remembers what it is in the meld (a joker's
declared identity, R5-6), its run position and who laid it (R5-5). Run
positions are those of :mod:`remikit.melds`: 0 is the ace low, 1 the two …
12 the king, 13 the ace high; a run never holds both 0 and 13 (R0: no
wrapping). Sets are 3–4 cards of one rank, all suits different, the jokers'
declared suits included (R5-4). New melds are made in
:mod:`remikit.variants.rummy500.new_melds`.

Where a joker may be laid off is the table option ``joker_layoff`` (R5-6
[interp]): ``runs`` (the seed: a joker laid off must extend a run) or ``any``
(onto a set as well). Every function that lays off takes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from remikit.actions import LayOff
from remikit.cards import JOKER, Card, Rank, Suit
from remikit.errors import IllegalAction
from remikit.melds import card_at
from remikit.views import TableMeld

JOKER_POINTS = 15
ACE_LOW, ACE_HIGH = 0, 13

MeldKind = Literal["run", "set"]


# -- cards as numbers (hot paths avoid building Rank and Suit enums) -------------------


def rank_of(card: Card) -> int:
    return card.index % 13 + 1


def suit_of(card: Card) -> int:
    return card.index // 13


CARD_AT: tuple[tuple[Card, ...], ...] = tuple(
    tuple(card_at(s, p) for p in range(ACE_HIGH + 1)) for s in range(4)
)
"""``CARD_AT[suit][position]``: the natural card at a run position."""


# -- card values (R5-11, R5-14) ---------------------------------------------------


def card_points(card: Card, scoring: str = "standard") -> int:
    """A card's value in hand (and in a set): ace and joker 15, J Q K 10, the rest
    face value (``standard``) or 5 for 2–9 and 10 for 10–K (``5-10-15``)."""
    rank = rank_of(card)
    if card.is_joker or rank == 1:
        return JOKER_POINTS
    if scoring == "5-10-15":
        return 5 if rank <= 9 else 10
    return min(rank, 10)


def low_ace_points(scoring: str = "standard") -> int:
    """An ace melded low (``A 2 3…``): 1, or 5 with 5-10-15 scoring [interp]."""
    return 5 if scoring == "5-10-15" else 1


def hand_points(cards: Iterable[Card], scoring: str = "standard") -> int:
    return sum(card_points(c, scoring) for c in cards)


# -- what is on the table ----------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """One card on the table: the card, what it is in the meld, its run position
    (None in a set) and the seat that laid it (credited with it, R5-5)."""

    card: Card
    identity: Card
    position: int | None
    seat: int

    def points(self, scoring: str = "standard") -> int:
        """R5-11: a joker is 15 whatever it stands for; an ace melded low is 1 (or 5)."""
        if self.card.is_joker:
            return JOKER_POINTS
        if self.position == ACE_LOW:
            return low_ace_points(scoring)
        return card_points(self.card, scoring)

    def token(self) -> str:
        """``7h``, or ``Jk=8h`` for a joker."""
        return f"{self.card}={self.identity}" if self.card.is_joker else str(self.card)


@dataclass(frozen=True)
class PlacedMeld:
    """A meld on the table, numbered from 1 in the order laid this hand.

    A run's slots are in position order; a set's in the order laid.
    """

    number: int
    kind: MeldKind
    slots: tuple[Slot, ...]

    @property
    def suit(self) -> Suit:
        return self.slots[0].identity.suit

    @property
    def rank(self) -> Rank:
        return self.slots[0].identity.rank

    @cached_property
    def openings(self) -> tuple[tuple[Card, int | None], ...]:
        """(identity, position) of every card a lay-off may add."""
        first = self.slots[0].identity
        if self.kind == "set":
            if len(self.slots) >= 4:
                return ()
            present = {suit_of(s.identity) for s in self.slots}
            rank = rank_of(first)
            return tuple((Card.of(rank, s), None) for s in range(4) if s not in present)
        low, high, suit = self.low, self.high, suit_of(first)
        out: list[tuple[Card, int | None]] = []
        if window_ok(low - 1, high):
            out.append((CARD_AT[suit][low - 1], low - 1))
        if window_ok(low, high + 1):
            out.append((CARD_AT[suit][high + 1], high + 1))
        return tuple(out)

    @property
    def low(self) -> int:
        position = self.slots[0].position
        assert position is not None
        return position

    @property
    def high(self) -> int:
        position = self.slots[-1].position
        assert position is not None
        return position

    def with_slot(self, slot: Slot) -> PlacedMeld:
        """This meld with one more card (a lay-off)."""
        if self.kind == "set":
            return PlacedMeld(self.number, self.kind, (*self.slots, slot))
        assert slot.position is not None
        if slot.position < self.low:
            return PlacedMeld(self.number, self.kind, (slot, *self.slots))
        return PlacedMeld(self.number, self.kind, (*self.slots, slot))

    def cards(self) -> list[Card]:
        return [s.card for s in self.slots]

    def points(self, scoring: str = "standard") -> int:
        return sum(s.points(scoring) for s in self.slots)

    def tokens(self, seat: int | None = None) -> tuple[str, ...]:
        """Text form of the cards (those ``seat`` laid, when given)."""
        return tuple(s.token() for s in self.slots if seat is None or s.seat == seat)

    @cached_property
    def key(self) -> tuple[tuple[int, int], ...]:
        """(card index, identity index) of every slot: the meld's cards as they lie."""
        return tuple((s.card.index, s.identity.index) for s in self.slots)

    @cached_property
    def table_meld(self) -> TableMeld:
        """The meld as views show it."""
        return TableMeld(
            number=self.number,
            cards=tuple(s.card for s in self.slots),
            stands_for=tuple(s.identity if s.card.is_joker else None for s in self.slots),
            laid_by=tuple(s.seat for s in self.slots),
        )

    def __str__(self) -> str:
        return " ".join(self.tokens())


def placed_meld(shown: TableMeld) -> PlacedMeld:
    """The table meld a view shows (:attr:`PlacedMeld.table_meld` read back)."""
    identities = [
        s if s is not None else c for c, s in zip(shown.cards, shown.stands_for, strict=True)
    ]
    if len({rank_of(i) for i in identities}) == 1:
        return PlacedMeld(
            shown.number,
            "set",
            tuple(
                Slot(c, i, None, seat)
                for c, i, seat in zip(shown.cards, identities, shown.laid_by, strict=True)
            ),
        )
    slots = []
    for n, (card, identity, seat) in enumerate(
        zip(shown.cards, identities, shown.laid_by, strict=True)
    ):
        rank = rank_of(identity)
        position = (ACE_LOW if n == 0 else ACE_HIGH) if rank == 1 else rank - 1
        slots.append(Slot(card, identity, position, seat))
    return PlacedMeld(shown.number, "run", tuple(slots))


def position_choices(card: Card) -> tuple[int, ...]:
    """Run positions a natural card can take: the ace low or high, others one."""
    rank = rank_of(card)
    return (ACE_LOW, ACE_HIGH) if rank == 1 else (rank - 1,)


def window_ok(low: int, high: int) -> bool:
    """A run from position ``low`` to ``high`` exists (3 positions at least is not checked)."""
    return 0 <= low <= high <= ACE_HIGH and not (low == ACE_LOW and high == ACE_HIGH)


# -- lay-offs (R5-5, R5-6) ----------------------------------------------------------


def takes_joker(meld: PlacedMeld, joker_layoff: str) -> bool:
    """R5-6: whether a joker may be laid off onto ``meld`` (a run; a set only with ``any``)."""
    return meld.kind == "run" or joker_layoff == "any"


def layoff_options(
    meld: PlacedMeld, card: Card, *, joker_layoff: str
) -> list[tuple[Card, int | None]]:
    """(identity, position) pairs ``card`` can take on ``meld``; a joker any identity
    (where ``joker_layoff`` lets it on)."""
    if card.is_joker:
        return list(meld.openings) if takes_joker(meld, joker_layoff) else []
    return [(i, p) for i, p in meld.openings if i is card]


def resolve_layoff(
    meld: PlacedMeld, card: Card, stands_for: Card | None, *, seat: int, joker_layoff: str
) -> PlacedMeld:
    """``meld`` with ``card`` laid off, or :class:`IllegalAction`.

    An undeclared joker is accepted when only one identity fits; an ace that
    fits both ends of ``2 … K`` goes high (worth more to its holder).
    """
    if stands_for is not None and (not card.is_joker or stands_for.is_joker):
        raise IllegalAction("declare_only_joker", card=card)
    if card.is_joker and not takes_joker(meld, joker_layoff):
        raise IllegalAction("joker_layoff_runs", meld=meld.number)
    options = layoff_options(meld, card, joker_layoff=joker_layoff)
    if stands_for is not None:
        options = [(i, p) for i, p in options if i is stands_for]
    if not options:
        shown = card.symbol() if stands_for is None else f"{card.symbol()}={stands_for.symbol()}"
        raise IllegalAction("layoff_invalid", card=shown, meld=meld.number)
    identities = sorted({i for i, _ in options})
    if len(identities) > 1:
        raise IllegalAction("joker_ambiguous", choices=" / ".join(f"Jk={i}" for i in identities))
    identity, position = max(options, key=lambda o: -1 if o[1] is None else o[1])
    return meld.with_slot(Slot(card, identity, position, seat))


def playable(card: Card, table: Sequence[PlacedMeld], *, joker_layoff: str) -> bool:
    """Whether ``card`` can be laid off onto some table meld right now."""
    return any(layoff_options(m, card, joker_layoff=joker_layoff) for m in table)


def candidate_layoffs(
    hand: Sequence[Card], table: Sequence[PlacedMeld], *, joker_layoff: str
) -> list[LayOff]:
    """Every lay-off of a hand card (a joker with each identity it may declare, where
    ``joker_layoff`` lets it on)."""
    held = set(hand)
    joker = JOKER in held
    out: list[LayOff] = []
    for meld in table:
        meld_joker = joker and takes_joker(meld, joker_layoff)
        for identity, _ in meld.openings:
            if identity in held:
                out.append(LayOff(identity, meld.number))
            if meld_joker:
                out.append(LayOff(JOKER, meld.number, identity))
    return list(dict.fromkeys(out))
