"""What the competition API answers: the JSON of a competition, its players, rounds,
tables, games and entries (docs/competition.md), and the standings, seating history
and exports worked out from a stored :class:`~remikit.storage.competition.Snapshot`."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, cast

from remikit.competition.absence import (
    Absences,
    stored_rules,
)
from remikit.competition.exports import ScoreLine
from remikit.competition.results import dealers
from remikit.competition.seat_draw import POSITIONS
from remikit.competition.standings import (
    Row,
)
from remikit.storage.competition import (
    AuditRow,
    CompTableRow,
    EntryRow,
    PlayerRow,
    Snapshot,
)


def status(snap: Snapshot) -> str:
    """``registration`` before round 1, ``finished`` once the last round is done;
    ``archived`` once put in the archive."""
    if snap.competition.archived_at is not None:
        return "archived"
    if not snap.rounds:
        return "registration"
    last = snap.competition.rounds
    return "finished" if snap.current_round == last and round_done(snap, last) else "running"


def round_tables(snap: Snapshot, number: int) -> list[CompTableRow]:
    return sorted((t for (r, _), t in snap.tables.items() if r == number), key=lambda t: t.number)


def round_done(snap: Snapshot, number: int) -> bool:
    """Every game of every table of the round confirmed."""
    games = snap.competition.games
    return number in snap.rounds and all(
        (entry := snap.entries.get((number, t.number, g))) is not None and entry.confirmed_by
        for t in round_tables(snap, number)
        for g in range(1, games + 1)
    )


def done_at(snap: Snapshot, number: int) -> datetime | None:
    """When a round was done: its last game's confirmation (None while it is not done)."""
    if not round_done(snap, number):
        return None
    times = [e.confirmed_at for (r, _, _), e in snap.entries.items() if r == number]
    known = [t if t.tzinfo else t.replace(tzinfo=UTC) for t in times if t is not None]
    return max(known, default=None) or datetime.now(UTC)


def round_status(snap: Snapshot, number: int) -> str:
    if round_done(snap, number):
        return "done"
    started = snap.rounds[number].timer.get("started", False) or any(
        t.draws or t.seat_draw for t in round_tables(snap, number)
    )
    if started or any(r == number for r, _, _ in snap.entries):
        return "playing"
    return "seated"


def published_round(snap: Snapshot) -> int:
    """The last round the public standings include: the current one when they are
    published live, else the last round done."""
    if snap.competition.publish == "live":
        return snap.current_round
    return max((n for n in snap.rounds if round_done(snap, n)), default=0)


def links(competition_id: str, root: str) -> dict[str, str]:
    base = f"{root}/competitions/{competition_id}"
    return {
        "public": base,
        "admin": f"{base}/admin",
        "referee": f"{base}/referee",
        "projector": f"{base}/projector",
    }


def competition_json(snap: Snapshot, root: str) -> dict[str, Any]:
    c = snap.competition
    return {
        "id": c.id,
        "name": c.name,
        "date": c.date,
        "venue": c.venue,
        "rounds": c.rounds,
        "games": c.games,
        "tie_breaks": list(c.tie_breaks),
        "fill": c.fill,
        "bot_level": c.bot_level,
        "bye_points": c.bye_points,
        "clubs_apart": c.clubs_apart,
        "clubs_every_round": c.clubs_every_round,
        "publish": c.publish,
        "duplicate": c.duplicate,
        "login_hours": c.login_hours,
        "absences": rules(snap).json(),
        "rank_by": c.rank_by,
        "min_games": c.min_games,
        "status": status(snap),
        "current_round": snap.current_round,
        "links": links(c.id, root),
    }


def history_json(rows: Iterable[AuditRow]) -> list[dict[str, Any]]:
    """Audit rows as answered (SQLite gives their UTC times back without a zone)."""
    return [
        {
            "at": (row.at if row.at.tzinfo else row.at.replace(tzinfo=UTC)).isoformat(),
            "who": row.who,
            "role": row.role,
            "what": row.what,
            "target": row.target,
            "before": row.before,
            "after": row.after,
            "reason": row.reason,
        }
        for row in rows
    ]


