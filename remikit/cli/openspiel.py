"""``remi openspiel GAME``: a remikit bot against OpenSpiel's own bot (CONTRACT.md).

The games are the variants with an ``openspiel`` part (Gin Rummy: OpenSpiel's
``gin_rummy``, default parameters), which plays one hand in OpenSpiel's engine: the
remikit bot sits in seat ``i mod 2`` of hand ``i``, OpenSpiel's simple bot in the other,
and sees only its seat's observations. The deck of hand ``i`` and the bot's seed come
from ``(seed, i)`` alone, so the results do not depend on ``--jobs``. A hand is won by
the seat with the higher return.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from remikit.bots import Bot, BotError, check_bot, make_bot
from remikit.bots.runner import play_all
from remikit.cli.arguments import add_run_arguments, jobs_count, solver_notice
from remikit.cli.games import Z95, derive_seed, wilson_interval
from remikit.i18n import LANGUAGES, N_, default_lang, t
from remikit.variants import VARIANTS, find_variant

DEFAULT_HANDS = 100
OPPONENTS = ("simple",)


class InOpenSpiel(Protocol):
    """A variant's ``openspiel`` part (:mod:`remikit.variants.spec`)."""

    game: str
    """OpenSpiel's name of the game."""
    outcomes: Mapping[str, str]
    """How a hand may end for the remikit bot, and the message naming it."""

    def play_hand(self, seat: int, bot: Bot, deck: random.Random) -> tuple[float, str]:
        """One hand, ``bot`` in ``seat``, OpenSpiel's chance outcomes drawn with ``deck``:
        the bot's return and how the hand ended (a key of :attr:`outcomes`)."""
        ...


def games() -> list[str]:
    """The variants OpenSpiel plays (those with an ``openspiel`` part)."""
    return [spec.name for spec in VARIANTS.values() if spec.has("openspiel")]


def in_openspiel(game: str) -> InOpenSpiel:
    part: InOpenSpiel = find_variant(game).part("openspiel")()
    return part


@dataclass(frozen=True)
class HandTask:
    """One hand to play (picklable)."""

    index: int
    seed: int
    bot: str
    game: str

    @property
    def seat(self) -> int:
        return self.index % 2


@dataclass(frozen=True)
class HandOutcome:
    """The remikit bot's return in one hand and how the hand ended (a key of the game's
    ``outcomes``)."""

    index: int
    points: float
    kind: str


def play_hand(task: HandTask) -> HandOutcome:
    """Play one hand of the game in OpenSpiel's engine."""
    deck = random.Random(derive_seed(task.seed, task.index))
    bot = make_bot(task.bot, seed=derive_seed(task.seed, task.index, 0))
    points, kind = in_openspiel(task.game).play_hand(task.seat, bot, deck)
    return HandOutcome(task.index, points, kind)


@dataclass(frozen=True)
class MatchResult:
    """The hands played and what they came to."""

    game: str
    bot: str
    seed: int
    seconds: float
    outcomes: tuple[HandOutcome, ...]

    @property
    def hands(self) -> int:
        return len(self.outcomes)

    def count(self, won: bool) -> int:
        return sum(1 for o in self.outcomes if (o.points > 0 if won else o.points < 0))

    def mean_points(self) -> tuple[float, float, float]:
        """The mean return per hand and its 95% interval (normal approximation)."""
        n = self.hands
        mean = sum(o.points for o in self.outcomes) / n
        if n < 2:
            return (mean, mean, mean)
        variance = sum((o.points - mean) ** 2 for o in self.outcomes) / (n - 1)
        half = Z95 * math.sqrt(variance / n)
        return (mean, mean - half, mean + half)

    def kinds(self) -> dict[str, int]:
        counted = Counter(o.kind for o in self.outcomes)
        return {k: counted[k] for k in in_openspiel(self.game).outcomes}

    def as_json(self) -> dict[str, Any]:
        wins, losses = self.count(True), self.count(False)
        low, high = wilson_interval(wins, self.hands)
        mean, mean_low, mean_high = self.mean_points()
        return {
            "hands": self.hands,
            "bot": self.bot,
            "opponent": "simple",
            "wins": wins,
            "losses": losses,
            "draws": self.hands - wins - losses,
            "win_rate": round(wins / self.hands, 4),
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "mean_points": round(mean, 3),
            "mean_points_ci95": [round(mean_low, 3), round(mean_high, 3)],
            "outcomes": self.kinds(),
            "seed": self.seed,
            "seconds": round(self.seconds, 1),
        }


