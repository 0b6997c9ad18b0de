"""Reading the other seats' hands from their play: a weight per hidden card and seat.

What a seat does with the face-up cards tells something about what it keeps. A
seat that threw a card seldom holds its partners (the same rank, its neighbours
in the suit); one that passed up the top of the pile seldom holds what melds
with it; one that took it likely does. And a seat that discards as low as a
card it just threw holds few higher cards it could not use. :func:`tells`
collects these acts from a view's public log (every seat sees them), and a
:class:`Reading` turns them into a weight per seat and unseen card: the odds
that the card is in that seat's hand against the plain chance, multiplied
from one fitted log-odds per kind of act and relation (:data:`FEATURES`).

The log-odds of a variant are fitted by logistic regression on hands of
self-play (``bench/fit_tells.py``), against the plain chance a card has of
being in a hand, and ship with the variant as ``tells.json``. Nothing in them
names an opponent program: they describe how cards move when seats keep what
helps them. The sampled worlds (:func:`~remikit.bots.strong.determinize.determinize`
with ``weights``) then deal each seat its unknown cards with chances in
proportion to the weights.

>>> from remikit.cards import Card
>>> reading = Reading({"threw_last.rank": -1.0, "above_last": -0.5})
>>> seven, king = Card.parse("7s"), Card.parse("Kh")
>>> w = reading.weights([("threw", Card.parse("7h"))], [seven, king])
>>> round(w[seven], 3), round(w[king], 3)
(0.368, 0.607)
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources

from remikit.cards import JOKER_INDEX, Card

Tell = tuple[str, Card]
"""One act of a seat on a face-up card: ``("threw" | "passed" | "took", card)``."""

RELATIONS = ("same", "rank", "near1", "near2")
"""How a hidden card relates to a card an act was on: the very same card (two decks), the
same rank in another suit, the next rank in the suit, two ranks away in the suit."""
KINDS = ("threw_last", "threw", "passed", "took")
"""The acts: the seat's last discard, its earlier ones, a top card it passed up by drawing
from the stock, a card it took from the pile."""
FEATURES = (*(f"{kind}.{rel}" for kind in KINDS for rel in RELATIONS), "above_last")
"""The features, each with one fitted log-odds: an act's kind and relation, and
``above_last``, a card of a higher rank than the seat's last discard."""
FILE = "tells.json"
"""A variant's fitted log-odds, in its own package."""


def related(card: Card) -> Iterable[tuple[int, Card]]:
    """The natural cards related to ``card`` with the index of their relation in
    :data:`RELATIONS` (the Ace low and high: next to both the two and the King)."""
    if card.index == JOKER_INDEX:
        return
    suit, rank = divmod(card.index, 13)  # rank 0..12: Ace .. King
    yield 0, card
    for other in range(4):
        if other != suit:
            yield 1, Card._all[other * 13 + rank]
    places = (0, 13) if rank == 0 else (rank,)  # in the row A 2 .. K A
    for step, rel in ((1, 2), (2, 3)):
        near = {p + d for p in places for d in (-step, step)}
        for r in sorted(r % 13 for r in near if 0 <= r <= 13):
            yield rel, Card._all[suit * 13 + r]


def feature_counts(tells: Sequence[Tell], card: Card) -> dict[str, int]:
    """How often each feature holds for ``card`` in a seat's ``tells`` (the fitting's
    rows; :meth:`Reading.weights` adds the same up by card)."""
    counts: dict[str, int] = {}
    for name, other in _features(tells):
        if other is card:
            counts[name] = counts.get(name, 0) + 1
    last = _last_thrown(tells)
    if last is not None and card.index != JOKER_INDEX and card.index % 13 > last.index % 13:
        counts["above_last"] = 1
    return counts


def _last_thrown(tells: Sequence[Tell]) -> Card | None:
    for kind, card in reversed(tells):
        if kind == "threw":
            return None if card.index == JOKER_INDEX else card
    return None


def _features(tells: Sequence[Tell]) -> Iterable[tuple[str, Card]]:
    """Each (feature, related card) the seat's acts give."""
    last = len(tells) - 1
    while last >= 0 and tells[last][0] != "threw":
        last -= 1
    for i, (kind, card) in enumerate(tells):
        name = "threw_last" if i == last else kind
        for rel, other in related(card):
            yield f"{name}.{RELATIONS[rel]}", other


class Reading:
    """A variant's fitted log-odds per feature (module docstring)."""

    def __init__(self, log_odds: Mapping[str, float]) -> None:
        self.log_odds = {name: float(log_odds.get(name, 0.0)) for name in FEATURES}

    def weights(self, tells: Sequence[Tell], unseen: Iterable[Card]) -> dict[Card, float]:
        """The weight of each card of ``unseen`` for the seat whose acts are ``tells``."""
        odds = self.log_odds
        total: dict[Card, float] = dict.fromkeys(unseen, 0.0)
        for name, other in _features(tells):
            if other in total:
                total[other] += odds[name]
        last = _last_thrown(tells)
        if last is not None and odds["above_last"]:
            above = odds["above_last"]
            bar = last.index % 13
            for card in total:
                if card.index != JOKER_INDEX and card.index % 13 > bar:
                    total[card] += above
        return {card: math.exp(value) for card, value in total.items()}


@cache
def reading_for(package: str) -> Reading | None:
    """The fitted reading a variant's package ships (:data:`FILE`), or None."""
    source = resources.files(package) / FILE
    if not source.is_file():
        return None
    return Reading(json.loads(source.read_text(encoding="utf-8"))["log_odds"])
