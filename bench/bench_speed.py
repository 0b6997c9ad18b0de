"""remikit's speed beside OpenSpiel and RLCard, every engine measured in one run.

Cases, on the same seeded hands and games for every engine:

1. Gin Rummy minimum deadwood, hands per second, 10 and 11 cards, uniform and
   meld-dense (five consecutive ranks): ``remikit.score("gin", hand)`` (the
   arrangement, as a user calls it) and the figure only (``Solver.value``),
   OpenSpiel's ``GinRummyUtils.min_deadwood`` (C++) and RLCard's meld
   clusters (pure Python; 11 cards: each cluster's deadwood less its highest
   card). The figures must agree (11 cards: with OpenSpiel's best discard;
   its own 11-card call can over-report, counted as "OS over").
2. Remi 13 D close check: ``remikit.score("remi13d", cards, closing=card)``,
   13 cards and an ace or a joker from the 108-card deck, 0–4 jokers in the
   14 (each count equally often); a refused close raises, as for any caller.
3. Three-Thirteen round 11: ``remikit.score("three-thirteen", cards, round=11)``
   on 13 cards from the 108-card deck.
4. Random play, a random legal action each time: a deal of each variant
   (``legal_actions`` and ``apply``), OpenSpiel's Gin Rummy from Python
   (``legal_actions``, ``apply_action``, chance outcomes) and RLCard's
   ``GinRummyGame`` (its own rules: the first player is dealt 11 cards).
5. Greedy games per second in the arena (``remi arena``'s ``play_task``).
6. The strong bot at a fixed effort (``--sims`` rollouts' worth a decision):
   its decisions, rollouts and effort per second, seat 0 against greedy bots.

Times are the CPU time of this thread (``thread_time``), which does not count
time lost to other processes on a busy machine. Every figure is the median of
``--repeats`` runs. Each run starts with every solver's memo cleared; within
a run the memo keeps what earlier hands taught it, as in a running process.
The "fresh" figures clear the memo before every hand (the clearing is not
timed). The candidate-meld tables stay warm (``bench/bench_solver.py`` times
the solver's cold start).

The remikit figures are measured twice, run by run in turn, so that a change
in the machine's load weighs on all of them alike: in this process with the
default solver, the baselines in the same runs; and in a child process with
``REMIKIT_SOLVER=python`` (the pure-Python solver): this script with
``--pure-only``, which answers each line it reads with a run's figures as JSON.

Needs the ``openspiel`` extra. Run: ``python bench/bench_speed.py [--quick]
[--hands N] [--deals N] [--games N] [--decisions N] [--sims N] [--repeats N]
[--seed S]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import pyspiel
from report import combine, ratio, table
from rlcard.games.gin_rummy.game import GinRummyGame
from rlcard.games.gin_rummy.utils import melding
from rlcard.games.gin_rummy.utils import utils as rl_utils

import remikit
import remikit.solver
from remikit.bots import GreedyBot, StrongBot
from remikit.bots.base import Bot
from remikit.bots.strong import tactics_for
from remikit.cards import JOKER, NATURALS, Card, Rank, make_deck
from remikit.cli.games import GameTask, play_task
from remikit.solver import Solver
from remikit.variants import find_playable, playable
from remikit.variants.gin.openspiel import card_number
from remikit.variants.gin.scoring import BEST_DISCARD
from remikit.variants.gin.scoring import SOLVER as GIN_SOLVER
from remikit.variants.spec import ScoreInputError

GIN_DECK = make_deck(decks=1)
DECK_108 = make_deck(decks=2, jokers=4)
NATURALS_2DECKS = list(NATURALS) * 2
UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
OPENSPIEL = pyspiel.load_game("gin_rummy")
Results = dict[str, Any]
Work = Callable[[Any], object]


# -- timing -------------------------------------------------------------------------


class Memos:
    """Every solver this process has made so far, to start their searches afresh."""

    def __init__(self) -> None:
        self.solvers = [o for o in gc.get_objects() if isinstance(o, Solver)]

    def clear(self) -> None:
        for solver in self.solvers:
            if hasattr(solver, "clear"):
                solver.clear()
            else:  # a remikit before Solver.clear: its memo was a dict
                solver._memo.clear()


def p99(times: Sequence[float]) -> float:
    ordered = sorted(times)
    return ordered[max(0, -(-len(ordered) * 99 // 100) - 1)]


def per_item(items: Sequence[Any], work: Work, before: Callable[[], None] | None) -> list[float]:
    """Microseconds of ``work`` on each item, ``before`` (untimed) called before each."""
    times = []
    for item in items:
        if before is not None:
            before()
        start = time.thread_time_ns()
        work(item)
        times.append((time.thread_time_ns() - start) / 1000)
    return times


def batch(items: Sequence[Any], work: Work) -> float:
    """Items per second of ``work`` over ``items``, the whole loop timed (no timer call
    per item, which would weigh on a call of a few microseconds)."""
    start = time.thread_time_ns()
    for item in items:
        work(item)
    return len(items) / ((time.thread_time_ns() - start) / 1e9)


def summary(times: Sequence[float]) -> Results:
    """Items per second, median and p99 µs of one run's times per item."""
    return {
        "per_s": len(times) / (sum(times) / 1e6),
        "median_us": statistics.median(times),
        "p99_us": p99(times),
    }


