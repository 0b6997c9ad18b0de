"""A list of players from a CSV file (docs/competition.md §8): a header row naming the
columns ``name``, ``club`` and ``contact`` (or ``nama``, ``klub``, ``kontak``), in any
order, ``name`` required; UTF-8 with or without a byte order mark; fields separated by
commas or semicolons (the header row tells which). Every line is checked, and every
fault is reported with its line number; a file with any fault gives no player.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from remikit.i18n import N_

COLUMNS = {
    "name": "name",
    "nama": "name",
    "club": "club",
    "klub": "club",
    "contact": "contact",
    "kontak": "contact",
}
LIMITS = {"name": 40, "club": 60, "contact": 100}
MOST = 2000
"""Players in one file at most."""


@dataclass(frozen=True)
class NewPlayer:
    name: str
    club: str | None
    contact: str | None


@dataclass(frozen=True)
class LineFault:
    """What is wrong on one line (1: the header row): a code, a message key, its values."""

    line: int
    code: str
    key: str
    params: dict[str, Any] = field(default_factory=dict)


class CsvRefused(Exception):
    """A file with faults: every one of them, in line order."""

    def __init__(self, faults: list[LineFault]) -> None:
        super().__init__(f"{len(faults)} faults")
        self.faults = faults


def folded(text: str | None) -> str:
    return " ".join((text or "").split())


def _header(first: list[str], line: int = 1) -> tuple[list[str | None], list[LineFault]]:
    names = [COLUMNS.get(folded(cell).casefold()) for cell in first]
    faults = []
    unknown = [folded(cell) for cell, name in zip(first, names, strict=True) if name is None]
    if unknown:
        faults.append(
            LineFault(line, "bad_header", N_("csv.unknown_column"), {"column": unknown[0]})
        )
    if "name" not in names:
        faults.append(LineFault(line, "bad_header", N_("csv.no_name_column")))
    twice = sorted({n for n in names if n is not None and names.count(n) > 1})
    if twice:
        faults.append(LineFault(line, "bad_header", N_("csv.column_twice"), {"column": twice[0]}))
    return names, faults


def _player(
    number: int, cells: list[str], names: list[str | None]
) -> tuple[NewPlayer | None, list[LineFault]]:
    if len(cells) > len(names):
        key = N_("csv.too_many_fields")
        return None, [LineFault(number, "bad_line", key, {"found": len(cells), "most": len(names)})]
    values = {name: folded(cell) for name, cell in zip(names, cells, strict=False) if name}
    faults = []
    for column, most in LIMITS.items():
        value = values.get(column, "")
        if column == "name" and not value:
            faults.append(LineFault(number, "bad_name", N_("csv.no_name")))
        elif len(value) > most or not value.isprintable():
            key = N_("csv.bad_field")
            faults.append(LineFault(number, f"bad_{column}", key, {"column": column, "max": most}))
    if faults:
        return None, faults
    club, contact = values.get("club") or None, values.get("contact") or None
    return NewPlayer(values["name"], club, contact), []


def read_players(text: str, registered: Iterable[tuple[str, str | None]] = ()) -> list[NewPlayer]:
    """The players of a CSV file's text; :class:`CsvRefused` with every fault. A name and
    club already ``registered``, or twice in the file, is a fault (``duplicate``)."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    if not first:
        raise CsvRefused([LineFault(1, "bad_header", N_("csv.empty"))])
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows: list[tuple[int, list[str]]] = []  # each row with the line it starts on
    try:
        last = 0
        for row in reader:
            if any(cell.strip() for cell in row):
                rows.append((last + 1, row))
            last = reader.line_num
    except csv.Error as exc:
        raise CsvRefused(
            [LineFault(reader.line_num, "bad_line", N_("csv.unreadable"), {"why": str(exc)})]
        ) from None
    if not rows:
        raise CsvRefused([LineFault(1, "bad_header", N_("csv.empty"))])
    header_line, header = rows[0]
    names, faults = _header(header, header_line)
    header_faults = bool(faults)
    seen = {(n.casefold(), (c or "").casefold()) for n, c in registered}
    players: list[NewPlayer] = []
    for number, cells in rows[1:]:
        if header_faults:
            break
        player, wrong = _player(number, cells, names)
        faults += wrong
        if player is None:
            continue
        key = (player.name.casefold(), (player.club or "").casefold())
        if key in seen:
            params = {"name": player.name}
            faults.append(LineFault(number, "duplicate", N_("csv.duplicate"), params))
        seen.add(key)
        players.append(player)
    if not faults and not players:
        faults.append(LineFault(header_line, "bad_header", N_("csv.no_players")))
    if len(players) > MOST:
        faults.append(LineFault(header_line, "too_many", N_("csv.too_many"), {"most": MOST}))
    if faults:
        raise CsvRefused(faults)
    return players