def player_json(
    player: PlayerRow, history: Sequence[dict[str, Any]], *, contact: bool, code: bool = False
) -> dict[str, Any]:
    """A player with ``history`` (their rows of the audit log, as :func:`history_json` gives
    them); without ``contact`` (the public) without the reason of a withdrawal; with
    ``code`` (the organiser) with their confirmation code."""
    out: dict[str, Any] = {
        "id": player.id,
        "name": player.name,
        "club": player.club,
        "status": player.status,
        "reason": player.reason,
        "late": player.late,
        "history": [dict(row) for row in history],  # copies: the public's lose reasons
    }
    if code:
        out["code"] = player.code
    if contact:
        out["contact"] = player.contact
    else:
        out["reason"] = public_reason(player.status, player.reason)
        for row in out["history"]:
            for side in ("before", "after"):
                if isinstance(row[side], dict) and row[side].get("status") == "dropped":
                    row[side] = row[side] | {"reason": None}
            if row["what"] == "player.drop":
                row["reason"] = None
    return out


def public_reason(status: str, reason: str | None) -> str | None:
    """A reason as the public sees it: a withdrawal's is the player's own business."""
    return None if status == "dropped" else reason


def public_row(row: Row) -> Row:
    """A standings row as the public sees it (without a withdrawal's reason)."""
    return dataclasses.replace(row, reason=public_reason(row.status, row.reason))


def rules(snap: Snapshot) -> Absences:
    return stored_rules(snap.competition.absences, snap.competition.bye_points)


def entry_json(entry: EntryRow) -> dict[str, Any]:
    return {
        "id": entry.id,
        "round": entry.round,
        "table": entry.table,
        "game": entry.game,
        "kind": entry.kind,
        "players": list(entry.players),
        "points": list(entry.points),
        "closer": entry.closer,
        "closing": entry.closing,
        "stock_out": entry.closer is None,
        "hands": entry.hands,
        "arrangements": list(entry.arrangements),
        "entered_by": entry.entered_by,
        "confirmed_by": entry.confirmed_by,
        "reason": entry.reason,
        "current": entry.current,
        "replaces": entry.replaces,
    }


def game_players(table: CompTableRow) -> list[str | None] | None:
    """The player of each game seat 0–3 (None: a bot), once the seat draw is done."""
    if table.seat_draw is None:
        return None
    by_seat = {d["seat"]: d["position"] for d in table.seat_draw}
    seats = {s["position"]: s for s in table.seats}
    return [cast(str | None, seats[by_seat[seat]]["player"]) for seat in range(len(POSITIONS))]


def table_json(snap: Snapshot, table: CompTableRow, redraw: Sequence[str] | None) -> dict[str, Any]:
    games = snap.competition.games
    entries = [snap.entries.get((table.round, table.number, g)) for g in range(1, games + 1)]
    dealt = dealers([None if e is None else e.points for e in entries], games)
    seat_draw = None
    if table.seat_draw is not None:
        seat_draw = [
            {k: d[k] for k in ("position", "player", "cards", "seat")} for d in table.seat_draw
        ]
    return {
        "number": table.number,
        "kind": table.kind,
        "seats": list(table.seats),
        "seat_draw": seat_draw,
        "redraw": None if redraw is None else list(redraw),
        "web_table": table.web_table,
        "games": [
            {
                "number": number,
                "dealer": dealer,
                "first": None if dealer is None else (dealer + 1) % len(POSITIONS),
                "status": "missing"
                if entry is None
                else ("confirmed" if entry.confirmed_by else "entered"),
                "entry": None if entry is None else entry_json(entry),
            }
            for number, (dealer, entry) in enumerate(zip(dealt, entries, strict=True), start=1)
        ],
    }


def missing(snap: Snapshot, number: int) -> list[dict[str, int]]:
    """The games of a round not confirmed yet."""
    return [
        {"table": t.number, "game": g}
        for t in round_tables(snap, number)
        for g in range(1, snap.competition.games + 1)
        if not ((e := snap.entries.get((number, t.number, g))) and e.confirmed_by)
    ]


def score_lines(snap: Snapshot, number: int) -> list[ScoreLine]:
    out = []
    for (r, t, g), e in sorted(snap.entries.items()):
        if r != number:
            continue
        for seat, pid in enumerate(e.players):
            name = snap.players[pid].name if pid is not None else "Bot"
            out.append(
                ScoreLine(
                    r,
                    t,
                    g,
                    seat,
                    pid,
                    name,
                    e.points[seat],
                    e.closer == seat,
                    e.closing,
                    e.id,
                    "confirmed" if e.confirmed_by else "entered",
                )
            )
    return out
