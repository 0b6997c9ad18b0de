"""Gin Rummy melds as they are laid down: runs of 3–5, sets of 3–4 (G-2), and lay-offs.

Deadwood values: ace 1, two to ten their number, J Q K 10. A meld laid down
has at most five cards, as OpenSpiel's meld actions have; a longer run is
laid as two melds, which scores the same.

>>> from remikit.cards import parse_cards
>>> is_meld(parse_cards("As 2s 3s")), is_meld(parse_cards("Qs Ks As"))
(True, False)
>>> [" ".join(map(str, m)) for m in melds_in(parse_cards("7h 7d 7c 8h 9h"))]
['7h 8h 9h', '7h 7d 7c']
>>> [str(c) for c in layoff_cards(parse_cards("5s 6s 7s"))]
['4s', '8s']
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from remikit.cards import Card, Suit

MAX_MELD = 5
"""The most cards one laid-down meld holds (G-2)."""


def value(card: Card) -> int:
    """A card's deadwood value: ace 1, two to ten their number, J Q K 10."""
    return min(int(card.rank), 10)


def points(cards: Sequence[Card]) -> int:
    """The deadwood value of ``cards``."""
    return sum(min(int(c.rank), 10) for c in cards)


def is_run(cards: Sequence[Card]) -> bool:
    """Three or more cards of one suit in consecutive rank, ace low only."""
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    ranks = sorted(int(c.rank) for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_set(cards: Sequence[Card]) -> bool:
    """Three or four cards of one rank (one deck: their suits differ)."""
    return (
        3 <= len(cards) <= 4 and len({c.rank for c in cards}) == 1 and len(set(cards)) == len(cards)
    )


def is_meld(cards: Sequence[Card]) -> bool:
    """A meld that may be laid down (G-2): a run of 3–5 or a set of 3–4."""
    return len(cards) <= MAX_MELD and (is_run(cards) or is_set(cards))


_SUITS_DOWN = sorted(Suit, reverse=True)
_RUN_CARDS = tuple(
    tuple(Card.of(rank, suit) for rank in range(low, min(low + MAX_MELD, 14)))
    for suit in _SUITS_DOWN
    for low in range(1, 12)
)
"""The cards a run may hold from each lowest card (by suit, then lowest card)."""
_RANK_CARDS = tuple(tuple(Card.of(rank, s) for s in _SUITS_DOWN) for rank in range(1, 14))


def melds_in(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every meld (G-2) that can be laid down from ``hand``: runs by suit and lowest card,
    then sets by rank."""
    held = set(hand)
    out: list[tuple[Card, ...]] = []
    for cards in _RUN_CARDS:
        if cards[0] not in held or cards[1] not in held:
            continue
        for size in range(3, len(cards) + 1):
            if cards[size - 1] not in held:
                break
            out.append(cards[:size])
    for ranked in _RANK_CARDS:
        same = [c for c in ranked if c in held]
        if len(same) >= 3:
            out.extend(combinations(same, 3))
            out.extend(combinations(same, 4))
    return out


def layoff_cards(meld: Sequence[Card]) -> list[Card]:
    """The cards that extend ``meld`` as it lies now: a run's next card at either end
    (none below an ace or above a king), a set of three's missing suit."""
    if is_set(meld):
        if len(meld) == 4:
            return []
        suits = {c.suit for c in meld}
        return [Card.of(meld[0].rank, s) for s in sorted(Suit, reverse=True) if s not in suits]
    ranks = sorted(int(c.rank) for c in meld)
    suit = meld[0].suit
    ends = [r for r in (ranks[0] - 1, ranks[-1] + 1) if 1 <= r <= 13]
    return [Card.of(r, suit) for r in ends]
