"""Whether a card can get onto the Rummy 500 table this turn (R5-3, R5-10).

:func:`can_place` answers the question behind deep draws and Rummy calls:
can a given card get onto the table this turn using only some given cards?
A card gets there in a new meld, or on a table meld, possibly after the gap
between the meld and the card is filled by other lay-offs. Those two cases
are complete: a new meld laid first and then extended by the card is the
same as one bigger new meld, and a set takes no chains.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from remikit.cards import JOKER, Card
from remikit.variants.rummy500.melds import (
    ACE_HIGH,
    CARD_AT,
    PlacedMeld,
    playable,
    position_choices,
    rank_of,
    suit_of,
    window_ok,
)
from remikit.variants.rummy500.new_melds import run_windows


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
    row = CARD_AT[suit]
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
                gap, ok = range(p + 1, low), window_ok(p, high)
            elif p > high:
                gap, ok = range(high + 1, p), window_ok(low, p)
            else:
                continue
            if ok and sum(1 for q in gap if not cards.get(row[q])) <= jokers:
                return True
    return _natural_meld(card, cards, jokers)


def _neighbours(index: int) -> tuple[tuple[Card, ...], tuple[tuple[Card, Card], ...]]:
    """The natural card ``index``'s other suits of its rank, and the two other cards of
    each run of three that holds it."""
    suit, rank = index // 13, index % 13 + 1
    same = tuple(CARD_AT[s][rank - 1] for s in range(4) if s != suit)
    row = CARD_AT[suit]
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
    by_rank = Counter(rank_of(c) for c in naturals)
    if any(max(1, 3 - min(d, 3)) <= jokers for d in by_rank.values()):
        return True
    for suit in {suit_of(c) for c in naturals}:
        present = [c in naturals for c in CARD_AT[suit]]
        for low, high in run_windows(present, jokers):
            if high - low + 1 > sum(present[low : high + 1]):  # at least one gap for the joker
                return True
    return False
