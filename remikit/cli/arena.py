"""``remi arena``: bots against bots (CONTRACT.md).

Game ``i`` seats the bots rotated by ``i`` and deals the decks of seed ``(seed, i)``
(:mod:`remikit.cli.games`), so the results are the same however many worker
processes, or machines of a Ray cluster (:mod:`remikit.cli.cluster`), play them.
A game whose play raises is reported as a failure and the others go on.
What the games come to, bot by bot, is :mod:`remikit.cli.arena_results`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from remikit.bots.cheater import check_arena_bot
from remikit.bots.runner import play_all
from remikit.cli.arena_results import ArenaResult, tally
from remikit.cli.arguments import (
    ArenaError,
    add_option_argument,
    add_run_arguments,
    jobs_count,
    option_text,
    parse_options,
    solver_notice,
)
from remikit.cli.games import (
    GameFailure,
    GameOutcome,
    GameTask,
    Played,
    Runner,
    attempt,
    play_task,
    wilson_interval,
)
from remikit.engine import OptionError, Options
from remikit.i18n import LANGUAGES, N_, default_lang, t, tn
from remikit.variants import VariantSpec, find_playable, playable_names

DEFAULT_GAMES = 100


@dataclass(frozen=True)
class Arena:
    """A checked arena: variant, options, bots, games, seed."""

    info: VariantSpec
    options: Options
    bots: tuple[str, ...]
    games: int
    seed: int

    def tasks(self) -> list[GameTask]:
        options = self.options.as_dict()
        return [
            GameTask(self.info.name, options, i, self.seed, self.bots) for i in range(self.games)
        ]

    def run(
        self,
        *,
        jobs: int = 1,
        per_deal: bool = False,
        on_game: Callable[[Played], None] | None = None,
        runner: Runner | None = None,
    ) -> ArenaResult:
        """Play every game, by ``runner`` or else by ``jobs`` processes here, and tally the
        finished ones; ``on_game`` is told of each game as it ends."""
        start = time.perf_counter()
        tasks = self.tasks()
        if runner is None:
            games: Iterator[Played] = play_all(partial(attempt, play_task), tasks, jobs)
        else:
            games = runner(tasks)
        played: list[Played] = []
        for game in games:
            played.append(game)
            if on_game is not None:
                on_game(game)
        seconds = time.perf_counter() - start
        played.sort(key=lambda game: game.index)
        outcomes = [g for g in played if isinstance(g, GameOutcome)]
        failures = [g for g in played if isinstance(g, GameFailure)]
        stats = tally(
            outcomes,
            self.bots,
            per_deal=per_deal,
            lower_is_better=self.info.game_class().lower_is_better,
        )
        deals = sum(len(o.deals) for o in outcomes)
        return ArenaResult(
            self.info.name, self.games, self.seed, seconds, per_deal, deals, stats, failures
        )


def make_arena(
    variant: str,
    bots: str,
    *,
    games: int,
    seed: int | None,
    options: Sequence[str] = (),
    lang: str = "en",
) -> Arena:
    """Check the arguments of ``remi arena`` and build the arena."""
    try:
        info = find_playable(variant)
    except ValueError as exc:
        raise ArenaError(str(exc)) from None
    names = tuple(b.strip().lower() for b in bots.split(",") if b.strip())
    if not names:
        raise ArenaError(t("arena.no_bots", lang))
    for name in names:
        try:
            check_arena_bot(name, info.name)
        except ValueError as exc:
            raise ArenaError(str(exc)) from None
    if games < 1:
        raise ArenaError(t("arena.bad_games", lang, games=games))
    values = parse_options(options, lang)
    try:
        parsed = info.game_class().options_type.from_mapping(values)
    except OptionError as exc:
        raise ArenaError(option_text(exc, lang)) from None
    if "players" not in values:
        parsed = seat_bots(info, values, len(names), lang)
    elif parsed.players != len(names):
        raise ArenaError(t("arena.players_set", lang, players=parsed.players, bots=len(names)))
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    return Arena(info, parsed, names, games, seed)


def seat_bots(info: VariantSpec, values: Mapping[str, object], bots: int, lang: str) -> Options:
    """The options with one seat per bot; otherwise an :class:`ArenaError` that says how
    many players the variant with these options takes, and why not ``bots``."""
    option_type = info.game_class().options_type
    declared = next(o for o in option_type.describe() if o.name == "players")
    low = bots if declared.low is None else declared.low
    high = bots if declared.high is None else declared.high
    allowed: list[int] = []
    refused: dict[int, OptionError] = {}
    for players in sorted({*range(low, high + 1), bots}):
        try:
            options = option_type.from_mapping({**values, "players": players})
        except OptionError as exc:
            refused[players] = exc
            continue
        if players == bots:
            return options
        allowed.append(players)
    count = _counts(allowed, lang)
    fields = {
        "variant": info.title(lang),
        "count": count,
        "bots": bots,
        "allowed": t("arena.exactly", lang, count=count) if len(allowed) == 1 else count,
    }
    # a count the variant allows but these options do not (too few cards) says why
    narrowed = [n for n in refused if low <= n <= high]
    if not narrowed:
        raise ArenaError(t("arena.players", lang, **fields))
    why = option_text(refused[min(narrowed, key=lambda n: abs(n - bots))], lang)
    raise ArenaError(t("arena.players_options", lang, why=why[:1].upper() + why[1:], **fields))


def _counts(counts: Sequence[int], lang: str) -> str:
    """``4``, ``2 to 7``, or the counts one by one."""
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return t("arena.from_to", lang, low=counts[0], high=counts[-1])
    return ", ".join(map(str, counts))


# -- the command ------------------------------------------------------------------


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``remi arena``."""
    lang = default_lang()
    parser = subparsers.add_parser(
        "arena", help=t("arena.help", lang), description=t("arena.help", lang)
    )
    variants = playable_names()
    parser.add_argument("variant", help=t("arena.help_variant", lang, variants=variants))
    parser.add_argument(
        "--bots", required=True, metavar="B1,B2,...", help=t("arena.help_bots", lang)
    )
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        metavar="N",
        help=t("arena.help_games", lang, games=DEFAULT_GAMES),
    )
    add_run_arguments(parser, lang)
    parser.add_argument("--deals", action="store_true", help=t("arena.help_deals", lang))
    add_option_argument(parser, lang)
    parser.add_argument("--cluster", metavar="ADDRESS", help=t("arena.help_cluster", lang))
    parser.add_argument("--lang", choices=LANGUAGES, help=t("score.help_lang", lang))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, *, out: TextIO | None = None) -> int:
    """Exit status: 0 played, 1 a game the bots could not finish, 2 arguments that name
    no arena, or a cluster that cannot be used."""
    lang: str = args.lang or default_lang()
    stream = out if out is not None else sys.stdout
    try:
        if args.jobs < 0:
            raise ArenaError(t("arena.bad_jobs", lang, jobs=args.jobs))
        arena = make_arena(
            args.variant,
            args.bots,
            games=args.games,
            seed=args.seed,
            options=args.option,
            lang=lang,
        )
    except ArenaError as exc:
        print(f"remi arena: {exc}", file=sys.stderr)
        return 2
    if args.cluster is None:
        solver_notice(lang)
        return _play(arena, args, stream, lang, None)
    # imported here, since it imports this module (and Ray only when asked for)
    from remikit.cli.cluster import ClusterError, connected

    try:
        with connected(args.cluster, lang, play_task) as runner:
            return _play(arena, args, stream, lang, runner)
    except ClusterError as exc:
        print(f"remi arena: {exc}", file=sys.stderr)
        return 2


