"""How long a game review takes: a 4-game Remi 13 D match reviewed at the default budget.

A seeded match (4 games, the default length) of one strong bot against three greedy
bots is reviewed seat by seat with ``remikit.review.review`` at ``--budget`` (the strong
bot's default, 1 s), on ``--jobs`` processes. It prints, per seat, the decisions, the
wall time, the review's summary (decisions agreed with the search, expected points
lost) and the mean cost of a decision with its 95% interval: the review should rate the
strong bot's seat better than a greedy one's. The target is a whole seat's review in
under a minute on two cores.

Run: ``python bench/bench_review.py [--seed S] [--budget S] [--jobs J] [--seats 0,1]``.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time

from remikit.bots import make_bot, play_game
from remikit.bots.strong import DEFAULT_BUDGET
from remikit.review import review
from remikit.review.game import sims_for
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seats", default="0,1")
    args = parser.parse_args()
    game = Remi13DGame(Remi13DOptions(games=4), rng=random.Random(args.seed))
    bots = [make_bot("strong@0.1", seed=args.seed)]
    bots += [make_bot("greedy", seed=args.seed + s) for s in range(1, 4)]
    play_game(game, bots)
    record = game.record()
    print(
        f"Remi 13 D, 4 games (seed {args.seed}): strong@0.1 in seat 0, greedy in 1-3; "
        f"budget {args.budget} s = {sims_for('remi13d', args.budget)} rollouts a decision, "
        f"{args.jobs} processes"
    )
    print(
        f"{'seat':>4} {'decisions':>9} {'seconds':>8} {'s/decision':>10} {'agreed':>7} {'lost':>7}"
    )
    for seat in (int(s) for s in args.seats.split(",")):
        start = time.perf_counter()
        result = review(record, seat, budget=args.budget, seed=args.seed, jobs=args.jobs)
        seconds = time.perf_counter() - start
        summary = result.summary()
        mean, half = interval([d.rating.cost for d in result.decisions])
        print(
            f"{seat:>4} {summary.decisions:>9} {seconds:>8.1f} "
            f"{seconds / max(1, summary.decisions):>10.3f} {summary.agreed:>7} {summary.lost:>7.1f}"
            f" {mean:.2f} ± {half:.2f}"
        )


def interval(costs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    if len(costs) < 2:
        return (costs[0] if costs else 0.0), 0.0
    mean = statistics.fmean(costs)
    return mean, 1.96 * statistics.stdev(costs) / math.sqrt(len(costs))


if __name__ == "__main__":
    main()
