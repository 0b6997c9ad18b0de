"""The ladder's numbers: ratings, deals won and the head-to-head of each pair of levels.

Ratings are openskill's Plackett–Luce model (its defaults, but for ``tau = 0``: the
levels do not change while they play): every play of a paired deal ranks the table's
seats by their score of that deal, ties sharing a place, and updates the ratings, the
deals taken in turn across the tables. A level's interval is ``mu ± 2 sigma``. A deal is
won by the best score; a tie for it shares the win. The head-to-head of two levels
compares, deal by deal, their scores summed over the deal's seat rotations (so each held
every seat's cards), with a two-sided sign test.

>>> ranks([10, 0, 10, -5], lower_is_better=False)
[1, 3, 1, 4]
>>> round(sign_test(12, 3), 4), sign_test(0, 0)
(0.0352, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from remikit.cli.games import wilson_interval
from remikit.cli.ladder_play import Ladder, LadderPlay, PairedDeal

INTERVAL_SIGMAS = 2.0
"""A rating's interval is ``mu`` plus or minus this many ``sigma``."""
TAU = 0.0
"""The model's additive dynamics factor: none, since a level's skill does not drift."""


def ranks(scores: Sequence[int], *, lower_is_better: bool) -> list[int]:
    """Each seat's place in a deal (1 the best); tied seats share the better place."""
    sign = 1 if lower_is_better else -1
    return [1 + sum(1 for o in scores if sign * o < sign * s) for s in scores]


def sign_test(a: int, b: int) -> float:
    """The two-sided sign test's p-value of ``a`` deals against ``b`` (ties left out)."""
    n = a + b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(a, b) + 1))
    return min(1.0, 2 * tail / (1 << n))


@dataclass(frozen=True)
class LevelResult:
    """One level's rating and record over every play of the deals it sat at."""

    level: str
    mu: float
    sigma: float
    ordinal: float
    deals: int
    wins: float
    points: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.deals if self.deals else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return (self.mu - INTERVAL_SIGMAS * self.sigma, self.mu + INTERVAL_SIGMAS * self.sigma)

    def as_json(self, par: float) -> dict[str, Any]:
        low, high = wilson_interval(self.wins, self.deals)
        return {
            "level": self.level,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "interval": [round(x, 3) for x in self.interval],
            "ordinal": round(self.ordinal, 3),
            "deals": self.deals,
            "wins": round(self.wins, 3),
            "win_rate": round(self.win_rate, 4),
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "par": round(par, 4),
            "mean_points": round(self.points / self.deals, 3) if self.deals else 0.0,
        }


@dataclass(frozen=True)
class HeadToHead:
    """Two levels over the deals both sat at: in how many each did better, or tied."""

    a: str
    b: str
    a_better: int
    b_better: int
    ties: int

    @property
    def p_value(self) -> float:
        return sign_test(self.a_better, self.b_better)

    def as_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "deals": self.a_better + self.b_better + self.ties,
            "a_better": self.a_better,
            "b_better": self.b_better,
            "ties": self.ties,
            "p_value": float(f"{self.p_value:.4g}"),
        }


@dataclass(frozen=True)
class LadderResult:
    """The ladder: the levels best first, each pair's head-to-head, and what was played."""

    ladder: Ladder
    levels: list[LevelResult]
    head_to_head: list[HeadToHead]
    play: LadderPlay
    seconds: float

    def as_json(self) -> dict[str, Any]:
        """The ladder's JSON (docs/contract.md); the same for any number of processes."""
        ladder = self.ladder
        tables = [
            {"levels": list(ladder.table_levels(table)), "deals": len(deals)}
            for table, deals in enumerate(self.play.deals)
        ]
        out: dict[str, Any] = {
            "variant": ladder.info.name,
            "options": ladder.options.as_dict(),
            "players": ladder.players,
            "seed": ladder.seed,
            "deals": ladder.deals,
            "games": self.play.games,
            "rating": {"model": "plackett-luce", "tau": TAU, "interval_sigmas": INTERVAL_SIGMAS},
            "tables": tables,
            "levels": [level.as_json(1 / ladder.players) for level in self.levels],
            "head_to_head": [pair.as_json() for pair in self.head_to_head],
        }
        if self.play.failures:
            out["failures"] = [f.as_json(ladder.table_levels(f.table)) for f in self.play.failures]
        return out


def in_turn(deals: Sequence[Sequence[PairedDeal]]) -> list[PairedDeal]:
    """The tables' deals taken in turn: each table's first, then each one's second, …"""
    longest = max((len(d) for d in deals), default=0)
    return [table[i] for i in range(longest) for table in deals if i < len(table)]


def rate(ladder: Ladder, play: LadderPlay, seconds: float) -> LadderResult:
    """Rate the levels by the paired deals played, and compare them pair by pair."""
    lower = ladder.info.game_class().lower_is_better
    tables = ladder.tables()
    model = PlackettLuce(tau=TAU)
    ratings = [model.rating(name=level) for level in ladder.levels]
    plays = [0] * len(ladder.levels)
    wins = [0.0] * len(ladder.levels)
    points = [0] * len(ladder.levels)
    for deal in in_turn(play.deals):
        members = tables[deal.table]
        for scores in deal.scores:
            places = ranks(scores, lower_is_better=lower)
            teams = model.rate([[ratings[i]] for i in members], ranks=[float(p) for p in places])
            winners = [i for i, place in zip(members, places, strict=True) if place == 1]
            for i, team, score in zip(members, teams, scores, strict=True):
                ratings[i] = team[0]
                plays[i] += 1
                points[i] += score
                if i in winners:
                    wins[i] += 1 / len(winners)
    levels = [
        LevelResult(name, r.mu, r.sigma, r.ordinal(), plays[i], wins[i], points[i])
        for i, (name, r) in enumerate(zip(ladder.levels, ratings, strict=True))
    ]
    order = sorted(range(len(levels)), key=lambda i: (-levels[i].mu, i))
    pairs = [
        head_to_head(ladder, play, a, b, lower) for n, a in enumerate(order) for b in order[n + 1 :]
    ]
    return LadderResult(ladder, [levels[i] for i in order], pairs, play, seconds)


def head_to_head(ladder: Ladder, play: LadderPlay, a: int, b: int, lower: bool) -> HeadToHead:
    """Levels ``a`` and ``b`` over every paired deal of a table where both sat."""
    tables = ladder.tables()
    better = [0, 0, 0]  # a, b, tied
    for deals in play.deals:
        for deal in deals:
            members = tables[deal.table]
            if a not in members or b not in members:
                continue
            pa, pb = members.index(a), members.index(b)
            sa = sum(scores[pa] for scores in deal.scores)
            sb = sum(scores[pb] for scores in deal.scores)
            if sa == sb:
                better[2] += 1
            else:
                better[0 if (sa < sb) == lower else 1] += 1
    return HeadToHead(ladder.levels[a], ladder.levels[b], *better)
