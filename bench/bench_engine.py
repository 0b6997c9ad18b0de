"""Engine speed per variant: random play, and the strong bot's rollouts.

Cases:

Times are the process's CPU time, the fastest of ``--repeats`` runs (another process
on the machine slows them; the solver's memo is warm after the first run).

* random play, actions per second: ``legal_actions`` and ``apply`` of each
  variant's game, a random legal action each time, seeded games of up to
  ``--deals`` deals;
* the strong bot's rollouts per second: seeded greedy games give the views
  of a few decisions where the strong bot searches; each view is decided by a
  fresh ``StrongBot`` of ``--sims`` rollouts' effort. It prints the rollouts
  played, their time, and the decisions' whole time.

Each case also prints a digest of what it played (records, decisions): the
same digest means the same games and the same choices.

Run: ``python bench/bench_engine.py [--games N] [--deals N] [--repeats N] [--views N] [--sims N]
[--variant NAME]``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import random
import time
from collections.abc import Callable
from typing import Any

from remikit.bots import make_bot
from remikit.bots.strong import StrongBot
from remikit.engine import Game
from remikit.variants import find_variant
from remikit.variants.gin.actions import Knock
from remikit.views import PlayerView

search_module: Any = importlib.import_module("remikit.bots.strong.search")
VARIANTS = ("gin", "remi13d", "rummy500", "three-thirteen")
OPTIONS: dict[str, dict[str, Any]] = {"rummy500": {"players": 4}}


def new_game(variant: str, seed: int) -> Game:
    game_class = find_variant(variant).game_class()
    options = game_class.options_type.from_mapping(OPTIONS.get(variant, {}))
    return game_class(options, rng=random.Random(seed))


def random_game(variant: str, seed: int, deals: int) -> tuple[int, Game]:
    """One seeded game of random play (at most ``deals`` deals); its number of actions."""
    rng = random.Random(seed)
    game = new_game(variant, seed)
    actions = 0
    while not game.over and len(game.deals) <= deals:
        if game.needs_deal:
            if len(game.deals) == deals:
                break
            game.start_deal()
        seat = game.to_play
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        actions += 1
    return actions, game


def digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, default=str).encode()).hexdigest()[:12]


def random_play(variant: str, games: int, deals: int, repeats: int) -> None:
    """The fastest of ``repeats`` runs over the same games."""
    times = []
    for _ in range(repeats):
        records = []
        start = time.process_time()
        actions = 0
        for seed in range(games):
            n, game = random_game(variant, seed, deals)
            actions += n
            records.append(game.record())
        times.append(time.process_time() - start)
    elapsed = min(times)
    print(
        f"{variant:<15} random play {actions / elapsed:>9,.0f} actions/s "
        f"({actions} actions, {elapsed:.2f} s) digest {digest(records)}"
    )


def searched(view: PlayerView) -> bool:
    """Whether the strong bot may search this view (in Gin Rummy: only a possible knock)."""
    return view.variant != "gin" or any(isinstance(a, Knock) for a in view.legal_actions)


def search_views(variant: str, count: int) -> list[PlayerView]:
    """Views of decisions the strong bot may search, from seeded greedy games (every
    third one; in Gin Rummy every one)."""
    views: list[PlayerView] = []
    seed = 0
    while len(views) < count:
        game = new_game(variant, seed)
        bots = [make_bot("greedy", seed=seed * 10 + s) for s in range(game.players)]
        step = 0
        while not game.over and len(views) < count and len(game.deals) <= 2:
            if game.needs_deal:
                game.start_deal()
            seat = game.to_play
            assert seat is not None
            view = game.view(seat)
            if len(view.legal_actions) > 1 and searched(view):
                step += 1
                if step % 3 == 0 or view.variant == "gin":
                    views.append(view)
            game.apply(seat, bots[seat].choose(view))
        seed += 1
    return views


def timed(function: Callable[..., float], clock: list[float]) -> Callable[..., float]:
    def wrapper(*args: Any) -> float:
        start = time.process_time()
        value = function(*args)
        clock[0] += time.process_time() - start
        clock[1] += 1
        return value

    return wrapper


def rollouts(variant: str, count: int, sims: int, repeats: int) -> None:
    """The fastest of ``repeats`` runs over the same decisions."""
    views = search_views(variant, count)
    best: tuple[float, float, float] | None = None
    for _ in range(repeats):
        clock = [0.0, 0.0]
        original = search_module.rollout
        search_module.rollout = timed(original, clock)
        decisions = []
        start = time.process_time()
        try:
            for n, view in enumerate(views):
                decision = StrongBot(seed=n, sims=sims).decide(view)
                means = [round(m, 9) for m in decision.means]
                decisions.append([str(a) for a in decision.plan] + means)
        finally:
            search_module.rollout = original
        run = (time.process_time() - start, clock[0], clock[1])
        best = run if best is None or run < best else best
    assert best is not None
    elapsed, clock = best[0], [best[1], best[2]]
    rate = clock[1] / clock[0] if clock[1] else 0.0
    print(
        f"{variant:<15} strong search {rate:>9,.0f} rollouts/s "
        f"({int(clock[1])} rollouts, {clock[0]:.2f} s in rollouts; {len(views)} decisions, "
        f"{elapsed:.2f} s, {clock[1] / elapsed:,.0f} rollouts per decision second) "
        f"digest {digest(decisions)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--views", type=int, default=20)
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--quick-sims", type=int, default=12, help="Three-Thirteen's effort")
    parser.add_argument("--variant", choices=VARIANTS, action="append")
    parser.add_argument("--skip", choices=("play", "search"))
    args = parser.parse_args()
    for variant in args.variant or VARIANTS:
        if args.skip != "play":
            random_play(variant, args.games, args.deals, args.repeats)
        if args.skip != "search":
            rollouts(variant, args.views, args.sims, args.repeats)
            if variant == "three-thirteen":  # its rollouts are only for quick decisions
                rollouts(variant, args.views, args.quick_sims, args.repeats)


if __name__ == "__main__":
    main()