def score_case(
    items: Sequence[Any], work: Work, others: Mapping[str, tuple[Sequence[Any], Work]]
) -> Results:
    """``work`` over ``items``, the memo cleared first, then again with the memo cleared
    before each item; then each of ``others`` (a baseline: its items and work)."""
    memos = Memos()
    memos.clear()
    warm = summary(per_item(items, work, None))
    fresh = summary(per_item(items, work, memos.clear))
    rates = {name: {"per_s": batch(its, other)} for name, (its, other) in others.items()}
    return {"warm": warm, "fresh": fresh, **rates}


# -- the hands ----------------------------------------------------------------------


def uniform(rng: random.Random, size: int) -> list[Card]:
    return rng.sample(GIN_DECK, size)


def dense(rng: random.Random, size: int) -> list[Card]:
    """``size`` cards of five consecutive ranks."""
    low = rng.randint(1, 9)
    return rng.sample([c for c in GIN_DECK if low <= int(c.rank) < low + 5], size)


def gin_hands(hands: int, seed: int) -> dict[str, list[list[Card]]]:
    rng = random.Random(seed)
    return {
        f"{deal.__name__} {size} cards": [deal(rng, size) for _ in range(hands)]
        for deal in (uniform, dense)
        for size in (10, 11)
    }


def close_hands(hands: int, seed: int) -> list[tuple[list[Card], Card]]:
    """13 cards and a closing card (a joker when the 14 hold any, else an ace); the
    i-th deal holds ``i % 5`` jokers."""
    rng = random.Random(f"{seed}-remi13d")
    out = []
    for i in range(hands):
        jokers = i % 5
        if jokers:
            closing, naturals = JOKER, NATURALS_2DECKS
        else:
            closing = rng.choice([c for c in NATURALS if c.rank == Rank.ACE])
            naturals = list(NATURALS_2DECKS)
            naturals.remove(closing)
        cards = rng.sample(naturals, 13 - max(0, jokers - 1)) + [JOKER] * max(0, jokers - 1)
        rng.shuffle(cards)
        out.append((cards, closing))
    return out


def close_points(deal: tuple[list[Card], Card]) -> int | None:
    try:
        return remikit.score("remi13d", deal[0], closing=deal[1]).points
    except ScoreInputError:
        raise
    except ValueError:  # the close is refused
        return None


def t13_points(cards: list[Card]) -> int | None:
    return remikit.score("three-thirteen", cards, round=11).points


def gin_points(cards: list[Card]) -> int | None:
    return remikit.score("gin", cards).points


def gin_figure(cards: list[Card]) -> int:
    """The minimum deadwood only, from the solver (as the baselines give it)."""
    return (
        -GIN_SOLVER.value(cards, goal=BEST_DISCARD) if len(cards) > 10 else -GIN_SOLVER.value(cards)
    )


# -- remikit ------------------------------------------------------------------------


def random_deal(variant: str, seed: int) -> int:
    """One deal of random play (default options); its number of actions."""
    rng = random.Random(seed)
    game_type = find_playable(variant).game_class()
    game = game_type(game_type.options_type(), rng=random.Random(seed), auto_deal=False)
    deal = game.start_deal()
    actions = 0
    while not deal.is_over:
        seat = deal.to_play
        assert seat is not None
        game.apply(seat, rng.choice(deal.legal_actions(seat)))
        actions += 1
    return actions


def play_rates(players: Mapping[str, Callable[[int], int]], seeds: Sequence[int]) -> Results:
    """Deals and actions per second of each player over ``seeds``, in turn."""
    Memos().clear()
    out = {}
    for name, play in players.items():
        start = time.thread_time()
        actions = sum(play(s) for s in seeds)
        took = time.thread_time() - start
        out[name] = {
            "deals_s": len(seeds) / took,
            "actions_s": actions / took,
            "actions_per_deal": actions / len(seeds),
        }
    return out


