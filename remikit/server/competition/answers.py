"""What the competition API's routes share: the service, who asks (the login of an
``Authorization: Bearer TOKEN`` header), the client's limits, and the answers built
from a snapshot for them: the players, a round and its tables, the last round a
request may see, a CSV download."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import Request
from fastapi.responses import Response

from remikit.competition.seat_draw import Redraw, seats
from remikit.server.competition.auth import Login
from remikit.server.competition.ledger import known_player
from remikit.server.competition.online import duplicate_done, duplicate_json
from remikit.server.competition.service import Competitions
from remikit.server.competition.views import (
    done_at,
    player_json,
    published_round,
    round_status,
    round_tables,
    table_json,
)
from remikit.server.problems import Problem
from remikit.storage.competition import CompTableRow, Snapshot, locked_subjects


def service(request: Request) -> Competitions:
    found: Competitions = request.app.state.competitions
    return found


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


async def logged_in(request: Request, cid: str, authorization: str | None) -> Login | None:
    return await service(request).logins.login_of(cid, bearer(authorization))


async def need(
    request: Request, cid: str, authorization: str | None, *, organiser: bool = False
) -> Login:
    return await service(request).logins.require(cid, bearer(authorization), organiser=organiser)


def limited(request: Request, kind: Literal["create", "join"]) -> None:
    """Spend one of the client's creations (a competition) or joins (a login attempt):
    the web table's limits (docs/protocol.md §3.11), ``rate_limited`` beyond them."""
    limits = service(request).hub.limits
    client = limits.client(request.client.host if request.client else None)
    (limits.create if kind == "create" else limits.join).check(client)


async def players_answer(
    request: Request, snap: Snapshot, *, contact: bool, code: bool = False
) -> list[Any]:
    """The players; their contact for a login, their confirmation code for the organiser."""
    history = (await service(request).logged(snap.competition.id)).histories or {}
    out = [
        player_json(p, history.get(p.id, []), contact=contact, code=code)
        for p in snap.players.values()
    ]
    if code:  # the organiser sees whose code wrong codes locked
        locked = await service(request).read(lambda s: locked_subjects(s, snap.competition.id))
        for player in out:
            player["code_locked"] = f"player:{player['id']}" in locked
    return out


async def one_player(request: Request, cid: str, pid: str, *, code: bool = False) -> dict[str, Any]:
    kept = await service(request).logged(cid)
    player = known_player(kept.snap, pid)
    history = (kept.histories or {}).get(player.id, [])
    return player_json(player, history, contact=True, code=code)


def table_answer(request: Request, snap: Snapshot, table: CompTableRow, hide: bool) -> Any:
    redraw = None
    if table.kind == "physical" and table.draws and table.seat_draw is None:
        try:
            seats(table.draws)
        except Redraw as again:
            redraw = again.positions
    elif table.web_table is not None and table.seat_draw is None:
        live = service(request).online.live_seat_draw(table)
        if live is not None:  # the kept snapshot's row stays as stored
            table = CompTableRow(
                **{c.key: getattr(table, c.key) for c in CompTableRow.__table__.columns}
            )
            table.seat_draw = live
    out = table_json(snap, table, redraw)
    if hide:
        for game in out["games"]:
            game["entry"] = None
    return out


def round_answer(request: Request, snap: Snapshot, number: int, *, public: bool) -> Any:
    row = snap.rounds.get(number)
    if row is None:
        raise Problem("unknown_round", "competition.unknown_round", status=404, round=number)
    hide = public and number > published_round(snap)
    # a duplicate round's online games stay hidden from the public until all are played
    held = public and row.secret is not None and not duplicate_done(snap, number)
    return {
        "number": number,
        "status": round_status(snap, number),
        "tables": [
            table_answer(request, snap, t, hide or (held and t.kind == "online"))
            for t in round_tables(snap, number)
        ],
        "byes": list(row.seating.get("byes", [])),
        "quality": dict(row.seating.get("quality", {})),
        "online_tables": list(row.seating.get("online_tables", [])),
        "timer": service(request).rounds.timer_json(
            snap.competition.id, number, row.timer, done_at(snap, number)
        ),
        "duplicate": duplicate_json(snap, number),
    }


async def visible_round(
    request: Request, snap: Snapshot, asked: int | None, authorization: str | None
) -> int:
    """The last round a request sees results of: the one asked for (else the current),
    no later than the published round for the public."""
    upto = snap.current_round if asked is None else asked
    if await logged_in(request, snap.competition.id, authorization) is None:
        upto = min(upto, published_round(snap))
    return upto


def csv_response(text: str, name: str) -> Response:
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
    )
