"""Remi 13 D closing speed: how soon a level closes when nobody races it.

A Remi 13 D deal is a race to close (R13-7), and the strong bot's rivals' hidden
cards barely matter to it (the arena-only cheater, which sees them, wins no more
games). So its strength is mostly its speed, and that can be measured far more
sharply than by arena matches: one seat plays the level, the three others draw
from the stock and throw a card at random (they never take a discard or close),
until the level closes or the stock runs out (R13-13). Every level plays the same
seeded deals, so two levels are compared deal by deal.

Per level it prints the share of deals it closed, the mean turn of its close (a
deal it did not close counts as turn 15), the shares closed by its 6th, 8th,
10th and 12th turn, and against the first level the deals it closed sooner and
later. ``LEVEL:NAME=VALUE,...`` plays the level with constants of
``remikit.variants.remi13d.tactics`` changed, to try the strong bot's settings.

Run: ``python bench/bench_race.py --games 150 greedy strong@0.1 strong@0.3``.
"""

from __future__ import annotations

import argparse
import inspect
import random
import re
from collections.abc import Sequence

from remikit.actions import Action, Discard, Draw
from remikit.bots import Bot, make_bot, play_game
from remikit.bots.runner import play_all
from remikit.variants.remi13d import tactics
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
from remikit.views import PlayerView

NEVER = 15  # the turn counted for a deal the level did not close
SETTINGS = {
    k: v
    for k, v in vars(tactics).items()
    if type(v) in (int, float) and re.search(rf"^{k} = ", inspect.getsource(tactics), re.M)
}
"""The strong bot's Remi 13 D settings: the module's own numeric constants."""


class Drawer(Bot):
    """Draws from the stock and throws a card at random: a seat that never races."""

    name = "drawer"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        if Draw("stock") in view.legal_actions:
            return Draw("stock")
        return self.rng.choice([a for a in view.legal_actions if isinstance(a, Discard)])

    def plays(self, variant: str) -> bool:
        return True


class Timed(Bot):
    """The level under test, counting its turns and noting its close."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.turns = 0
        self.closed = False

    def choose(self, view: PlayerView) -> Action:
        action = self.inner.choose(view)
        self.turns += view.phase == "draw"
        self.closed |= isinstance(action, Close)
        return action

    def plays(self, variant: str) -> bool:
        return True


def settle(changes: str) -> None:
    """The tactics' constants as shipped, then ``NAME=VALUE,...`` changed."""
    for name, value in SETTINGS.items():
        setattr(tactics, name, value)
    for change in filter(None, changes.split(",")):
        name, value = change.split("=")
        setattr(tactics, name, type(SETTINGS[name])(float(value)))


def race(task: tuple[str, int]) -> int:
    """The turn at which the level closed the deal of ``seed`` (:data:`NEVER`: it did not)."""
    spec, seed = task
    level, _, changes = spec.partition(":")
    settle(changes)
    game = Remi13DGame(Remi13DOptions.from_mapping({"games": 1}), rng=random.Random(seed))
    timed = Timed(make_bot(level, seed=seed))
    play_game(game, [timed, *(Drawer(seed * 4 + i) for i in range(1, 4))])
    return timed.turns if timed.closed else NEVER


def report(spec: str, turns: Sequence[int], first: Sequence[int]) -> str:
    games = len(turns)
    by = " ".join(f"{sum(t <= k for t in turns) / games:4.0%}" for k in (6, 8, 10, 12))
    sooner = sum(a < b for a, b in zip(turns, first, strict=True))
    later = sum(a > b for a, b in zip(turns, first, strict=True))
    closed = sum(t < NEVER for t in turns) / games
    mean = sum(turns) / games
    return (
        f"{spec:32s} closed {closed:6.1%}  mean turn {mean:5.2f}  by turn 6/8/10/12 {by}  "
        f"sooner/later than the first {sooner:3d} / {later:3d}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "levels",
        nargs="*",
        default=["strong@0.1", "greedy"],
        metavar="LEVEL[:NAME=VALUE,...]",
        help="the levels to race, the first the others are compared with (strong@0.1 greedy)",
    )
    parser.add_argument("--games", type=int, default=150, help="deals per level (150)")
    parser.add_argument("--seed", type=int, default=1000, help="the first deal's seed (1000)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    args = parser.parse_args()
    for spec in args.levels:
        for change in filter(None, spec.partition(":")[2].split(",")):
            name, _, value = change.partition("=")
            if name not in SETTINGS or not value:
                parser.error(f"{change!r} is not NAME=VALUE of: {', '.join(SETTINGS)}")
    seeds = range(args.seed, args.seed + args.games)
    print(f"remi13d closing speed: {args.games} deals, seeds {args.seed}-{seeds[-1]}")
    results = {
        spec: list(play_all(race, [(spec, s) for s in seeds], args.jobs)) for spec in args.levels
    }
    first = results[args.levels[0]]
    for spec, turns in results.items():
        print(report(spec, turns, first))


if __name__ == "__main__":
    main()
