"""Strength of the strong bot: arena matches against greedy bots, and the cheater's ceiling.

Each suite is one ``remi arena`` match played through the arena's own code
(same tasks, same seeds: the numbers are those ``remi arena ... --seed S``
prints, for any ``--jobs``), with a stopwatch around every decision of the
bot under test:

* ``remi13d``: ``strong@B,greedy,greedy,greedy``, single games (``games=1``);
  a game is won by the highest score (target: >= 40% of games, par 25%).
* ``three-thirteen``: the same seats, whole games of 11 rounds; per round,
  the mean deadwood (target: strong's >= 20% below greedy's).
* ``rummy500``: four players, whole games to 500; hands won on points and
  games won (target: >= 40% of both, par 25%).
* ``cheater-<variant>``: ``cheater@B`` in strong's seat, the measurement
  ceiling (the strong search with every hand visible).

Per suite it prints, for each bot, wins with the 95% Wilson interval and mean
points (per deal and per game), the decision times of the bot under test
(median and p95, against the budget) and whether the target is met; with
``--out`` the figures are also written as JSON.

``--calibrate`` measures instead, per variant, the 95th percentile of the
strong bot's decision CPU time at the budget and the ``sims_per_second`` that
would bring it to the budget: the figures behind each variant tactics' rate.

Run: ``python bench/bench_strength.py --suite remi13d --budget 0.1 --deals 1000
--jobs 2 --out bench/results/remi13d-0.1.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from remikit.actions import Action
from remikit.bots import Bot, make_bot, play_game
from remikit.bots.cheater import make_arena_bot
from remikit.bots.strong import StrongBot, tactics_for
from remikit.cli.arena import Arena, make_arena
from remikit.cli.arena_results import tally
from remikit.cli.games import GameOutcome, GameTask, derive_seed, wilson_interval
from remikit.variants import find_variant
from remikit.views import PlayerView


@dataclass(frozen=True)
class Suite:
    variant: str
    tested: str  # the level in seat order's first place: strong or cheater
    options: tuple[str, ...]
    deals_per_game: float  # to turn a number of deals into games


SUITES = {
    "remi13d": Suite("remi13d", "strong", ("games=1",), 1),
    "three-thirteen": Suite("three-thirteen", "strong", (), 11),
    "rummy500": Suite("rummy500", "strong", ("players=4",), 10),
}
SUITES.update(
    {
        f"cheater-{k}": Suite(s.variant, "cheater", s.options, s.deals_per_game)
        for k, s in list(SUITES.items())
    }
)


Timing = list[tuple[float, float]]
"""Decision times: (wall-clock, CPU) seconds."""
Outs = tuple[int | None, ...]
"""Per deal of a game, the seat that went out."""


class Timed(Bot):
    """A bot with a stopwatch around each decision (calls included): wall-clock and CPU
    seconds (the CPU time is what the decision costs on a machine busy with other work)."""

    def __init__(self, inner: Bot, times: Timing) -> None:
        self.inner = inner
        self.name = inner.name
        self.times = times

    def choose(self, view: PlayerView) -> Action:
        start, cpu = time.perf_counter(), time.process_time()
        action = self.inner.choose(view)
        self.times.append((time.perf_counter() - start, time.process_time() - cpu))
        return action

    def plays(self, variant: str) -> bool:
        return self.inner.plays(variant)


def play_timed(task: GameTask) -> tuple[GameOutcome, Timing, Outs]:
    """:func:`remikit.cli.arena.play_task`, with the first-named bot timed; also, per deal,
    the seat that went out (emptied its hand), if any."""
    info = find_variant(task.variant)
    options = info.game_class().options_type.from_mapping(task.options)
    game = info.game_class()(options, rng=random.Random(derive_seed(task.seed, task.index)))
    seats = task.seats()
    times: Timing = []
    bots: list[Bot] = []
    for j in seats:
        bot = make_arena_bot(task.bots[j], seed=derive_seed(task.seed, task.index, j), game=game)
        bots.append(Timed(bot, times) if j == 0 else bot)
    play_game(game, bots)
    finished = [(d.summary, d.hands) for d in game.deals if d.summary is not None]
    deals = tuple(summary.points for summary, _ in finished)
    outs = tuple(
        next((s for s, hand in enumerate(hands) if not hand), None) for _, hands in finished
    )
    return GameOutcome(task.index, seats, tuple(game.totals), game.winner, deals), times, outs


def endings(
    outcomes: Sequence[GameOutcome], outs: Sequence[Outs], tested: str
) -> list[dict[str, Any]]:
    """How the deals someone ended by going out went for the tested bot (first) and for
    the greedy bots (together): the share of them it went out in, and its share of deals
    won on points when it went out and when another seat did."""
    counts = [[0] * 4 for _ in range(2)]  # out, won when out, another out, won then
    for outcome, deal_outs in zip(outcomes, outs, strict=True):
        for points, out in zip(outcome.deals, deal_outs, strict=True):
            if out is None:
                continue
            best = max(points)
            for seat, bot in enumerate(outcome.seats):
                row = counts[min(bot, 1)]
                won = points[seat] == best and points.count(best) == 1
                first = 0 if out == seat else 2
                row[first] += 1
                row[first + 1] += won
    return [
        {
            "bot": who,
            "went_out": out / (out + other) if out + other else 0.0,
            "won_when_out": won_out / out if out else 0.0,
            "won_when_another_out": won_other / other if other else 0.0,
        }
        for who, (out, won_out, other, won_other) in zip((tested, "greedy"), counts, strict=True)
    ]


def run_suite(name: str, budget: float, deals: int, jobs: int, seed: int) -> dict[str, Any]:
    suite = SUITES[name]
    tested = f"{suite.tested}@{budget:g}"
    games = max(1, math.ceil(deals / suite.deals_per_game))
    arena: Arena = make_arena(
        suite.variant,
        ",".join([tested, "greedy", "greedy", "greedy"]),
        games=games,
        seed=seed,
        options=suite.options,
    )
    tasks = arena.tasks()
    start = time.perf_counter()
    outcomes: list[GameOutcome] = []
    times: Timing = []
    outs: list[Outs] = []
    done = 0
    with multiprocessing.Pool(max(1, jobs)) as pool:
        for outcome, decision_times, deal_outs in pool.imap(play_timed, tasks, chunksize=1):
            outcomes.append(outcome)
            times += decision_times
            outs.append(deal_outs)
            done += 1
            if done % max(1, games // 20) == 0:
                print(
                    f"  {name}: {done}/{games} games, {time.perf_counter() - start:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    seconds = time.perf_counter() - start
    lower = arena.info.game_class().lower_is_better
    per_deal = tally(outcomes, arena.bots, per_deal=True, lower_is_better=lower)
    per_game = tally(outcomes, arena.bots, per_deal=False, lower_is_better=lower)
    rows = []
    for index, (d, g) in enumerate(zip(per_deal, per_game, strict=True)):
        dl, dh = wilson_interval(d.wins, d.played)
        gl, gh = wilson_interval(g.wins, g.played)
        rows.append(
            {
                "seat_order": index,
                "bot": d.bot,
                "deals": d.played,
                "deal_wins": d.wins,
                "deal_win_rate": d.win_rate,
                "deal_win_ci95": [dl, dh],
                "mean_points_per_deal": d.mean_points,
                "games": g.played,
                "game_wins": g.wins,
                "game_win_rate": g.win_rate,
                "game_win_ci95": [gl, gh],
                "mean_points_per_game": g.mean_points,
            }
        )
    timing: dict[str, float] = {"decisions": len(times), "budget": budget}
    for clock, values in (("", [w for w, _ in times]), ("cpu_", [c for _, c in times])):
        ordered = sorted(values) or [0.0]
        timing[f"{clock}median"] = statistics.median(ordered)
        timing[f"{clock}p95"] = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        timing[f"{clock}max"] = ordered[-1]
    result = {
        "suite": name,
        "variant": suite.variant,
        "options": list(suite.options),
        "seed": seed,
        "jobs": jobs,
        "games": games,
        "seconds": seconds,
        "bots": rows,
        "decision_time": timing,
    }
    result["target"] = judge(suite, rows)
    if suite.variant == "rummy500":
        result["endings"] = endings(outcomes, outs, tested)
    return result


def judge(suite: Suite, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The issue's target for the suite, and whether the tested bot meets it."""
    me, others = rows[0], rows[1:]
    if suite.variant == "remi13d":
        return {
            "text": "highest score in >= 40% of games (par 25%)",
            "value": me["deal_win_rate"],
            "met": me["deal_win_rate"] >= 0.40,
        }
    if suite.variant == "three-thirteen":
        greedy = statistics.fmean(r["mean_points_per_deal"] for r in others)
        cut = 1 - me["mean_points_per_deal"] / greedy if greedy else 0.0
        return {
            "text": "mean deadwood per round >= 20% below greedy's",
            "greedy_mean": greedy,
            "reduction": cut,
            "met": cut >= 0.20,
        }
    return {
        "text": ">= 40% of hands won on points and of whole games (par 25%)",
        "hands": me["deal_win_rate"],
        "games": me["game_win_rate"],
        "met": me["deal_win_rate"] >= 0.40 and me["game_win_rate"] >= 0.40,
    }


