"""A competition's exports as CSV (the :mod:`csv` module): the standings, and every
seat's points of every game of a round."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from remikit.competition.standings import Row

STANDINGS_HEADER = (
    "rank",
    "player",
    "name",
    "club",
    "total",
    "games",
    "won",
    "ace_closes",
    "joker_closes",
    "best_game",
    "dead",
    "byes",
    "status",
    "reason",
)
SCORES_HEADER = (
    "round",
    "table",
    "game",
    "seat",
    "player",
    "name",
    "points",
    "closed",
    "closing",
    "entry",
    "status",
)


@dataclass(frozen=True)
class ScoreLine:
    """One seat of one game: game seat 0–3, its player (None: a bot) and points."""

    round: int
    table: int
    game: int
    seat: int
    player: str | None
    name: str
    points: int
    closed: bool
    closing: str | None
    entry: int
    status: str


def _csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(["" if v is None else v for v in row] for row in rows)
    return out.getvalue()


def standings_csv(rows: Iterable[Row]) -> str:
    return _csv(
        STANDINGS_HEADER,
        (
            (
                r.rank,
                r.player,
                r.name,
                r.club,
                r.total,
                r.games,
                r.won,
                r.ace_closes,
                r.joker_closes,
                r.best_game,
                r.dead,
                r.byes,
                r.status,
                r.reason,
            )
            for r in rows
        ),
    )


def scores_csv(lines: Iterable[ScoreLine]) -> str:
    return _csv(
        SCORES_HEADER,
        (
            (
                s.round,
                s.table,
                s.game,
                s.seat,
                s.player,
                s.name,
                s.points,
                int(s.closed),
                s.closing if s.closed else None,
                s.entry,
                s.status,
            )
            for s in lines
        ),
    )
