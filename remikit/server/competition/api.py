"""The competition API (docs/competition.md): ``/api/competitions/...``, JSON in and
out, errors in the documented shape. Requests carry ``Authorization: Bearer TOKEN``
where a login is needed; the rules live in :mod:`.service`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Header, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field, StrictInt, field_validator

from remikit.bots import check_bot
from remikit.competition import competition_variant
from remikit.competition.exports import scores_csv, standings_csv
from remikit.competition.seat_draw import Redraw, seats
from remikit.competition.standings import TieBreak
from remikit.server.competition.service import Competitions, Login
from remikit.server.competition.views import (
    competition_json,
    entry_json,
    history_json,
    missing,
    player_games,
    player_json,
    published_round,
    round_status,
    round_tables,
    score_lines,
    standing_rows,
    table_json,
)
from remikit.server.competition.web import web_seat_draw
from remikit.server.problems import Problem, pick_lang
from remikit.server.share import root_path
from remikit.storage.competition import CompTableRow, Snapshot, audit

router = APIRouter(prefix="/api/competitions")

Card = Annotated[str, Field(max_length=8)]
Position = Literal["A", "B", "C", "D", "a", "b", "c", "d"]
Reason = Annotated[str, Field(min_length=1, max_length=500)]


def clean(text: str | None, most: int, *, required: bool = False) -> str | None:
    """A name as shown: spaces folded, printable, 1 to ``most`` characters (None for
    an optional one left empty); else the problem ``bad_name``."""
    folded = " ".join((text or "").split())
    if not folded and not required:
        return None
    if not 1 <= len(folded) <= most or not folded.isprintable():
        raise Problem("bad_name", "competition.bad_name", max=most)
    return folded


class CreateRequest(BaseModel):
    name: str = Field(max_length=200)
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    venue: str = Field(default="", max_length=200)
    rounds: int = Field(ge=1, le=20, strict=True)
    games: int = Field(default=4, ge=1, le=10, strict=True)
    tie_breaks: list[TieBreak] = Field(default_factory=list, max_length=5)
    fill: Literal["bots", "byes"] = "byes"
    bot_level: str = Field(default="greedy", max_length=40)
    bye_points: Literal["average", "zero"] = "average"
    clubs_apart: bool = False
    publish: Literal["live", "round"] = "live"
    organiser_password: str = Field(min_length=4, max_length=200)
    referee_password: str = Field(min_length=4, max_length=200)

    @field_validator("tie_breaks")
    @classmethod
    def once_each(cls, value: list[TieBreak]) -> list[TieBreak]:
        if len(set(value)) != len(value):
            raise ValueError("each tie-break at most once")
        return value


class LoginRequest(BaseModel):
    role: Literal["organiser", "referee"]
    password: str = Field(max_length=200)
    name: str | None = Field(default=None, max_length=200)


class PlayerRequest(BaseModel):
    name: str = Field(max_length=200)
    club: str | None = Field(default=None, max_length=200)
    contact: str | None = Field(default=None, max_length=200)


class ReasonRequest(BaseModel):
    reason: Reason


class RoundRequest(BaseModel):
    online_tables: list[Annotated[int, Field(ge=1, le=10_000)]] = Field(
        default_factory=list, max_length=1000
    )


class SeatDrawRequest(BaseModel):
    cards: dict[Position, Card] | None = None
    redraw: dict[Position, Card] | None = None


class EntryRequest(BaseModel):
    """Cards (``hands`` in game-seat order, ``closer``, ``closing``) or ``points`` with a
    ``reason``; a correction has a reason either way."""

    hands: list[Annotated[list[Card], Field(max_length=20)]] | None = Field(
        default=None, max_length=8
    )
    closer: StrictInt | list[StrictInt] | None = Field(default=None)
    closing: Card | None = None
    points: list[StrictInt] | None = Field(default=None, max_length=8)
    reason: Reason | None = None


class ConfirmRequest(BaseModel):
    player: str | None = Field(default=None, max_length=16)


class TimerRequest(BaseModel):
    action: Literal["start", "pause", "reset"]
    minutes: int | None = Field(default=None, ge=1, le=600)


def service(request: Request) -> Competitions:
    found: Competitions = request.app.state.competitions
    return found


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


Auth = Annotated[str | None, Header()]


async def logged_in(request: Request, cid: str, authorization: str | None) -> Login | None:
    return await service(request).login_of(cid, bearer(authorization))


async def need(
    request: Request, cid: str, authorization: str | None, *, organiser: bool = False
) -> Login:
    return await service(request).require(cid, bearer(authorization), organiser=organiser)


def entry_body(body: EntryRequest, *, correction: bool = False) -> dict[str, Any]:
    """The entry's fields: exactly one of cards and points, a reason where needed."""
    if (body.hands is None) == (body.points is None):
        raise Problem("bad_entry", "competition.cards_or_points")
    if body.reason is None and (correction or body.points is not None):
        raise Problem("bad_entry", "competition.need_reason")
    return body.model_dump()


