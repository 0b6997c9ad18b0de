"""A whole competition as one JSON file, and that file made a competition again on
another server (docs/competition.md §8).

The file holds every row of the competition: its own row (the two password hashes
included, so the event's passwords still work where it is imported) and the rows of
every table with a ``competition_id`` column, found in the models' metadata, so a
table added later is carried too; tables of logins (a ``token_hash`` column) are
left out. A table whose key is an integer ``id`` (entries, the audit log) gets new
ids where it is imported: an entry's ``replaces``, an audit row's ``entry:N`` target
and the ``entry`` and ``replaces`` of its values before and after follow them.

``hash`` is the SHA-256 of the file's content with the competition's id and these
ids left out (entries counted in order instead), so exporting an imported competition
gives the same hash as the file it came from.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import CursorResult, DateTime, Integer, Table, delete, insert, select
from sqlalchemy.orm import Session

from remikit.storage.competition import AuditRow, CompetitionRow
from remikit.storage.models import Base

FORMAT = "remikit-competition"
VERSION = 1
COMPETITIONS = cast(Table, CompetitionRow.__table__)
AUDIT = cast(Table, AuditRow.__table__).name
ENTRY_KEYS = ("entry", "replaces")
"""The keys of an audit row's values before and after that name an entry."""


class BadFile(Exception):
    """A file that is not a competition this server can import; ``what`` says why."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def competition_tables() -> list[Table]:
    """The tables of a competition's rows (those referred to first), logins left out."""
    found = [
        table
        for table in Base.metadata.sorted_tables
        if "competition_id" in table.c and "token_hash" not in table.c
    ]
    return sorted(found, key=lambda table: table.name == AUDIT)  # the audit log last


def renumbered(table: Table) -> bool:
    """A table keyed by an integer ``id`` the database gives."""
    key = list(table.primary_key.columns)
    return len(key) == 1 and key[0].name == "id" and isinstance(key[0].type, Integer)


def _out(value: Any) -> Any:
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
    return value


def _row(table: Table, row: Any, *, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    return {c.name: _out(row[c.name]) for c in table.columns if c.name not in skip}


def export(session: Session, code: str) -> dict[str, Any]:
    """The competition ``code`` as a file (its ``hash`` included)."""
    competitions = COMPETITIONS
    head = session.execute(select(competitions).where(competitions.c.id == code)).mappings()
    rows: dict[str, list[dict[str, Any]]] = {}
    for table in competition_tables():
        query = select(table).where(table.c.competition_id == code)
        order = list(table.primary_key.columns)
        stored = session.execute(query.order_by(*order)).mappings()
        skip = ("competition_id", "id") if table.name == AUDIT else ("competition_id",)
        rows[table.name] = [_row(table, row, skip=skip) for row in stored]
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": datetime.now(UTC).isoformat(),
        "competition": _row(competitions, head.one()),
        "rows": rows,
    }
    doc["hash"] = content_hash(doc)
    return doc


def _entry_ids(value: Any, new: Callable[[int], Any]) -> Any:
    """An audit row's value with the entries it names renumbered by ``new``."""
    if isinstance(value, dict):
        return {
            k: new(v) if k in ENTRY_KEYS and isinstance(v, int) else _entry_ids(v, new)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_entry_ids(v, new) for v in value]
    return value


def _audit_row(row: dict[str, Any], new: Callable[[int], Any]) -> dict[str, Any]:
    out = dict(row)
    target = str(out.get("target", ""))
    if target.startswith("entry:") and target[6:].isdigit():
        out["target"] = f"entry:{new(int(target[6:]))}"
    for side in ("before", "after"):
        out[side] = _entry_ids(out.get(side), new)
    return out


def _entries_renumbered(
    rows: Mapping[str, list[dict[str, Any]]], new: Callable[[int], Any]
) -> dict[str, list[dict[str, Any]]]:
    out = {}
    for name, table_rows in rows.items():
        if name == AUDIT:
            out[name] = [_audit_row(r, new) for r in table_rows]
        elif name == "competition_entries":
            out[name] = [
                r | {"id": new(r["id"]), "replaces": r.get("replaces") and new(r["replaces"])}
                for r in table_rows
            ]
        else:
            out[name] = table_rows
    return out


def content_hash(doc: Mapping[str, Any]) -> str:
    """SHA-256 of the content: no id, no time of export, entries counted in order."""
    entries = doc["rows"].get("competition_entries", [])
    order = {row["id"]: index for index, row in enumerate(entries, start=1)}
    content = {
        "competition": {k: v for k, v in doc["competition"].items() if k != "id"},
        "rows": _entries_renumbered(doc["rows"], lambda old: order.get(old, old)),
    }
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def check(doc: Any) -> None:
    """``BadFile`` unless ``doc`` is a competition file of this version, whole."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BadFile("format")
    if doc.get("version") != VERSION:
        raise BadFile(f"version {doc.get('version')}")
    if not isinstance(doc.get("competition"), dict) or not isinstance(doc.get("rows"), dict):
        raise BadFile("competition, rows")
    known = {t.name: t for t in competition_tables()}
    for name, table_rows in doc["rows"].items():
        table = known.get(name)
        if table is None or not isinstance(table_rows, list):
            raise BadFile(name)
        for row in table_rows:
            if not isinstance(row, dict) or set(row) - set(table.c.keys()):
                raise BadFile(name)
    if set(doc["competition"]) - set(COMPETITIONS.c.keys()):
        raise BadFile(COMPETITIONS.name)
    if doc.get("hash") != content_hash(doc):
        raise BadFile("hash")


def _into(table: Table, row: Mapping[str, Any]) -> dict[str, Any]:
    """A row as the database takes it: times read back from their text."""
    out = dict(row)
    for column in table.columns:
        value = out.get(column.name)
        if isinstance(column.type, DateTime) and isinstance(value, str):
            out[column.name] = datetime.fromisoformat(value)
    return out


def import_rows(session: Session, doc: Mapping[str, Any], code: str) -> None:
    """Store the checked file ``doc`` as the competition ``code``."""
    competitions = COMPETITIONS
    session.execute(
        insert(competitions).values(_into(competitions, doc["competition"] | {"id": code}))
    )
    ids: dict[int, int] = {}
    for table in competition_tables():
        table_rows = doc["rows"].get(table.name, [])
        if table.name == AUDIT:
            table_rows = [_audit_row(r, lambda old: ids.get(old, old)) for r in table_rows]
        for row in table_rows:
            values = _into(table, row) | {"competition_id": code}
            if table.name == "competition_entries" and values.get("replaces") is not None:
                values["replaces"] = ids[values["replaces"]]
            if renumbered(table):
                old = values.pop("id", None)
                done = cast(CursorResult[Any], session.execute(insert(table).values(values)))
                made = done.inserted_primary_key
                if old is not None and made is not None and table.name == "competition_entries":
                    ids[int(old)] = int(made[0])
            else:
                session.execute(insert(table).values(values))


def delete_rows(session: Session, code: str) -> None:
    """Every row of the competition ``code``, logins included, then the competition."""
    tables = [t for t in Base.metadata.sorted_tables if "competition_id" in t.c]
    for table in reversed(tables):
        session.execute(delete(table).where(table.c.competition_id == code))
    competitions = COMPETITIONS
    session.execute(delete(competitions).where(competitions.c.id == code))
