"""Remi 13 D's hints at the web table (the ``advice`` part): closing, the dead cards and the
best arrangement, from the seat's own view only (the terminal's ``m``, :mod:`.hints`)."""

from __future__ import annotations

from collections.abc import Hashable

from remikit.server.advice import BestArrangement, StateAdvice, arrangement
from remikit.variants.remi13d import scoring
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.hints import arrange, best_discard, without
from remikit.variants.remi13d.rules import pure_rule_of
from remikit.views import PlayerView


class Remi13DAdvice:
    """The hints of a Remi 13 D seat (:class:`~remikit.server.advice.Advisor`)."""

    def state(self, view: PlayerView) -> StateAdvice:
        """R13-7: whether the seat can close now; R13-10/R13-12: the dead cards of the best
        arrangement (after the discard :meth:`best` shows when the seat holds 14 cards)."""
        hand, rule = list(view.hand), pure_rule_of(view)
        closing = None
        if any(isinstance(a, Close) for a in view.legal_actions):
            best = scoring.best_close(hand, pure_run=rule)
            closing = best.closing if best is not None else None
        if len(hand) > scoring.HAND_SIZE:
            _, discard = best_discard(hand, view.kept_card, pure_run=rule)
            hand = hand if discard is None else without(hand, discard)
        found = scoring.solver(rule).solve(hand)
        assert found is not None  # without all_melded or need_pure every hand has one
        return {
            "can_close": closing is not None,
            "close_card": None if closing is None else str(closing),
            "can_go_out": False,
            "go_out_discard": None,
            "counter": {
                "dead_points": scoring.dead_points(found.dead),
                "to_meld": len(found.dead),
                "pure_run": any(m.pure for m in found.melds),
            },
            "warnings": [],
        }

    def state_key(self, view: PlayerView) -> Hashable:
        """What :meth:`state` reads: the hand, the card kept from the pile, whether the seat
        may close, the pure-run rule."""
        closes = any(isinstance(a, Close) for a in view.legal_actions)
        return tuple(view.hand), view.kept_card, closes, pure_rule_of(view)

    def best(self, view: PlayerView) -> BestArrangement:
        """The terminal's ``m`` (:func:`~remikit.variants.remi13d.hints.arrange`)."""
        keep = view.kept_card if len(view.hand) > scoring.HAND_SIZE else None
        best = arrange(view.hand, pure_run=pure_rule_of(view), keep=keep)
        return arrangement(
            best.melds, best.dead, best.points, discard=best.discard, close=best.close
        )
