"""Solver latency: median and p99 in microseconds per hand, on seeded random hands.

Cases:

* Remi 13 D "can I close, and for how much": ``best_close`` on 14-card hands
  from the 108-card deck, 0–4 jokers per hand (each count equally often).
* Three-Thirteen round 11 (13 cards, K wild): minimum deadwood, for hands
  holding exactly 4 jokers and for hands dealt from the 108-card deck.
* Three-Thirteen 14 cards (after the draw): the best discard.

Three ways to start each hand:

* ``cold``: the solver's memo and its candidate-meld tables are cleared;
* ``memo``: the memo is cleared (a fresh search), the candidate-meld tables
  are warm from as many other hands of the same kind (the steady state of a
  running process: the tables depend only on the rules);
* ``warm``: nothing is cleared, as a bot keeps its solver during a game.

Times are wall-clock (``perf_counter_ns``); the CPU time of the thread
(``thread_time_ns``) is shown too, as it does not count time lost to other
processes on a busy machine. Target: p99 < 2 ms.

Run: ``python bench/bench_solver.py [--hands N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from remikit.cards import JOKER, NATURALS, Card, make_deck
from remikit.solver import Solver
from remikit.variants.remi13d import scoring as remi13d
from remikit.variants.three_thirteen import scoring as three_thirteen

TARGET_US = 2000
NATURALS_2DECKS = list(NATURALS) * 2


def with_jokers(rng: random.Random, size: int, jokers: int) -> list[Card]:
    """``size`` cards: ``jokers`` jokers, the rest from two decks of naturals."""
    hand = rng.sample(NATURALS_2DECKS, size - jokers) + [JOKER] * jokers
    rng.shuffle(hand)
    return hand


def remi_hand(rng: random.Random, i: int) -> list[Card]:
    """The i-th Remi 13 D hand: 14 cards with ``i % 5`` jokers (0 … 4 equally often)."""
    return with_jokers(rng, 14, i % 5)


def clear(solver: Solver, *, tables: bool) -> None:
    solver.clear()
    if tables:
        solver._run_table.clear()
        solver._set_table.clear()


def time_hands(
    hands: Sequence[list[Card]], work: Callable[[list[Card]], object], solver: Solver, start: str
) -> tuple[list[float], list[float]]:
    """Microseconds per hand, wall clock and CPU time of this thread, each hand started
    as ``start`` says (the clearing is not timed)."""
    wall, cpu = [], []
    for hand in hands:
        if start != "warm":
            clear(solver, tables=start == "cold")
        cpu_ns = time.thread_time_ns()
        wall_ns = time.perf_counter_ns()
        work(hand)
        wall.append((time.perf_counter_ns() - wall_ns) / 1000)
        cpu.append((time.thread_time_ns() - cpu_ns) / 1000)
    return wall, cpu


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[max(0, -(-len(ordered) * 99 // 100) - 1)]


Deal = Callable[[random.Random, int], list[Card]]
Work = Callable[[list[Card]], object]


def deadwood(hand: list[Card]) -> object:
    return three_thirteen.deadwood(hand, round_no=11)


def best_discard(hand: list[Card]) -> object:
    return three_thirteen.deadwood(hand, round_no=11, discard=True)


DECK_108 = make_deck(decks=2, jokers=4)
CASES: list[tuple[str, Deal, Work, Solver]] = [
    ("remi13d best_close, 14 cards, 0-4 jokers", remi_hand, remi13d.best_close, remi13d.SOLVER),
    (
        "3-13 round 11 deadwood, 4 jokers in hand",
        lambda r, i: with_jokers(r, 13, 4),
        deadwood,
        three_thirteen.solver("low"),
    ),
    (
        "3-13 round 11 deadwood, 108-card deck",
        lambda r, i: r.sample(DECK_108, 13),
        deadwood,
        three_thirteen.solver("low"),
    ),
    (
        "3-13 14 cards best discard, 4 jokers",
        lambda r, i: with_jokers(r, 14, 4),
        best_discard,
        three_thirteen.solver("low"),
    ),
    (
        "3-13 14 cards best discard, 108-card deck",
        lambda r, i: r.sample(DECK_108, 14),
        best_discard,
        three_thirteen.solver("low"),
    ),
]


def row(name: str, start: str, wall: list[float], cpu: list[float]) -> str:
    mark = "" if p99(wall) < TARGET_US else "  > target"
    return (
        f"{name:<44} {start:<5} {len(wall):>5} {statistics.median(wall):>7.0f} "
        f"{p99(wall):>7.0f} {max(wall):>7.0f} {statistics.median(cpu):>7.0f} "
        f"{p99(cpu):>7.0f}{mark}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"solver latency in µs per hand, {args.hands} hands per case (seed {args.seed}); "
        f"target p99 < {TARGET_US} µs"
    )
    header = (
        f"{'case':<44} {'start':<5} {'hands':>5} {'median':>7} {'p99':>7} {'max':>7} "
        f"{'cpu med':>7} {'cpu p99':>7}"
    )
    print(header)
    print("-" * len(header))
    for number, (name, deal, work, solver) in enumerate(CASES):
        rng = random.Random(args.seed * 1000 + number)
        hands = [deal(rng, i) for i in range(args.hands)]
        others = [deal(rng, i) for i in range(args.hands)]
        runs = {"cold": time_hands(hands, work, solver, "cold")}
        time_hands(others, work, solver, "memo")  # warms the candidate-meld tables
        runs["memo"] = time_hands(hands, work, solver, "memo")
        clear(solver, tables=False)
        runs["warm"] = time_hands(hands, work, solver, "warm")
        for start, (wall, cpu) in runs.items():
            print(row(name, start, wall, cpu))
            if solver is remi13d.SOLVER:
                for k in range(5):
                    label = f"  of which {k} joker{'s' if k != 1 else ''}"
                    print(row(label, start, wall[k::5], cpu[k::5]))


if __name__ == "__main__":
    main()
