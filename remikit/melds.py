"""Meld rules and values as data, and the arranged melds a solver returns.

A variant describes its melds with a :class:`MeldRules` (which runs and sets
exist) and a :class:`Scoring` (what a melded, dead or left-over wild card is
worth). Positions in a run are numbered 0 (ace low), 1 (two) … 12 (king),
13 (ace high).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

from remikit.cards import JOKER, Card, Rank, Suit
from remikit.i18n import N_

AceMode = Literal["low", "high", "both"]
MeldKind = Literal["run", "set", "royal", "wild"]
PureRun = Literal["strict", "natural4"]
PURE_RUN_CHOICES: tuple[PureRun, ...] = ("strict", "natural4")
"""Which runs are pure (R13-6): ``strict`` no wild card; ``natural4`` four or more
natural cards in a row, wild cards around them allowed."""


def card_at(suit: Suit | int, position: int) -> Card:
    """The natural card at a run position of a suit (0 and 13 are the ace)."""
    rank = 1 if position in (0, 13) else position + 1
    return Card.of(rank, suit)


@dataclass(frozen=True, kw_only=True)
class MeldRules:
    """Which melds exist.

    ``ace``: where an ace may stand in a run (never both ends of one run).
    ``set_distinct_suits``: a set's natural cards all differ in suit.
    ``set_max``: the largest set, 0 for no limit.
    ``wild_only_melds``: a meld may consist of wild cards only.
    ``royal_flush``: ``Ts Js Qs Ks As`` (no wild) is a meld of its own.
    ``pure_run``: which runs of 4+ are pure (:data:`PURE_RUN_CHOICES`); the royal
    flush always is.
    """

    ace: AceMode = "both"
    set_distinct_suits: bool = True
    set_max: int = 4
    wild_only_melds: bool = False
    royal_flush: bool = False
    pure_run: PureRun = "strict"


@dataclass(frozen=True, kw_only=True)
class Scoring:
    """What cards are worth; the solver maximises the sum.

    Deadwood games use zero for melded cards and negative dead values.
    ``run_position`` holds 14 values (positions 0 … 13); ``set_rank`` holds
    14 values indexed by rank (index 0 unused). ``dead`` holds 52 values by
    card index.
    """

    run_position: tuple[int, ...] = (0,) * 14
    set_rank: tuple[int, ...] = (0,) * 14
    royal_flush: int = 0
    dead: tuple[int, ...] = (0,) * 52
    dead_joker: int = 0
    dead_wild_rank: int = 0

    @property
    def wilds_free(self) -> bool:
        """True when where a wild stands never changes a meld's value."""
        return not any(self.run_position) and not any(self.set_rank)


@dataclass(frozen=True)
class Meld:
    """A meld as arranged: its cards and, for each wild, the card it stands for."""

    kind: MeldKind
    cards: tuple[Card, ...]
    stands_for: tuple[Card | None, ...]
    points: int = 0
    pure: bool = field(default=False)

    def tokens(self) -> list[str]:
        """Text form, a wild written ``CARD=STANDS_FOR``: ``['Kd', 'Kc', 'Jk=Kh']``."""
        out = []
        for card, as_ in zip(self.cards, self.stands_for, strict=True):
            out.append(str(card) if as_ is None or as_ is card else f"{card}={as_}")
        return out

    def symbols(self) -> str:
        """Display form with suit symbols: ``K♦ K♣ Jk(K♥)``."""
        out = []
        for card, as_ in zip(self.cards, self.stands_for, strict=True):
            shown = card.symbol()
            out.append(shown if as_ is None or as_ is card else f"{shown}({as_.symbol()})")
        return " ".join(out)

    def __len__(self) -> int:
        return len(self.cards)


@dataclass(frozen=True)
class Arrangement:
    """An optimal arrangement: melds, dead cards, the discard (if one was chosen) and its value."""

    melds: tuple[Meld, ...]
    dead: tuple[Card, ...]
    value: int
    discard: Card | None = None

    @property
    def melded_cards(self) -> list[Card]:
        return [c for m in self.melds for c in m.cards]

    def cards(self) -> list[Card]:
        """Every card of the arrangement (without the discard)."""
        return self.melded_cards + list(self.dead)


def is_pure_run(lo: int, hi: int, wild_positions: Sequence[int], rule: PureRun) -> bool:
    """Whether the run of positions ``lo`` … ``hi`` with wild cards at ``wild_positions``
    (ascending) is pure under ``rule`` (R13-6).

    >>> is_pure_run(2, 6, [6], "strict"), is_pure_run(2, 6, [6], "natural4")
    (False, True)
    >>> is_pure_run(2, 6, [4], "natural4")
    False
    """
    if rule == "strict":
        return not wild_positions and hi - lo >= 3
    edges = (lo - 1, *wild_positions, hi + 1)
    return any(b - a > 4 for a, b in pairwise(edges))  # 4+ natural cards between


def is_wild(card: Card, wild_rank: Rank | None) -> bool:
    return card is JOKER or (wild_rank is not None and card.rank == wild_rank)


def split_wilds(hand: Sequence[Card], wild_rank: Rank | None) -> tuple[list[Card], list[Card]]:
    """Split a hand into natural cards and wild cards."""
    naturals: list[Card] = []
    wilds: list[Card] = []
    for card in hand:
        (wilds if is_wild(card, wild_rank) else naturals).append(card)
    return naturals, wilds


@dataclass(frozen=True)
class Deadwood:
    """A hand's minimum deadwood, its arrangement, and (after the best discard) that
    discard: what the deadwood variants' scorers return."""

    points: int
    melds: tuple[Meld, ...]
    dead: tuple[Card, ...]
    discard: Card | None = None


KIND_NAMES: dict[str, str] = {
    "set": N_("meld.set"),
    "royal": N_("meld.royal"),
    "wild": N_("meld.wild"),
}


def meld_name_key(meld: Meld) -> str:
    """The message id of the meld's name in the table's words (kartu dasar murni, kartu 3,
    …), with ``{size}`` to fill in."""
    if meld.kind == "run":
        return N_("meld.pure_run") if meld.pure else N_("meld.run")
    return KIND_NAMES[meld.kind]