def play_match(
    game: str,
    bot: str,
    hands: int,
    seed: int,
    *,
    jobs: int = 1,
    on_hand: Callable[[HandOutcome], None] | None = None,
) -> MatchResult:
    """Play ``hands`` hands of ``game`` (a variant with an ``openspiel`` part), ``bot``
    against OpenSpiel's simple bot."""
    start = time.perf_counter()
    outcomes = []
    tasks = [HandTask(i, seed, bot, game) for i in range(hands)]
    for outcome in play_all(play_hand, tasks, jobs):
        outcomes.append(outcome)
        if on_hand is not None:
            on_hand(outcome)
    return MatchResult(game, bot, seed, time.perf_counter() - start, tuple(outcomes))


# -- the command ------------------------------------------------------------------


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``remi openspiel``."""
    lang = default_lang()
    parser = subparsers.add_parser(
        "openspiel", help=t("openspiel.help", lang), description=t("openspiel.help", lang)
    )
    names = games()
    parser.add_argument(
        "game", choices=names, help=t("openspiel.help_game", lang, games=", ".join(names))
    )
    parser.add_argument(
        "--bot", required=True, metavar="LEVEL[@BUDGET]", help=t("openspiel.help_bot", lang)
    )
    parser.add_argument(
        "--opponent", choices=OPPONENTS, default="simple", help=t("openspiel.help_opponent", lang)
    )
    parser.add_argument(
        "--hands",
        type=int,
        default=DEFAULT_HANDS,
        metavar="N",
        help=t("openspiel.help_hands", lang, hands=DEFAULT_HANDS),
    )
    add_run_arguments(parser, lang)
    parser.add_argument("--lang", choices=LANGUAGES, help=t("score.help_lang", lang))
    parser.set_defaults(func=run)


def has_pyspiel() -> bool:
    return importlib.util.find_spec("pyspiel") is not None


def run(args: argparse.Namespace, *, out: TextIO | None = None) -> int:
    """Exit status: 0 played, 1 OpenSpiel is not installed, 2 arguments that name no match."""
    lang: str = args.lang or default_lang()
    stream = out if out is not None else sys.stdout
    try:
        check_bot(args.bot, args.game)
    except BotError as exc:
        print(f"remi openspiel: {exc.text(lang)}", file=sys.stderr)
        return 2
    if args.hands < 1 or args.jobs < 0:
        key = N_("openspiel.bad_hands") if args.hands < 1 else N_("arena.bad_jobs")
        print(f"remi openspiel: {t(key, lang, hands=args.hands, jobs=args.jobs)}", file=sys.stderr)
        return 2
    if not has_pyspiel():
        missing = t("openspiel.missing", lang)
        print(f"remi openspiel: {missing}", file=sys.stderr)
        return 1
    solver_notice(lang)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    bot = args.bot.strip().lower()
    jobs = jobs_count(args.jobs)
    console = Console(file=stream)
    if not args.json and stream.isatty():
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task(t("arena.playing", lang), total=args.hands)
            result = play_match(
                args.game,
                bot,
                args.hands,
                seed,
                jobs=jobs,
                on_hand=lambda _: progress.advance(task),
            )
    else:
        result = play_match(args.game, bot, args.hands, seed, jobs=jobs)
    if args.json:
        stream.write(json.dumps(result.as_json()) + "\n")
    else:
        console.print(result_table(result, lang))
    return 0


def result_table(result: MatchResult, lang: str) -> Table:
    """The human report: the bot's wins, losses and points, and how its hands ended."""
    data = result.as_json()
    title = t(
        "openspiel.title",
        lang,
        game=find_variant(result.game).title(lang),
        bot=result.bot,
        hands=result.hands,
        seed=result.seed,
        seconds=f"{result.seconds:.1f}",
    )
    table = Table(title=title, caption=t("openspiel.caption", lang))
    table.add_column(t("openspiel.col_what", lang))
    table.add_column(t("openspiel.col_value", lang), justify="right")
    low, high = data["win_rate_ci95"]
    mean_low, mean_high = data["mean_points_ci95"]
    table.add_row(t("arena.col_wins", lang), f"{data['wins']}/{result.hands}")
    table.add_row(t("arena.col_rate", lang), f"{data['win_rate']:.1%} ({low:.1%} – {high:.1%})")
    table.add_row(
        t("arena.col_points", lang),
        f"{data['mean_points']:.2f} ({mean_low:.2f} – {mean_high:.2f})",
    )
    outcomes = in_openspiel(result.game).outcomes
    for kind, count in data["outcomes"].items():
        table.add_row(t(outcomes[kind], lang), str(count))
    return table
