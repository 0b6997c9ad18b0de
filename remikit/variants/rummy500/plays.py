"""The plays a Rummy 500 turn plan is made of (R5-4 … R5-6): the hand's new melds and,
per table meld, its extensions by cards in hand.

New melds are the hand's candidate melds (:func:`candidate_melds`); a table
meld is extended at its ends or open suits, a joker filling each place the
hand has no natural card for (on a set only with ``joker_layoff=any``, R5-6).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from remikit.actions import LayOff, MeldCards
from remikit.cards import JOKER, Card
from remikit.melds import card_at
from remikit.variants.rummy500.melds import (
    ACE_HIGH,
    ACE_LOW,
    JOKER_POINTS,
    PlacedMeld,
    card_points,
    low_ace_points,
    takes_joker,
    window_ok,
)
from remikit.variants.rummy500.new_melds import candidate_melds, resolve_meld

UNIT = tuple(1 << (4 * i) for i in range(53))
"""``UNIT[i]``: one card of index ``i`` as :func:`pack` counts it."""

PlayAction = MeldCards | LayOff


def pack(cards: Sequence[Card]) -> int:
    """Cards as counts, four bits a card (jokers, index 52, last)."""
    return sum(UNIT[c.index] for c in cards)


@dataclass(frozen=True)
class Play:
    """A new meld, or lay-offs onto one table meld (``bit`` names it), as actions in order."""

    actions: tuple[PlayAction, ...]
    cards: tuple[Card, ...]
    points: int
    bit: int = 0

    @property
    def mask(self) -> int:
        return pack(self.cards)


def _slot_points(identity: Card, position: int | None, joker: bool, scoring: str) -> int:
    if joker:
        return JOKER_POINTS
    if position == ACE_LOW:
        return low_ace_points(scoring)
    return card_points(identity, scoring)


def _extension(
    meld: PlacedMeld,
    places: Sequence[tuple[Card, int | None]],
    held: Counter[Card],
    scoring: str,
    jokers: int,
) -> Play | None:
    """The lay-offs filling ``places`` (identity, position) in order, naturals first, then
    up to ``jokers`` jokers."""
    use: Counter[Card] = Counter()
    actions: list[PlayAction] = []
    cards: list[Card] = []
    points = 0
    for identity, position in places:
        if held[identity] > use[identity]:
            use[identity] += 1
            actions.append(LayOff(identity, meld.number))
            cards.append(identity)
            points += _slot_points(identity, position, False, scoring)
        else:
            if jokers == 0:
                return None
            jokers -= 1
            actions.append(LayOff(JOKER, meld.number, identity))
            cards.append(JOKER)
            points += JOKER_POINTS
    return Play(tuple(actions), tuple(cards), points)


def _reach(suit: int, side: range, held: Counter[Card]) -> list[tuple[Card, int | None]]:
    """The places beyond a run's end, in order, as far as the hand's cards and jokers go."""
    places: list[tuple[Card, int | None]] = []
    gaps = 0
    for p in side:
        identity = card_at(suit, p)
        gaps += held[identity] == 0
        if gaps > held[JOKER]:
            break
        places.append((identity, p))
    return places


def table_plays(
    hand: Sequence[Card], table: Sequence[PlacedMeld], scoring: str, joker_layoff: str
) -> list[Play]:
    """Every extension of each table meld by cards of ``hand`` (one play per meld)."""
    held = Counter(hand)
    out: list[Play] = []
    for index, meld in enumerate(table):
        bit = 1 << index
        if meld.kind == "set":
            openings = [i for i, _ in meld.openings]
            jokers = held[JOKER] if takes_joker(meld, joker_layoff) else 0
            for k in range(1, len(openings) + 1):
                for chosen in combinations(openings, k):
                    play = _extension(meld, [(i, None) for i in chosen], held, scoring, jokers)
                    if play is not None:
                        out.append(Play(play.actions, play.cards, play.points, bit))
            continue
        suit, low, high = meld.slots[0].identity.suit, meld.low, meld.high
        below = _reach(suit, range(low - 1, -1, -1), held)
        above = _reach(suit, range(high + 1, ACE_HIGH + 1), held)
        for kl in range(len(below) + 1):
            for kh in range(len(above) + 1):
                if kl + kh == 0 or not window_ok(low - kl, high + kh):
                    continue
                play = _extension(meld, below[:kl] + above[:kh], held, scoring, held[JOKER])
                if play is not None:
                    out.append(Play(play.actions, play.cards, play.points, bit))
    return out


def meld_plays(hand: Sequence[Card], scoring: str) -> list[Play]:
    naturals = tuple(sorted({c.index for c in hand if c is not JOKER}))
    return list(_meld_plays(naturals, sum(1 for c in hand if c is JOKER), scoring))


@lru_cache(maxsize=1 << 14)
def _meld_plays(naturals: tuple[int, ...], jokers: int, scoring: str) -> tuple[Play, ...]:
    """The new melds of a hand of the ``naturals`` (indices) and ``jokers`` jokers: the
    same hands come up again and again in a search."""
    hand = [Card(i) for i in naturals] + [JOKER] * jokers
    return tuple(
        Play((meld,), meld.cards, _meld_points(meld, scoring)) for meld in candidate_melds(hand)
    )


@lru_cache(maxsize=1 << 16)
def _meld_points(meld: MeldCards, scoring: str) -> int:
    """What a new meld scores (R5-11); the same melds come up again and again in a search."""
    return resolve_meld(meld.cards, meld.stands_for, seat=0, number=0).points(scoring)
