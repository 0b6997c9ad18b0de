"""The results of ``remi arena`` (:mod:`remikit.cli.arena`): each bot's wins, games (or
deals) played and points, and the JSON the command prints (CONTRACT.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from remikit.cli.games import GameFailure, GameOutcome, wilson_interval


@dataclass(frozen=True)
class BotStats:
    bot: str
    wins: int
    played: int
    points: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    @property
    def mean_points(self) -> float:
        return self.points / self.played if self.played else 0.0

    def as_json(self) -> dict[str, Any]:
        low, high = wilson_interval(self.wins, self.played)
        return {
            "bot": self.bot,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "mean_points": round(self.mean_points, 3),
        }


def unique_best(points: Sequence[int], lower_is_better: bool) -> int | None:
    """The seat with the best score, or None when several share it."""
    best = min(points) if lower_is_better else max(points)
    leaders = [s for s, p in enumerate(points) if p == best]
    return leaders[0] if len(leaders) == 1 else None


def tally(
    outcomes: Sequence[GameOutcome], bots: Sequence[str], *, per_deal: bool, lower_is_better: bool
) -> list[BotStats]:
    """Wins, games (or deals) played and points of each bot, in the order given."""
    wins = [0] * len(bots)
    played = [0] * len(bots)
    points = [0] * len(bots)
    for outcome in outcomes:
        rows = outcome.deals if per_deal else (outcome.totals,)
        for row in rows:
            winner = unique_best(row, lower_is_better) if per_deal else outcome.winner
            if winner is not None:
                wins[outcome.seats[winner]] += 1
            for seat, bot in enumerate(outcome.seats):
                played[bot] += 1
                points[bot] += row[seat]
    return [BotStats(b, w, n, p) for b, w, n, p in zip(bots, wins, played, points, strict=True)]


@dataclass(frozen=True)
class ArenaResult:
    variant: str
    games: int
    seed: int
    seconds: float
    per_deal: bool
    deals: int
    stats: list[BotStats]
    failures: list[GameFailure]

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "variant": self.variant,
            "games": self.games,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
        }
        if self.per_deal:
            out["deals"] = self.deals
        out["bots"] = [s.as_json() for s in self.stats]
        if self.failures:
            bots = [s.bot for s in self.stats]
            out["failures"] = [f.as_json(bots) for f in self.failures]
        return out