def _play(
    arena: Arena, args: argparse.Namespace, stream: TextIO, lang: str, runner: Runner | None
) -> int:
    jobs = jobs_count(args.jobs)
    show_progress = not args.json and stream.isatty()
    console = Console(file=stream)
    if show_progress:
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task(t("arena.playing", lang), total=arena.games)
            result = arena.run(
                jobs=jobs,
                per_deal=args.deals,
                on_game=lambda _: progress.advance(task),
                runner=runner,
            )
    else:
        result = arena.run(jobs=jobs, per_deal=args.deals, runner=runner)
    if args.json:
        stream.write(json.dumps(result.as_json()) + "\n")
    else:
        console.print(result_table(result, arena, lang))
        if result.failures:
            console.print(failure_report(result, lang))
    return 1 if result.failures else 0


CAPTIONS = {
    (True, False): N_("arena.caption_lower"),
    (True, True): N_("arena.caption_lower_deal"),
    (False, False): N_("arena.caption_higher"),
    (False, True): N_("arena.caption_higher_deal"),
}
"""The report's caption by (lower totals win, points per deal)."""


def result_table(result: ArenaResult, arena: Arena, lang: str) -> Table:
    """The human report: one row per bot in the order given."""
    fields: dict[str, object] = {
        "variant": arena.info.title(lang),
        "games": result.games,
        "deals": result.deals,
        "seed": result.seed,
        "seconds": f"{result.seconds:.1f}",
    }
    if result.per_deal:
        title = tn("arena.title_deals", result.deals, lang, **fields)
    else:
        title = tn("arena.title", result.games, lang, **fields)
    lower = arena.info.game_class().lower_is_better
    caption = t(CAPTIONS[lower, result.per_deal], lang)
    table = Table(title=title, caption=caption)
    table.add_column("#", justify="right")
    table.add_column(t("arena.col_bot", lang))
    table.add_column(t("arena.col_wins", lang), justify="right")
    table.add_column(t("arena.col_rate", lang), justify="right")
    table.add_column(t("arena.col_ci", lang), justify="right")
    table.add_column(t("arena.col_points", lang), justify="right")
    for i, stats in enumerate(result.stats, start=1):
        low, high = wilson_interval(stats.wins, stats.played)
        table.add_row(
            str(i),
            stats.bot,
            f"{stats.wins}/{stats.played}",
            f"{stats.win_rate:.1%}",
            f"{low:.1%} – {high:.1%}",
            f"{stats.mean_points:.1f}",
        )
    return table


def failure_report(result: ArenaResult, lang: str) -> Text:
    """The games that did not finish, one a line under a heading."""
    bots = [s.bot for s in result.stats]
    lines = [tn("arena.failures", len(result.failures), lang)]
    for failure in result.failures:
        seats = ", ".join(bots[j] for j in failure.seats)
        lines.append(t("arena.failure", lang, game=failure.index, seats=seats, error=failure.error))
    return Text("\n".join(lines))
