"""Tujuh's bots and review: the greedy strategy, the strong bot's tactics, the review's
hand measure."""

from __future__ import annotations

import random
from collections.abc import Sequence

from remikit.actions import Action, Discard, Draw
from remikit.bots.greedy import Rating, best_single_discard, draw_choice
from remikit.bots.strong.determinize import Determinization, Knowledge
from remikit.bots.strong.search import Plan
from remikit.cards import Card
from remikit.deal import Deal
from remikit.melds import Arrangement
from remikit.server.advice import BestArrangement, StateAdvice, arrangement, discards
from remikit.solver import Goal
from remikit.views import PlayerView
from tests.toy.rules import Show, deadwood, solver


def _shows(view: PlayerView) -> list[Action]:
    return [a for a in view.legal_actions if isinstance(a, Show)]


class TujuhStrategy:
    """Greedy: show when it may (T-4), else keep the deadwood (T-5) lowest."""

    def rate(self, hand: Sequence[Card]) -> Rating:
        return (-deadwood(hand), 0)

    def draw(self, view: PlayerView) -> Action:
        top = view.top_discard
        if top is None:
            return draw_choice(view, False)
        after = -solver().value([*view.hand, top], goal=Goal(discard=True, keep=top))
        return draw_choice(view, after < deadwood(view.hand))

    def discard(self, view: PlayerView) -> Action:
        shows = _shows(view)
        if shows:
            return shows[0]
        found = solver().solve(view.hand, goal=Goal(discard=True, keep=view.kept_card))
        card = found.discard if found is not None else None
        return best_single_discard(view, card, self.rate)


class TujuhTactics:
    """The strong bot's knowledge of Tujuh: every legal action is a candidate, rated by the
    deadwood it leaves; rollouts play greedily to the end of the deal."""

    horizon = 8
    sims_per_second = 400
    max_rollouts: int | None = None
    reads_play = False
    effort = 0

    def candidates(
        self, view: PlayerView, include: Action | None = None
    ) -> list[tuple[Plan, float]]:
        rated: list[tuple[Plan, float]] = []
        for action in view.legal_actions:
            hand = list(view.hand)
            if isinstance(action, Show):
                value = 10.0
            elif isinstance(action, Discard):
                hand.remove(action.card)
                value = -float(deadwood(hand))
            else:
                value = 0.0
            rated.append(((action,), value))
        rated.sort(key=lambda pair: -pair[1])
        return rated

    def refine(
        self, view: PlayerView, world: Determinization, known: Knowledge, rng: random.Random
    ) -> Determinization:
        return world

    def policy(self, deal: Deal, seat: int, rng: random.Random) -> Action:
        legal = deal.legal_actions(seat)
        shows = [a for a in legal if isinstance(a, Show)]
        if shows:
            return shows[0]
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            hand = deal.hands[seat]
            return min(discards, key=lambda a: deadwood([c for c in hand if c is not a.card]))
        return Draw("stock") if Draw("stock") in legal else legal[0]

    def estimate(self, deal: Deal, seat: int) -> Sequence[float]:
        return [float(deadwood(hand)) for hand in deal.hands]

    def objective(self, scores: Sequence[float], seat: int) -> float:
        others = [s for i, s in enumerate(scores) if i != seat]
        return sum(others) / len(others) - scores[seat]


class TujuhAdvice:
    """The web table's hints at Tujuh: the deadwood after the best discard, and a show."""

    def state(self, view: PlayerView) -> StateAdvice:
        shows = [a.card for a in view.legal_actions if isinstance(a, Show)]
        found = self._found(view)
        return {
            "can_close": False,
            "close_card": None,
            "can_go_out": bool(shows),
            "go_out_discard": str(shows[0]) if shows else None,
            "counter": {"deadwood": -found.value},
            "warnings": [],
        }

    def best(self, view: PlayerView) -> BestArrangement:
        found = self._found(view)
        return arrangement(found.melds, found.dead, -found.value, discard=found.discard)

    @staticmethod
    def _found(view: PlayerView) -> Arrangement:
        discarding = bool(discards(view))
        keep = view.kept_card if discarding else None
        found = solver().solve(list(view.hand), goal=Goal(discard=discarding, keep=keep))
        assert found is not None
        return found


class TujuhReview:
    """A game review measures a Tujuh hand by its deadwood (T-5)."""

    left_message = "review.reason.deadwood"

    def left(self, view: PlayerView, hand: Sequence[Card]) -> int:
        return deadwood(hand)

    def top_melds(self, view: PlayerView, top: Card) -> bool | None:
        found = solver().solve([*view.hand, top], goal=Goal(discard=True, keep=top))
        return found is not None and any(top in m.cards for m in found.melds)

    def goes_out_with(self, left: int) -> bool:
        return left == 0
