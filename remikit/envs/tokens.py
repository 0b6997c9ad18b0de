"""A variant's actions as a fixed, discrete enumeration of tokens.

Most actions are one token (``draw stock``, ``discard 7h``). A new meld is a sequence,
its cards one token each then ``meld_end``; a lay-off is two tokens, the table meld
then the card. Every legal action is one token sequence and no sequence is the start of
another, so an agent reaches any legal action by choosing, at each step, one of the
tokens that begins or continues some legal action (the action mask): every masked token
leads to a legal action, and every legal action is reached.

Each kind of action declares its sections (:attr:`remikit.actions.Action.sections`),
with a number that places them; a variant has the sections of its kinds, in that order.
The kinds of the variants today give these sections, in this order:

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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from remikit.actions import Action
from remikit.cards import Card
from remikit.engine import Options
from remikit.kinds import CARDS, TokenSection
from remikit.variants import VariantSpec

__all__ = ["CARDS", "ActionCodec", "Section", "Tree"]


@dataclass(frozen=True)
class Section:
    """A run of tokens in place: the :class:`~remikit.actions.TokenSection` that ``kind``
    (the first kind of the variant to declare it) declares, from ``start``."""

    declared: TokenSection
    start: int
    size: int
    kind: type[Action]

    @property
    def name(self) -> str:
        return self.declared.name

    def __contains__(self, token: int) -> bool:
        return self.start <= token < self.start + self.size


Tree: TypeAlias = "dict[int, Tree | Action]"
"""The legal actions as a tree of tokens: a complete sequence ends in its action."""


class ActionCodec:
    """The token enumeration of one variant with its deck (module docstring): the token
    sections its kinds of action declare, in their order."""

    def __init__(self, kinds: Iterable[type[Action]], *, depth: int, melds: int, jokers: bool):
        declared: dict[str, tuple[TokenSection, type[Action]]] = {}
        for kind in kinds:
            for section in kind.sections:
                declared.setdefault(section.name, (section, kind))
        self.sections: tuple[Section, ...] = ()
        start = 0
        for section, kind in sorted(declared.values(), key=lambda d: d[0].order):
            size = section.length(depth=depth, melds=melds, jokers=jokers)
            self.sections += (Section(section, start, size, kind),)
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

    def at(self, name: str, offset: int) -> int:
        """The token at ``offset`` in the section ``name``."""
        section = self._by_name[name]
        if not 0 <= offset < section.size:
            raise ValueError(f"{name} {offset + 1} is beyond the {section.size} tokens")
        return section.start + offset

    def card_token(self, card: Card, stands_for: Card | None = None) -> int:
        """The ``meld_card`` token of a card (a joker with what it stands for)."""
        if stands_for is None:
            return self.at("meld_card", card.index)
        return self.at("meld_card", CARDS + stands_for.index)

    def encode(self, action: Action) -> tuple[int, ...]:
        """The token sequence of ``action``."""
        return action.encode(self)

    def action(self, token: int) -> Action | None:
        """The action ``token`` is by itself, or None for a token of a meld or lay-off."""
        for section in self.sections:
            if token in section:
                return section.kind.from_token(section.name, token - section.start)
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
                return section.declared.describe(token - section.start, section.size)
        raise ValueError(f"no token {token}: the tokens are 0 to {self.size - 1}")
