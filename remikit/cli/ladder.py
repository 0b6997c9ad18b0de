"""``remi ladder``: the bot levels against each other on the same deals, rated (CONTRACT.md).

Every combination of levels that fills a table plays, each deal once in every rotation
of the levels round the seats (:mod:`remikit.cli.ladder_play`); the levels are rated by
openskill's Plackett–Luce model, with each level's share of deals won and a head-to-head
of every pair (:mod:`remikit.cli.ladder_rating`). The games are the arena's
(:mod:`remikit.cli.games`): the same seed gives the same ladder for any ``--jobs``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from rich.console import Console, JustifyMethod
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from remikit.bots import BotError, check_bot
from remikit.cli.arguments import (
    ArenaError,
    add_option_argument,
    add_run_arguments,
    jobs_count,
    option_text,
    parse_options,
    solver_notice,
)
from remikit.cli.ladder_play import Ladder
from remikit.cli.ladder_rating import LadderResult, rate
from remikit.engine import OptionError, Options, OptionText
from remikit.i18n import LANGUAGES, N_, default_lang, t, tn
from remikit.variants import VariantSpec, find_playable, playable_names

DEFAULT_LEVELS = "random,greedy,strong@0.1,expert@0.1"
DEFAULT_DEALS = 20


class LadderError(ValueError):
    """Arguments that name no ladder to play; the message is in the user's language."""


def make_ladder(
    variant: str,
    levels: str,
    *,
    deals: int,
    seed: int | None,
    options: Sequence[str] = (),
    lang: str = "en",
) -> Ladder:
    """Check the arguments of ``remi ladder`` and build the ladder. Without the option
    ``players``, the table has the variant's usual seats, or one per level when there
    are fewer levels and the variant allows that many."""
    try:
        info = find_playable(variant)
    except ValueError:
        message = t("ladder.unknown_variant", lang, variant=variant, variants=playable_names())
        raise LadderError(message) from None
    chosen = tuple(level.strip().lower() for level in levels.split(",") if level.strip())
    for n, level in enumerate(chosen):
        try:
            check_bot(level, info.name)
        except BotError as exc:
            raise LadderError(exc.text(lang)) from None
        if level in chosen[:n]:
            raise LadderError(t("ladder.same_level", lang, level=level))
    if deals < 1:
        raise LadderError(t("ladder.bad_deals", lang, deals=deals))
    try:
        values = parse_options(options, lang)
    except ArenaError as exc:
        raise LadderError(str(exc)) from None
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    return Ladder(info, table_options(info, values, len(chosen), lang), chosen, deals, seed)


def table_options(
    info: VariantSpec, values: Mapping[str, OptionText], levels: int, lang: str
) -> Options:
    """The options of the ladder's tables: as given, with one seat per level where the
    players are not given and the usual seats are more than the levels."""
    option_type = info.game_class().options_type
    try:
        parsed = option_type.from_mapping(values)
    except OptionError as exc:
        raise LadderError(option_text(exc, lang)) from None
    if "players" not in values and parsed.players > levels:
        with contextlib.suppress(OptionError):
            parsed = option_type.from_mapping({**values, "players": levels})
    if parsed.players > levels:
        fields = {"variant": info.title(lang), "players": parsed.players, "levels": levels}
        raise LadderError(t("ladder.too_few", lang, **fields))
    return parsed


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``remi ladder``."""
    lang = default_lang()
    parser = subparsers.add_parser(
        "ladder", help=t("ladder.help", lang), description=t("ladder.help", lang)
    )
    variants = playable_names()
    parser.add_argument("variant", help=t("arena.help_variant", lang, variants=variants))
    parser.add_argument(
        "--levels",
        default=DEFAULT_LEVELS,
        metavar="L1,L2,...",
        help=t("ladder.help_levels", lang, levels=DEFAULT_LEVELS),
    )
    parser.add_argument(
        "--deals",
        type=int,
        default=DEFAULT_DEALS,
        metavar="N",
        help=t("ladder.help_deals", lang, deals=DEFAULT_DEALS),
    )
    add_run_arguments(parser, lang)
    parser.add_argument("--out", metavar="FILE", help=t("ladder.help_out", lang))
    add_option_argument(parser, lang)
    parser.add_argument("--lang", choices=LANGUAGES, help=t("score.help_lang", lang))
    parser.set_defaults(func=run)


def check_out(path: str, lang: str) -> None:
    """Refuse a ``--out`` file that cannot be written, before anything is played."""
    target = Path(path)
    folder = target.parent
    if (
        not folder.is_dir()
        or not os.access(folder, os.W_OK)
        or target.is_dir()
        or (target.exists() and not os.access(target, os.W_OK))
    ):
        raise LadderError(t("ladder.bad_out", lang, path=path))


def run(args: argparse.Namespace, *, out: TextIO | None = None) -> int:
    """Exit status: 0 played, 1 a game the bots could not finish, 2 arguments that name no
    ladder, or an ``--out`` file that cannot be written."""
    lang: str = args.lang or default_lang()
    stream = out if out is not None else sys.stdout
    try:
        if args.jobs < 0:
            raise LadderError(t("arena.bad_jobs", lang, jobs=args.jobs))
        ladder = make_ladder(
            args.variant,
            args.levels,
            deals=args.deals,
            seed=args.seed,
            options=args.option,
            lang=lang,
        )
        if args.out is not None:
            check_out(args.out, lang)
    except LadderError as exc:
        print(f"remi ladder: {exc}", file=sys.stderr)
        return 2
    solver_notice(lang)
    show_progress = not args.json and stream.isatty()
    result = play(ladder, jobs_count(args.jobs), lang, stream if show_progress else None)
    data = result.as_json()
    if args.out is not None:
        try:
            Path(args.out).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        except OSError:
            print(f"remi ladder: {t('ladder.bad_out', lang, path=args.out)}", file=sys.stderr)
            return 2
    console = Console(file=stream)
    if args.json:
        stream.write(json.dumps(data) + "\n")
    else:
        console.print(levels_table(result, lang))
        console.print(pairs_table(result, lang))
        if result.play.failures:
            console.print(failure_report(result, lang))
    return 1 if result.play.failures else 0


def play(ladder: Ladder, jobs: int, lang: str, progress_to: TextIO | None) -> LadderResult:
    """Play the ladder's games by ``jobs`` processes, with a progress bar on
    ``progress_to`` if given, and rate them."""
    start = time.perf_counter()
    if progress_to is None:
        games = ladder.play(jobs=jobs)
        return rate(ladder, games, time.perf_counter() - start)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(file=progress_to), transient=True) as progress:
        bar = progress.add_task(t("arena.playing", lang), total=0)
        planned = [0]

        def more(count: int) -> None:
            planned[0] += count
            progress.update(bar, total=planned[0])

        games = ladder.play(jobs=jobs, on_round=more, on_game=lambda _: progress.advance(bar))
    return rate(ladder, games, time.perf_counter() - start)


CAPTIONS = {False: N_("ladder.caption_higher"), True: N_("ladder.caption_lower")}
"""The levels table's caption, by whether lower scores win."""