def greedy_games(variant: str, games: int, seed: int) -> Results:
    """Arena games of greedy bots per second, and their deals per game."""
    options = find_playable(variant).game_class().options_type()
    bots = ("greedy",) * options.players
    tasks = [GameTask(variant, options.as_dict(), i, seed, bots) for i in range(games)]
    Memos().clear()
    start = time.thread_time()
    deals = sum(len(play_task(task).deals) for task in tasks)
    return {"games_s": games / (time.thread_time() - start), "deals_per_game": deals / games}


def strong_decisions(variant: str, decisions: int, sims: int, seed: int) -> tuple[float, int, int]:
    """The strong bot's time searching, its rollouts and searches: ``decisions`` searches
    in seat 0 of games against greedy bots."""
    game_type = find_playable(variant).game_class()
    options = game_type.options_type()
    elapsed, rollouts, searched = 0.0, 0, 0
    game_seed = seed
    while searched < decisions:
        game = game_type(options, rng=random.Random(game_seed))
        strong = StrongBot(seed=game_seed, sims=sims)
        bots: list[Bot] = [strong, *(GreedyBot(seed=s) for s in range(1, options.players))]
        while not game.over and searched < decisions:
            if game.needs_deal:
                game.start_deal()
            seat = game.to_play
            assert seat is not None
            before = strong.last
            start = time.thread_time()
            action = bots[seat].choose(game.view(seat))
            took = time.thread_time() - start
            found = strong.last
            if seat == 0 and found is not None and found is not before:
                elapsed += took
                rollouts += found.worlds * len(found.candidates)
                searched += 1
            game.apply(seat, action)
        game_seed += 1
    return elapsed, rollouts, searched


def strong_rate(variant: str, decisions: int, sims: int, seed: int) -> Results:
    Memos().clear()
    took, rollouts, searched = strong_decisions(variant, decisions, sims, seed)
    return {
        "decisions": searched,
        "rollouts": rollouts,
        "rollouts_s": rollouts / took,
        "ms_per_decision": took / searched * 1000,
        "effort_s": searched * sims / took,
    }


def measure(args: argparse.Namespace, *, baselines: bool) -> Results:
    """One run of every remikit figure, with whichever solver this process has; with
    ``baselines``, OpenSpiel's and RLCard's too, checked against remikit's."""
    out: Results = {"compiled": bool(getattr(remikit.solver, "COMPILED", False))}
    gin: Results = {}
    for label, hands in gin_hands(args.hands, args.seed).items():
        points = [gin_points(h) for h in hands]
        assert [gin_figure(h) for h in hands] == points
        others: dict[str, tuple[Sequence[Any], Work]] = {"figure": (hands, gin_figure)}
        checked: Results = {}
        if baselines:
            spiel, rl, checked = gin_baselines(hands, points)
            others |= {"OpenSpiel": (spiel, openspiel_deadwood), "RLCard": (rl, rlcard_deadwood)}
        case = score_case(hands, gin_points, others)
        gin[label] = {**checked, **case, "points": points}
    out["gin"] = gin
    closes = close_hands(args.hands, args.seed)
    points = [close_points(d) for d in closes]
    out["remi13d"] = {**score_case(closes, close_points, {}), "points": points}
    rng = random.Random(f"{args.seed}-three-thirteen")
    t13 = [rng.sample(DECK_108, 13) for _ in range(args.hands)]
    points = [t13_points(h) for h in t13]
    out["three-thirteen"] = {**score_case(t13, t13_points, {}), "points": points}
    seeds = [args.seed * 1_000_000 + i for i in range(args.deals)]
    variants = [spec.name for spec in playable()]
    players: dict[str, Callable[[int], int]] = {v: partial(random_deal, v) for v in variants}
    if baselines:
        players |= {"OpenSpiel": openspiel_deal, "RLCard": rlcard_deal}
    out["random"] = play_rates(players, seeds)
    out["greedy"] = {v: greedy_games(v, args.games, args.seed) for v in variants}
    out["strong"] = {v: strong_rate(v, args.decisions, args.sims, args.seed) for v in variants}
    return out


