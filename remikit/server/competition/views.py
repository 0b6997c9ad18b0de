"""What the competition API answers: the JSON of a competition, its players, rounds,
tables, games and entries (docs/competition.md), and the standings, seating history
and exports worked out from a stored :class:`~remikit.storage.competition.Snapshot`."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, cast

from remikit.competition.absence import (
    Absences,
    Attendance,
    Award,
    Kind,
    Rule,
    due,
    stored_rules,
)
from remikit.competition.duplicate import luck_adjusted
from remikit.competition.exports import ScoreLine
from remikit.competition.results import dealers
from remikit.competition.seat_draw import POSITIONS
from remikit.competition.seating import Entrant
from remikit.competition.standings import (
    Bye,
    Competitor,
    Played,
    RankBy,
    Row,
    TieBreak,
    standings,
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


def played(snap: Snapshot, upto: int) -> list[Played]:
    """The confirmed games of rounds 1 to ``upto``."""
    return [
        Played(e.round, e.table, e.game, tuple(e.players), tuple(e.points), e.closer, e.closing)
        for (r, _, _), e in sorted(snap.entries.items())
        if r <= upto and e.confirmed_by
    ]


def byes(snap: Snapshot, upto: int) -> list[Bye]:
    return [
        Bye(n, pid)
        for n, row in sorted(snap.rounds.items())
        if n <= upto
        for pid in row.seating.get("byes", [])
    ]


def rules(snap: Snapshot) -> Absences:
    return stored_rules(snap.competition.absences, snap.competition.bye_points)


def competitors(snap: Snapshot) -> list[Competitor]:
    return [Competitor(p.id, p.name, p.club, p.status, p.reason) for p in snap.players.values()]


def attendance(snap: Snapshot) -> list[Attendance]:
    """Each round made: done or not, the players seated and those with a bye."""
    return [
        Attendance(
            number,
            round_done(snap, number),
            frozenset(s["player"] for t in round_tables(snap, number) for s in t.seats) - {None},
            frozenset(row.seating.get("byes", [])),
        )
        for number, row in sorted(snap.rounds.items())
    ]


def due_awards(snap: Snapshot) -> list[Award]:
    """What the absences of the rounds done score that is not stored yet."""
    return due(
        rules(snap),
        attendance(snap),
        competitors(snap),
        played(snap, snap.current_round),
        snap.competition.games,
        given=snap.absences.keys(),
    )


def awards(snap: Snapshot, upto: int) -> list[Award]:
    """What every absence of rounds 1 to ``upto`` scores: as stored once given, else as
    it will be stored (a round done since, or a competition made before they were)."""
    stored = [
        Award(a.round, a.player, cast(Kind, a.kind), cast(Rule, a.rule), a.points, a.games)
        for a in snap.absences.values()
    ]
    return [a for a in stored + due_awards(snap) if a.round <= upto]


def standing_rows(snap: Snapshot, upto: int) -> list[Row]:
    c = snap.competition
    games = played(snap, upto)
    online = {key for key, t in snap.tables.items() if t.kind == "online"}
    return standings(
        competitors(snap),
        games,
        byes(snap, upto),
        games_per_round=c.games,
        tie_breaks=[cast(TieBreak, name) for name in c.tie_breaks],
        luck=luck_adjusted(games, online, c.games) if c.duplicate else None,
        awards=awards(snap, upto),
        rank_by=cast(RankBy, c.rank_by),
        min_games=c.min_games,
    )


def entrants(snap: Snapshot, ids: Sequence[str]) -> list[Entrant]:
    """The players ``ids`` as the seating sees them: their totals, whom they met, how
    often they sat at each position A–D and how many byes they had."""
    totals = {row.player: float(row.total) for row in standing_rows(snap, snap.current_round)}
    met: dict[str, set[str]] = {pid: set() for pid in ids}
    positions: dict[str, Counter[str]] = {pid: Counter() for pid in ids}
    for table in snap.tables.values():
        at = [s["player"] for s in table.seats if s["player"] is not None]
        for seat in table.seats:
            if seat["player"] in met:
                met[seat["player"]].update(p for p in at if p != seat["player"])
                positions[seat["player"]][seat["position"]] += 1
    had = Counter(b.player for b in byes(snap, snap.current_round))
    out = []
    for pid in ids:
        count = positions[pid]
        out.append(
            Entrant(
                id=pid,
                club=snap.players[pid].club,
                total=totals.get(pid, 0.0),
                met=frozenset(met[pid]),
                positions=(count["A"], count["B"], count["C"], count["D"]),
                byes=had[pid],
                avoid=frozenset(
                    other
                    for pair in snap.competition.avoid_pairs
                    if pid in pair
                    for other in pair
                    if other != pid
                ),
            )
        )
    return out


def player_games(snap: Snapshot, pid: str) -> list[dict[str, Any]]:
    """Every game behind a player's numbers (and their byes), in order."""
    out: list[dict[str, Any]] = []
    for (r, t, g), e in sorted(snap.entries.items()):
        if pid in e.players and e.confirmed_by:
            seat = e.players.index(pid)
            out.append(
                {
                    "round": r,
                    "table": t,
                    "game": g,
                    "seat": seat,
                    "points": e.points[seat],
                    "closed": e.closer == seat,
                    "closing": e.closing if e.closer == seat else None,
                    "won": e.points[seat] == max(e.points),
                    "entry": e.id,
                    "entered_by": e.entered_by,
                    "confirmed_by": e.confirmed_by,
                }
            )
    given = {a.round: a for a in awards(snap, snap.current_round) if a.player == pid}
    for bye in byes(snap, snap.current_round):
        if bye.player == pid and bye.round not in given:
            out.append({"round": bye.round, "bye": True})  # its round not done yet
    for a in given.values():
        what = {"bye": True} if a.kind == "bye" else {"absent": a.kind}
        out.append({"round": a.round, **what, "rule": a.rule, "points": a.points})
    return sorted(out, key=lambda g: (g["round"], g.get("table", 0), g.get("game", 0)))


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