def levels_table(result: LadderResult, lang: str) -> Table:
    """The levels, best rated first."""
    ladder = result.ladder
    fields: dict[str, object] = {
        "variant": ladder.info.title(lang),
        "deals": ladder.deals,
        "tables": len(ladder.tables()),
        "players": ladder.players,
        "seed": ladder.seed,
        "seconds": f"{result.seconds:.1f}",
    }
    lower = ladder.info.game_class().lower_is_better
    caption = t(CAPTIONS[lower], lang, par=f"{1 / ladder.players:.0%}")
    table = Table(title=tn("ladder.title", ladder.deals, lang, **fields), caption=caption)
    columns: list[tuple[str, JustifyMethod]] = [
        (N_("ladder.col_level"), "left"),
        (N_("ladder.col_rating"), "right"),
        (N_("ladder.col_interval"), "right"),
        (N_("ladder.col_ordinal"), "right"),
        (N_("ladder.col_deals"), "right"),
        (N_("ladder.col_won"), "right"),
        (N_("ladder.col_ci"), "right"),
        (N_("ladder.col_points"), "right"),
    ]
    for key, justify in columns:
        table.add_column(t(key, lang), justify=justify, no_wrap=key == "ladder.col_level")
    for level in result.levels:
        low, high = level.interval
        data = level.as_json(1 / ladder.players)
        ci_low, ci_high = data["win_rate_ci95"]
        table.add_row(
            level.level,
            f"{level.mu:.1f}",
            f"{low:.1f}–{high:.1f}",
            f"{level.ordinal:.1f}",
            str(level.deals),
            f"{level.win_rate:.1%}",
            f"{ci_low:.0%}–{ci_high:.0%}",
            f"{data['mean_points']:.1f}",
        )
    return table


def pairs_table(result: LadderResult, lang: str) -> Table:
    """Each pair of levels over the same deals, the better rated first."""
    table = Table(title=t("ladder.pairs_title", lang))
    table.add_column(t("ladder.col_a", lang), no_wrap=True)
    table.add_column(t("ladder.col_b", lang), no_wrap=True)
    for key in (
        N_("ladder.col_a_better"),
        N_("ladder.col_b_better"),
        N_("ladder.col_ties"),
        N_("ladder.col_p"),
    ):
        table.add_column(t(key, lang), justify="right")
    for pair in result.head_to_head:
        table.add_row(
            pair.a,
            pair.b,
            str(pair.a_better),
            str(pair.b_better),
            str(pair.ties),
            f"{pair.p_value:.3g}",
        )
    return table


def failure_report(result: LadderResult, lang: str) -> Text:
    """The games that did not finish, one a line under a heading."""
    failures = result.play.failures
    lines = [tn("ladder.failures", len(failures), lang)]
    ladder = result.ladder
    for failure in failures:
        shown = failure.as_json(ladder.table_levels(failure.table))
        seats = ", ".join(shown["seats"])
        fields = {"game": failure.game, "rotation": shown["rotation"], "error": shown["error"]}
        lines.append(t("ladder.failure", lang, seats=seats, **fields))
    return Text("\n".join(lines))