# -- competitions and logins ------------------------------------------------------------------


def limited(request: Request, kind: Literal["create", "join"]) -> None:
    """Spend one of the client's creations (a competition) or joins (a login attempt):
    the web table's limits (docs/protocol.md §3.11), ``rate_limited`` beyond them."""
    limits = service(request).hub.limits
    client = limits.client(request.client.host if request.client else None)
    (limits.create if kind == "create" else limits.join).check(client)


@router.post("", status_code=201)
async def create(request: Request, body: Annotated[CreateRequest, Body()]) -> dict[str, Any]:
    limited(request, "create")
    data = body.model_dump()
    data["name"] = clean(body.name, 100, required=True)
    data["venue"] = clean(body.venue, 100) or ""
    level = body.bot_level.strip().lower()
    try:
        check_bot(level, competition_variant().name)
    except ValueError as exc:
        raise Problem("bad_bot", "competition.bad_bot", level=level, why=exc) from None
    data["bot_level"] = level
    snap, token = await service(request).create(data)
    return {"competition": competition_json(snap, root_path(request)), "token": token}


@router.get("/{cid}")
async def get(request: Request, cid: str) -> dict[str, Any]:
    snap = await service(request).snapshot(cid)
    return {"competition": competition_json(snap, root_path(request))}


@router.post("/{cid}/login")
async def login(
    request: Request, cid: str, body: Annotated[LoginRequest, Body()]
) -> dict[str, Any]:
    limited(request, "join")
    name = clean(body.name, 40) or body.role
    token = await service(request).login(cid, body.role, body.password, name)
    return {"token": token, "role": body.role, "name": name}


# -- players -------------------------------------------------------------------------------


async def players_answer(request: Request, snap: Snapshot, *, contact: bool) -> list[Any]:
    rows = await service(request).read(lambda s: audit(s, snap.competition.id, "player:"))
    history: dict[str, list[Any]] = {}
    for row in rows:
        history.setdefault(row.target.removeprefix("player:"), []).append(row)
    return [player_json(p, history.get(p.id, []), contact=contact) for p in snap.players.values()]


@router.get("/{cid}/players")
async def players(request: Request, cid: str, authorization: Auth = None) -> dict[str, Any]:
    snap = await service(request).snapshot(cid)
    who = await logged_in(request, cid, authorization)
    return {"players": await players_answer(request, snap, contact=who is not None)}


@router.post("/{cid}/players", status_code=201)
async def add_player(
    request: Request, cid: str, body: Annotated[PlayerRequest, Body()], authorization: Auth = None
) -> dict[str, Any]:
    who = await need(request, cid, authorization, organiser=True)
    name = clean(body.name, 40, required=True)
    assert name is not None
    club, contact = clean(body.club, 60), clean(body.contact, 100)
    player = await service(request).add_player(cid, who, name, club, contact)
    return {"player": await one_player(request, cid, player.id)}


async def one_player(request: Request, cid: str, pid: str) -> dict[str, Any]:
    snap = await service(request).snapshot(cid)
    player = service(request).player(snap, pid)
    target = f"player:{player.id}"
    rows = await service(request).read(lambda s: audit(s, snap.competition.id, target))
    return player_json(player, rows, contact=True)


async def move(
    request: Request, cid: str, pid: str, what: str, reason: str | None, authorization: str | None
) -> dict[str, Any]:
    who = await need(request, cid, authorization)
    player = await service(request).move_player(cid, who, pid, what, reason)
    return {"player": await one_player(request, cid, player.id)}


@router.post("/{cid}/players/{pid}/check-in")
async def check_in(request: Request, cid: str, pid: str, authorization: Auth = None) -> Any:
    return await move(request, cid, pid, "check_in", None, authorization)


