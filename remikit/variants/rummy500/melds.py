"""Rummy 500 table melds: declared melds, lay-offs, card values, what a hand can meld.

The table of a Rummy 500 hand is a list of :class:`PlacedMeld`; each card on
it is a :class:`Slot` that remembers what it is in the meld (a joker's
declared identity, R5-6), its run position and who laid it (R5-5). Run
positions are those of :mod:`remikit.melds`: 0 is the ace low, 1 the two …
12 the king, 13 the ace high; a run never holds both 0 and 13 (R0: no
wrapping). Sets are 3–4 cards of one rank, all suits different, the jokers'
declared suits included (R5-4).

:func:`can_place` answers the question behind deep draws and Rummy calls
(R5-3, R5-10): can a given card get onto the table this turn using only some
given cards? A card gets there in a new meld, or on a table meld, possibly
after the gap between the meld and the card is filled by other lay-offs.
Those two cases are complete: a new meld laid first and then extended by the
card is the same as one bigger new meld, and a set takes no chains.

Where a joker may be laid off is the table option ``joker_layoff`` (R5-6
[interp]): ``runs`` (the seed: a joker laid off must extend a run) or ``any``
(onto a set as well). Every function that lays off takes it.

>>> from remikit.cards import parse_cards
>>> m = resolve_meld(parse_cards("5h Jk 7h"), (None, None, None), seat=0, number=1)
>>> [str(s.identity) for s in m.slots]
['5h', '6h', '7h']
>>> [str(i) for i, _ in layoff_options(m, JOKER, joker_layoff="runs")]
['4h', '8h']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import Literal

from remikit.actions import LayOff, MeldCards
from remikit.cards import JOKER, Card, Rank, Suit
from remikit.errors import IllegalAction
from remikit.melds import card_at
from remikit.views import TableMeld

JOKER_POINTS = 15
ACE_LOW, ACE_HIGH = 0, 13
SUITS = tuple(Suit)

MeldKind = Literal["run", "set"]


# -- cards as numbers (hot paths avoid building Rank and Suit enums) -------------------


def _rank_of(card: Card) -> int:
    return card.index % 13 + 1


def _suit_of(card: Card) -> int:
    return card.index // 13


_AT: tuple[tuple[Card, ...], ...] = tuple(
    tuple(card_at(s, p) for p in range(ACE_HIGH + 1)) for s in range(4)
)
"""``_AT[suit][position]``: the natural card at a run position."""


# -- card values (R5-11, R5-14) ---------------------------------------------------


def card_points(card: Card, scoring: str = "standard") -> int:
    """A card's value in hand (and in a set): ace and joker 15, J Q K 10, the rest
    face value (``standard``) or 5 for 2–9 and 10 for 10–K (``5-10-15``)."""
    rank = _rank_of(card)
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
            present = {_suit_of(s.identity) for s in self.slots}
            rank = _rank_of(first)
            return tuple((Card.of(rank, s), None) for s in range(4) if s not in present)
        low, high, suit = self.low, self.high, _suit_of(first)
        out: list[tuple[Card, int | None]] = []
        if _window_ok(low - 1, high):
            out.append((_AT[suit][low - 1], low - 1))
        if _window_ok(low, high + 1):
            out.append((_AT[suit][high + 1], high + 1))
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
    if len({_rank_of(i) for i in identities}) == 1:
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
        rank = _rank_of(identity)
        position = (ACE_LOW if n == 0 else ACE_HIGH) if rank == 1 else rank - 1
        slots.append(Slot(card, identity, position, seat))
    return PlacedMeld(shown.number, "run", tuple(slots))


def position_choices(card: Card) -> tuple[int, ...]:
    """Run positions a natural card can take: the ace low or high, others one."""
    rank = _rank_of(card)
    return (ACE_LOW, ACE_HIGH) if rank == 1 else (rank - 1,)


def _window_ok(low: int, high: int) -> bool:
    """A run from position ``low`` to ``high`` exists (3 positions at least is not checked)."""
    return 0 <= low <= high <= ACE_HIGH and not (low == ACE_LOW and high == ACE_HIGH)


# -- new melds (R5-4, R5-6) ---------------------------------------------------------


_Found = tuple[MeldKind, tuple[tuple[Card, int | None], ...], tuple[tuple[Card, int | None], ...]]
"""A reading of a meld: its kind, (identity, position) of each natural or
declared joker in card order, and of each undeclared joker."""


def resolve_meld(
    cards: Sequence[Card], stands_for: Sequence[Card | None], *, seat: int, number: int
) -> PlacedMeld:
    """The meld ``cards`` make with the jokers' declarations, or :class:`IllegalAction`.

    A joker left undeclared is accepted only when what it stands for follows
    from the other cards (``5h Jk 7h``); otherwise the reason asks for
    ``Jk=…``. When only an ace's end is open (``A 2 … K``), it is placed where
    it is worth more to its holder: high.
    """
    if len(cards) != len(stands_for):
        raise IllegalAction("meld_invalid", cards=_text(cards))
    for card, declared in zip(cards, stands_for, strict=True):
        if declared is not None and (not card.is_joker or declared.is_joker):
            raise IllegalAction("declare_only_joker", card=card)
    if len(cards) < 3:
        raise IllegalAction("meld_too_short")
    if all(c.is_joker for c in cards):
        raise IllegalAction("meld_no_natural")
    fixed = [c if not c.is_joker else s for c, s in zip(cards, stands_for, strict=True)]
    known = [c for c in fixed if c is not None]
    free = len(fixed) - len(known)
    layouts = _set_layouts(known, free) + _run_layouts(known, free)
    if not layouts:
        raise IllegalAction("meld_invalid", cards=_text(cards))
    choices: dict[tuple[Card, ...], _Found] = {}
    for found in layouts:
        key = tuple(sorted(i for i, _ in found[2]))
        best = choices.get(key)
        if best is None or _layout_points(found) > _layout_points(best):
            choices[key] = found
    if len(choices) > 1:
        options = " / ".join(" ".join(f"Jk={c}" for c in key) for key in sorted(choices))
        raise IllegalAction("joker_ambiguous", choices=options)
    kind, placed, jokers = next(iter(choices.values()))
    # Naturals and declared jokers come in card order in `placed`; undeclared
    # jokers take the identities left, in order.
    known_left, free_left = iter(placed), iter(jokers)
    out: list[Slot] = []
    for card, identity in zip(cards, fixed, strict=True):
        found_identity, position = next(known_left if identity is not None else free_left)
        out.append(Slot(card, found_identity, position, seat))
    if kind == "run":
        out.sort(key=lambda s: -1 if s.position is None else s.position)
    return PlacedMeld(number, kind, tuple(out))


def _layout_points(found: _Found) -> int:
    return sum(low_ace_points() if p == ACE_LOW else card_points(i) for i, p in found[1] + found[2])


def _set_layouts(known: list[Card], free: int) -> list[_Found]:
    size = len(known) + free
    if not 3 <= size <= 4:
        return []
    ranks = {c.rank for c in known}
    suits = [c.suit for c in known]
    if len(ranks) != 1 or len(set(suits)) != len(suits):
        return []
    rank = next(iter(ranks))
    missing = [s for s in SUITS if s not in suits]
    placed = tuple((c, None) for c in known)
    return [
        ("set", placed, tuple((Card.of(rank, s), None) for s in chosen))
        for chosen in combinations(missing, free)
    ]


def _run_layouts(known: list[Card], free: int) -> list[_Found]:
    size = len(known) + free
    if not 3 <= size <= 13 or len({c.suit for c in known}) != 1:
        return []
    suit = known[0].suit
    found: list[_Found] = []
    for low in range(0, ACE_HIGH - size + 2):
        high = low + size - 1
        if not _window_ok(low, high):
            continue
        taken: set[int] = set()
        placed: list[tuple[Card, int | None]] = []
        for card in known:
            spots = [p for p in position_choices(card) if low <= p <= high and p not in taken]
            if not spots:
                break
            taken.add(spots[0])
            placed.append((card, spots[0]))
        else:
            jokers = tuple((card_at(suit, p), p) for p in range(low, high + 1) if p not in taken)
            found.append(("run", tuple(placed), jokers))
    return found


def _text(cards: Sequence[Card]) -> str:
    """Cards as a refusal shows them to a person: with suit symbols."""
    return " ".join(c.symbol() for c in cards)


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


# -- can a card get onto the table (R5-3, R5-10) --------------------------------------


def can_place(
    card: Card, cards: Counter[Card], table: Sequence[PlacedMeld], *, joker_layoff: str
) -> bool:
    """Whether ``card`` can be melded this turn using only ``cards`` (which hold it).

    It goes into a new meld of ``cards``, or onto a table meld, either at
    once or after the gap up to a run's end is filled with lay-offs of
    ``cards`` (naturals or jokers; runs take jokers whatever ``joker_layoff``).
    """
    jokers = cards.get(JOKER, 0)
    if card is JOKER:
        return playable(card, table, joker_layoff=joker_layoff) or _joker_meld(cards)
    suit = card.index // 13
    row = _AT[suit]
    choices = _POSITIONS[card.index]
    for meld in table:
        slots = meld.slots
        if meld.kind == "set":
            if any(i is card for i, _ in meld.openings):
                return True
            continue
        if slots[0].identity.index // 13 != suit:
            continue
        low, high = slots[0].position, slots[-1].position
        assert low is not None and high is not None
        for p in choices:
            if p < low:
                gap, ok = range(p + 1, low), _window_ok(p, high)
            elif p > high:
                gap, ok = range(high + 1, p), _window_ok(low, p)
            else:
                continue
            if ok and sum(1 for q in gap if not cards.get(row[q])) <= jokers:
                return True
    return _natural_meld(card, cards, jokers)


def _neighbours(index: int) -> tuple[tuple[Card, ...], tuple[tuple[Card, Card], ...]]:
    """The natural card ``index``'s other suits of its rank, and the two other cards of
    each run of three that holds it."""
    suit, rank = index // 13, index % 13 + 1
    same = tuple(_AT[s][rank - 1] for s in range(4) if s != suit)
    row = _AT[suit]
    runs = []
    for p in position_choices(Card(index)):
        for low in (p - 2, p - 1, p):
            if low >= 0 and low + 2 <= ACE_HIGH:
                a, b = (row[q] for q in range(low, low + 3) if q != p)
                runs.append((a, b))
    return same, tuple(runs)


_NEIGHBOURS = tuple(_neighbours(i) for i in range(52))
_POSITIONS = tuple(position_choices(Card(i)) for i in range(52))


def _natural_meld(card: Card, cards: Counter[Card], jokers: int) -> bool:
    """Whether a new meld of ``cards`` holds the natural ``card``."""
    same, runs = _NEIGHBOURS[card.index]
    others = 0
    for other in same:
        if cards.get(other, 0) > 0:
            others += 1
    if others + jokers >= 2:
        return True
    return any((not cards.get(a)) + (not cards.get(b)) <= jokers for a, b in runs)


def _joker_meld(cards: Counter[Card]) -> bool:
    """Whether a new meld of ``cards`` holds a joker (and a natural card)."""
    jokers = cards[JOKER]
    if jokers == 0:
        return False
    naturals = {c for c in cards if not c.is_joker and cards[c] > 0}
    by_rank = Counter(_rank_of(c) for c in naturals)
    if any(max(1, 3 - min(d, 3)) <= jokers for d in by_rank.values()):
        return True
    for suit in {_suit_of(c) for c in naturals}:
        present = [c in naturals for c in _AT[suit]]
        for low, high in _windows(present, jokers):
            if high - low + 1 > sum(present[low : high + 1]):  # at least one gap for the joker
                return True
    return False


def _windows(present: list[bool], jokers: int) -> Iterator[tuple[int, int]]:
    """Run windows (3+ positions) with at least one natural and at most ``jokers`` gaps."""
    for low in range(ACE_HIGH + 1):
        gaps = 0
        for high in range(low, ACE_HIGH + 1):
            if not present[high]:
                gaps += 1
                if gaps > jokers:
                    break
            if high - low >= 2 and gaps < high - low + 1 and _window_ok(low, high):
                yield low, high


# -- what a hand can do (legal actions) --------------------------------------------------


def candidate_melds(hand: Sequence[Card]) -> list[MeldCards]:
    """New melds the hand can lay, for legal-action lists.

    Not every way to write a meld is listed: jokers only fill positions the
    hand has no natural card for (in a run, the gaps and ends of a window;
    in a set, suits the hand lacks, declared in suit order, one declaration
    per choice of natural suits). Every meld the hand can make has a listed
    form with the same natural cards in the same positions or fewer jokers.
    """
    jokers = sum(1 for c in hand if c.is_joker)
    naturals = {c for c in hand if not c.is_joker}
    out: list[MeldCards] = []
    by_rank: dict[int, list[int]] = {}
    for card in sorted(naturals):
        by_rank.setdefault(_rank_of(card), []).append(_suit_of(card))
    for rank, suits in by_rank.items():
        if len(suits) + jokers < 3:
            continue
        missing = [s for s in range(4) if s not in suits]
        for k in range(1, len(suits) + 1):
            for chosen in combinations(suits, k):
                for extra in range(max(0, 3 - k), min(jokers, len(missing), 4 - k) + 1):
                    cards = [_AT[s][rank - 1] for s in chosen] + [JOKER] * extra
                    stands: list[Card | None] = [None] * k
                    stands += [_AT[s][rank - 1] for s in missing[:extra]]
                    out.append(MeldCards(tuple(cards), tuple(stands)))
    for suit in {_suit_of(c) for c in naturals}:
        row = _AT[suit]
        present = [c in naturals for c in row]
        for low, high in _windows(present, jokers):
            cards, stands = [], []
            for p in range(low, high + 1):
                cards.append(row[p] if present[p] else JOKER)
                stands.append(None if present[p] else row[p])
            out.append(MeldCards(tuple(cards), tuple(stands)))
    return out


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
