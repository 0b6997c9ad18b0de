"""``remi review RECORD [--seat N] [--budget S] [--seed S] [--jobs J] [--json]``: every
decision of one seat rated the way the strong bot sees it (:mod:`remikit.review`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from remikit.bots.strong import DEFAULT_BUDGET
from remikit.cli.arguments import jobs_count
from remikit.i18n import LANGUAGES, N_, default_lang, t
from remikit.records import RecordError, load_record, new_game
from remikit.review import Review, review
from remikit.variants import find_playable

CANDIDATES_SHOWN = 3
"""The search's best candidates a row shows, with their values."""

VERDICT_NAMES = {
    "best": N_("review.verdict.best"),
    "good": N_("review.verdict.good"),
    "inaccuracy": N_("review.verdict.inaccuracy"),
    "mistake": N_("review.verdict.mistake"),
    "blunder": N_("review.verdict.blunder"),
}


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``remi review``."""
    lang = default_lang()
    parser = subparsers.add_parser(
        "review", help=t("review.help", lang), description=t("review.help", lang)
    )
    parser.add_argument("record", metavar="RECORD", help=t("review.help_record", lang))
    parser.add_argument(
        "--seat", type=int, default=0, metavar="N", help=t("review.help_seat", lang)
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=DEFAULT_BUDGET,
        metavar="S",
        help=t("review.help_budget", lang, budget=DEFAULT_BUDGET),
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="S", help=t("review.help_seed", lang)
    )
    parser.add_argument(
        "--jobs", type=int, default=0, metavar="J", help=t("arena.help_jobs_all", lang)
    )
    parser.add_argument("--json", action="store_true", help=t("review.help_json", lang))
    parser.add_argument("--lang", choices=LANGUAGES, help=t("score.help_lang", lang))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, *, out: TextIO | None = None) -> int:
    """Exit status: 0 reviewed, 2 a record or arguments that give nothing to review."""
    lang: str = args.lang or default_lang()
    stream = out if out is not None else sys.stdout
    refusal = None
    if not args.budget > 0 or args.budget == float("inf"):
        refusal = t("review.bad_budget", lang, budget=args.budget)
    elif args.jobs < 0:
        refusal = t("arena.bad_jobs", lang, jobs=args.jobs)
    if refusal is not None:
        print(f"remi review: {refusal}", file=sys.stderr)
        return 2
    try:
        record = load_record(args.record)
        players = new_game(record).players
        if not 0 <= args.seat < players:
            raise RecordError(t("review.bad_seat", lang, seat=args.seat, last=players - 1))
        spec = find_playable(str(record.get("variant")))
        if not spec.has("tactics"):
            raise RecordError(t("review.no_bot", lang, variant=spec.title(lang)))
        result = _review(record, args, stream, lang)
    except (RecordError, ValueError) as exc:
        print(f"remi review: {exc}", file=sys.stderr)
        return 2
    if args.json:
        stream.write("".join(json.dumps(line) + "\n" for line in result.lines()))
    else:
        Console(file=stream).print(decision_table(result, lang), summary_table(result, lang))
    return 0


def _review(record: dict[str, Any], args: argparse.Namespace, stream: TextIO, lang: str) -> Review:
    options: dict[str, Any] = {
        "budget": args.budget,
        "seed": args.seed,
        "jobs": jobs_count(args.jobs),
    }
    if args.json or not stream.isatty():
        return review(record, args.seat, **options)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(file=stream), transient=True) as progress:
        task = progress.add_task(t("review.working", lang), total=None)
        return review(
            record,
            args.seat,
            on_decision=lambda done, total: progress.update(task, completed=done, total=total),
            **options,
        )


def decision_table(result: Review, lang: str) -> Table:
    """One row per decision: the action taken, the search's best, the cost and the mark."""
    spec = find_playable(result.variant)
    title = t("review.title", lang, variant=spec.title(lang), seat=result.seat, sims=result.sims)
    table = Table(title=title, caption=t("review.caption", lang))
    for key, justify in (
        (N_("review.col_deal"), "right"),
        (N_("review.col_turn"), "right"),
        (N_("review.col_taken"), "left"),
        (N_("review.col_best"), "left"),
        (N_("review.col_cost"), "right"),
        (N_("review.col_verdict"), "left"),
        (N_("review.col_candidates"), "left"),
    ):
        table.add_column(t(key, lang), justify=justify)  # type: ignore[arg-type]
    for d in result.decisions:
        r = d.rating
        table.add_row(
            str(d.deal),
            str(d.turn + 1),
            str(r.taken),
            "" if r.agreed else str(r.best),
            f"{r.cost:.1f} ± {r.error:.1f}",
            t(VERDICT_NAMES[d.verdict], lang),
            "; ".join(f"{c.action} {c.value:+.1f}" for c in r.candidates[:CANDIDATES_SHOWN]),
        )
    return table


def summary_table(result: Review, lang: str) -> Table:
    """Per deal and for the game: decisions, agreed with the search, points lost, marks."""
    table = Table(title=t("review.summary", lang))
    table.add_column(t("review.col_deal", lang))
    table.add_column(t("review.col_decisions", lang), justify="right")
    table.add_column(t("review.col_agreed", lang), justify="right")
    table.add_column(t("review.col_lost", lang), justify="right")
    for verdict in ("inaccuracy", "mistake", "blunder"):
        table.add_column(t(VERDICT_NAMES[verdict], lang), justify="right")
    rows = [(str(n), s) for n, s in result.deals().items()]
    rows.append((t("review.whole_game", lang), result.summary()))
    for label, s in rows:
        table.add_row(
            label,
            str(s.decisions),
            str(s.agreed),
            f"{s.lost:.1f}",
            *(str(s.marks[v]) for v in ("inaccuracy", "mistake", "blunder")),
        )
    return table
