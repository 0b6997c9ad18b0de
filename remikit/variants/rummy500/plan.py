"""The turn plan of Rummy 500 (RULES.md §2): which melds and lay-offs to make, what to keep
and what to discard, for a hand and the table.

The plan maximises, in this order,

1. whether the turn ends the hand (out by discarding the last card, or by
   melding everything when floating is off; with floating on, keeping one
   card back to discard and go out beats floating, R5-8, R5-14);
2. the hand's score if it ended after the turn: points laid this turn minus
   the values of the cards kept (R5-11, R5-12).

The search branches on the hand's lowest card (kept, discarded, or in one of
the plays that hold it), with the cards left, the table melds already
extended and three flags (discarded, kept any, owed card melded) as the memo
key. A card owed after a deep draw or a Rummy call (``must_meld``) must be in
a play (:mod:`remikit.variants.rummy500.plays`), and that play comes first; a
single card just taken from the pile may not be the discard (R5-7).

>>> from remikit.cards import parse_cards
>>> plan = plan_turn(parse_cards("5h 6h 7h Kc Ks Kd 2c 9s"), [], Rules())
>>> [str(a) for a in plan.actions()]
['meld Kc Kd Ks', 'meld 5h 6h 7h', 'discard 9s']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from remikit.actions import Action, Discard, MeldCards
from remikit.cards import Card
from remikit.errors import IllegalAction
from remikit.variants.rummy500.melds import (
    PlacedMeld,
    card_points,
    placed_meld,
    resolve_layoff,
)
from remikit.variants.rummy500.new_melds import resolve_meld
from remikit.variants.rummy500.options import Rummy500Options
from remikit.variants.rummy500.plays import UNIT, Play, meld_plays, pack, table_plays
from remikit.views import PlayerView

NEG = -(10**9)
ENDS = 100_000  # the weight of "the turn ends the hand" in a plan's score
MAX_MEMO = 40_000  # a search past this many positions stops branching on plays

_GUARD = sum(8 << (4 * i) for i in range(53))  # one spare bit per card: counts stay below 8
_KEPT, _DISCARDED, _OWED_MET = 1, 2, 4


def _fits(mask: int, cards: int) -> bool:
    """Whether the packed ``mask`` is a sub-multiset of the packed ``cards``."""
    return ((cards | _GUARD) - mask) & _GUARD == _GUARD


def table_of(view: PlayerView) -> list[PlacedMeld]:
    """The table melds the view shows, for the meld logic."""
    return [placed_meld(m) for m in view.table]


# -- the turn plan -----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Rules:
    """The table options a plan depends on."""

    scoring: str = "standard"
    floating: bool = False
    unplayable_last_discard: bool = False
    discard_taken_card: bool = False
    joker_layoff: str = "runs"

    @staticmethod
    def of(view: PlayerView) -> Rules:
        options = view.options
        assert isinstance(options, Rummy500Options)
        return Rules(
            scoring=options.scoring,
            floating=options.floating,
            unplayable_last_discard=options.unplayable_last_discard,
            discard_taken_card=options.discard_taken_card,
            joker_layoff=options.joker_layoff,
        )


@dataclass(frozen=True)
class Plan:
    """The plays of a turn (in the order to make them), the cards left before the
    discard, the discard (None: none is needed) and the plan's score."""

    plays: tuple[Play, ...]
    left: tuple[Card, ...]
    discard: Card | None
    score: int

    @property
    def ends_hand(self) -> bool:
        return self.score >= ENDS // 2

    @property
    def value(self) -> int:
        """Points laid minus points kept (the discard excluded)."""
        return _value(self.score)

    def actions(self) -> list[Action]:
        out: list[Action] = [a for play in self.plays for a in play.actions]
        if self.discard is not None:
            out.append(Discard(self.discard))
        return out


@cache
def _card_values(scoring: str) -> tuple[int, ...]:
    """Every card's value in hand, by card index, for a scoring."""
    return tuple(card_points(Card(i), scoring) for i in range(53))


