"""``remi play``: one person against bots at the terminal (the table is
:mod:`remikit.cli.tui`)."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.rule import Rule

from remikit.bots import check_bot, make_bot
from remikit.cli.arguments import ArenaError, add_option_argument, parse_options
from remikit.cli.tui.session import InputFn, Session
from remikit.cli.tui.ui import VariantUI
from remikit.engine import OptionError
from remikit.i18n import LANGUAGES, default_lang, t, tn
from remikit.variants import find_playable, playable

BOT_NAMES = ("Budi", "Sari", "Wayan", "Dewi", "Agus", "Putu", "Rina")


class PlayError(ValueError):
    """Arguments that name no game to play; the message is in the user's language."""


# -- the command ------------------------------------------------------------------


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``remi play``."""
    lang = default_lang()
    parser = subparsers.add_parser(
        "play", help=t("play.help", lang), description=t("play.help", lang)
    )
    default, *others = (spec.name for spec in playable())
    parser.add_argument(
        "variant",
        nargs="?",
        default=default,
        help=t("play.help_variant", lang, default=default, variants=", ".join(others)),
    )
    parser.add_argument("--bots", default="greedy", metavar="LEVEL", help=t("play.help_bots", lang))
    parser.add_argument("--lang", choices=LANGUAGES, help=t("score.help_lang", lang))
    parser.add_argument("--seed", type=int, metavar="N", help=t("play.help_seed", lang))
    parser.add_argument("--games", type=int, metavar="N", help=t("play.help_games", lang))
    parser.add_argument("--record", metavar="FILE", help=t("play.help_record", lang))
    parser.add_argument("--name", metavar="NAME", help=t("play.help_name", lang))
    parser.add_argument("--players", type=int, metavar="N", help=t("play.help_players", lang))
    parser.add_argument(
        "--warn-playable", action="store_true", help=t("play.help_warn_playable", lang)
    )
    add_option_argument(parser, lang)
    parser.set_defaults(func=run)


def bot_levels(text: str, lang: str, variant: str, count: int = 3) -> list[str]:
    """``--bots``: one level for all ``count`` bots, or ``count`` levels comma separated."""
    levels = [b.strip().lower() for b in text.split(",") if b.strip()]
    if len(levels) == 1:
        levels *= count
    if len(levels) != count:
        raise PlayError(tn("play.bad_bots_count", count, lang, count=len(levels), bots=count))
    for level in levels:
        try:
            check_bot(level, variant)
        except ValueError as exc:
            raise PlayError(str(exc)) from None
    return levels


def make_session(
    args: argparse.Namespace, *, console: Console, input_fn: InputFn, lang: str
) -> Session:
    """Check the arguments and seat the players."""
    try:
        info = find_playable(args.variant)
    except ValueError as exc:
        raise PlayError(str(exc)) from None
    title = info.title(lang)
    if info.game is None or not info.has("tui"):
        raise PlayError(t("play.no_ui", lang, variant=title))
    game_type = info.game_class()
    ui: VariantUI = info.part("tui")()
    try:
        values: dict[str, Any] = parse_options(args.option, lang)
    except ArenaError as exc:
        raise PlayError(str(exc)) from None
    if args.games is not None:
        values["games"] = args.games
    if getattr(args, "players", None) is not None:
        values["players"] = args.players
    try:
        options = game_type.options_type.from_mapping(values)
    except OptionError as exc:
        message = exc.text(lang)
        if "unknown option 'games'" in message and args.games is not None:
            message = t("play.no_games", lang, variant=title)
        elif "unknown option 'players'" in message:
            message = t("play.fixed_players", lang, variant=title)
        raise PlayError(message) from None
    players = game_type(options, auto_deal=False).players
    if not ui.seats(players):
        raise PlayError(t("play.four_players", lang, players=players))
    levels = bot_levels(args.bots, lang, info.name, players - 1)
    seed: int | None = args.seed
    rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
    person_name = args.name or t("play.you", lang)
    player_names = [person_name, *BOT_NAMES[: players - 1]]
    seats, intro = ui.seat_players(rng, player_names, lang)  # seats[player] = seat
    game = game_type(options, rng=rng)
    person = seats[0]
    names = {seats[p]: player_names[p] for p in range(len(player_names))}
    bots = {}
    for p, level in enumerate(levels, start=1):
        bot_seed = None if seed is None else seed * 1000 + p
        bots[seats[p]] = make_bot(level, seed=bot_seed, timed=True)
    session = Session(
        ui=ui,
        game=game,
        bots=bots,
        names=names,
        person=person,
        console=console,
        input_fn=input_fn,
        lang=lang,
        record=Path(args.record) if args.record else None,
        warn_playable=bool(getattr(args, "warn_playable", False)),
    )
    session.say(Rule(t("play.welcome", lang, variant=title)))
    session.say(*intro)
    session.say(session.ui.seating(session))
    session.say(t("play.help_hint", lang))
    return session


def run(
    args: argparse.Namespace, *, console: Console | None = None, input_fn: InputFn | None = None
) -> int:
    """Exit status: 0 played (or quit), 2 arguments that name no game."""
    lang: str = args.lang or default_lang()
    console = console if console is not None else Console(highlight=False)
    if input_fn is None:
        input_fn = input
    try:
        session = make_session(args, console=console, input_fn=input_fn, lang=lang)
    except PlayError as exc:
        print(f"remi play: {exc}", file=sys.stderr)
        return 2
    return session.play()
