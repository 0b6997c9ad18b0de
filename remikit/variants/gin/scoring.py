"""Gin Rummy deadwood (RULES.md §4, the reference variant as OpenSpiel plays it).

One deck, no wild cards, ace low only; sets of 3–4 (suits all different),
runs of 3+; deadwood: ace 1, 2–10 face value, J Q K 10.

>>> from remikit.cards import parse_cards
>>> deadwood(parse_cards("As 2s 3s 7h 7d 7c Kd Kc Ks 9h")).points
9
>>> deadwood(parse_cards("As 2s 3s 7h 7d 7c Kd Kc Ks 9h Qh")).discard
Card('Qh')
"""

from __future__ import annotations

from collections.abc import Sequence

from remikit.cards import Card
from remikit.errors import Reason
from remikit.melds import Arrangement, Deadwood, MeldRules, Scoring
from remikit.solver import Goal, Solver
from remikit.variants.spec import Scored, ScoreInputError, Scorer

HAND_SIZE = 10

RULES = MeldRules(ace="low", set_distinct_suits=True, set_max=4)
SCORING = Scoring(dead=tuple(-min(i % 13 + 1, 10) for i in range(52)))
SOLVER = Solver(RULES, SCORING)
BEST_DISCARD = Goal(discard=True)
"""The goal of 11 cards: the least deadwood after the best discard."""


def best_arrangement(hand: Sequence[Card]) -> Arrangement:
    """The least-deadwood arrangement of 10 cards, or of 11 after the best discard."""
    best = SOLVER.solve(hand, goal=BEST_DISCARD) if len(hand) > HAND_SIZE else SOLVER.solve(hand)
    assert best is not None
    return best


def deadwood(hand: Sequence[Card]) -> Deadwood:
    """The minimum deadwood of 10 cards, or of 11 cards after the best discard."""
    best = best_arrangement(hand)
    return Deadwood(-best.value, best.melds, best.dead, best.discard)


class GinScorer(Scorer):
    """``remi score gin``: 10 cards, or 11 and the best discard (RULES.md §4)."""

    copies = 1
    jokers = 0

    def check_keywords(
        self, *, closing: Card | None, round_no: object, ace: object, pure_run: object
    ) -> None:
        if closing is not None or round_no is not None or ace is not None or pure_run is not None:
            raise ScoreInputError("score.gin_options")

    def check_size(self, hand: Sequence[Card], *, round_no: int | None) -> None:
        if len(hand) not in (HAND_SIZE, HAND_SIZE + 1):
            raise ScoreInputError("score.gin_count", count=len(hand))

    def score(
        self,
        hand: Sequence[Card],
        *,
        closing: Card | None,
        round_no: int | None,
        ace: str | None,
        pure_run: str | None,
    ) -> Scored:
        best = best_arrangement(hand)
        return Scored(
            "gin", -best.value, best.value == 0, best.melds, best.dead, title=_title(best.discard)
        )


_TITLES: dict[Card | None, Reason] = {}


def _title(discard: Card | None) -> Reason:
    """The report's title, naming the best discard of 11 cards (one object for each)."""
    title = _TITLES.get(discard)
    if title is None:
        named = Reason("score.gin_discard", card=discard.symbol()) if discard is not None else ""
        title = _TITLES[discard] = Reason("score.title_gin", discard=named)
    return title
