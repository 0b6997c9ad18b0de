"""Arena throughput and greedy decision time: Remi 13 D, greedy against greedy (4 seats).

* games per second: ``remi arena remi13d --bots greedy,greedy,greedy,greedy
  --option games=1`` through the arena's own code (one process), over a
  fixed seed;
* the greedy bot's decision time, median (and p90, p99, mean) in
  microseconds, with a timer around each ``choose``, over as many other
  games (seed + 1), played first in this process: the solver's memo does not
  know the arena's hands, its candidate-meld tables are warm as in any
  running process.

Run: ``python bench/bench_arena.py [--games N] [--seed S] [--jobs J]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from remikit.actions import Action
from remikit.bots import Bot, make_bot, play_game
from remikit.cli.arena import make_arena
from remikit.cli.games import derive_seed, seat_order
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
from remikit.views import PlayerView

BOTS = "greedy,greedy,greedy,greedy"


class Timed(Bot):
    """A bot with a stopwatch around each decision."""

    def __init__(self, inner: Bot, times: list[float]) -> None:
        self.inner = inner
        self.name = inner.name
        self.times = times

    def choose(self, view: PlayerView) -> Action:
        start = time.perf_counter()
        action = self.inner.choose(view)
        self.times.append(time.perf_counter() - start)
        return action


def games_per_second(games: int, seed: int, jobs: int) -> tuple[float, float]:
    arena = make_arena("remi13d", BOTS, games=games, seed=seed, options=["games=1"])
    result = arena.run(jobs=jobs)
    return games / result.seconds, result.seconds


def decision_times(games: int, seed: int) -> list[float]:
    """Every greedy decision's time in seconds, over the arena's games for ``seed``."""
    times: list[float] = []
    for index in range(games):
        game = Remi13DGame(Remi13DOptions(games=1), rng=random.Random(derive_seed(seed, index)))
        bots = [
            Timed(make_bot("greedy", seed=derive_seed(seed, index, j)), times)
            for j in seat_order(4, index)
        ]
        play_game(game, bots)
    return times


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=40, help="single games to play (40)")
    parser.add_argument("--seed", type=int, default=1, help="arena seed (1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    args = parser.parse_args()
    times = sorted(decision_times(args.games, args.seed + 1))
    micro = [t * 1e6 for t in times]
    rate, seconds = games_per_second(args.games, args.seed, args.jobs)
    print(
        f"remi13d greedy x4, {args.games} single games, seed {args.seed}, jobs {args.jobs}: "
        f"{rate:.2f} games/s ({seconds:.2f} s)"
    )
    print(
        f"greedy decision: median {statistics.median(micro):.0f} µs, "
        f"p90 {percentile(micro, 0.9):.0f} µs, p99 {percentile(micro, 0.99):.0f} µs, "
        f"mean {statistics.fmean(micro):.0f} µs over {len(micro)} decisions "
        f"(seed {args.seed + 1})"
    )


if __name__ == "__main__":
    main()