@router.post("/{cid}/players/{pid}/drop")
async def drop(
    request: Request,
    cid: str,
    pid: str,
    body: Annotated[ReasonRequest, Body()],
    authorization: Auth = None,
) -> Any:
    return await move(request, cid, pid, "drop", body.reason, authorization)


@router.post("/{cid}/players/{pid}/disqualify")
async def disqualify(
    request: Request,
    cid: str,
    pid: str,
    body: Annotated[ReasonRequest, Body()],
    authorization: Auth = None,
) -> Any:
    return await move(request, cid, pid, "disqualify", body.reason, authorization)


@router.get("/{cid}/players/{pid}/games")
async def games_of(request: Request, cid: str, pid: str, authorization: Auth = None) -> Any:
    """The games behind a player's numbers in the standings."""
    snap = await service(request).snapshot(cid)
    player = service(request).player(snap, pid)
    upto = await visible_round(request, snap, None, authorization)
    shown = [g for g in player_games(snap, player.id) if g["round"] <= upto]
    return {"player": player.id, "name": player.name, "games": shown}


# -- rounds ----------------------------------------------------------------------------------


def table_answer(request: Request, snap: Snapshot, table: CompTableRow, hide: bool) -> Any:
    redraw = None
    if table.kind == "physical" and table.draws and table.seat_draw is None:
        try:
            seats(table.draws)
        except Redraw as again:
            redraw = again.positions
    elif table.web_table is not None and table.seat_draw is None:
        live = service(request).hub.tables.get(table.web_table)
        if live is not None:
            table.seat_draw = web_seat_draw(live.seat_draw, table.seats)
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
    return {
        "number": number,
        "status": round_status(snap, number),
        "tables": [table_answer(request, snap, t, hide) for t in round_tables(snap, number)],
        "byes": list(row.seating.get("byes", [])),
        "quality": dict(row.seating.get("quality", {})),
        "online_tables": list(row.seating.get("online_tables", [])),
        "timer": service(request).timer_json(snap.competition.id, number, row.timer),
    }


@router.post("/{cid}/rounds", status_code=201)
async def make_round(
    request: Request, cid: str, body: Annotated[RoundRequest, Body()], authorization: Auth = None
) -> Any:
    who = await need(request, cid, authorization, organiser=True)
    number = await service(request).make_round(cid, who, sorted(set(body.online_tables)))
    snap = await service(request).snapshot(cid)
    return {"round": round_answer(request, snap, number, public=False)}


@router.get("/{cid}/rounds/{number}")
async def get_round(request: Request, cid: str, number: int, authorization: Auth = None) -> Any:
    snap = await service(request).snapshot(cid)
    public = await logged_in(request, cid, authorization) is None
    return {"round": round_answer(request, snap, number, public=public)}


@router.get("/{cid}/rounds/{number}/missing")
async def missing_games(request: Request, cid: str, number: int) -> Any:
    snap = await service(request).snapshot(cid)
    if number not in snap.rounds:
        raise Problem("unknown_round", "competition.unknown_round", status=404, round=number)
    return missing(snap, number)


@router.post("/{cid}/rounds/{number}/timer")
async def timer(
    request: Request,
    cid: str,
    number: int,
    body: Annotated[TimerRequest, Body()],
    authorization: Auth = None,
) -> Any:
    who = await need(request, cid, authorization, organiser=True)
    shown = await service(request).timer(cid, who, number, body.action, body.minutes)
    return {"timer": shown}


@router.post("/{cid}/rounds/{number}/tables/{table}/seat-draw")
async def seat_draw(
    request: Request,
    cid: str,
    number: int,
    table: int,
    body: Annotated[SeatDrawRequest, Body()],
    authorization: Auth = None,
) -> Any:
    """A draw of R13-2; a tie answers ``redraw`` (409) with the positions to draw again."""
    who = await need(request, cid, authorization)
    cards = body.cards if body.cards is not None else body.redraw
    if cards is None or (body.cards is not None and body.redraw is not None):
        raise Problem("bad_seat_draw", "competition.cards_or_redraw")
    given = {str(position): card for position, card in cards.items()}
    pending = await service(request).seat_draw(cid, who, number, table, given)
    snap = await service(request).snapshot(cid)
    answer = table_answer(request, snap, snap.tables[(number, table)], hide=False)
    if pending is None:
        return {"table": answer}
    problem = Problem("redraw", "competition.redraw", status=409, positions=" ".join(pending))
    lang = pick_lang(request.query_params.get("lang") or request.headers.get("accept-language"))
    error = problem.json(lang) | {"positions": list(pending)}
    return JSONResponse({"error": error, "table": answer}, status_code=409)


