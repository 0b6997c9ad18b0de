"""The arguments and notices the commands that play many games share (``remi arena``,
``ladder``, ``openspiel``, ``review``, ``play``): ``--seed``, ``--jobs``, ``--json``,
``--option KEY=VALUE``, and the line saying the compiled search is missing."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from remikit import solver
from remikit.engine import OptionError, OptionRefused, OptionText
from remikit.i18n import t


class ArenaError(ValueError):
    """Arguments that name no arena to play; the message is in the user's language."""


def parse_options(pairs: Sequence[str], lang: str) -> dict[str, OptionText]:
    """``--option KEY=VALUE`` pairs by name, the values as text to parse."""
    out: dict[str, OptionText] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise ArenaError(t("arena.bad_option", lang, option=pair))
        out[key.strip()] = OptionText(value.strip())
    return out


def option_text(exc: OptionError, lang: str) -> str:
    return exc.text(lang) if isinstance(exc, OptionRefused) else str(exc)


def add_run_arguments(parser: argparse.ArgumentParser, lang: str) -> None:
    """``--seed``, ``--jobs`` and ``--json``, as every command that plays many games takes."""
    parser.add_argument("--seed", type=int, metavar="S", help=t("arena.help_seed", lang))
    parser.add_argument(
        "--jobs", type=int, default=0, metavar="J", help=t("arena.help_jobs_all", lang)
    )
    parser.add_argument("--json", action="store_true", help=t("arena.help_json", lang))


def add_option_argument(parser: argparse.ArgumentParser, lang: str) -> None:
    """``--option KEY=VALUE``, any number of times: a table option (:func:`parse_options`)."""
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=t("arena.help_option", lang),
    )


def solver_notice(lang: str) -> None:
    """One line on stderr where remikit was built without its compiled search (a match
    then takes several times as long)."""
    if not solver.COMPILED:
        print(t("arena.pure_python", lang), file=sys.stderr)


def jobs_count(jobs: int) -> int:
    """``--jobs``: 0 means every core."""
    return (os.cpu_count() or 1) if jobs == 0 else jobs
