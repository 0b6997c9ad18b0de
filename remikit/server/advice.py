"""Hints at a web table whose setting ``hints`` is on: what a seat's own view allows now.

Everything here reads one :class:`~remikit.views.PlayerView` of the seat (its own hand
and what everyone sees: the pile, the table melds, the log), never another hand, so
the advice cannot leak a hidden card. The arrangements come from the same solvers
and plans as the terminal's ``m`` hint (:mod:`remikit.variants.remi13d.scoring`,
:mod:`remikit.variants.three_thirteen.scoring`, :mod:`remikit.variants.rummy500.hints`).

:func:`state_advice` is what every state message of a seat carries (cheap: a few
milliseconds); :func:`best_arrangement` answers the ``advice`` request.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from remikit.actions import Discard
from remikit.cards import Card
from remikit.i18n import N_
from remikit.melds import AceMode, Meld
from remikit.server.problems import Problem
from remikit.server.serialize import action_json, cards_json
from remikit.solver import Goal
from remikit.variants.remi13d import scoring as remi13d
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.hints import arrange
from remikit.variants.remi13d.rules import pure_rule_of
from remikit.variants.rummy500.hints import laid_points, opens_call, stock_plan, turn_plan
from remikit.variants.rummy500.melds import hand_points, layoff_options
from remikit.variants.rummy500.plan import Rules, table_of
from remikit.variants.rummy500.rules import Rummy500Options
from remikit.variants.three_thirteen import scoring as three_thirteen
from remikit.variants.three_thirteen.rules import options_of
from remikit.views import PlayerView

if TYPE_CHECKING:
    from remikit.server.live import LiveTable

Advice = dict[str, Any]


def meld_json(meld: Meld) -> dict[str, Any]:
    """A meld of an arrangement: its cards, what each joker stands for, its points."""
    return {
        "kind": str(meld.kind),
        "cards": cards_json(meld.cards),
        "stands_for": [None if c is None else str(c) for c in meld.stands_for],
        "points": meld.points,
    }


def _discards(view: PlayerView) -> list[Card]:
    """The distinct cards of the hand the seat may discard now."""
    allowed = {a.card for a in view.legal_actions if isinstance(a, Discard)}
    return [c for c in dict.fromkeys(view.hand) if c in allowed]


def _in_play(view: PlayerView) -> bool:
    return view.seat is not None and bool(view.hand) and not view.game_over


# -- Remi 13 D ------------------------------------------------------------------------------


def _remi13d_state(view: PlayerView) -> Advice:
    """R13-7: whether the seat can close now; R13-10/R13-12: the dead cards of the best
    arrangement (after the best discard when the seat holds 14 cards)."""
    hand, rule = list(view.hand), pure_rule_of(view)
    closing = None
    if any(isinstance(a, Close) for a in view.legal_actions):
        best = remi13d.best_close(hand, pure_run=rule)
        closing = best.closing if best is not None else None
    if len(hand) > remi13d.HAND_SIZE:
        found = remi13d.solver(rule).solve(hand, goal=Goal(discard=True, keep=view.kept_card))
    else:
        found = remi13d.solver(rule).solve(hand)
    assert found is not None  # without all_melded or need_pure every hand has one
    return {
        "can_close": closing is not None,
        "close_card": None if closing is None else str(closing),
        "can_go_out": False,
        "go_out_discard": None,
        "counter": {
            "dead_points": remi13d.dead_points(found.dead),
            "to_meld": len(found.dead),
            "pure_run": any(m.pure for m in found.melds),
        },
        "warnings": [],
    }


def _remi13d_best(view: PlayerView) -> Advice:
    """The terminal's ``m`` (:func:`remikit.variants.remi13d.hints.arrange`)."""
    keep = view.kept_card if len(view.hand) > remi13d.HAND_SIZE else None
    best = arrange(view.hand, pure_run=pure_rule_of(view), keep=keep)
    return _arrangement(best.melds, best.dead, best.points, discard=best.discard, close=best.close)


# -- Three-Thirteen ---------------------------------------------------------------------------


def _t13_found(view: PlayerView) -> tuple[Any, bool]:
    """The least deadwood (R3-7), after the best discard in the discard phase."""
    ace: AceMode = "high" if options_of(view).ace == "high" else "low"
    discarding = bool(_discards(view))
    found = three_thirteen.deadwood(
        list(view.hand),
        round_no=view.deal_number,
        ace=ace,
        discard=discarding,
        keep=view.kept_card if discarding else None,
    )
    return found, discarding


def _t13_state(view: PlayerView) -> Advice:
    """R3-6: the seat goes out when a discard leaves no deadwood; R3-7: deadwood now."""
    found, discarding = _t13_found(view)
    return {
        "can_close": False,
        "close_card": None,
        "can_go_out": discarding and found.points == 0,
        "go_out_discard": str(found.discard) if discarding and found.points == 0 else None,
        "counter": {"deadwood": found.points},
        "warnings": [],
    }