def report(result: dict[str, Any]) -> None:
    t = result["decision_time"]
    print(
        f"\n{result['suite']} ({result['variant']} {' '.join(result['options'])}): "
        f"{result['games']} games, seed {result['seed']}, {result['seconds']:.0f} s "
        f"with {result['jobs']} jobs"
    )
    for r in result["bots"]:
        dl, dh = r["deal_win_ci95"]
        gl, gh = r["game_win_ci95"]
        print(
            f"  {r['bot']:14s} deals {r['deal_wins']:4d}/{r['deals']:<5d} "
            f"{r['deal_win_rate']:6.1%} [{dl:.1%}, {dh:.1%}]  "
            f"mean/deal {r['mean_points_per_deal']:7.2f}   games {r['game_wins']}/{r['games']} "
            f"{r['game_win_rate']:.1%} [{gl:.1%}, {gh:.1%}]  "
            f"mean/game {r['mean_points_per_game']:.1f}"
        )
    print(
        f"  decisions of {result['bots'][0]['bot']}: {t['decisions']}, median "
        f"{t['median']:.3f} s, p95 {t['p95']:.3f} s, max {t['max']:.3f} s "
        f"(budget {t['budget']:g} s); CPU median {t['cpu_median']:.3f} s, "
        f"p95 {t['cpu_p95']:.3f} s"
    )
    for e in result.get("endings", ()):
        print(
            f"  {e['bot']}: of the hands ended by going out, went out in "
            f"{e['went_out']:.1%}, won {e['won_when_out']:.1%} of those and "
            f"{e['won_when_another_out']:.1%} of the hands another seat went out in"
        )
    target = result["target"]
    print(
        f"  target: {target['text']}: {'MET' if target['met'] else 'NOT MET'} "
        f"({', '.join(f'{k} {v:.3f}' for k, v in target.items() if isinstance(v, float))})"
    )


