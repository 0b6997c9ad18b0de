"""What a kind of action (:mod:`remikit.actions`) declares besides its text and JSON:
where it moves cards (:class:`Move` between :class:`Place` s) and its runs of tokens in
the environments' enumeration (:class:`TokenSection`, :mod:`remikit.envs.tokens`).

>>> Move(Place.STOCK, Place.HAND, top=1).public
False
>>> TokenSection("discard", 30, "cards").describe(12, 53)
'discard Kc'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, NamedTuple, Protocol

from remikit.cards import JOKER_INDEX, Card

# -- where cards go ---------------------------------------------------------------------


class Place(StrEnum):
    """Where a card lies during a deal; :attr:`public` places are face up."""

    HAND = "hand"
    """The acting seat's hand: only that seat sees it."""
    STOCK = "stock"
    """Face down: nobody sees it; cards come from and go to its top."""
    PILE = "pile"
    """The discard pile, face up: cards come from and go to its top."""
    TABLE = "table"
    """The melds laid face up on the table."""
    OUT = "out"
    """Face up and out of play (a closing card)."""

    @property
    def public(self) -> bool:
        return self in (Place.PILE, Place.TABLE, Place.OUT)


class Move(NamedTuple):
    """Cards an action moves from ``source`` to ``to``: the ``cards`` it names, else the
    ``top`` cards of ``source``. Every seat sees which cards move when either place is
    face up (:attr:`public`); otherwise only the acting seat does. (A named tuple: the
    determinizer walks many.)"""

    source: Place
    to: Place
    cards: tuple[Card, ...] = ()
    top: int = 0

    @property
    def size(self) -> int:
        return len(self.cards) if self.cards else self.top

    @property
    def public(self) -> bool:
        return self.source.public or self.to.public


# -- tokens for the environments --------------------------------------------------------

CARDS = JOKER_INDEX + 1
"""Card indices: the 52 natural cards and the joker (:class:`~remikit.cards.Card`)."""

SectionSize = Literal["one", "depth", "cards", "meld_cards", "melds"]
"""How many tokens a section has: one; the deepest discard that may be taken; one per
card index; one per card of a meld (a joker also with each card it stands for); one per
table meld there may be."""


@dataclass(frozen=True)
class TokenSection:
    """A run of tokens of the environments' enumeration (:mod:`remikit.envs.tokens`) that
    a kind of action takes; two kinds may share one (the cards of a meld)."""

    name: str
    order: int
    """Where the section lies among a variant's sections: they follow by this number."""
    size: SectionSize

    def length(self, *, depth: int, melds: int, jokers: bool) -> int:
        """The number of tokens with a deck of these properties."""
        return {
            "one": 1,
            "depth": depth,
            "cards": CARDS,
            "meld_cards": 2 * JOKER_INDEX + 1 if jokers else JOKER_INDEX,
            "melds": melds,
        }[self.size]

    def describe(self, i: int, length: int) -> str:
        """The ``i``-th token of the section of ``length`` tokens as text: ``discard 7h``,
        ``card Jk=4h``, ``layoff 2``, ``pass``."""
        words = self.name.replace("_", " ")
        if self.size == "cards":
            return f"{words} {Card(i)}"
        if self.size == "meld_cards":
            return f"card {Card(i)}" if i < CARDS else f"card Jk={Card(i - CARDS)}"
        return words if length == 1 else f"{words} {i + 1}"


class TokenCodec(Protocol):
    """What a kind of action writes its tokens with (:class:`remikit.envs.tokens.ActionCodec`)."""

    def at(self, name: str, offset: int) -> int:
        """The token at ``offset`` in the section ``name``."""

    def card_token(self, card: Card, stands_for: Card | None = None) -> int:
        """The ``meld_card`` token of a card (a joker with what it stands for)."""


MELD_CARD = TokenSection("meld_card", 90, "meld_cards")
"""The cards of a new meld or a lay-off, one token each."""
