"""A learned value of a Gin Rummy hand of ten that is still running: its expected points.

The strong bot's outlook (:mod:`remikit.variants.gin.tactics`) plays a hand a few
turns ahead and then has to say what a hand that could not knock yet is worth. A
small network answers: from the hand's best arrangement (its deadwood, its dead
cards, the pairs and near runs among them, how many of the cards that would meld
them or extend a meld are still unseen), the draws made so far, and the other seat's
public play (:func:`remikit.variants.gin.race.signs`), it gives the points the seat
can expect from the hand, the other seat to play (G-7: negative when it expects to
pay). It was trained on hands of remikit's bots playing each other through the
PettingZoo environment (``python bench/train_gin_value.py``, which writes
:data:`FILE`); its weights name no opponent. It runs in plain Python. Without the
file the outlook counts a running hand as paying its deadwood, as it did before.
"""

from __future__ import annotations

import json
from collections.abc import Container, Sequence
from functools import cache
from importlib import resources
from operator import mul
from typing import Any

from remikit.cards import Card, Suit
from remikit.melds import Arrangement
from remikit.variants.gin.melds import value

FILE = "value.json"
"""The trained weights, in this package."""
FEATURES = (
    "deadwood",
    "dead",
    "pairs",
    "runs",
    "gaps",
    "outs",
    "high",
    "draws",
    "draws_squared",
    "last",
    "previous",
    "took",
)
"""The network's inputs, in order (:func:`features`)."""


def _card(rank: int, suit: Suit) -> Card | None:
    return Card.of(rank, suit) if 1 <= rank <= 13 else None


def features(
    best: Arrangement,
    unseen: Container[Card],
    draws: int,
    last: int,
    previous: int,
    took: int,
) -> list[float]:
    """The inputs of :data:`FEATURES` for a hand of ten arranged as ``best``; ``unseen``:
    the cards whose place the seat does not know; the rest as :func:`race.signs` gives
    them for the other seat."""
    dead = best.dead
    pairs = runs = gaps = high = 0
    outs: set[Card | None] = set()
    for i, a in enumerate(dead):
        high += value(a) >= 8
        ra = int(a.rank)
        for b in dead[i + 1 :]:
            rb = int(b.rank)
            if ra == rb:
                pairs += 1
                outs.update(Card.of(ra, s) for s in Suit if s not in (a.suit, b.suit))
            elif a.suit == b.suit and abs(ra - rb) <= 2:
                lo, hi = min(ra, rb), max(ra, rb)
                if hi - lo == 1:
                    runs += 1
                    outs.update((_card(lo - 1, a.suit), _card(hi + 1, a.suit)))
                else:
                    gaps += 1
                    outs.add(_card(lo + 1, a.suit))
    for meld in best.melds:
        first = meld.cards[0]
        if meld.kind == "set":
            held = {c.suit for c in meld.cards}
            outs.update(Card.of(int(first.rank), s) for s in Suit if s not in held)
        else:
            ranks = [int(c.rank) for c in meld.cards]
            outs.update((_card(min(ranks) - 1, first.suit), _card(max(ranks) + 1, first.suit)))
    live = sum(1 for c in outs if c is not None and c in unseen)
    d = draws / 10
    return [
        -best.value / 10,
        len(dead) / 10,
        float(pairs),
        float(runs),
        float(gaps),
        live / 10,
        float(high),
        d,
        d * d,
        last / 10,
        previous / 10,
        float(took),
    ]


class Value:
    """A network of one hidden layer (rectified) over :data:`FEATURES`, standardised: the
    standardisation is folded into the hidden layer's weights once, when loaded."""

    def __init__(self, weights: dict[str, Any]) -> None:
        if tuple(weights["features"]) != FEATURES:
            raise ValueError(f"{FILE} was trained on other features")
        mean, scale = weights["mean"], weights["scale"]
        self.units: list[tuple[list[float], float, float]] = []
        for row, b, w in zip(weights["w1"], weights["b1"], weights["w2"], strict=True):
            folded = [r / s for r, s in zip(row, scale, strict=True)]
            self.units.append((folded, b - sum(map(mul, folded, mean)), w))
        self.bias: float = weights["b2"]

    def __call__(self, x: Sequence[float]) -> float:
        total = self.bias
        for row, b, w in self.units:
            h = b + sum(map(mul, row, x))
            if h > 0:
                total += w * h
        return total


@cache
def trained() -> Value | None:
    """The shipped network, or None when the package has no :data:`FILE`."""
    path = resources.files(__package__ or "remikit.variants.gin") / FILE
    if not path.is_file():
        return None
    return Value(json.loads(path.read_text(encoding="utf-8")))
