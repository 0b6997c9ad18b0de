"""Shared test helpers: stacked decks for scenario tests, the fixtures in tests/data."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from remikit.cards import Card, parse_cards

DATA = Path(__file__).resolve().parent / "data"
"""Records and score vectors from an independent implementation (docs/contract.md)."""


def stack_deck(
    full: Sequence[Card], hands: Sequence[str], *, dealer: int, up: str = "", stock: str = ""
) -> list[Card]:
    """A deck that deals ``hands[seat]`` to each seat, then ``up`` (the up-card, if any),
    then ``stock`` from the top; the rest of ``full`` follows in order."""
    players = len(hands)
    held = [parse_cards(h) for h in hands]
    size = len(held[0])
    assert all(len(h) == size for h in held), "every hand must have the same size"
    order = [(dealer + 1 + i) % players for i in range(players)]
    deck = [held[seat][i] for i in range(size) for seat in order]
    deck += parse_cards(up) + parse_cards(stock)
    rest = Counter(full)
    rest.subtract(Counter(deck))
    assert all(n >= 0 for n in rest.values()), f"more cards than the deck has: {-rest}"
    for card in full:
        if rest[card] > 0:
            deck.append(card)
            rest[card] -= 1
    return deck


@pytest.fixture
def stacked() -> Callable[..., list[Card]]:
    return stack_deck


@pytest.fixture
def data() -> Path:
    """tests/data: ``records/`` (games with their expected results) and ``vectors/``."""
    return DATA
