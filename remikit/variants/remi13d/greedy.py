"""The greedy Remi 13 D strategy: the best arrangement one draw ahead (R13-7, R13-12)."""

from __future__ import annotations

from collections.abc import Sequence

from remikit.actions import Action, Draw
from remikit.bots.greedy import Rating, best_single_discard, draw_choice
from remikit.cards import Card
from remikit.melds import PureRun
from remikit.solver import NEG, Goal
from remikit.variants.remi13d import scoring as remi13d
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.hints import may_hold_pure_run
from remikit.variants.remi13d.rules import pure_rule_of
from remikit.views import PlayerView

PLAN_LIMIT = 4096


def _hand_key(hand: Sequence[Card]) -> tuple[int, ...]:
    return tuple(sorted(c.index for c in hand))


class Remi13DStrategy:
    """Greedy Remi 13 D.

    A 13-card hand is rated by ``(has a pure run, points)``: with a pure run
    of 4+ (or the royal flush) the points are the R13-12 score; without one
    R13-12 makes every card dead, which would only say "throw away the
    jokers and aces" (the closing cards), so such hands are rated by the
    melds they hold, as if the pure run were already there, and rank below
    every hand that has one. What a pure run is follows the table's ``pure_run``
    option (R13-6).
    """

    def __init__(self) -> None:
        # best discards found while deciding to take a discard, by the hand
        self._plans: dict[tuple[int, ...], Card | None] = {}

    def rate(self, hand: Sequence[Card], pure_run: PureRun = "strict") -> Rating:
        solver = remi13d.solver(pure_run)
        if may_hold_pure_run(hand):
            value = solver.value(hand, goal=Goal(need_pure=True))
            if value > NEG // 2:
                return (1, value)
        return (0, solver.value(hand))

    def best_discard(
        self, hand14: Sequence[Card], keep: Card | None, pure_run: PureRun = "strict"
    ) -> tuple[Rating, Card | None]:
        """The rating after the best discard, and that discard (None: the solver left a joker)."""
        solver = remi13d.solver(pure_run)
        if may_hold_pure_run(hand14):
            goal = Goal(discard=True, need_pure=True, keep=keep)
            found = solver.solve(hand14, goal=goal)
            if found is not None:
                return (1, found.value), found.discard
        found = solver.solve(hand14, goal=Goal(discard=True, keep=keep))
        assert found is not None
        return (0, found.value), found.discard

    def draw(self, view: PlayerView) -> Action:
        top = view.top_discard
        if top is None or Draw("discard") not in view.legal_actions:
            return draw_choice(view, False)
        rule = pure_rule_of(view)
        with_top = [*view.hand, top]
        if may_hold_pure_run(with_top) and remi13d.best_close(with_top, pure_run=rule) is not None:
            return draw_choice(view, True)
        # Rating the best discard of any card (the taken one too) gives the same
        # answer as forbidding the taken card, and shares the solver's memo
        # across turns: discarding it again leaves the hand as it is, so any
        # strictly better discard is another card, which the discard phase
        # then finds in the plan instead of searching again.
        after, discard = self.best_discard(with_top, None, rule)
        take = after > self.rate(view.hand, rule)
        if take:
            self._plan(with_top, discard)
        return draw_choice(view, take)

    def _plan(self, hand14: Sequence[Card], discard: Card | None) -> None:
        if len(self._plans) >= PLAN_LIMIT:
            self._plans.clear()
        self._plans[_hand_key(hand14)] = discard

    def discard(self, view: PlayerView) -> Action:
        rule = pure_rule_of(view)
        closes = [a for a in view.legal_actions if isinstance(a, Close)]
        if closes:
            best = remi13d.best_close(view.hand, pure_run=rule)
            if best is not None and best.closing is not None and Close(best.closing) in closes:
                return Close(best.closing)
            return closes[0]
        key = _hand_key(view.hand)
        if key in self._plans:
            found = self._plans.pop(key)
        else:
            _, found = self.best_discard(view.hand, view.kept_card, rule)
        return best_single_discard(view, found, lambda rest: self.rate(rest, rule))
