"""The compiled search against the pure-Python reference: the same value and the same
arrangement for every variant's rules (R13-6 … R13-12, R3-3 … R3-7, G-3, G-4), every
goal and wild rank, hands it hands back to the reference, threads, and a bounded memo."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from remikit import solver as solver_module
from remikit.cards import JOKER, Card, Rank, make_deck
from remikit.melds import MeldRules, Scoring
from remikit.solver import Goal, Solver
from remikit.variants.gin import scoring as gin
from remikit.variants.remi13d import scoring as remi13d
from remikit.variants.remi13d.tactics import SHORTFALL
from remikit.variants.three_thirteen import scoring as three_thirteen

pytestmark = pytest.mark.skipif(
    not solver_module.COMPILED, reason="built without the compiled search"
)

ONE_DECK = make_deck(decks=1)
TWO_DECKS = make_deck(decks=2, jokers=4)
# a table of made-up rules: sets of any suits up to 5, ace both ends, valued wilds
ODD_RULES = MeldRules(ace="both", set_distinct_suits=False, set_max=5, pure_run="natural4")
ODD_SCORING = Scoring(
    run_position=tuple(range(14)),
    set_rank=(0, *range(1, 14)),
    dead=tuple(-(i % 7) - 1 for i in range(52)),
    dead_joker=-9,
    dead_wild_rank=-4,
)
RULES: dict[str, tuple[MeldRules, Scoring, list[Card]]] = {
    "gin": (gin.RULES, gin.SCORING, ONE_DECK),
    "remi13d strict": (remi13d.RULES, remi13d.SCORING, TWO_DECKS),
    "remi13d natural4": (replace(remi13d.RULES, pure_run="natural4"), remi13d.SCORING, TWO_DECKS),
    "remi13d shortfall": (SHORTFALL.rules, SHORTFALL.scoring, TWO_DECKS),
    "three-thirteen low": (
        three_thirteen.solver("low").rules,
        three_thirteen.solver("low").scoring,
        TWO_DECKS,
    ),
    "three-thirteen high": (
        three_thirteen.solver("high").rules,
        three_thirteen.solver("high").scoring,
        TWO_DECKS,
    ),
    "odd": (ODD_RULES, ODD_SCORING, TWO_DECKS),
}
PAIRS = {
    name: (Solver(rules, scoring, compiled=True), Solver(rules, scoring, compiled=False))
    for name, (rules, scoring, _) in RULES.items()
}


@st.composite
def problems(draw: st.DrawFn) -> tuple[str, list[Card], Rank | None, Goal]:
    """A variant's rules, a hand from its decks, a wild rank and a goal."""
    name = draw(st.sampled_from(sorted(RULES)))
    deck = RULES[name][2]
    size = draw(st.integers(1, 15))
    hand = draw(st.permutations(deck))[:size]
    wild_rank = draw(st.none() | st.sampled_from(list(Rank)))
    keep = draw(st.none() | st.sampled_from([*hand, JOKER, Card.of(7, 2)]))
    goal = Goal(
        all_melded=draw(st.booleans()),
        need_pure=draw(st.booleans()),
        discard=draw(st.booleans()),
        keep=keep,
    )
    return name, hand, wild_rank, goal


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_compiled_search_finds_the_reference_arrangement(
    problem: tuple[str, list[Card], Rank | None, Goal],
) -> None:
    name, hand, wild_rank, goal = problem
    compiled, reference = PAIRS[name]
    assert compiled.compiled and not reference.compiled
    want = reference.solve(hand, wild_rank=wild_rank, goal=goal)
    assert compiled.solve(hand, wild_rank=wild_rank, goal=goal) == want
    want_value = reference.value(hand, wild_rank=wild_rank, goal=goal)
    assert compiled.value(hand, wild_rank=wild_rank, goal=goal) == want_value