def _t13_best(view: PlayerView) -> Advice:
    found, _ = _t13_found(view)
    return _arrangement(found.melds, found.dead, found.points, discard=found.discard)


# -- Rummy 500 ------------------------------------------------------------------------------


def _r5_warnings(view: PlayerView) -> list[Advice]:
    """For each card the seat may discard: the table melds it could be laid off onto
    (R5-5), and whether discarding it lets another seat call Rummy (R5-10), both from the
    pile and the table melds only."""
    table = table_of(view)
    joker_layoff = Rules.of(view).joker_layoff
    options = view.options
    calls = isinstance(options, Rummy500Options) and options.rummy_calls and len(view.hand) > 1
    out = []
    for card in _discards(view):
        melds = [m.number for m in table if layoff_options(m, card, joker_layoff=joker_layoff)]
        call = calls and opens_call(card, view.discard_pile, table, joker_layoff)
        if melds or call:
            out.append({"card": str(card), "layoff": melds, "call": call})
    return out


def _r5_state(view: PlayerView) -> Advice:
    """R5-8: whether the seat can go out this turn; the points on the table and in hand
    (R5-12); the discard warnings."""
    warnings = _r5_warnings(view)
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
        "warnings": warnings,
    }


def _r5_best(view: PlayerView) -> Advice:
    """The terminal's ``m``: the rest of the turn's plan, or in the draw phase what the
    hand could lay as it is."""
    discarding = view.to_play == view.seat and view.phase == "discard"
    plan = turn_plan(view) if discarding else stock_plan(view)
    scoring = Rules.of(view).scoring
    if plan is None:
        return _arrangement((), view.hand, -hand_points(view.hand, scoring))
    plays = [action_json(a) for p in plan.plays for a in p.actions]
    kept = list(plan.left)
    if plan.discard is not None:
        kept.remove(plan.discard)
    return {
        "melds": [],
        "plays": plays,
        "dead": cards_json(kept),
        "points": sum(p.points for p in plan.plays) - hand_points(kept, scoring),
        "discard": None if plan.discard is None or not discarding else str(plan.discard),
        "close": None,
        "goes_out": discarding and plan.ends_hand,
    }


# -- dispatch -------------------------------------------------------------------------------


def _arrangement(
    melds: Sequence[Meld],
    dead: Sequence[Card],
    points: int,
    *,
    discard: Card | None = None,
    close: Card | None = None,
) -> Advice:
    return {
        "melds": [meld_json(m) for m in melds],
        "plays": [],
        "dead": cards_json(dead),
        "points": points,
        "discard": None if discard is None else str(discard),
        "close": None if close is None else str(close),
        "goes_out": close is not None,
    }


STATE: dict[str, Callable[[PlayerView], Advice]] = {
    "remi13d": _remi13d_state,
    "three-thirteen": _t13_state,
    "rummy500": _r5_state,
}
BEST: dict[str, Callable[[PlayerView], Advice]] = {
    "remi13d": _remi13d_best,
    "three-thirteen": _t13_best,
    "rummy500": _r5_best,
}


def state_advice(view: PlayerView) -> Advice | None:
    """The advice of a seat's state message: ``can_close``, ``can_go_out``, the meld
    ``counter`` and the discard ``warnings`` (None when the seat holds no cards)."""
    advise = STATE.get(view.variant)
    if advise is None or not _in_play(view):
        return None
    return advise(view)


def best_arrangement(view: PlayerView) -> Advice | None:
    """The best arrangement of the seat's hand (the terminal's ``m``): ``melds`` (or, in
    Rummy 500, the ``plays`` to make), ``dead`` cards, ``points`` and the ``discard`` or
    ``close`` it asks for; None when the seat holds no cards."""
    advise = BEST.get(view.variant)
    if advise is None or not _in_play(view):
        return None
    return advise(view)


async def advice_message(table: LiveTable, seat: int | None, ref: Any) -> dict[str, Any]:
    """The answer to a seat's ``{"type": "advice"}``: its best arrangement now, worked out
    off the event loop; :class:`Problem` for a spectator, a table without hints, or a
    seat with no cards."""
    if seat is None:
        raise Problem("spectator", "server.spectator", status=403)
    if not table.settings.hints:
        raise Problem("hints_off", N_("server.hints_off"), status=403)
    state_id, view = table.state_id, table.view(seat)
    best = await asyncio.to_thread(best_arrangement, view)
    if best is None:
        raise Problem("no_advice", N_("server.no_advice"), status=409)
    return {"type": "advice", "ref": ref, "state_id": state_id, **best}
