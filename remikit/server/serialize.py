"""A :class:`~remikit.views.PlayerView` as JSON: cards as text (``"7h"``, ``"Jk"``),
actions as record text (``"discard 7h"``, ``"rummy 2"``) and, beside it, in a structured
form a client reads without parsing (``{"type": "discard", "card": "7h"}``).

>>> import random
>>> from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
>>> game = Remi13DGame(Remi13DOptions(), rng=random.Random(1))
>>> data = view_json(game.view(0))
>>> len(data["hand"]), data["hand_sizes"], data["legal_actions"]
(13, [13, 13, 13, 13], ['draw stock'])
>>> data["legal"]
[{'type': 'draw', 'source': 'stock', 'depth': 1, 'text': 'draw stock'}]
>>> view_json(game.view(None))["hand"]
[]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from remikit.actions import Action, Play
from remikit.cards import Card
from remikit.views import DealSummary, PlayerView, PlayLog, SeatResult, TableMeld

PROTOCOL = 4
"""The version of the WebSocket protocol (docs/protocol.md), sent in ``welcome``."""


def action_json(action: Action) -> dict[str, Any]:
    """An action's structured form, with its record text as ``text`` (its kind's
    :meth:`~remikit.actions.Action.as_json`)."""
    return action.as_json()


def play_json(play: Play) -> dict[str, Any]:
    """A log entry: the seat, the action's structured form, and the record line (a deal's
    entries are made once each, :func:`log_json`; do not change what it gives)."""
    return {"seat": play.seat, "action": action_json(play.action), "text": play.text}


_LOGS: dict[int, tuple[list[Play], list[dict[str, Any]], list[str]]] = {}
"""Per deal's log (by identity, kept with it), the JSON and the lines of its entries so
far: a log only grows, so each state of a deal adds only its new entries."""
LOGS_KEPT = 1 << 12


def log_json(log: Sequence[Play]) -> tuple[list[dict[str, Any]], list[str]]:
    """A view's log as the entries' JSON and as record lines (new lists each time: a state
    sent is never changed)."""
    if not isinstance(log, PlayLog):
        plays = [play_json(play) for play in log]
        return plays, [play["text"] for play in plays]
    source, length = log.source, len(log)
    kept = _LOGS.get(id(source))
    if kept is None or kept[0] is not source:
        if len(_LOGS) >= LOGS_KEPT:
            _LOGS.clear()
        kept = _LOGS[id(source)] = (source, [], [])
    _, made, lines = kept
    for play in source[len(made) : length]:
        entry = play_json(play)
        made.append(entry)
        lines.append(entry["text"])
    return made[:length], lines[:length]


def cards_json(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def card_json(card: Card | None) -> str | None:
    return None if card is None else str(card)


def seat_result_json(result: SeatResult) -> dict[str, Any]:
    return {
        "points": result.points,
        "melds": [list(m) for m in result.melds],
        "dead": cards_json(result.dead),
        "closing": card_json(result.closing),
        "bonus": result.bonus,
        "went_out": result.went_out,
        "laid": [
            {
                "meld": laid.meld,
                "owner": laid.owner,
                "cards": list(laid.cards),
                "points": laid.points,
                "layoff": laid.layoff,
            }
            for laid in result.laid
        ],
        "held": result.held,
    }


_SUMMARIES: dict[int, tuple[DealSummary, dict[str, Any]]] = {}
"""The JSON of finished deals by the identity of their summary (kept with it), made once:
every later state of the game shows them."""
SUMMARIES_KEPT = 1 << 12


def summary_json(summary: DealSummary) -> dict[str, Any]:
    """A finished deal (made once per summary: do not change what it gives)."""
    kept = _SUMMARIES.get(id(summary))
    if kept is not None and kept[0] is summary:
        return kept[1]
    made = {
        "number": summary.number,
        "ended_by": summary.ended_by,
        "by_seat": summary.by_seat,
        "points": list(summary.points),
        "results": [seat_result_json(r) for r in summary.results],
    }
    if len(_SUMMARIES) >= SUMMARIES_KEPT:
        _SUMMARIES.clear()
    _SUMMARIES[id(summary)] = (summary, made)
    return made


def table_meld_json(meld: TableMeld) -> dict[str, Any]:
    return {
        "number": meld.number,
        "cards": cards_json(meld.cards),
        "stands_for": [card_json(c) for c in meld.stands_for],
        "laid_by": list(meld.laid_by),
    }


def view_json(view: PlayerView) -> dict[str, Any]:
    """Every field of the view, in JSON types (see docs/protocol.md); the variant's own
    fields as its :class:`~remikit.views.ViewPart` gives them."""
    plays, lines = log_json(view.log)
    return {
        "variant": view.variant,
        "seat": view.seat,
        "players": view.players,
        "options": view.options.as_dict(),
        "deal_number": view.deal_number,
        "dealer": view.dealer,
        "to_play": view.to_play,
        "phase": view.phase,
        "hand": cards_json(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "stock_size": view.stock_size,
        "discard_pile": cards_json(view.discard_pile),
        "top_discard": card_json(view.top_discard),
        "log": lines,
        "plays": plays,
        "totals": list(view.totals),
        "finished_deals": [summary_json(s) for s in view.finished_deals],
        "legal_actions": [str(a) for a in view.legal_actions],
        "legal": [action_json(a) for a in view.legal_actions],
        "game_over": view.game_over,
        "winner": view.winner,
        "table": [table_meld_json(m) for m in view.table],
        "taken_from_discard": [[seat, str(card)] for seat, card in view.taken_from_discard],
        **view.extra.as_json(),
    }