def table_row(result: dict[str, Any]) -> str:
    """One Markdown table row for docs/strength.md: the tested bot's figures against the target."""
    me = result["bots"][0]
    t = result["decision_time"]
    target = result["target"]
    if result["variant"] == "three-thirteen":
        greedy = target["greedy_mean"]
        figure = (
            f"deadwood/round {me['mean_points_per_deal']:.2f} vs greedy {greedy:.2f}: "
            f"{target['reduction']:.1%} lower"
        )
    else:
        dl, dh = me["deal_win_ci95"]
        figure = f"{me['deal_win_rate']:.1%} [{dl:.1%}, {dh:.1%}] of {me['deals']} deals"
        if result["variant"] == "rummy500":
            gl, gh = me["game_win_ci95"]
            figure += f"; games {me['game_win_rate']:.1%} [{gl:.1%}, {gh:.1%}] of {me['games']}"
    return (
        f"| {result['suite']} | {me['bot']} | {figure} | "
        f"{'met' if target['met'] else 'not met'} | "
        f"{t['cpu_median']:.3f} / {t['cpu_p95']:.3f} s |"
    )


# -- calibration --------------------------------------------------------------------------


def calibrate(variant: str, budget: float, games: int) -> tuple[float, float]:
    """The CPU p95 of the strong bot's decisions at ``budget`` (seconds) against greedy,
    over ``games`` games (Rummy 500: the first four hands), and the ``sims_per_second``
    that would bring that p95 to the budget."""
    info = find_variant(variant)
    options = {"remi13d": {"games": 1}, "rummy500": {"players": 4}}.get(variant, {})
    times: Timing = []
    for i in range(games):
        game = info.game_class()(
            info.game_class().options_type.from_mapping(options), rng=random.Random(i)
        )
        bots: list[Bot] = [make_bot("greedy", seed=s) for s in range(game.players)]
        bots[i % game.players] = Timed(StrongBot(seed=i, budget=budget), times)
        while not game.over and (variant != "rummy500" or sum(d.is_over for d in game.deals) < 4):
            seat = game.to_play
            assert seat is not None
            game.apply(seat, bots[seat].choose(game.view(seat)))
    ordered = sorted(cpu for _, cpu in times) or [0.0]
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    rate = tactics_for(variant).sims_per_second
    return p95, rate * budget / p95 if p95 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--suite",
        default="remi13d,three-thirteen,rummy500",
        help=f"comma separated, of: {', '.join(SUITES)}",
    )
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per decision (0.1)")
    parser.add_argument(
        "--deals",
        type=int,
        default=1000,
        help="at least this many deals (games, rounds, hands) per suite (1000)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--seed", type=int, default=2024, help="arena seed (2024)")
    parser.add_argument("--out", help="write the results as JSON to this file")
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="measure rollouts per second instead (timed search)",
    )
    parser.add_argument(
        "--table",
        nargs="+",
        metavar="JSON",
        help="print docs/strength.md's Markdown rows for results written by --out",
    )
    args = parser.parse_args()
    if args.table:
        print("| suite | bot | result (95% interval) | target | decision CPU median / p95 |")
        print("|---|---|---|---|---|")
        for path in args.table:
            for result in json.loads(Path(path).read_text(encoding="utf-8")):
                print(table_row(result))
        return
    if args.calibrate:
        for variant in ("remi13d", "three-thirteen", "rummy500", "gin"):
            p95, rate = calibrate(variant, args.budget, games=4)
            print(
                f"{variant}: decision CPU p95 {p95:.3f} s at {args.budget:g} s; "
                f"sims_per_second {tactics_for(variant).sims_per_second}, for a p95 at the "
                f"budget: {rate:.0f}"
            )
        return
    results = []
    for name in args.suite.split(","):
        result = run_suite(name.strip(), args.budget, args.deals, args.jobs, args.seed)
        report(result)
        results.append(result)
        if args.out:
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            Path(args.out).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
