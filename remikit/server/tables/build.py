"""What the table registry builds tables from: table codes, a stored table's game, the
variants a web table may play with their options and bot levels."""

from __future__ import annotations

import contextlib
import gc
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from remikit.action_words import ActionSyntaxError
from remikit.actions import parse_seat_action
from remikit.bots import BotError, StrongBot, levels_for, make_bot, parse_bot_name
from remikit.engine import Game, OptionError, Options
from remikit.errors import IllegalAction
from remikit.fairness import fair_deck
from remikit.records import RecordError, apply_recorded, new_game, start_hand
from remikit.server.option_help import option_help
from remikit.server.problems import Problem
from remikit.server.tables.fair_deals import fixed_secret
from remikit.server.tables.seats import SeatConfig, seat_actions
from remikit.storage import StoredTable
from remikit.variants import VARIANTS, VariantSpec, find_playable, playable

CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I
CODE_LENGTH = 8
CODE_RE = re.compile(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")


def new_table_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """Table codes are read in any letter case."""
    return code.strip().upper()


def build_game(stored: StoredTable, steps: int | None = None) -> Game:
    """The game of a stored table after its first ``steps`` actions (all by default), as
    a record is replayed (:mod:`remikit.records`): each stored deck is dealt when the deal
    before it is over, the actions are applied in turn. The seed plays no part. A deal
    whose deck is stored starts even after the last action (as it did at the table); a
    table still waiting for its players may have none. ValueError for a table that does
    not replay."""
    try:
        game = new_game({"variant": stored.variant, "options": stored.options})
    except RecordError as exc:
        raise ValueError(f"table {stored.id}: {exc}") from None

    def deal_next() -> bool:
        number = len(game.deals) + 1
        if number > len(stored.decks):
            return False
        try:
            start_hand(game, {"deck": list(stored.decks[number - 1])}, number)
        except RecordError as exc:
            raise ValueError(f"table {stored.id}: {exc}") from None
        return True

    if not deal_next() and stored.actions:
        raise ValueError(f"table {stored.id}: no deck is stored for its first deal")
    actions = stored.actions if steps is None else stored.actions[:steps]
    for index, text in enumerate(actions):
        if game.needs_deal and not deal_next():
            number = len(game.deals) + 1
            raise ValueError(
                f"table {stored.id}: action {index} {text!r} needs deal {number}, "
                "whose deck is not stored"
            )
        try:
            seat, action = parse_seat_action(text)
            apply_recorded(game, seat, action)
        except (ActionSyntaxError, IllegalAction) as exc:
            raise ValueError(f"table {stored.id}: action {index} {text!r}: {exc}") from exc
    if game.needs_deal:
        deal_next()
    return game


def default_bot(variant: str) -> str:
    playing = levels_for(variant)
    return next((level for level in ("greedy", "random") if level in playing), "random")


def level_strength(info: VariantSpec) -> dict[str, dict[str, Any]]:
    """The measured strength of each bot level offered for ``info``, from the variant's
    ladder (``remi ladder``): the entry of the level as offered, else the one of that level
    with the longest thinking budget. ``budget`` is the seconds a move the measured bot
    thought where the level offered thinks otherwise, else None."""
    ladder = info.ladder_json()
    if ladder is None:
        return {}
    entries: dict[str, list[tuple[float, dict[str, Any]]]] = {}
    for entry in ladder.get("levels", []):
        try:
            level, budget = parse_bot_name(str(entry["level"]))
        except BotError:
            continue
        rank = float("inf") if budget is None else budget  # no budget: the level as offered
        entries.setdefault(level, []).append((rank, entry))
    out = {}
    for level in levels_for(info.name):
        if level not in entries:
            continue
        entry = max(entries[level], key=lambda found: found[0])[1]
        measured = make_bot(entry["level"], seed=0)
        thinks = None
        if isinstance(measured, StrongBot) and entry["level"] != level:
            thinks = round(measured.budget, 3)
        out[level] = {
            "measured": entry["level"],
            "budget": thinks,
            "rating": entry["mu"],
            "interval": entry["interval"],
            "win_rate": entry["win_rate"],
            "win_rate_ci95": entry["win_rate_ci95"],
            "par": entry["par"],
            "deals": entry["deals"],
        }
    return out


def variants_json() -> list[dict[str, Any]]:
    """Each variant with its options (name, type, default, allowed values, the message ids
    of their labels) in the order clients offer them, how a client draws its table, the
    bot levels that play it and their measured strength (:func:`level_strength`)."""
    out = []
    for info in playable():
        options = [
            {
                "name": o.name,
                "type": o.kind,
                "default": o.default,
                "choices": list(o.choices) if o.choices is not None else None,
                "min": o.low,
                "max": o.high,
                "label": o.label,
                "choice_labels": list(o.choice_labels) if o.choice_labels is not None else None,
                **option_help(info.name, o.name),
            }
            for o in info.options()
        ]
        out.append(
            {
                "name": info.name,
                "aliases": list(info.aliases),
                "title": info.titles,
                "options": options,
                "client": info.client_json(),
                "bots": levels_for(info.name),
                "default_bot": default_bot(info.name),
                "strength": level_strength(info),
            }
        )
    return out


def table_options(info: VariantSpec, options: Mapping[str, Any]) -> Options:
    """The options a request names for a table of ``info``, else the problem ``bad_option``."""
    try:
        return info.game_class().options_type.from_mapping(options)
    except (OptionError, ValueError, TypeError) as exc:
        why: OptionError | str = exc if isinstance(exc, OptionError) else str(exc)
        raise Problem("bad_option", "server.bad_option", why=why) from None


def playable_variant(name: str) -> VariantSpec:
    """The variant a request names (a name or an alias), else the problem ``bad_variant``."""
    try:
        return find_playable(name)
    except ValueError as exc:
        raise Problem(
            "bad_variant",
            "server.bad_variant",
            detail=str(exc),
            variant=name,
            variants=", ".join(sorted(VARIANTS)),
        ) from None


def variant_client(variant: str) -> dict[str, Any]:
    """How a client draws a table of ``variant`` (as in :func:`variants_json`)."""
    return find_playable(variant).client_json()


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """No garbage collection while it lasts: a start-up that rebuilds thousands of
    long-lived tables spends half its time collecting otherwise."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def next_deck(game: Game, seed: str) -> list[Any]:
    """The deck of the next deal of ``game``, the game of a table made with ``seed``
    (:func:`remikit.server.tables.fair_deals.fixed_secret`, no contributions)."""
    number = len(game.deals) + 1
    return fair_deck(game.full_deck(), fixed_secret(seed, number), [None] * game.players)


def game_result(game: Game, seats: Sequence[SeatConfig], actions: Sequence[str]) -> dict[str, Any]:
    """What a finished game's listing shows: totals, winner, scores per deal, and each
    seat's actions with those of them its stand-in bot made."""
    return {
        "totals": list(game.totals),
        "winner": game.winner,
        "hand_scores": [list(d.summary.points) for d in game.deals if d.summary is not None],
        "turns": [seat_actions(actions, seat) for seat in range(len(seats))],
        "stand_in_turns": [
            config.stand_in_turns + config.absent_turns(actions, seat)
            for seat, config in enumerate(seats)
        ],
    }
