"""The lobby's index: every unfinished table in lobby order (newest first) with what
the lobby filters on and who made it, so that a page of the lobby and the per-client
counts never build or walk more than they show.

The hub adds a table when it is made or rebuilt, updates it when its seats change and
removes it when it leaves memory; a finished table is dropped when a page meets it.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from remikit.server.live import LiveTable


@dataclass(eq=False)
class Entry:
    """One table as the lobby sorts and filters it."""

    table: LiveTable
    client: str | None  # the key of who made it (remikit.server.limits.client_key)
    variant: str
    lang: str | None
    open: bool  # a person's seat is free
    bots_only: bool

    def key(self) -> tuple[datetime, str]:
        return self.table.created_at, self.table.id


def _open(table: LiveTable) -> bool:
    return any(not seat.taken for seat in table.seats)


class Lobby:
    """The unfinished tables of a hub, oldest first (a page reads it backwards)."""

    def __init__(self) -> None:
        self._order: list[Entry] = []
        self._entries: dict[str, Entry] = {}
        self._by_client: dict[str, set[Entry]] = {}
        self._bots_only: set[Entry] = set()

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, table: LiveTable, client: str | None) -> None:
        """A table made, or rebuilt from storage, that has not finished."""
        if table.id in self._entries:
            self.update(table)
            return
        entry = Entry(
            table=table,
            client=client,
            variant=table.variant.name,
            lang=table.lang,
            open=_open(table),
            bots_only=all(seat.kind == "bot" for seat in table.seats),
        )
        self._entries[table.id] = entry
        bisect.insort(self._order, entry, key=Entry.key)
        if client is not None:
            self._by_client.setdefault(client, set()).add(entry)
        if entry.bots_only:
            self._bots_only.add(entry)

    def update(self, table: LiveTable) -> None:
        """After a table's seats changed (someone joined) or its game ended."""
        entry = self._entries.get(table.id)
        if entry is None:
            return
        if table.game.over:
            self.remove(table.id)
        else:
            entry.open = _open(table)

    def remove(self, table_id: str) -> None:
        """A table that finished, expired or left memory."""
        entry = self._entries.pop(table_id, None)
        if entry is None:
            return
        index = bisect.bisect_left(self._order, entry.key(), key=Entry.key)
        while self._order[index] is not entry:
            index += 1
        del self._order[index]
        if entry.client is not None:
            mine = self._by_client[entry.client]
            mine.discard(entry)
            if not mine:
                del self._by_client[entry.client]
        self._bots_only.discard(entry)

    def client_tables(self, client: str) -> int:
        """How many unfinished tables ``client`` made."""
        return sum(1 for e in self._by_client.get(client, ()) if not e.table.game.over)

    def bot_tables(self, client: str | None = None) -> int:
        """How many unfinished tables of bots only there are (that ``client`` made)."""
        return sum(
            1
            for e in self._bots_only
            if not e.table.game.over and (client is None or e.client == client)
        )

    def page(
        self,
        *,
        limit: int,
        offset: int,
        variant: str | None = None,
        free: bool | None = None,
        lang: str | None = None,
    ) -> tuple[int, list[LiveTable]]:
        """How many tables match the filters, and those of the page asked for, newest
        first: ``variant`` a variant's name, ``free`` whether a person's seat is free,
        ``lang`` the language its creator chose."""
        total = 0
        shown: list[LiveTable] = []
        ended: list[str] = []
        for entry in reversed(self._order):
            table = entry.table
            if table.game.over:
                ended.append(table.id)
                continue
            if (
                (variant is not None and entry.variant != variant)
                or (free is not None and entry.open != free)
                or (lang is not None and entry.lang != lang)
            ):
                continue
            if offset <= total < offset + limit:
                shown.append(table)
            total += 1
        for table_id in ended:
            self.remove(table_id)
        return total, shown

    def page_json(self, *, limit: int, offset: int, **filters: Any) -> dict[str, Any]:
        """A page as ``GET /api/tables`` answers it (docs/protocol.md §3.2)."""
        total, tables = self.page(limit=limit, offset=offset, **filters)
        return {
            "tables": [t.info() for t in tables],
            "total": total,
            "limit": limit,
            "offset": offset,
        }