def test_seeded_hands_of_every_variant_agree() -> None:
    """1,400 full-size hands (Gin 10–11, Remi 13 D 13–14, Three-Thirteen round 11)."""
    rng = random.Random(2026)
    goals = [
        Goal(),
        Goal(discard=True),
        Goal(need_pure=True),
        Goal(all_melded=True, need_pure=True),
    ]
    for name, (compiled, reference) in PAIRS.items():
        deck = RULES[name][2]
        for _ in range(200):
            hand = rng.sample(deck, rng.choice((10, 11, 13, 14)))
            wild_rank = Rank.KING if name.startswith("three") else None
            goal = rng.choice(goals)
            want = reference.solve(hand, wild_rank=wild_rank, goal=goal)
            assert compiled.solve(hand, wild_rank=wild_rank, goal=goal) == want, (name, hand)


def test_hands_beyond_its_counts_go_to_the_reference() -> None:
    """Four copies of a card (four decks) or sixteen wild cards: the compiled search
    hands them back, and the solver answers with the pure-Python search."""
    compiled, reference = PAIRS["three-thirteen low"]
    fours = [Card.of(5, 2)] * 4 + [Card.of(6, 2), Card.of(7, 2)]
    assert compiled._core is not None
    assert compiled._core.search(fours, None, False, False, False, None, False) is None
    assert compiled.solve(fours) == reference.solve(fours)
    jokers = [JOKER] * 16 + [Card.of(2, 1)]
    assert compiled._core.search(jokers, None, False, False, True, None, True) is None
    assert compiled.solve(jokers, goal=Goal(discard=True)) == reference.solve(
        jokers, goal=Goal(discard=True)
    )


def test_clear_starts_afresh_with_the_same_answers() -> None:
    compiled, reference = PAIRS["remi13d strict"]
    hand = random.Random(3).sample(TWO_DECKS, 14)
    first = compiled.solve(hand, goal=remi13d.CLOSE_GOAL)
    compiled.clear()
    assert compiled.solve(hand, goal=remi13d.CLOSE_GOAL) == first
    assert first == reference.solve(hand, goal=remi13d.CLOSE_GOAL)


def test_long_searches_give_up_the_gil_and_threads_agree() -> None:
    """Four threads share one compiled solver; long searches run without the GIL; every
    answer equals the single-thread one; the memo is one fixed-size table per thread."""
    from remikit import _solvercore

    rng = random.Random(11)
    hands = [
        rng.sample([c for c in TWO_DECKS if c is not JOKER], 10) + [JOKER] * 4 for _ in range(40)
    ]
    reference = PAIRS["remi13d natural4"][1]
    want = [reference.solve(h, goal=Goal(discard=True, need_pure=True)) for h in hands]
    shared = Solver(*RULES["remi13d natural4"][:2], compiled=True)
    released = _solvercore.stats()["released"]

    def work(seed: int) -> list[tuple[int, object]]:
        order = list(range(len(hands))) * 2
        random.Random(seed).shuffle(order)
        return [(i, shared.solve(hands[i], goal=Goal(discard=True, need_pure=True))) for i in order]

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(work, range(4)))
    for answers in results:
        for i, got in answers:
            assert got == want[i], hands[i]
    stats = _solvercore.stats()
    assert stats["released"] > released
    assert stats["tables"] <= 4 + 1  # the threads' tables and the main thread's
    assert stats["pooled"] <= _solvercore.POOL_MAX


def test_many_searches_keep_one_table() -> None:
    """Thousands of searches in one thread reuse one table of fixed size: the memo is
    bounded whatever is asked."""
    from remikit import _solvercore

    _solvercore.release()
    compiled = PAIRS["gin"][0]
    rng = random.Random(5)
    for _ in range(3000):
        compiled.value(rng.sample(ONE_DECK, 11), goal=Goal(discard=True))
    assert _solvercore.stats()["tables"] == 1
    assert _solvercore.TABLE_ENTRIES >= 1 << 12
