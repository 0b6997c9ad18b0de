"""The lobby's index: every unfinished table in lobby order (newest first) with what
the lobby filters on and who made it, so that a page of the lobby and the per-client
counts never build or walk more than they show.

The tables are kept in one sorted list per (variant, language, open) kind: a filter
picks some of those lists, its total is their lengths added up, and its page is read
off their merge, newest first, going no further than the page's end. The hub adds a
table when it is made or rebuilt, updates it when its seats change and removes it when
it finishes or leaves memory.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from remikit.server.tables.service import Table

Kind = tuple[str, str | None, bool]
"""What a filter reads: a table's variant, its creator's language, whether it is open."""


@dataclass(eq=False)
class Entry:
    """One table as the lobby sorts and filters it."""

    table: Table
    client: str | None  # the key of who made it (remikit.server.limits.client_key)
    kind: Kind
    bots_only: bool

    def key(self) -> tuple[datetime, str]:
        return self.table.created_at, self.table.id


def kind_of(table: Table) -> Kind:
    """A table's variant, language and whether a person's seat is free."""
    return table.variant.name, table.lang, any(not seat.taken for seat in table.seats)


class Lobby:
    """The unfinished tables of a hub."""

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}
        self._lists: dict[Kind, list[Entry]] = {}  # each oldest first
        self._by_client: dict[str, set[Entry]] = {}
        self._bots_only: set[Entry] = set()

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, table: Table, client: str | None) -> None:
        """A table made, or rebuilt from storage, that has not finished."""
        if table.id in self._entries:
            self.update(table)
            return
        bots_only = all(seat.kind == "bot" for seat in table.seats)
        entry = Entry(table=table, client=client, kind=kind_of(table), bots_only=bots_only)
        self._entries[table.id] = entry
        self._file(entry)
        if client is not None:
            self._by_client.setdefault(client, set()).add(entry)
        if bots_only:
            self._bots_only.add(entry)

    def update(self, table: Table) -> None:
        """After a table's seats changed (someone joined) or its game ended."""
        entry = self._entries.get(table.id)
        if entry is None:
            return
        if table.game.over:
            self.remove(table.id)
            return
        kind = kind_of(table)
        if kind != entry.kind:
            self._unfile(entry)
            entry.kind = kind
            self._file(entry)

    def remove(self, table_id: str) -> None:
        """A table that finished, expired or left memory."""
        entry = self._entries.pop(table_id, None)
        if entry is None:
            return
        self._unfile(entry)
        if entry.client is not None:
            mine = self._by_client[entry.client]
            mine.discard(entry)
            if not mine:
                del self._by_client[entry.client]
        self._bots_only.discard(entry)

    def _file(self, entry: Entry) -> None:
        bisect.insort(self._lists.setdefault(entry.kind, []), entry, key=Entry.key)

    def _unfile(self, entry: Entry) -> None:
        entries = self._lists[entry.kind]
        index = bisect.bisect_left(entries, entry.key(), key=Entry.key)
        while entries[index] is not entry:
            index += 1
        del entries[index]
        if not entries:
            del self._lists[entry.kind]

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
    ) -> tuple[int, list[Table]]:
        """How many tables match the filters, and those of the page asked for, newest
        first: ``variant`` a variant's name, ``free`` whether a person's seat is free,
        ``lang`` the language its creator chose."""
        lists = [
            entries
            for (kind_variant, kind_lang, kind_free), entries in self._lists.items()
            if (variant is None or kind_variant == variant)
            and (lang is None or kind_lang == lang)
            and (free is None or kind_free == free)
        ]
        total = sum(map(len, lists))
        if len(lists) == 1:  # a slice of it, however deep the page
            end = max(0, total - offset)
            return total, [e.table for e in reversed(lists[0][max(0, end - limit) : end])]
        newest: Iterator[Entry] = heapq.merge(*map(reversed, lists), key=Entry.key, reverse=True)
        start = min(offset, total)  # islice takes no index past sys.maxsize
        return total, [e.table for e in itertools.islice(newest, start, start + limit)]
