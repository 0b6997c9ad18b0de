"""A variant's actions as a fixed, discrete enumeration of tokens.

Most actions are one token (``draw stock``, ``discard 7h``). A new meld is a sequence,
its cards one token each then ``meld_end``; a lay-off is two tokens, the table meld
then the card. Every legal action is one token sequence and no sequence is the start of
another, so an agent reaches any legal action by choosing, at each step, one of the
tokens that begins or continues some legal action (the action mask): every masked token
leads to a legal action, and every legal action is reached.

The sections, in this order, each present where the variant has the action:

============== ======= =====================================================
section        size    token ``start + i`` stands for
============== ======= =====================================================
draw_stock     1       ``draw stock``
draw_discard   D       ``draw discard i+1`` (D: 1, or the deck's size where
                       the discard pile is spread, Rummy 500)
discard        53      ``discard`` the card of index i (52: the joker)
close          53      ``close`` (tutup) with card i (Remi 13 D)
knock          53      ``knock`` with card i (Gin Rummy)
pass           1       ``pass``
decline        1       ``decline`` (Rummy 500)
rummy          D       ``rummy i+1``: call on the (i+1)-th discard (Rummy 500)
meld_card      52/105  a card of a meld or lay-off: natural card i (0–51),
                       the joker (52), the joker standing for card i-53
meld_end       1       the meld's cards are complete
layoff         M       lay off on table meld i+1 (M: the deck's size // 3)
============== ======= =====================================================

>>> from remikit.variants import find_variant
>>> codec = ActionCodec.for_variant(find_variant("gin"))
>>> codec.size, [s.name for s in codec.sections][:4]
(179, ['draw_stock', 'draw_discard', 'discard', 'knock'])
>>> from remikit.actions import parse_action
>>> codec.encode(parse_action("meld 7h 8h 9h"))
(141, 142, 143, 161)
>>> [codec.describe(t) for t in codec.encode(parse_action("layoff 9s to 2"))]
['layoff 2', 'card 9s']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from remikit.actions import (
    Action,
    CallRummy,
    Close,
    Decline,
    Discard,
    Draw,
    Knock,
    LayOff,
    MeldCards,
    Pass,
)
from remikit.cards import JOKER_INDEX, Card
from remikit.engine import Options
from remikit.variants import VariantSpec

CARDS = JOKER_INDEX + 1
"""Card indices: the 52 natural cards and the joker (:class:`~remikit.cards.Card`)."""


@dataclass(frozen=True)
class Section:
    """A run of tokens for one kind of action."""

    name: str
    start: int
    size: int

    def __contains__(self, token: int) -> bool:
        return self.start <= token < self.start + self.size


Tree: TypeAlias = "dict[int, Tree | Action]"
"""The legal actions as a tree of tokens: a complete sequence ends in its action."""


class ActionCodec:
    """The token enumeration of one variant with its deck (module docstring)."""

    def __init__(self, kinds: Iterable[type[Action]], *, depth: int, melds: int, jokers: bool):
        kinds = set(kinds)
        wanted: list[tuple[str, int, bool]] = [
            ("draw_stock", 1, Draw in kinds),
            ("draw_discard", depth, Draw in kinds),
            ("discard", CARDS, Discard in kinds),
            ("close", CARDS, Close in kinds),
            ("knock", CARDS, Knock in kinds),
            ("pass", 1, Pass in kinds),
            ("decline", 1, Decline in kinds),
            ("rummy", depth, CallRummy in kinds),
            ("meld_card", 2 * JOKER_INDEX + 1 if jokers else JOKER_INDEX, bool(kinds & _MELDS)),
            ("meld_end", 1, MeldCards in kinds),
            ("layoff", melds, LayOff in kinds),
        ]
        self.sections: tuple[Section, ...] = ()
        start = 0
        for name, size, present in wanted:
            if present:
                self.sections += (Section(name, start, size),)
                start += size
        self.size = start
        self._by_name = {s.name: s for s in self.sections}

    @classmethod
    def for_variant(cls, spec: VariantSpec, options: Options | None = None) -> ActionCodec:
        """The codec of a variant with ``options`` (its defaults when None)."""
        game = spec.game_class()
        deck = game(options or game.options_type(), auto_deal=False).full_deck()
        spread = spec.client is not None and spec.client.spread_discards
        return cls(
            game.deal_type.phases,
            depth=len(deck) if spread else 1,
            melds=len(deck) // 3,
            jokers=any(c.is_joker for c in deck),
        )

    def section(self, name: str) -> Section:
        return self._by_name[name]

    def has(self, name: str) -> bool:
        return name in self._by_name

    def _at(self, name: str, offset: int) -> int:
        section = self._by_name[name]
        if not 0 <= offset < section.size:
            raise ValueError(f"{name} {offset + 1} is beyond the {section.size} tokens")
        return section.start + offset

    def card_token(self, card: Card, stands_for: Card | None = None) -> int:
        """The ``meld_card`` token of a card (a joker with what it stands for)."""
        if stands_for is None:
            return self._at("meld_card", card.index)
        return self._at("meld_card", CARDS + stands_for.index)

    def encode(self, action: Action) -> tuple[int, ...]:
        """The token sequence of ``action``."""
        match action:
            case Draw(source="stock"):
                return (self._at("draw_stock", 0),)
            case Draw(depth=depth):
                return (self._at("draw_discard", depth - 1),)
            case Discard(card=card):
                return (self._at("discard", card.index),)
            case Close(card=card):
                return (self._at("close", card.index),)
            case Knock(card=card):
                return (self._at("knock", card.index),)
            case Pass():
                return (self._at("pass", 0),)
            case Decline():
                return (self._at("decline", 0),)
            case CallRummy(depth=depth):
                return (self._at("rummy", depth - 1),)
            case MeldCards(cards=cards, stands_for=stands):
                body = tuple(self.card_token(c, s) for c, s in zip(cards, stands, strict=True))
                return (*body, self._at("meld_end", 0))
            case LayOff(card=card, meld=meld, stands_for=stands):
                return (self._at("layoff", meld - 1), self.card_token(card, stands))
        raise ValueError(f"no token for {action}")  # pragma: no cover - every Action is matched

    def action(self, token: int) -> Action | None:
        """The action ``token`` is by itself, or None for a token of a meld or lay-off."""
        for section in self.sections:
            if token in section:
                i = token - section.start
                return _SINGLE[section.name](i) if section.name in _SINGLE else None
        return None

    def tree(self, actions: Sequence[Action]) -> Tree:
        """The tree of ``actions``' token sequences."""
        root: Tree = {}
        for action in actions:
            *path, last = self.encode(action)
            node = root
            for token in path:
                child = node.setdefault(token, {})
                assert isinstance(child, dict), "one action's tokens begin another's"
                node = child
            assert last not in node, "one action's tokens begin another's"
            node[last] = action
        return root

    def describe(self, token: int) -> str:
        """A token as text: ``discard 7h``, ``card Jk=4h``, ``layoff 2``."""
        for section in self.sections:
            if token in section:
                i = token - section.start
                if section.name in ("discard", "close", "knock"):
                    return f"{section.name} {Card(i)}"
                if section.name == "meld_card":
                    return f"card {Card(i)}" if i < CARDS else f"card Jk={Card(i - CARDS)}"
                if section.size == 1:
                    return section.name.replace("_", " ")
                return f"{section.name.replace('_', ' ')} {i + 1}"
        raise ValueError(f"no token {token}: the tokens are 0 to {self.size - 1}")


_MELDS = frozenset({MeldCards, LayOff})

_SINGLE: dict[str, Callable[[int], Action]] = {
    "draw_stock": lambda i: Draw("stock"),
    "draw_discard": lambda i: Draw("discard", i + 1),
    "discard": lambda i: Discard(Card(i)),
    "close": lambda i: Close(Card(i)),
    "knock": lambda i: Knock(Card(i)),
    "pass": lambda i: Pass(),
    "decline": lambda i: Decline(),
    "rummy": lambda i: CallRummy(i + 1),
}
"""The action of each one-token section, from the token's place in it."""
