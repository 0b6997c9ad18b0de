"""The competition API's routes (docs/competition.md): ``/api/competitions/...``, JSON
in and out, errors in the documented shape. Requests carry ``Authorization: Bearer
TOKEN`` where a login is needed. The bodies they take are in :mod:`.bodies`, what they
share in :mod:`.answers`, the rules in :mod:`.service`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Query, Request
from fastapi.responses import JSONResponse, Response

from remikit.bots import check_bot
from remikit.competition import competition_variant
from remikit.competition.exports import scores_csv, standings_csv
from remikit.server.competition.answers import (
    csv_response,
    limited,
    logged_in,
    need,
    one_player,
    players_answer,
    round_answer,
    service,
    table_answer,
    visible_round,
)
from remikit.server.competition.auth import check_password
from remikit.server.competition.bodies import (
    ConfirmRequest,
    CreateRequest,
    EntryRequest,
    LoginRequest,
    PlayerRequest,
    ReasonRequest,
    RoundRequest,
    SeatDrawRequest,
    TimerRequest,
    absence_fields,
    clean,
    entry_body,
)
from remikit.server.competition.ledger import known_player
from remikit.server.competition.ranking import player_games, standing_rows
from remikit.server.competition.views import (
    competition_json,
    entry_json,
    missing,
    public_row,
    published_round,
    score_lines,
)
from remikit.server.problems import Problem, pick_lang
from remikit.server.share import root_path

router = APIRouter(prefix="/api/competitions")


Auth = Annotated[str | None, Header()]


# -- competitions and logins ------------------------------------------------------------------


@router.post("", status_code=201)
async def create(request: Request, body: Annotated[CreateRequest, Body()]) -> dict[str, Any]:
    limited(request, "create")
    data = body.model_dump()
    data["name"] = clean(body.name, 100, required=True)
    data["venue"] = clean(body.venue, 100) or ""
    data["organiser_name"] = clean(body.organiser_name, 40, required=True)
    for password in (body.organiser_password, body.referee_password):
        if password is not None:
            check_password(password)
    level = body.bot_level.strip().lower()
    try:
        check_bot(level, competition_variant().name)
    except ValueError as exc:
        raise Problem("bad_bot", "competition.bad_bot", level=level, why=exc) from None
    data["bot_level"] = level
    data |= absence_fields(body)
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
    """A login of an account by its name and password (docs/competition.md §5.2)."""
    limited(request, "join")
    name = clean(body.name, 40) or body.role
    if name is None:
        raise Problem("bad_name", "competition.bad_name", max=40)
    token, who, expires = await service(request).logins.login(cid, name, body.password, body.role)
    return {"token": token, "role": who.role, "name": who.name, "expires_at": expires.isoformat()}


# -- players -------------------------------------------------------------------------------


@router.get("/{cid}/players")
async def players(request: Request, cid: str, authorization: Auth = None) -> dict[str, Any]:
    snap = await service(request).snapshot(cid)
    who = await logged_in(request, cid, authorization)
    organiser = who is not None and who.role == "organiser"
    answer = await players_answer(request, snap, contact=who is not None, code=organiser)
    return {"players": answer}


@router.post("/{cid}/players", status_code=201)
async def add_player(
    request: Request, cid: str, body: Annotated[PlayerRequest, Body()], authorization: Auth = None
) -> dict[str, Any]:
    who = await need(request, cid, authorization, organiser=True)
    name = clean(body.name, 40, required=True)
    assert name is not None
    club, contact = clean(body.club, 60), clean(body.contact, 100)
    player = await service(request).add_player(cid, who, name, club, contact)
    return {"player": await one_player(request, cid, player.id, code=True)}


async def move(
    request: Request, cid: str, pid: str, what: str, reason: str | None, authorization: str | None
) -> dict[str, Any]:
    who = await need(request, cid, authorization)
    player = await service(request).move_player(cid, who, pid, what, reason)
    return {"player": await one_player(request, cid, player.id, code=who.role == "organiser")}


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
    player = known_player(snap, pid)
    upto = await visible_round(request, snap, None, authorization)
    shown = [g for g in player_games(snap, player.id) if g["round"] <= upto]
    return {"player": player.id, "name": player.name, "games": shown}


# -- rounds ----------------------------------------------------------------------------------


@router.post("/{cid}/rounds", status_code=201)
async def make_round(
    request: Request, cid: str, body: Annotated[RoundRequest, Body()], authorization: Auth = None
) -> Any:
    who = await need(request, cid, authorization, organiser=True)
    number = await service(request).rounds.make_round(cid, who, sorted(set(body.online_tables)))
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
    shown = await service(request).rounds.timer(cid, who, number, body.action, body.minutes)
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
    pending = await service(request).rounds.seat_draw(cid, who, number, table, given)
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
    entry = await service(request).entries.enter(cid, who, number, table, game, entry_body(body))
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
    entry = await service(request).entries.enter(cid, who, number, table, game, fields, store=False)
    return {"entry": entry_json(entry)}


@router.post("/{cid}/entries/{entry_id}/confirm")
async def confirm(
    request: Request,
    cid: str,
    entry_id: int,
    body: Annotated[ConfirmRequest | None, Body()] = None,
    authorization: Auth = None,
) -> Any:
    """Confirmed by a player of the table (``player`` with their ``code``) or by another
    account's login."""
    who = await need(request, cid, authorization)
    player, code = (None, None) if body is None else (body.player, body.code)
    entry = await service(request).entries.confirm(cid, who, entry_id, player, code)
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
    entry = await service(request).entries.correct(cid, who, entry_id, fields)
    return {"entry": entry_json(entry)}


# -- standings, audit, exports ---------------------------------------------------------------


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
    if await logged_in(request, cid, authorization) is None:
        rows = [public_row(r) for r in rows]
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
    rows = standing_rows(snap, upto)
    if await logged_in(request, cid, authorization) is None:
        rows = [public_row(r) for r in rows]
    return csv_response(standings_csv(rows), f"standings-{snap.competition.id}")


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


@router.get("/{cid}/audit")
async def audit_log(request: Request, cid: str, authorization: Auth = None) -> Any:
    await need(request, cid, authorization)
    return (await service(request).logged(cid)).log
