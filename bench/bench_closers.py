"""How often Remi 13 D bots throw away their only closing card one card from a close.

A player closes with an Ace or a Joker set aside after the draw, the other 13
cards all in melds with a pure run of 4+ (R13-7). A bot that, after its draw,
holds exactly one such card, with 13 other cards of which 12 need one more
card to be all melds, and cannot close yet, gives its close away when it
discards that card. This plays the arena match of ``bench_strength.py --suite
remi13d`` (``strong@B,greedy,greedy,greedy``, single games, the same seeds)
and counts per bot those positions, the closing cards it threw from them, and
the games it closed; also, more widely, the discards that could leave a hand
one card from a close (a closing card and 12 cards one card from all melds)
and those that did not. It asks only the rules' scoring what a hand is, so it
measures any version of the bots alike.

Run: ``python bench/bench_closers.py --games 300 --budget 0.1``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Sequence

from remikit.actions import Action, Discard
from remikit.bots import Bot, play_game
from remikit.bots.cheater import make_arena_bot
from remikit.cards import JOKER, Card, Rank
from remikit.cli.arena import make_arena
from remikit.cli.games import GameTask, derive_seed
from remikit.solver import NEG, Goal
from remikit.variants.remi13d import scoring
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions, pure_rule_of
from remikit.views import PlayerView

ONE_AWAY = Goal(discard=True, all_melded=True, need_pure=True)


def without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


def lone_closer(hand: Sequence[Card], view: PlayerView) -> Card | None:
    """The only ace or joker of 14 cards when 12 of the 13 others and one more card would be
    all melds with a pure run (None when there is no such card)."""
    closers = [c for c in hand if c is JOKER or c.rank == Rank.ACE]
    if len(closers) != 1:
        return None
    rest = [c for c in hand if c is not closers[0]]
    solver = scoring.solver(pure_rule_of(view))
    return closers[0] if solver.value([*rest, JOKER], goal=ONE_AWAY) > NEG // 2 else None


def one_away(hand: Sequence[Card], view: PlayerView) -> bool:
    """Whether 13 cards hold a closing card whose 12 other cards and one more card would be
    all melds with a pure run."""
    solver = scoring.solver(pure_rule_of(view))
    return any(
        solver.value([*without(hand, c), JOKER], goal=scoring.CLOSE_GOAL) > NEG // 2
        for c in scoring.closing_candidates(hand)
    )


class Watched(Bot):
    """A bot whose closes and discards (from a :func:`lone_closer` position, and where a
    discard could leave the hand :func:`one_away`) are counted under its name."""

    def __init__(self, inner: Bot, counts: Counter[tuple[str, str]]) -> None:
        self.inner = inner
        self.name = inner.name
        self.counts = counts

    def choose(self, view: PlayerView) -> Action:
        action = self.inner.choose(view)
        legal = view.legal_actions
        if isinstance(action, Close):
            self.counts[self.name, "closed"] += 1
        elif isinstance(action, Discard) and not any(isinstance(a, Close) for a in legal):
            closer = lone_closer(view.hand, view)
            if closer is not None:
                self.counts[self.name, "positions"] += 1
                self.counts[self.name, "thrown"] += action.card == closer
            allowed = {a.card for a in legal if isinstance(a, Discard)}
            if any(one_away(without(view.hand, c), view) for c in allowed):
                self.counts[self.name, "near"] += 1
                self.counts[self.name, "lost"] += not one_away(
                    without(view.hand, action.card), view
                )
        return action

    def plays(self, variant: str) -> bool:
        return self.inner.plays(variant)


def play(task: GameTask, counts: Counter[tuple[str, str]]) -> None:
    """One arena game, every seat watched."""
    game = Remi13DGame(
        Remi13DOptions.from_mapping(task.options),
        rng=random.Random(derive_seed(task.seed, task.index)),
    )
    bots: list[Bot] = []
    for j in task.seats():
        bot = make_arena_bot(task.bots[j], seed=derive_seed(task.seed, task.index, j), game=game)
        bots.append(Watched(bot, counts))
    play_game(game, bots)
    for name in {b.name for b in bots}:
        counts[name, "seats"] += sum(1 for b in bots if b.name == name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--budget", type=float, default=0.1, help="strong's seconds (0.1)")
    parser.add_argument("--seed", type=int, default=2024, help="arena seed (2024)")
    args = parser.parse_args()
    tested = f"strong@{args.budget:g}"
    arena = make_arena(
        "remi13d",
        ",".join([tested, "greedy", "greedy", "greedy"]),
        games=args.games,
        seed=args.seed,
        options=("games=1",),
    )
    counts: Counter[tuple[str, str]] = Counter()
    start = time.perf_counter()
    for task in arena.tasks():
        play(task, counts)
    print(
        f"remi13d closing cards: {args.games} games, seed {args.seed}, "
        f"{time.perf_counter() - start:.0f} s"
    )
    for name in (tested, "greedy"):
        positions, thrown = counts[name, "positions"], counts[name, "thrown"]
        share = thrown / positions if positions else 0.0
        print(
            f"  {name:12s} seats {counts[name, 'seats']:4d}  closed {counts[name, 'closed']:4d}  "
            f"one card from a close with its only closing card {positions:4d}, "
            f"threw it {thrown:4d} ({share:.1%})"
        )
        kept, lost = counts[name, "near"], counts[name, "lost"]
        share = lost / kept if kept else 0.0
        print(
            f"  {'':12s} could keep a hand one card from a close {kept:4d}, "
            f"gave it up {lost:4d} ({share:.1%})"
        )


if __name__ == "__main__":
    main()
