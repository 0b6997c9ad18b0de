"""The web table's hints: what a state message's ``advice`` and an ``advice`` request cost.

Seeded games of greedy bots, every variant at its default table (Rummy 500 also with
two players, 13 cards each): at every state the advice of every seat
(:func:`remikit.server.advice.state_advice`, as each state message computes it), and
at the seat to play the best arrangement (:func:`~remikit.server.advice.best_arrangement`,
the answer to a request), each timed; median, p90, p99 and max in milliseconds.

Run: ``python bench/bench_advice.py [--games N] [--seed S]``.
Target: a state's advice a few milliseconds at most (p99), so it runs on the event loop.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from remikit.bots import make_bot
from remikit.engine import Game
from remikit.server.advice import best_arrangement, state_advice
from remikit.variants import find_playable
from remikit.views import PlayerView

TABLES: list[tuple[str, dict[str, Any]]] = [
    ("remi13d", {}),
    ("rummy500", {}),
    ("rummy500", {"players": 2}),
    ("three-thirteen", {}),
    ("gin", {}),
]


def timed(work: Callable[[PlayerView], object], view: PlayerView, into: list[float]) -> None:
    started = time.perf_counter()
    work(view)
    into.append((time.perf_counter() - started) * 1000)


def measure(
    variant: str, options: dict[str, Any], games: int, seed: int
) -> tuple[list[float], ...]:
    game_class = find_playable(variant).game_class()
    state: list[float] = []
    best: list[float] = []
    for number in range(games):
        game: Game = game_class(
            game_class.options_type.from_mapping(options), rng=random.Random(seed + number)
        )
        bots = [make_bot("greedy", seed=seed + s) for s in range(game.players)]
        while not game.over:
            seat = game.to_play
            assert seat is not None
            for s in range(game.players):
                timed(state_advice, game.view(s), state)
            timed(best_arrangement, game.view(seat), best)
            game.apply(seat, bots[seat].choose(game.view(seat)))
    return state, best


def summary(times: list[float]) -> str:
    cuts = statistics.quantiles(times, n=100)
    return (
        f"median {statistics.median(times):.2f}  p90 {cuts[89]:.2f}  p99 {cuts[98]:.2f}  "
        f"max {max(times):.1f} ms  ({len(times)} calls)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for variant, options in TABLES:
        state, best = measure(variant, options, args.games, args.seed)
        name = variant + "".join(f" {k}={v}" for k, v in options.items())
        print(f"{name}\n  state advice:  {summary(state)}\n  arrangement:   {summary(best)}")


if __name__ == "__main__":
    main()
