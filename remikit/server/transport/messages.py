"""A live table as JSON: its info (the lobby and every state), and a seat's state message
(docs/protocol.md §4)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from remikit.actions import Action
from remikit.server.advice import StateAdvice, state_advice, state_key
from remikit.server.serialize import action_json, view_json
from remikit.server.tables.fair_deals import FairDeal
from remikit.server.tables.lobby import Lobby
from remikit.server.tables.service import Table
from remikit.views import PlayerView


def seats_json(table: Table) -> list[dict[str, Any]]:
    return [
        {
            "seat": i,
            "kind": s.kind,
            "name": s.name,
            "level": s.level,
            "taken": s.taken,
            "connected": table.connected(i),
            "away": s.away,
            "then": s.then,
            "thinking": i == table.thinking,
            "profile": s.profile,
        }
        for i, s in enumerate(table.seats)
    ]


def presence_json(table: Table) -> dict[str, Any]:
    """Who is connected and away, and how many watch: what changes when a socket comes or
    goes, sent instead of the whole state."""
    return {
        "type": "presence",
        "table_id": table.id,
        "state_id": table.state_id,
        "seats": [
            {
                "seat": i,
                "connected": table.connected(i),
                "away": s.away,
                "thinking": i == table.thinking,
            }
            for i, s in enumerate(table.seats)
        ],
        "spectators": table.spectators,
    }


@dataclass
class _Made:
    """The JSON a table's messages share while what it shows stays the same (so that every
    state shares the same objects, and a change compares them at once): its info that
    never changes (and when it was made), its seat draw, its deals' public fairness
    (by deal number and whether the secret is revealed, with the contributions it shows),
    and each seat's state advice with what it read (:func:`_advice`)."""

    fixed: dict[str, Any]
    created_at: str
    draw: tuple[object, tuple[str | None, ...], list[dict[str, Any]]] | None = None
    public: dict[tuple[int, bool], tuple[FairDeal, tuple[bytes | None, ...], dict[str, Any]]] = (
        field(default_factory=dict)
    )
    advice: dict[int, tuple[Hashable, StateAdvice | None]] = field(default_factory=dict)


_MADE: WeakKeyDictionary[Table, _Made] = WeakKeyDictionary()


def _made(table: Table) -> _Made:
    made = _MADE.get(table)
    if made is None:
        made = _MADE[table] = _Made(
            {
                "id": table.id,
                "variant": table.variant.name,
                "variant_title": table.variant.titles,
                "client": table.variant.client_json(),
                "title": table.title,
                "options": table.game.options.as_dict(),
                "settings": table.settings.as_dict(),
                "lang": table.lang,
                "players": table.game.players,
            },
            table.created_at.isoformat(),
        )
    return made


def table_info(table: Table) -> dict[str, Any]:
    """The table as the lobby and every state message show it."""
    made = _made(table)
    return {
        **made.fixed,
        "status": table.status,
        "state_id": table.state_id,
        "seats": seats_json(table),
        "free_seats": [i for i, s in enumerate(table.seats) if not s.taken],
        "spectators": table.spectators,
        "created_at": made.created_at,
        "finished_at": table.finished_at.isoformat() if table.finished_at else None,
        "seat_draw": seat_draw_json(table),
        "timer": timer_json(table),
        "rematch": table.rematch,
        **({"abandoned": True} if table.abandoned else {}),
    }


def timer_json(table: Table) -> dict[str, int] | None:
    """The turn timer running now: whose turn, the turn time and the time left."""
    if table.turn_timer is None:
        return None
    (_, seat), timer = table.turn_timer
    return {"seat": seat} | timer.json(table.clock)


def seat_draw_json(table: Table) -> list[dict[str, Any]] | None:
    """The seat draw (R13-2) in seat order: who sits there, the seat taken before it and
    the cards drawn; None before the draw or where the variant has none."""
    drawn = table.seat_draw
    if drawn is None:
        return None
    made = _made(table)
    names = tuple(table.seats[i].name for i in range(len(drawn)))
    if made.draw is not None and made.draw[0] is drawn and made.draw[1] == names:
        return made.draw[2]
    shown = [
        {"seat": i, "name": name, "joined": d["joined"], "cards": list(d["cards"])}
        for (i, d), name in zip(enumerate(drawn), names, strict=True)
    ]
    made.draw = (drawn, names, shown)
    return shown


