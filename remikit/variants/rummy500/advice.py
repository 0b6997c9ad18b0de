"""Rummy 500's hints at the web table (the ``advice`` part): going out, the points laid and
held, the discards that feed another player and the turn's plan, from the seat's own view
only (the terminal's ``m``, :mod:`.hints`)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from remikit.server.advice import BestArrangement, StateAdvice, arrangement, discards
from remikit.server.serialize import action_json, cards_json
from remikit.variants.rummy500.hints import laid_points, opens_call, stock_plan, turn_plan
from remikit.variants.rummy500.melds import hand_points, layoff_options
from remikit.variants.rummy500.options import Rummy500Options
from remikit.variants.rummy500.plan import Rules, table_of
from remikit.views import PlayerView


def warnings(view: PlayerView) -> list[dict[str, Any]]:
    """For each card the seat may discard: the table melds it could be laid off onto
    (R5-5), and whether discarding it lets another seat call Rummy (R5-10), both from the
    pile and the table melds only."""
    table = table_of(view)
    joker_layoff = Rules.of(view).joker_layoff
    options = view.options
    calls = isinstance(options, Rummy500Options) and options.rummy_calls and len(view.hand) > 1
    out = []
    for card in discards(view):
        melds = [m.number for m in table if layoff_options(m, card, joker_layoff=joker_layoff)]
        call = calls and opens_call(card, view.discard_pile, table, joker_layoff)
        if melds or call:
            out.append({"card": str(card), "layoff": melds, "call": call})
    return out


class Rummy500Advice:
    """The hints of a Rummy 500 seat (:class:`~remikit.server.advice.Advisor`)."""

    def state(self, view: PlayerView) -> StateAdvice:
        """R5-8: whether the seat can go out this turn; the points on the table and in hand
        (R5-12); the discard warnings."""
        out = False
        if view.to_play == view.seat and view.phase == "discard":
            plan = turn_plan(view)
            out = plan is not None and plan.ends_hand
        return {
            "can_close": False,
            "close_card": None,
            "can_go_out": out,
            "go_out_discard": None,
            "counter": {
                "table_points": laid_points(view)[view.seat or 0],
                "hand_points": hand_points(view.hand, Rules.of(view).scoring),
            },
            "warnings": warnings(view),
        }

    def state_key(self, view: PlayerView) -> Hashable:
        """What :meth:`state` reads while the seat is not discarding (no plan, no
        warnings): its hand, the table's melds and the rules. None while it discards: the
        turn's plan reads the whole view."""
        if view.to_play == view.seat and view.phase == "discard":
            return None
        return tuple(view.hand), view.table, Rules.of(view)

    def best(self, view: PlayerView) -> BestArrangement:
        """The terminal's ``m``: the rest of the turn's plan, or in the draw phase what the
        hand could lay as it is."""
        discarding = view.to_play == view.seat and view.phase == "discard"
        plan = turn_plan(view) if discarding else stock_plan(view)
        scoring = Rules.of(view).scoring
        if plan is None:
            return arrangement((), view.hand, -hand_points(view.hand, scoring))
        kept = list(plan.left)
        if plan.discard is not None:
            kept.remove(plan.discard)
        return {
            "melds": [],
            "plays": [action_json(a) for p in plan.plays for a in p.actions],
            "dead": cards_json(kept),
            "points": sum(p.points for p in plan.plays) - hand_points(kept, scoring),
            "discard": None if plan.discard is None or not discarding else str(plan.discard),
            "close": None,
            "goes_out": discarding and plan.ends_hand,
        }
