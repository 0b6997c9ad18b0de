"""Seating time of a Remi 13 D competition round: median of 5 runs, in milliseconds.

Each field of 16, 64, 256 and 1,024 players has a history of 3 earlier rounds drawn at
random (each player met 9 others, sat at 3 positions, scored 4 random games a round), then
``seat_round`` seats round 4 and ``draw_first_round`` draws a round 1 (with clubs apart,
8 clubs). Times are wall-clock (``perf_counter``) and CPU time of the process
(``process_time``), the latter not counting time lost to other processes. The quality of
round 4 is shown too: repeat meetings, seat imbalance and spread.

Run: ``python bench/bench_seating.py [--sizes 16 64 256 1024] [--runs 5] [--seed S]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from remikit.competition.seating import Entrant, Seating, draw_first_round, seat_round


def history(players: int, rounds: int, rng: random.Random) -> list[Entrant]:
    """``players`` entrants after ``rounds`` random rounds (bot seats fill a short field)."""
    ids = [f"p{i}" for i in range(players)]
    met: dict[str, set[str]] = {i: set() for i in ids}
    positions = {i: [0, 0, 0, 0] for i in ids}
    totals = dict.fromkeys(ids, 0.0)
    for _ in range(rounds):
        seating = draw_first_round(
            [Entrant(i) for i in ids], fill="bots", clubs_apart=False, rng=rng
        )
        for table in seating.tables:
            people = [p for p in table.seats if p is not None]
            for position, p in enumerate(table.seats):
                if p is not None:
                    positions[p][position] += 1
                    met[p].update(q for q in people if q != p)
                    totals[p] += sum(rng.randint(-120, 200) for _ in range(4))
    return [
        Entrant(
            i,
            club=f"club{n % 8}",
            total=totals[i],
            met=frozenset(met[i]),
            positions=(positions[i][0], positions[i][1], positions[i][2], positions[i][3]),
        )
        for n, i in enumerate(ids)
    ]


def timed(work: Callable[[], Seating], runs: int) -> tuple[float, float, Seating]:
    """The median wall-clock and CPU milliseconds of ``runs`` runs, and the last result."""
    walls, cpus = [], []
    result = work()
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return statistics.median(walls), statistics.median(cpus), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 64, 256, 1024])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    header = (
        f"{'players':>7} {'seat_round ms':>13} {'cpu ms':>8} {'draw_first ms':>13} "
        f"{'cpu ms':>8} {'repeats':>7} {'imbalance':>9} {'spread':>9}"
    )
    print(f"median of {args.runs} runs, history of 3 random rounds (seed {args.seed})")
    print(header)
    print("-" * len(header))
    for size in args.sizes:
        field = history(size, 3, random.Random(args.seed * 10_000 + size))
        later = timed(partial(seat_round, field, fill="bots"), args.runs)
        draw = partial(
            draw_first_round, field, fill="bots", clubs_apart=True, rng=random.Random(args.seed)
        )
        first = timed(draw, args.runs)
        quality = later[2].quality
        print(
            f"{size:>7} {later[0]:>13.1f} {later[1]:>8.1f} {first[0]:>13.1f} {first[1]:>8.1f} "
            f"{quality.repeat_meetings:>7} {quality.seat_imbalance:>9} {quality.spread:>9.0f}"
        )


if __name__ == "__main__":
    main()
