"""Gin Rummy speed: remikit against OpenSpiel and RLCard, measured in the same run.

Cases:

* minimum deadwood, hands per second, on the same seeded hands of 10 and 11
  cards, uniform and meld-dense (cards of five consecutive ranks): remikit's
  ``scoring.deadwood`` (the arrangement; its solver's memo cleared before each
  hand, a fresh search) and ``SOLVER.value`` (the figure only); OpenSpiel's
  ``GinRummyUtils.min_deadwood`` (C++; its own 11-card call, which can
  over-report); RLCard's ``melding.get_meld_clusters`` with its deadwood
  values (pure Python; 11 cards: each cluster's deadwood less its highest
  card, the best discard);
* random play, hands and actions per second: remikit's engine
  (``legal_actions`` and ``apply``, a random legal action each time),
  OpenSpiel's Python loop (``legal_actions``, ``apply_action``, chance
  outcomes) and RLCard's ``GinRummyGame`` (``judge.get_legal_actions``,
  ``step``). RLCard's hand has other rules (the first player is dealt 11
  cards, no first-upcard offer, its own dead-hand ending and two scoring
  actions), so its hands are not the same length.

Each figure is the median of ``--repeats`` runs over the same hands; the
ratios are remikit's over the baseline's (for deadwood, remikit's figure
only, as the baselines give). The figures agree on every
10-card hand and every 11-card hand is checked against OpenSpiel's best
discard (the bench stops on a difference).

Needs the ``openspiel`` extra. Run: ``python bench/bench_gin.py [--hands N]
[--games N] [--repeats N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel
from rlcard.games.gin_rummy.game import GinRummyGame
from rlcard.games.gin_rummy.utils import melding
from rlcard.games.gin_rummy.utils import utils as rl_utils

from remikit.cards import Card, make_deck
from remikit.shuffle import shuffled
from remikit.solver import Goal
from remikit.variants.gin.openspiel import card_number
from remikit.variants.gin.rules import GinGame, GinOptions
from remikit.variants.gin.scoring import SOLVER, deadwood

DECK = make_deck(decks=1)
UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
OPENSPIEL = pyspiel.load_game("gin_rummy")


# -- the hands ------------------------------------------------------------------


def uniform(rng: random.Random, size: int) -> list[Card]:
    return rng.sample(DECK, size)


def dense(rng: random.Random, size: int) -> list[Card]:
    """``size`` cards of five consecutive ranks."""
    low = rng.randint(1, 9)
    return rng.sample([c for c in DECK if low <= int(c.rank) < low + 5], size)


# -- the three solvers ------------------------------------------------------------


def remikit_deadwood(hand: Sequence[Card]) -> int:
    SOLVER._memo.clear()
    return deadwood(hand).points


def remikit_value(hand: Sequence[Card]) -> int:
    SOLVER._memo.clear()
    return -SOLVER.value(hand, goal=Goal(discard=len(hand) > 10))


def openspiel_deadwood(cards: list[int]) -> int:
    return int(UTILS.min_deadwood(cards))


def rlcard_deadwood(cards: list[Any]) -> int:
    """RLCard's minimum deadwood: the best of its meld clusters (and none); with 11 cards
    each cluster's deadwood less its highest card."""
    best = 1000
    for cluster in [*melding.get_meld_clusters(cards), []]:
        melded = {id(c) for meld in cluster for c in meld}
        values = [rl_utils.get_deadwood_value(c) for c in cards if id(c) not in melded]
        total = sum(values) - (max(values) if len(cards) == 11 and values else 0)
        best = min(best, total)
    return best


def openspiel_best(hand: Sequence[Card]) -> int:
    """OpenSpiel's 10-card figure, or its best after each discard (the check only)."""
    cards = [card_number(c) for c in hand]
    if len(cards) == 10:
        return int(UTILS.min_deadwood(cards))
    return min(int(UTILS.min_deadwood(cards[:i] + cards[i + 1 :])) for i in range(len(cards)))


def rate(items: Sequence[Any], work: Callable[[Any], object]) -> float:
    """Items per second of ``work`` over ``items``, only the calls timed."""
    total = 0
    for item in items:
        start = time.perf_counter_ns()
        work(item)
        total += time.perf_counter_ns() - start
    return len(items) / (total / 1e9)