def window_json(table: Table, seat: int | None) -> dict[str, Any] | None:
    window = table.window
    if window is None:
        return None
    left = max(0.0, window.ends_at - table.clock.now())
    mine = window.held.get(seat) if seat is not None else None
    return {
        "discarder": window.discarder,
        "seats": window.seats,
        "duration_ms": round(window.duration * 1000),
        "ends_in_ms": round(left * 1000),
        "my_call": action_json(mine) if mine else None,
    }


def fairness_json(table: Table, seat: int | None) -> dict[str, Any]:
    """What a state shows of the fair deals: the unshuffled deck every deal shuffles, the
    deal in play (no secret), the last deal over (its secret revealed, unless the table's
    secrets are held back) and, for the next
    deal, its commitment and whether ``seat`` may contribute to it."""
    deals = table.game.deals
    playing = deals[-1].number if deals and not deals[-1].is_over else None
    ended = next((d.number for d in reversed(deals) if d.is_over), None)
    shown: dict[str, Any] = {
        "version": 1,
        "deck": table.unshuffled,
        "deal": None,
        "ended": None,
        "next": None,
    }
    if playing in table.fair:
        shown["deal"] = _public(table, playing, revealed=False)
    if ended in table.fair:
        shown["ended"] = _public(table, ended, revealed=not table.secrets_held)
    number = table.next_deal
    if number in table.fair:
        fair = table.fair[number]
        mine = fair.contributions[seat] if seat is not None else None
        shown["next"] = {
            "deal": number,
            "commitment": fair.commitment.hex(),
            "open": table.takes_contribution(seat),
            "mine": mine.hex() if mine is not None else None,
        }
    return shown


def _public(table: Table, number: int, *, revealed: bool) -> dict[str, Any]:
    """Deal ``number``'s public fairness, made again only when its contributions change."""
    fair, cache = table.fair[number], _made(table).public
    contributions = tuple(fair.contributions)
    kept = cache.get((number, revealed))
    if kept is not None and kept[0] is fair and kept[1] == contributions:
        return kept[2]
    shown = fair.public(table.id, revealed=revealed)
    cache[number, revealed] = (fair, contributions, shown)
    return shown


def _advice(table: Table, seat: int, view: PlayerView) -> StateAdvice | None:
    """The seat's state advice: the one made before while what it reads is the same (its
    variant's :func:`~remikit.server.advice.state_key`), else made again."""
    key = state_key(view)
    if key is None:
        return state_advice(view)
    made = _made(table).advice
    kept = made.get(seat)
    if kept is not None and kept[0] == key:
        return kept[1]
    advice = state_advice(view)
    made[seat] = (key, advice)
    return advice


def lay_down_step(table: Table, view: PlayerView) -> Action | None:
    """The next step of the seat's best laying down, where the variant has one (its
    ``lay_down`` part) and the seat is to play: from the seat's own view only."""
    if view.seat is None or view.to_play != view.seat or not table.variant.has("lay_down"):
        return None
    step: Action | None = table.variant.part("lay_down")(view)
    return step


def state_json(
    table: Table, seat: int | None, info: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``seat``'s state message (None: a spectator's), without its ``rev``; ``info`` is
    the table's info now, where the caller has it (the states of one moment share it)."""
    view = table.view(seat)
    message = {
        "type": "state",
        "table_id": table.id,
        "state_id": table.state_id,
        "table": table_info(table) if info is None else info,
        "call_window": window_json(table, seat),
        "view": view_json(view),
        "fairness": fairness_json(table, seat),
    }
    if seat is not None and table.settings.hints:
        message["advice"] = _advice(table, seat, view)
    step = lay_down_step(table, view)
    if step is not None:
        message["lay_down"] = action_json(step)
    return message


def lobby_json(lobby: Lobby, *, limit: int, offset: int, **filters: Any) -> dict[str, Any]:
    """A page of the lobby as ``GET /api/tables`` answers it (docs/protocol.md §3.2)."""
    total, tables = lobby.page(limit=limit, offset=offset, **filters)
    return {
        "tables": [t if isinstance(t, dict) else table_info(t) for t in tables],
        "total": total,
        "limit": limit,
        "offset": offset,
    }
