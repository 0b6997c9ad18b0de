"""The greedy Remi 13 D strategy: the best arrangement one draw ahead (R13-7, R13-12)."""

from __future__ import annotations

from collections.abc import Sequence

from remikit.actions import Action, Draw
from remikit.bots.greedy import Rating, best_single_discard, draw_choice
from remikit.cards import Card
from remikit.melds import PureRun
from remikit.variants.remi13d import scoring as remi13d
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.hints import best_discard, may_hold_pure_run, worth
from remikit.variants.remi13d.rules import pure_rule_of
from remikit.views import PlayerView

PLAN_LIMIT = 4096


def _hand_key(hand: Sequence[Card]) -> tuple[int, ...]:
    return tuple(sorted(c.index for c in hand))


class Remi13DStrategy:
    """Greedy Remi 13 D.

    A 13-card hand is rated by its :func:`~remikit.variants.remi13d.hints.worth`,
    as the hints rate it: ``(has a pure run, points)``, the points R13-12's, or one
    card from a close its closing card's bonus (R13-11) with the other cards' points.
    """

    def __init__(self) -> None:
        # best discards found while deciding to take a discard, by the hand
        self._plans: dict[tuple[int, ...], Card | None] = {}

    def rate(self, hand: Sequence[Card], pure_run: PureRun = "strict") -> Rating:
        return worth(hand, pure_run=pure_run)

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
        after, discard = best_discard(with_top, None, pure_run=rule)
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
            _, found = best_discard(view.hand, view.kept_card, pure_run=rule)
        return best_single_discard(view, found, lambda rest: self.rate(rest, rule))
