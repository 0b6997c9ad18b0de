"""Rummy 500: the strong bot's decision regret against values with every hand visible.

Seeded four-player games of ``strong@B`` against three greedy bots (the
first four hands of each game, strong's seat rotating) give the positions:
every decision of the strong seat with more than one candidate. Each
candidate is then valued on the true deal, the way the arena-only
``cheater`` sees it: the search's own rollouts and objective, averaged over
``--worlds`` copies of the true hands with the stock shuffled, all
candidates on the same copies. A choice's regret is the best candidate's
value minus its own (points of the search's objective).

Per phase it prints the mean regret (with its standard error) and the share
of decisions that chose the best candidate, for the favourite (the candidate
listed first, the greedy bot's choice) and for the search at each
``--sims``, as strong runs it (sampling the hidden cards) and as the cheater
does (seeing them). The cheater's regret is what that many rollouts leave
(noise, in the true values too); strong's beyond it is what the hidden cards
cost. A change to the sampling or the candidates can be judged here in minutes,
where an arena match needs a thousand hands to tell 3 points apart.

Only Rummy 500 is measured: its candidates carry no prior, so the rollouts
alone value them; in the other variants the priors, which no deal can value,
hold much of the search's judgement.

Run: ``python bench/bench_regret.py --games 40 --sims 50,200``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from remikit.bots import Bot, make_bot
from remikit.bots.strong import StrongBot, tactics_for
from remikit.bots.strong.determinize import Determinization, table_game
from remikit.bots.strong.search import Plan, rollout, search
from remikit.engine import Game
from remikit.variants import find_variant
from remikit.views import PlayerView

VARIANT = "rummy500"
HANDS = 4  # a game gives positions from its first hands only


@dataclass(frozen=True)
class Position:
    """A decision of the strong seat: its view, the true deal, the candidates and their
    true values."""

    view: PlayerView
    truth: Determinization
    candidates: tuple[Plan, ...]
    values: tuple[float, ...]

    def regret(self, plan: Plan) -> float:
        return max(self.values) - self.values[self.candidates.index(plan)]


@dataclass(frozen=True)
class Job:
    game: int
    budget: float
    worlds: int


def positions(job: Job) -> list[Position]:
    """The strong seat's decisions in one seeded game, with their true values."""
    info = find_variant(VARIANT)
    options = info.game_class().options_type.from_mapping({"players": 4})
    game = info.game_class()(options, rng=random.Random(job.game))
    seat = job.game % game.players
    strong = StrongBot(seed=job.game, budget=job.budget)
    bots: list[Bot] = [make_bot("greedy", seed=s) for s in range(game.players)]
    bots[seat] = strong
    rng = random.Random(-job.game)
    found: list[Position] = []
    while not game.over and sum(d.is_over for d in game.deals) < HANDS:
        to_play = game.to_play
        assert to_play is not None
        view = game.view(to_play)
        if to_play == seat and len(view.legal_actions) > 1:
            position = true_values(game, view, strong, job.worlds, rng)
            if position is not None:
                found.append(position)
        game.apply(to_play, bots[to_play].choose(view))
    return found


def true_values(
    game: Game, view: PlayerView, strong: StrongBot, worlds: int, rng: random.Random
) -> Position | None:
    """The candidates of ``view`` valued on copies of the true deal (None: one candidate)."""
    deal = game.deal
    assert deal is not None
    tactics = tactics_for(view.variant)
    tactics.effort = strong.simulations(view.variant)
    candidates = tuple(plan for plan, _ in tactics.candidates(view))
    if len(candidates) < 2:
        return None
    table = table_game(view)
    truth = Determinization(tuple(tuple(h) for h in deal.hands), tuple(deal.stock))
    sums = [0.0] * len(candidates)
    for _ in range(worlds):
        world = shuffled(truth, rng)
        seed = rng.getrandbits(64)
        for i, plan in enumerate(candidates):
            copy = table.resume_deal(view, hands=world.hands, stock=world.stock)
            sums[i] += rollout(copy, view.seat or 0, plan, tactics, random.Random(seed))
    return Position(view, truth, candidates, tuple(s / worlds for s in sums))


def shuffled(truth: Determinization, rng: random.Random) -> Determinization:
    """The true hands, the stock shuffled (its order is what nobody knows)."""
    stock = list(truth.stock)
    rng.shuffle(stock)
    return Determinization(truth.hands, tuple(stock))


def searched(task: tuple[Position, int, int, bool]) -> float:
    """The regret of the search of one position with ``sims`` rollouts, sampling the
    hidden cards as strong does or (``peek``) seeing them as the cheater does."""
    position, sims, seed, peek = task
    view = position.view
    strong = StrongBot(seed=seed, sims=sims)
    tactics = tactics_for(view.variant)
    sampler = (
        (lambda _, rng: shuffled(position.truth, rng)) if peek else strong.sampler(view, tactics)
    )
    decision = search(view, tactics, sampler, random.Random(seed), sims=sims)
    return position.regret(decision.plan)


def summary(label: str, regrets: Sequence[float], best: int) -> str:
    n = len(regrets)
    mean = statistics.fmean(regrets)
    error = statistics.pstdev(regrets) / math.sqrt(n) if n > 1 else 0.0
    return f"  {label:<14} regret {mean:6.2f} ± {error:4.2f}   chose the best {best / n:6.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games (6)")
    parser.add_argument(
        "--budget",
        type=float,
        default=0.1,
        help="the strong bot's budget while the games are played (0.1)",
    )
    parser.add_argument(
        "--worlds", type=int, default=100, help="copies of the true deal per position (100)"
    )
    parser.add_argument("--sims", default="50", help="comma separated rollouts (50)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    args = parser.parse_args()
    jobs = [Job(g, args.budget, args.worlds) for g in range(args.games)]
    with multiprocessing.Pool(args.jobs) as pool:
        found = [p for batch in pool.map(positions, jobs) for p in batch]
        print(
            f"Rummy 500: {len(found)} decisions of strong@{args.budget:g} in "
            f"{args.games} games, each candidate valued on {args.worlds} true deals"
        )
        results = {}
        for sims in (int(s) for s in args.sims.split(",")):
            for peek in (False, True):
                tasks = [(p, sims, i, peek) for i, p in enumerate(found)]
                label = f"{'cheater' if peek else 'strong'} {sims}"
                results[label] = pool.map(searched, tasks)
    for phase in sorted({p.view.phase for p in found}):
        mine = [i for i, p in enumerate(found) if p.view.phase == phase]
        print(f" {phase}: {len(mine)} decisions")
        favourite = [found[i].regret(found[i].candidates[0]) for i in mine]
        print(summary("favourite", favourite, sum(r == 0 for r in favourite)))
        for label, regrets in results.items():
            chosen = [regrets[i] for i in mine]
            print(summary(label, chosen, sum(r == 0 for r in chosen)))


if __name__ == "__main__":
    main()
