"""The standings of a stored competition (docs/competition.md §4): its confirmed games,
byes and absences, and what the absences of the rounds done score."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, cast

from remikit.competition.absence import (
    Attendance,
    Award,
    Kind,
    Rule,
    due,
)
from remikit.competition.duplicate import luck_adjusted
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
from remikit.server.competition.views import round_done, round_tables, rules
from remikit.storage.competition import Snapshot


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