@router.post("/{cid}/rounds/{number}/tables/{table}/games/{game}", status_code=201)
async def enter(
    request: Request,
    cid: str,
    number: int,
    table: int,
    game: int,
    body: Annotated[EntryRequest, Body()],
    authorization: Auth = None,
) -> Any:
    who = await need(request, cid, authorization)
    entry = await service(request).enter(cid, who, number, table, game, entry_body(body))
    return {"entry": entry_json(entry)}


@router.post("/{cid}/rounds/{number}/tables/{table}/games/{game}/preview")
async def preview(
    request: Request,
    cid: str,
    number: int,
    table: int,
    game: int,
    body: Annotated[EntryRequest, Body()],
    authorization: Auth = None,
) -> Any:
    """The entry as it would be stored (the calculator's result), checked the same way;
    nothing is stored."""
    who = await need(request, cid, authorization)
    fields = entry_body(body)
    entry = await service(request).enter(cid, who, number, table, game, fields, store=False)
    return {"entry": entry_json(entry)}


@router.post("/{cid}/entries/{entry_id}/confirm")
async def confirm(
    request: Request,
    cid: str,
    entry_id: int,
    body: Annotated[ConfirmRequest | None, Body()] = None,
    authorization: Auth = None,
) -> Any:
    """Confirmed by a player of the table (``player``) or by another login."""
    who = await need(request, cid, authorization)
    player = None if body is None else body.player
    entry = await service(request).confirm(cid, who, entry_id, player)
    return {"entry": entry_json(entry)}


@router.post("/{cid}/entries/{entry_id}/correct")
async def correct(
    request: Request,
    cid: str,
    entry_id: int,
    body: Annotated[EntryRequest, Body()],
    authorization: Auth = None,
) -> Any:
    who = await need(request, cid, authorization)
    fields = entry_body(body, correction=True)
    entry = await service(request).correct(cid, who, entry_id, fields)
    return {"entry": entry_json(entry)}


# -- standings, audit, exports ---------------------------------------------------------------


async def visible_round(
    request: Request, snap: Snapshot, asked: int | None, authorization: str | None
) -> int:
    """The last round a request sees results of: the one asked for (else the current),
    no later than the published round for the public."""
    upto = snap.current_round if asked is None else asked
    if await logged_in(request, snap.competition.id, authorization) is None:
        upto = min(upto, published_round(snap))
    return upto


@router.get("/{cid}/standings")
async def standings(
    request: Request,
    cid: str,
    round: Annotated[int | None, Query(ge=0, le=20)] = None,
    authorization: Auth = None,
) -> Any:
    snap = await service(request).snapshot(cid)
    upto = await visible_round(request, snap, round, authorization)
    rows = standing_rows(snap, upto)
    return {
        "rows": [r.json() for r in rows],
        "round": upto,
        "published_round": published_round(snap),
    }


@router.get("/{cid}/standings.csv")
async def standings_export(
    request: Request,
    cid: str,
    round: Annotated[int | None, Query(ge=0, le=20)] = None,
    authorization: Auth = None,
) -> Response:
    snap = await service(request).snapshot(cid)
    upto = await visible_round(request, snap, round, authorization)
    return csv_response(
        standings_csv(standing_rows(snap, upto)), f"standings-{snap.competition.id}"
    )


@router.get("/{cid}/rounds/{number}/scores.csv")
async def scores_export(
    request: Request, cid: str, number: int, authorization: Auth = None
) -> Response:
    snap = await service(request).snapshot(cid)
    if number not in snap.rounds:
        raise Problem("unknown_round", "competition.unknown_round", status=404, round=number)
    if number > await visible_round(request, snap, number, authorization):
        raise Problem("not_published", "competition.not_published", status=409, round=number)
    lines = score_lines(snap, number)
    return csv_response(scores_csv(lines), f"scores-{snap.competition.id}-round-{number}")


def csv_response(text: str, name: str) -> Response:
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
    )


@router.get("/{cid}/audit")
async def audit_log(request: Request, cid: str, authorization: Auth = None) -> Any:
    await need(request, cid, authorization)
    snap = await service(request).snapshot(cid)
    rows = await service(request).read(lambda s: audit(s, snap.competition.id))
    return history_json(rows)
