"""The solver shared by threads (the web server's bot pool and its event loop): every
thread gets the arrangement a solver used by one thread alone finds (R13-7, R13-12,
R3-7), even while the memo is cleared at its limit under another thread's search; with
the compiled search and the pure-Python one."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from remikit import solver as solver_module
from remikit.cards import JOKER, Card, make_deck
from remikit.melds import Arrangement
from remikit.solver import Goal, Solver
from remikit.variants.remi13d import scoring as remi13d
from remikit.variants.three_thirteen import scoring as three_thirteen

THREADS = 4
HANDS = 120  # per case
ROUNDS = 3  # each thread solves every hand this often, in its own order
REMI_DECK = make_deck(decks=2, jokers=4)
REMI_GOALS = (
    Goal(need_pure=True),
    Goal(all_melded=True, need_pure=True),
    Goal(),
    Goal(discard=True, need_pure=True),
    Goal(discard=True, keep=JOKER),
)
T13_GOALS = (Goal(), Goal(discard=True))

Case = tuple[list[Card], Goal, bool]  # hand, goal, Three-Thirteen round 11 (K wild)


def cases(rng: random.Random) -> list[Case]:
    """Remi 13 D hands of 13 and 14 cards and Three-Thirteen round 11 hands (13, 14)."""
    out: list[Case] = []
    for i in range(HANDS):
        goal = REMI_GOALS[i % len(REMI_GOALS)]
        out.append((rng.sample(REMI_DECK, 14 if goal.discard else 13), goal, False))
        goal = T13_GOALS[i % len(T13_GOALS)]
        out.append((rng.sample(REMI_DECK, 14 if goal.discard else 13), goal, True))
    return out


def solvers() -> tuple[Solver, Solver]:
    """Fresh solvers, so that no other test's memo is involved."""
    model = three_thirteen.solver("low")
    return Solver(remi13d.RULES, remi13d.SCORING), Solver(model.rules, model.scoring)


def run(pair: tuple[Solver, Solver], case: Case) -> tuple[Arrangement | None, int]:
    hand, goal, t13 = case
    solver = pair[1] if t13 else pair[0]
    wild = three_thirteen.wild_rank(11) if t13 else None
    return (
        solver.solve(hand, wild_rank=wild, goal=goal),
        solver.value(hand, wild_rank=wild, goal=goal),
    )


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Threads switch often, so that one clears the memo inside another's search."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


@pytest.mark.usefixtures("busy_switching", "search")
@pytest.mark.parametrize("limit", [50, 2000])
def test_threads_sharing_a_solver_get_the_single_thread_answers(
    monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    """Four threads, a memo cleared at ``limit`` entries: each answer equals the reference
    that a solver used by this thread alone finds, and no thread raises."""
    work = cases(random.Random(limit))
    reference = solvers()
    want = [run(reference, case) for case in work]
    monkeypatch.setattr(solver_module, "_MEMO_LIMIT", limit)
    shared = solvers()

    def worker(seed: int) -> list[tuple[int, tuple[Arrangement | None, int]]]:
        order = list(range(len(work))) * ROUNDS
        random.Random(seed).shuffle(order)
        return [(i, run(shared, work[i])) for i in order]

    with ThreadPoolExecutor(THREADS) as pool:
        results = [f.result() for f in [pool.submit(worker, s) for s in range(THREADS)]]
    for answers in results:
        for i, got in answers:
            assert got == want[i], work[i]