def measure_runs(args: argparse.Namespace) -> tuple[Results, Results]:
    """``--repeats`` runs in this process (with the baselines) and as many in a child
    process with the pure-Python solver, taking turns; each combined."""
    env = {**os.environ, "REMIKIT_SOLVER": "python"}
    argv = [sys.executable, __file__, *(a for a in sys.argv[1:] if a != "--pure-only")]
    own, pure = [], []
    with subprocess.Popen(
        [*argv, "--pure-only"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        for run in range(args.repeats):
            print(f"run {run + 1} of {args.repeats}…", file=sys.stderr, flush=True)
            own.append(measure(args, baselines=True))
            child.stdin.write("run\n")
            child.stdin.flush()
            line = child.stdout.readline()
            if not line:
                raise RuntimeError("the pure-Python run stopped")
            pure.append(json.loads(line))
        child.stdin.close()
    if child.returncode:
        raise RuntimeError(f"the pure-Python run failed ({child.returncode})")
    return combine(own), combine(pure)


# -- the baselines --------------------------------------------------------------------


def openspiel_deadwood(cards: list[int]) -> int:
    return int(UTILS.min_deadwood(cards))


def openspiel_best(cards: list[int]) -> int:
    """OpenSpiel's 10-card figure, or its best after each discard."""
    if len(cards) == 10:
        return int(UTILS.min_deadwood(cards))
    return min(int(UTILS.min_deadwood(cards[:i] + cards[i + 1 :])) for i in range(len(cards)))


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


def openspiel_deal(seed: int) -> int:
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


def rlcard_deal(seed: int) -> int:
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


def gin_baselines(
    hands: Sequence[list[Card]], points: Sequence[int | None]
) -> tuple[list[list[int]], list[list[Any]], Results]:
    """The hands as OpenSpiel and RLCard take them, once both are checked to agree with
    remikit's ``points``; and how often OpenSpiel's own 11-card call is above the best."""
    spiel = [[card_number(c) for c in h] for h in hands]
    rl = [[rl_utils.get_card(n) for n in h] for h in spiel]
    over = 0
    for hand, s, r, best in zip(hands, spiel, rl, points, strict=True):
        if not best == openspiel_best(s) == rlcard_deadwood(r):
            raise AssertionError(f"the figures differ on {' '.join(map(str, hand))}")
        over += openspiel_deadwood(s) != best
    return spiel, rl, {"over": over}


# -- the report -----------------------------------------------------------------------


def check_same(own: Results, pure: Results) -> None:
    """The pure-Python solver's figures are the default solver's."""
    pairs = [(f"gin {label}", case, pure["gin"][label]) for label, case in own["gin"].items()]
    pairs += [(variant, own[variant], pure[variant]) for variant in ("remi13d", "three-thirteen")]
    for name, mine, theirs in pairs:
        if mine["points"] != theirs["points"]:
            raise AssertionError(f"the solvers' figures differ: {name}")


def print_gin(own: Results, pure: Results) -> None:
    rows = []
    for label, mine in own["gin"].items():
        py, os_, rl = pure["gin"][label], mine["OpenSpiel"], mine["RLCard"]
        rates = [mine["warm"], mine["fresh"], mine["figure"], py["warm"], os_, rl]
        mine_ = (mine["warm"], mine["figure"], py["warm"])
        rows.append(
            [label, *(f"{r['per_s']:,.0f}" for r in rates)]
            + [ratio(a["per_s"], b["per_s"]) for a in mine_ for b in (os_, rl)]
            + [str(mine["over"])]
        )
    table(
        "1. Gin Rummy minimum deadwood, hands per second",
        "hands:16 remikit:8 fresh:8 figure:8 pure:8 OpenSpiel:9 RLCard:8 /OS:6 /RL:6"
        " fig/OS:6 fig/RL:6 pure/OS:7 pure/RL:7 OS_over:7",
        rows,
        "(remikit: remikit.score, the memo cleared before each run; fresh: before each hand;",
        " figure: the solver's value only (Solver.value), as the baselines give it; pure:",
        " remikit.score with the pure-Python solver; /OS, /RL: remikit's hands/s over",
        " OpenSpiel's, RLCard's; OS over: 11-card hands where OpenSpiel's own call is above",
        " the best discard)",
    )


def print_latency(own: Results, pure: Results) -> None:
    rows = []
    for variant, case in (("remi13d", "Remi 13 D close"), ("three-thirteen", "3-13 round 11")):
        for solver, figures in (("remikit", own[variant]), ("pure", pure[variant])):
            warm, fresh = figures["warm"], figures["fresh"]
            rows.append(
                [case, solver, f"{warm['per_s']:,.0f}"]
                + [f"{f[k]:,.0f}" for f in (warm, fresh) for k in ("median_us", "p99_us")]
            )
    points = own["remi13d"]["points"]
    closed = sum(p is not None for p in points)
    table(
        "2-3. remikit.score latency in µs per hand",
        "case:16 solver:7 hands/s:8 median:7 p99:7 fresh_med:9 fresh_p99:9",
        rows,
        f"(Remi 13 D: 13 cards and an ace or a joker; {closed} of {len(points)} closes allowed,",
        " the others refused (raised); 3-13: 13 cards of the 108-card deck, K wild)",
    )


def print_random(own: Results, pure: Results) -> None:
    os_, rl = own["random"]["OpenSpiel"], own["random"]["RLCard"]
    rows = []
    for variant, py in pure["random"].items():
        mine = own["random"][variant]
        ratios = [
            ratio(a["actions_s"], b["actions_s"]) for a, b in ((mine, os_), (mine, rl), (py, os_))
        ]
        rows.append(
            [f"remikit {variant}", f"{mine['deals_s']:,.1f}", f"{mine['actions_s']:,.0f}"]
            + [f"{py['actions_s']:,.0f}", f"{mine['actions_per_deal']:.1f}"]
            + (ratios if variant == "gin" else [""] * 3)
        )
    for name, f in (("OpenSpiel gin", os_), ("RLCard gin", rl)):
        rows.append(
            [
                name,
                f"{f['deals_s']:,.1f}",
                f"{f['actions_s']:,.0f}",
                "",
                f"{f['actions_per_deal']:.1f}",
            ]
            + [""] * 3
        )
    table(
        "4. random play, a random legal action each time",
        "engine:23 deals/s:8 actions/s:9 pure:8 actions/deal:12 /OS:6 /RL:6 pure/OS:7",
        rows,
        "(pure: actions/s with the pure-Python solver; /OS, /RL: gin actions/s over the engine's",
        " (RLCard plays its own rules); OpenSpiel counts decisions, not chance outcomes)",
    )


def print_bots(own: Results, pure: Results, args: argparse.Namespace) -> None:
    rows = [
        [
            v,
            f"{f['games_s']:,.2f}",
            f"{pure['greedy'][v]['games_s']:,.2f}",
            f"{f['deals_per_game']:.1f}",
        ]
        for v, f in own["greedy"].items()
    ]
    table(
        f"5. greedy bots in the arena, games per second ({args.games} a variant, default options)",
        "variant:16 games/s:8 pure:8 deals/game:10",
        rows,
    )
    rows = []
    for variant, mine in own["strong"].items():
        py = pure["strong"][variant]
        rows.append(
            [variant, str(mine["decisions"]), str(mine["rollouts"])]
            + [f"{f['rollouts_s']:,.0f}" for f in (mine, py)]
            + [f"{f['ms_per_decision']:,.1f}" for f in (mine, py)]
            + [f"{f['effort_s']:,.0f}" for f in (mine, py)]
            + [str(tactics_for(variant).sims_per_second)]
        )
    table(
        f"6. the strong bot at {args.sims} rollouts' effort a decision, seat 0 against greedy",
        "variant:16 searches:8 rollouts:8 rollouts/s:10 pure:7 ms/search:9 pure:7 effort/s:8"
        " pure:7 set_rate:8",
        rows,
        "(rollouts: played in the searches (worlds × candidates); effort/s: the effort of the",
        " searches per second of them; set rate: the tactics' sims_per_second, which turns a",
        " budget into effort: effort/s above it means a decision takes less than its budget)",
    )


def report(args: argparse.Namespace, own: Results, pure: Results) -> None:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"remikit {remikit.__version__} speed beside OpenSpiel and RLCard (seed {args.seed})")
    print(
        f"solver: this process COMPILED={own['compiled']}, the pure child "
        f"(REMIKIT_SOLVER=python) COMPILED={pure['compiled']}"
    )
    print(
        f"medians of {args.repeats} runs; {args.hands} hands a score case, {args.deals} deals of "
        f"random play; CPU time of the thread; load average {load} at the end"
    )
    print_gin(own, pure)
    print_latency(own, pure)
    print_random(own, pure)
    print_bots(own, pure, args)


FULL = {"hands": 2000, "deals": 200, "games": 5, "decisions": 30, "sims": 100, "repeats": 3}
QUICK = {"hands": 100, "deals": 10, "games": 1, "decisions": 3, "sims": 100, "repeats": 1}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke run")
    for name in FULL:
        parser.add_argument(f"--{name}", type=int, help=f"default {FULL[name]} ({QUICK[name]})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pure-only",
        action="store_true",
        help="a run of remikit's figures as JSON for each line read",
    )
    args = parser.parse_args()
    for name, value in (QUICK if args.quick else FULL).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.pure_only:  # one run for each line read
        for _ in sys.stdin:
            print(json.dumps(measure(args, baselines=False)), flush=True)
        return
    own, pure = measure_runs(args)
    check_same(own, pure)
    report(args, own, pure)


if __name__ == "__main__":
    main()