class _Search:
    """One turn-plan search (see the module docstring)."""

    def __init__(
        self,
        hand: Sequence[Card],
        table: Sequence[PlacedMeld],
        rules: Rules,
        *,
        owed: Card | None = None,
        banned: Card | None = None,
        discard_done: bool = False,
    ) -> None:
        self.hand = list(hand)
        self.rules = rules
        self.owed = owed
        self.banned = None if rules.discard_taken_card else banned
        self.discard_done = discard_done
        self.plays = meld_plays(hand, rules.scoring) + table_plays(
            hand, table, rules.scoring, rules.joker_layoff
        )
        self.masks = [p.mask for p in self.plays]
        self.by_card: list[list[int]] = [[] for _ in range(53)]
        for i, play in enumerate(self.plays):
            for card in set(play.cards):
                self.by_card[card.index].append(i)
        self.values = _card_values(rules.scoring)
        self.owes_in = [owed is not None and owed in p.cards for p in self.plays]
        self.memo: dict[tuple[int, int, int], tuple[int, int]] = {}

    def leaf(self, flags: int) -> int:
        if self.owed is not None and not flags & _OWED_MET:
            return NEG
        kept = bool(flags & _KEPT)
        if flags & _DISCARDED:
            return ENDS if not kept else 0
        if kept:
            return NEG  # cards left and no discard to end the turn
        return 0 if self.rules.floating else ENDS  # floating (R5-14) or out by melding (R5-8)

    def best(self, cards: int, used: int, flags: int) -> int:
        if cards == 0:
            return self.leaf(flags)
        key = (cards, used, flags)
        found = self.memo.get(key)
        if found is not None:
            return found[0]
        index = ((cards & -cards).bit_length() - 1) // 4
        unit = UNIT[index]
        card = Card(index)
        best, choice = NEG, -3
        # plays first: when a huge hand (a big take) meets the memo's limit, the plan
        # found so far melds what it can
        if len(self.memo) < MAX_MEMO:
            for i in self.by_card[index]:
                play = self.plays[i]
                if play.bit & used or not _fits(self.masks[i], cards):
                    continue
                after = flags | _OWED_MET if self.owes_in[i] else flags
                value = self.best(cards - self.masks[i], used | play.bit, after)
                if value > NEG // 2 and value + play.points > best:
                    best, choice = value + play.points, i
        owed_alone = card is self.owed and not flags & _OWED_MET and (cards >> (4 * index)) & 7 == 1
        if not owed_alone:
            value = self.best(cards - unit, used, flags | _KEPT)
            if value > NEG // 2 and value - self.values[index] > best:
                best, choice = value - self.values[index], -1
            if not flags & _DISCARDED and card is not self.banned:
                value = self.best(cards - unit, used, flags | _DISCARDED)
                if value > best:
                    best, choice = value, -2
        self.memo[key] = (best, choice)
        return best

    def plan(self) -> Plan | None:
        start = pack(self.hand)
        flags = _DISCARDED if self.discard_done else 0
        score = self.best(start, 0, flags)
        if score <= NEG // 2:
            return None
        plays: list[Play] = []
        left: list[Card] = []
        discard: Card | None = None
        cards, used = start, 0
        while cards:
            _, choice = self.memo[(cards, used, flags)]
            index = ((cards & -cards).bit_length() - 1) // 4
            if choice == -1:
                left.append(Card(index))
                cards -= UNIT[index]
                flags |= _KEPT
            elif choice == -2:
                discard = Card(index)
                cards -= UNIT[index]
                flags |= _DISCARDED
            else:
                play = self.plays[choice]
                plays.append(play)
                cards -= self.masks[choice]
                used |= play.bit
                if self.owes_in[choice]:
                    flags |= _OWED_MET
        # the owed card's play first (R5-3), then the plays holding the card just taken
        plays.sort(
            key=lambda p: (
                not (self.owed is not None and self.owed in p.cards),
                not (self.banned is not None and self.banned in p.cards),
            )
        )
        if discard is not None:
            left.append(discard)
        return Plan(tuple(plays), tuple(left), discard, score)


def plan_turn(
    hand: Sequence[Card],
    table: Sequence[PlacedMeld],
    rules: Rules,
    *,
    owed: Card | None = None,
    banned: Card | None = None,
    discard_done: bool = False,
) -> Plan | None:
    """The best plan for ``hand`` (None when the owed card cannot be melded).

    ``banned`` is a card that may not be the discard (just taken, R5-7);
    ``discard_done`` plans with no discard needed (the stock card is thrown).
    """
    return _Search(hand, table, rules, owed=owed, banned=banned, discard_done=discard_done).plan()


def table_after(
    table: Sequence[PlacedMeld], plays: Sequence[Play], seat: int, joker_layoff: str
) -> list[PlacedMeld] | None:
    """The table once ``plays`` are made, or None if one of them does not fit."""
    out = list(table)
    try:
        for play in plays:
            for action in play.actions:
                if isinstance(action, MeldCards):
                    out.append(
                        resolve_meld(
                            action.cards, action.stands_for, seat=seat, number=len(out) + 1
                        )
                    )
                else:
                    index = action.meld - 1
                    out[index] = resolve_layoff(
                        out[index],
                        action.card,
                        action.stands_for,
                        seat=seat,
                        joker_layoff=joker_layoff,
                    )
    except (IllegalAction, IndexError):
        return None
    return out


def _value(score: int) -> int:
    """A plan score without the weight of ending the hand."""
    return score - ENDS if score >= ENDS // 2 else score