def deadwood_cases(hands: int, repeats: int, seed: int) -> None:
    print(f"minimum deadwood, hands per second, median of {repeats} runs of {hands} hands")
    header = (
        f"{'hands':<16} {'remikit':>9} {'value':>9} {'OpenSpiel':>10} {'RLCard':>9} "
        f"{'/OpenSpiel':>10} {'/RLCard':>8} {'OS over':>7}"
    )
    print(header)
    print("-" * len(header))
    rng = random.Random(seed)
    for deal in (uniform, dense):
        for size in (10, 11):
            cases = [deal(rng, size) for _ in range(hands)]
            spiel = [[card_number(c) for c in h] for h in cases]
            rl = [[rl_utils.get_card(n) for n in h] for h in spiel]
            over = 0
            for hand, s, r in zip(cases, spiel, rl, strict=True):
                best = remikit_deadwood(hand)
                if not best == remikit_value(hand) == openspiel_best(hand) == rlcard_deadwood(r):
                    raise AssertionError(f"the figures differ on {' '.join(map(str, hand))}")
                over += openspiel_deadwood(s) != best
            runs: dict[str, list[float]] = {"remikit": [], "value": [], "os": [], "rl": []}
            for _ in range(repeats):
                runs["remikit"].append(rate(cases, remikit_deadwood))
                runs["value"].append(rate(cases, remikit_value))
                runs["os"].append(rate(spiel, openspiel_deadwood))
                runs["rl"].append(rate(rl, rlcard_deadwood))
            med = {k: statistics.median(v) for k, v in runs.items()}
            print(
                f"{deal.__name__ + ' ' + str(size) + ' cards':<16} {med['remikit']:>9,.0f} "
                f"{med['value']:>9,.0f} {med['os']:>10,.0f} {med['rl']:>9,.0f} "
                f"{med['value'] / med['os']:>10.3f} {med['value'] / med['rl']:>8.2f} "
                f"{over:>7}"
            )
    print("(ratios: remikit's figure only (value) over the baseline, which gives the figure")
    print(" only too; OS over: 11-card hands where OpenSpiel's call is above the best discard)")


# -- random play ------------------------------------------------------------------


def remikit_hand(seed: int) -> int:
    """One random hand in remikit's engine; its number of actions."""
    rng = random.Random(seed)
    game = GinGame(GinOptions(), auto_deal=False)
    deal = game.start_deal(shuffled(DECK, seed.to_bytes(8, "big")), dealer=1)
    actions = 0
    while not deal.is_over:
        seat = deal.to_play
        assert seat is not None
        game.apply(seat, rng.choice(deal.legal_actions(seat)))
        actions += 1
    return actions


def openspiel_hand(seed: int) -> int:
    """One random hand in OpenSpiel's Python loop; its number of decisions."""
    rng = random.Random(seed)
    state = OPENSPIEL.new_initial_state()
    actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions


def rlcard_hand(seed: int) -> int:
    """One random hand of RLCard's game; its number of actions."""
    rng = random.Random(seed)
    game = GinRummyGame()
    game.np_random.seed(seed % 2**32)
    game.init_game()
    actions = 0
    while not game.is_over():
        game.step(rng.choice(game.judge.get_legal_actions()))
        actions += 1
    return actions


def play(hand: Callable[[int], int], seeds: Sequence[int]) -> tuple[float, float]:
    """Hands and actions per second of random play over ``seeds``."""
    start = time.perf_counter()
    actions = sum(hand(s) for s in seeds)
    elapsed = time.perf_counter() - start
    return len(seeds) / elapsed, actions / elapsed


def play_cases(games: int, repeats: int, seed: int) -> None:
    print(f"\nrandom play, median of {repeats} runs of {games} hands")
    header = f"{'engine':<10} {'hands/s':>9} {'actions/s':>10} {'actions/hand':>12} {'ratio':>7}"
    print(header)
    print("-" * len(header))
    seeds = [seed * 1_000_000 + i for i in range(games)]
    rows = {}
    for name, hand in (
        ("remikit", remikit_hand),
        ("OpenSpiel", openspiel_hand),
        ("RLCard", rlcard_hand),
    ):
        runs = [play(hand, seeds) for _ in range(repeats)]
        rows[name] = (
            statistics.median(r[0] for r in runs),
            statistics.median(r[1] for r in runs),
        )
    for name, (hands_s, actions_s) in rows.items():
        ratio = rows["remikit"][1] / actions_s
        print(
            f"{name:<10} {hands_s:>9,.0f} {actions_s:>10,.0f} {actions_s / hands_s:>12.1f} "
            f"{ratio:>7.2f}"
        )
    print("(ratio: remikit's actions per second over the engine's)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    deadwood_cases(args.hands, args.repeats, args.seed)
    play_cases(args.games, args.repeats, args.seed)


if __name__ == "__main__":
    main()
