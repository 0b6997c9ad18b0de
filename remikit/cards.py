"""Cards, ranks, suits, jokers, decks and the text notation of RULES.md §0.

A card is one of 53 values: the 52 natural cards and the joker. With two
decks identical cards exist, so a hand is a multiset (a list or a Counter).

>>> Card.parse("10h"), Card.parse("as"), Card.parse("*")
(Card('Th'), Card('As'), Card('Jk'))
>>> str(Card.parse("Qd")), Card.parse("Qd").symbol()
('Qd', 'Q♦')
>>> [str(c) for c in parse_cards("As Ks Jk")]
['As', 'Ks', 'Jk']
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import ClassVar

from remikit.i18n import N_, t


class CardError(ValueError):
    """A card written in a form the notation does not allow: ``key`` and ``params`` name
    the message of :mod:`remikit.i18n` that says why; ``str()`` is English."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return self.text("en")

    def text(self, lang: str) -> str:
        return t(self.key, lang, **self.params)


class Suit(IntEnum):
    """Suits, valued by seating order: Spade > Heart > Diamond > Club."""

    CLUB = 0
    DIAMOND = 1
    HEART = 2
    SPADE = 3

    @property
    def letter(self) -> str:
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    def name_in(self, lang: str) -> str:
        """The suit's name in ``lang``: ``Sekop``, ``Spade``."""
        return t(SUIT_NAMES[self], lang)


class Rank(IntEnum):
    """Ranks, ace first (its value in a meld depends on the variant)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        return "A23456789TJQK"[self - 1]

    @property
    def label(self) -> str:
        """Display form: ``10`` rather than ``T``."""
        return "10" if self == Rank.TEN else self.letter

    def name_in(self, lang: str) -> str:
        """The rank's name in ``lang``: ``As``, ``Ace``, ``7``."""
        key = RANK_NAMES.get(self)
        return t(key, lang) if key is not None else str(int(self))


SUIT_NAMES = (N_("suit.club"), N_("suit.diamond"), N_("suit.heart"), N_("suit.spade"))
"""The message ids of the suits' names, in :class:`Suit` order."""
RANK_NAMES = {
    Rank.ACE: N_("rank.ace"),
    Rank.JACK: N_("rank.jack"),
    Rank.QUEEN: N_("rank.queen"),
    Rank.KING: N_("rank.king"),
}
"""The message ids of the ranks with a name (the others are their number)."""
CARD_NAMES = (
    N_("card.name.club"),
    N_("card.name.diamond"),
    N_("card.name.heart"),
    N_("card.name.spade"),
)
"""The message ids of a card's full name (``{rank}`` filled in), in :class:`Suit` order."""


RANK_LETTERS = {r.letter: r for r in Rank}
SUIT_LETTERS = (
    {s.letter: s for s in Suit}
    | {s.symbol: s for s in Suit}
    | {"♤": Suit.SPADE, "♡": Suit.HEART, "♢": Suit.DIAMOND, "♧": Suit.CLUB}
)
JOKER_INDEX = 52


class Card:
    """One card, identified by an index: ``suit * 13 + rank - 1``, or 52 for the joker.

    Instances are interned: ``Card.of(...)`` and ``Card.parse(...)`` always
    return the same object for the same card, so ``is`` and ``==`` agree.
    """

    __slots__ = ("index",)
    index: int
    _all: ClassVar[list[Card]] = []
    _by_text: ClassVar[dict[str, Card]] = {}  # the canonical texts: a stored deck's cards

    def __new__(cls, index: int) -> Card:
        if cls._all:
            return cls._all[index]
        card = super().__new__(cls)
        object.__setattr__(card, "index", index)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.index,))

    @staticmethod
    def of(rank: Rank | int, suit: Suit | int) -> Card:
        return Card._all[int(suit) * 13 + int(rank) - 1]

    @property
    def is_joker(self) -> bool:
        return self.index == JOKER_INDEX

    @property
    def rank(self) -> Rank:
        """The rank of a natural card (a joker has none)."""
        if self.index == JOKER_INDEX:
            raise CardError("card.joker_no_rank")
        return _RANKS[self.index % 13]

    @property
    def suit(self) -> Suit:
        if self.index == JOKER_INDEX:
            raise CardError("card.joker_no_suit")
        return _SUITS[self.index // 13]

    @staticmethod
    def parse(token: str) -> Card:
        """Read a card: ``As``, ``10h``, ``th``, ``K♣``, ``Jk``, ``JK`` or ``*``."""
        card = Card._by_text.get(token)
        if card is not None:
            return card
        text = token.strip()
        low = text.lower()
        if low in ("jk", "*"):
            return JOKER
        if len(low) >= 2:
            rank_text, suit_text = low[:-1], low[-1]
            rank_text = "t" if rank_text == "10" else rank_text
            rank = RANK_LETTERS.get(rank_text.upper())
            suit = SUIT_LETTERS.get(suit_text)
            if rank is not None and suit is not None:
                return Card.of(rank, suit)
        raise CardError("card.not_a_card", token=repr(token))

    def __str__(self) -> str:
        return _TEXTS[self.index]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def symbol(self) -> str:
        """Display form with a suit symbol: ``A♠``, ``10♥``; a joker stays ``Jk``."""
        return _SYMBOLS[self.index]

    def name_in(self, lang: str) -> str:
        """Full name: ``As Sekop`` / ``Ace of Spades``."""
        if self.index == JOKER_INDEX:
            return t("card.joker", lang)
        return t(CARD_NAMES[self.suit], lang, rank=self.rank.name_in(lang))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    # Equality is identity (object's own, the fastest): cards are interned.


_RANKS = tuple(Rank)
_SUITS = tuple(Suit)
_TEXTS = (*(r.letter + s.letter for s in Suit for r in Rank), "Jk")
"""A card's text by index."""
_SYMBOLS = (*(r.label + s.symbol for s in Suit for r in Rank), "Jk")
"""A card's display form by index."""
Card._all = [Card(i) for i in range(53)]
Card._by_text = {str(card): card for card in Card._all}
JOKER = Card._all[JOKER_INDEX]
NATURALS: tuple[Card, ...] = tuple(Card._all[:52])


def parse_card(text: str) -> Card:
    """Read one card (:meth:`Card.parse`); :class:`CardError` for anything else."""
    return Card.parse(text)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards from one string (space or comma separated) or from tokens."""
    tokens: list[str] = []
    parts = [text] if isinstance(text, str) else list(text)
    for part in parts:
        tokens.extend(part.replace(",", " ").split())
    return [Card.parse(t) for t in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    """Text form of several cards, space separated."""
    return " ".join(str(c) for c in cards)


def make_deck(*, decks: int = 1, jokers: int = 0) -> list[Card]:
    """An unshuffled deck: ``decks`` times the 52 natural cards, plus ``jokers`` jokers."""
    return list(NATURALS) * decks + [JOKER] * jokers


def seat_draw_strength(card: Card) -> tuple[int, int]:
    """A natural card's place in a seat draw: rank (A high, then K … 2), then suit (R0:
    Spade > Heart > Diamond > Club), so that only identical cards tie."""
    rank = 14 if card.rank == Rank.ACE else int(card.rank)
    return (rank, int(card.suit))


def display_order(card: Card) -> tuple[int, int]:
    """Sort key for showing a hand: by suit (Spade first), then rank, jokers last."""
    if card.is_joker:
        return (4, 0)
    return (3 - int(card.suit), int(card.rank))
