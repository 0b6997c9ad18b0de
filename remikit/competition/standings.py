"""The standings of a competition from its confirmed games, byes and players.

Per player: total points (Remi 13 D scores summed), games played, games won
(the highest score of its table's game, shared when equal), closes with an Ace
and with a Joker, the best game and the dead points (the magnitude of the
negative scores summed). Rows are ranked by total, then by the declared
tie-breaks; rows equal on all of them share a rank. A disqualified player comes
last, without a rank; a dropped player keeps their results. A bot's results
never count. Absences score by the competition's declared rules
(:mod:`remikit.competition.absence`); ranked ``per_game``, the points per game played
come first, and players with fewer than ``min_games`` games rank after the others.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from remikit.competition.absence import Award

TieBreak = Literal[
    "games_won", "ace_closes", "joker_closes", "best_game", "fewest_dead", "luck_adjusted"
]
TIE_BREAKS: tuple[TieBreak, ...] = (
    "games_won",
    "ace_closes",
    "joker_closes",
    "best_game",
    "fewest_dead",
    "luck_adjusted",
)
NO_GAME = -(10**9)  # the best game of a player with none, below any score
RankBy = Literal["total", "per_game"]


@dataclass(frozen=True)
class Competitor:
    """A player as the standings list them (status ``registered``, ``checked_in``,
    ``dropped``, ``disqualified``; ``reason`` of a drop or disqualification)."""

    id: str
    name: str
    club: str | None = None
    status: str = "checked_in"
    reason: str | None = None


@dataclass(frozen=True)
class Played:
    """A confirmed game: the player of each game seat (None: a bot), the points, who
    closed with which card (``Ah``, ``Jk``)."""

    round: int
    table: int
    game: int
    players: tuple[str | None, ...]
    points: tuple[int, ...]
    closer: int | None = None
    closing: str | None = None


@dataclass(frozen=True)
class Bye:
    round: int
    player: str


@dataclass
class Row:
    player: str
    name: str
    club: str | None
    status: str
    reason: str | None
    total: int = 0
    games: int = 0
    won: int = 0
    ace_closes: int = 0
    joker_closes: int = 0
    best_game: int | None = None
    dead: int = 0
    byes: int = 0
    absent: int = 0
    given: int = 0
    scores: list[int] = field(default_factory=list)
    rank: int | None = None
    luck: float | None = None  # with duplicate deals (remikit.competition.duplicate)

    @property
    def per_game(self) -> Fraction | None:
        """The points per game played (None before any)."""
        return Fraction(sum(self.scores), len(self.scores)) if self.scores else None

    def key(
        self, tie_breaks: Sequence[TieBreak], rank_by: RankBy = "total", min_games: int = 0
    ) -> tuple[int | float | Fraction, ...]:
        """Larger is better: the total (or, ranked ``per_game``, having ``min_games``
        games, then the points per game), then each tie-break."""
        values = {
            "games_won": self.won,
            "ace_closes": self.ace_closes,
            "joker_closes": self.joker_closes,
            "best_game": self.best_game if self.best_game is not None else NO_GAME,
            "fewest_dead": -self.dead,
            "luck_adjusted": self.luck or 0.0,
        }
        ties = tuple(values[name] for name in tie_breaks)
        if rank_by == "per_game":
            per_game = self.per_game
            enough = per_game is not None and self.games >= min_games
            return (int(enough), per_game if per_game is not None else NO_GAME, *ties)
        return (self.total, *ties)

    def json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "rank": self.rank,
            "player": self.player,
            "name": self.name,
            "club": self.club,
            "total": self.total,
            "games": self.games,
            "won": self.won,
            "ace_closes": self.ace_closes,
            "joker_closes": self.joker_closes,
            "best_game": self.best_game,
            "dead": self.dead,
            "byes": self.byes,
            "absent": self.absent,
            "given": self.given,
            "per_game": None if self.per_game is None else round(float(self.per_game), 2),
            "status": self.status,
        }
        if self.reason is not None:
            out["reason"] = self.reason
        if self.luck is not None:
            out["luck"] = self.luck
        return out


def bye_score(scores: Sequence[int], games: int, mode: str) -> int:
    """What a bye scores: ``zero``, or ``average``: the player's average game score
    over the games they played × the games of a round (0 before any), rounded to
    the nearest point (halves up).

    >>> bye_score([10, -5, 20], 4, "average"), bye_score([], 4, "average")
    (33, 0)
    """
    if mode != "average" or not scores:
        return 0
    return math.floor(sum(scores) * games / len(scores) + 0.5)


def standings(
    players: Iterable[Competitor],
    games: Iterable[Played],
    byes: Iterable[Bye] = (),
    *,
    games_per_round: int,
    bye_points: str = "zero",
    tie_breaks: Sequence[TieBreak] = (),
    luck: Mapping[str, float] | None = None,
    awards: Iterable[Award] | None = None,
    rank_by: RankBy = "total",
    min_games: int = 0,
) -> list[Row]:
    """Every player who has played, had a bye or an absence scored, or is checked in (or
    disqualified), ranked. Without ``awards`` a bye scores by ``bye_points`` (worked out
    from every game given); with them, each absence scores its award. ``luck``: each
    player's luck-adjusted score, with duplicate deals."""
    rows = {p.id: Row(p.id, p.name, p.club, p.status, p.reason) for p in players}
    if luck is not None:
        for each in rows.values():
            each.luck = luck.get(each.player, 0.0)
    for game in games:
        high = max(game.points)
        for seat, player in enumerate(game.players):
            row = rows.get(player) if player is not None else None
            if row is None:
                continue
            points = game.points[seat]
            row.scores.append(points)
            row.total += points
            row.games += 1
            row.won += points == high
            row.dead += -points if points < 0 else 0
            row.best_game = points if row.best_game is None else max(row.best_game, points)
            if seat == game.closer:
                row.ace_closes += game.closing is not None and game.closing.startswith("A")
                row.joker_closes += game.closing == "Jk"
    for bye in byes:
        if (row := rows.get(bye.player)) is not None:
            row.byes += 1
    for row in rows.values():
        if awards is None:
            row.given = row.byes * bye_score(row.scores, games_per_round, bye_points)
    for award in awards or ():
        if (row := rows.get(award.player)) is not None:
            row.given += award.points
            row.absent += award.kind != "bye"
    for row in rows.values():
        row.total += row.given
    shown = [
        r
        for r in rows.values()
        if r.games or r.byes or r.absent or r.status in ("checked_in", "disqualified")
    ]

    def key(row: Row) -> tuple[int | float | Fraction, ...]:
        return row.key(tie_breaks, rank_by, min_games)

    ranked = sorted(
        (r for r in shown if r.status != "disqualified"),
        key=lambda r: (tuple(-v for v in key(r)), r.name.casefold(), r.player),
    )
    for index, row in enumerate(ranked):
        before = ranked[index - 1] if index else None
        same = before is not None and key(before) == key(row)
        row.rank = before.rank if same and before is not None else index + 1
    out = sorted(
        (r for r in shown if r.status == "disqualified"),
        key=lambda r: (r.name.casefold(), r.player),
    )
    return ranked + out
