"""What a table's creator chooses, checked: its seats (a person, or a bot of a level the
variant has, thinking no longer than the server allows) and its settings."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from remikit.bots import check_bot, parse_bot_name
from remikit.i18n import N_
from remikit.server.problems import Problem
from remikit.server.tables.build import default_bot
from remikit.server.tables.seats import SeatConfig
from remikit.server.tables.table_settings import SettingRefused, TableSettings
from remikit.variants import VariantSpec


def seats_chosen(
    info: VariantSpec, players: int, seats: Sequence[Mapping[str, Any]] | None, budget: float
) -> list[SeatConfig]:
    """The seats of a new table (None: a person and bots of the variant's default level);
    ``budget`` the most seconds a bot may think a decision; else ``bad_seats``."""
    if seats is None:
        level = default_bot(info.name)
        return [SeatConfig("person")] + [
            SeatConfig("bot", name=f"Bot {i}", level=level) for i in range(1, players)
        ]
    if len(seats) != players:
        raise Problem("bad_seats", "server.seat_count", players=players, given=len(seats))
    out = []
    for index, seat in enumerate(seats):
        kind = seat.get("kind")
        if kind == "person":
            out.append(SeatConfig("person"))
        elif kind == "bot":
            level = str(seat.get("level") or default_bot(info.name)).strip().lower()
            keys = (N_("server.bad_bot"), N_("server.bot_budget"))
            check_level(info, level, budget, "bad_seats", keys, seat=index + 1)
            out.append(SeatConfig("bot", name=f"Bot {index}", level=level))
        else:
            raise Problem("bad_seats", "server.seat_kind", seat=index + 1, kind=str(kind))
    return out


def check_level(
    info: VariantSpec,
    level: str,
    budget: float,
    code: str,
    keys: tuple[str, str],
    seat: int = 0,
) -> None:
    """A bot level a web table may use: one that plays the variant, thinking no longer
    than ``budget`` (one table's bots must not hold what every table shares); else the
    problem ``code`` with the first of ``keys`` (no such bot) or the second (it thinks
    too long); ``seat`` counts from 1."""
    try:
        check_bot(level, info.name)
    except ValueError as exc:
        raise Problem(code, keys[0], why=exc, level=level, seat=seat) from None
    thinks = parse_bot_name(level)[1]
    if thinks is not None and thinks > budget:
        raise Problem(code, keys[1], level=level, max=budget, seat=seat)


def check_stand_in(info: VariantSpec, level: str, budget: float) -> None:
    """A bot level a table's creator may seat as a stand-in (``bad_setting``)."""
    keys = (N_("server.bad_stand_in"), N_("server.stand_in_budget"))
    check_level(info, level, budget, "bad_setting", keys)


def settings_chosen(info: VariantSpec, data: Mapping[str, Any], budget: float) -> TableSettings:
    """A new table's settings; else ``bad_setting``."""
    try:
        settings = TableSettings.from_mapping(data)
    except SettingRefused as exc:
        raise Problem(
            "bad_setting", exc.key, setting=exc.name, value=json.dumps(exc.value)
        ) from None
    check_stand_in(info, settings.stand_in, budget)
    return settings
