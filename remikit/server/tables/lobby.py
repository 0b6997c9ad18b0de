"""The lobby's index: every unfinished table in lobby order (newest first) with what
the lobby filters on and who made it, so that a page of the lobby and the per-client
counts never build or walk more than they show.

The tables are kept in one sorted list per (variant, language, open) kind: a filter
picks some of those lists, its total is their lengths added up, and its page is read
off their merge, newest first, going no further than the page's end. The hub adds a
table when it is made or rebuilt, updates it when its seats change and removes it when
it finishes or leaves memory. An entry's ``item`` is what a page shows of it: the live
table, or on a site of several processes another node's table as that node described it
(remikit.server.cluster.lobby).
"""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from remikit.server.tables.service import Table

Kind = tuple[str, str | None, bool]
"""What a filter reads: a table's variant, its creator's language, whether it is open."""


@dataclass(eq=False)
class Entry:
    """One table as the lobby sorts and filters it."""

    id: str
    created_at: datetime
    client: str | None  # the key of who made it (remikit.server.limits.client_key)
    kind: Kind
    bots_only: bool
    item: Any  # what a page shows: the Table, or another node's description of it

    def key(self) -> tuple[datetime, str]:
        return self.created_at, self.id


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
        kind = kind_of(table)
        self.put(Entry(table.id, table.created_at, client, kind, bots_only, table))

    def put(self, entry: Entry) -> None:
        """Add an entry, or put it in the place of the entry of the same table."""
        self.remove(entry.id)
        self._entries[entry.id] = entry
        self._file(entry)
        if entry.client is not None:
            self._by_client.setdefault(entry.client, set()).add(entry)
        if entry.bots_only:
            self._bots_only.add(entry)

    def update(self, table: Table) -> None:
        """After a table's seats changed (someone joined) or its game ended."""
        entry = self._entries.get(table.id)
        if entry is None:
            return
        if table.game.over:
            self.remove(table.id)
            return
        self.refile(entry, kind_of(table))

    def refile(self, entry: Entry, kind: Kind) -> None:
        """An entry whose kind may have changed (a seat was taken)."""
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

    def get(self, table_id: str) -> Entry | None:
        return self._entries.get(table_id)

    def ids(self) -> list[str]:
        return list(self._entries)

    def client_tables(self, client: str) -> int:
        """How many unfinished tables ``client`` made."""
        return len(self._by_client.get(client, ()))

    def bot_tables(self, client: str | None = None) -> int:
        """How many unfinished tables of bots only there are (that ``client`` made)."""
        return sum(1 for e in self._bots_only if client is None or e.client == client)

    def page(
        self,
        *,
        limit: int,
        offset: int,
        variant: str | None = None,
        free: bool | None = None,
        lang: str | None = None,
    ) -> tuple[int, list[Any]]:
        """How many tables match the filters, and the items of the page asked for, newest
        first: ``variant`` a variant's name, ``free`` whether a person's seat is free,
        ``lang`` the language its creator chose."""
        lists = self._lists_for(variant, free, lang)
        total = sum(map(len, lists))
        if len(lists) == 1:  # a slice of it, however deep the page
            end = max(0, total - offset)
            return total, [e.item for e in reversed(lists[0][max(0, end - limit) : end])]
        start = min(offset, total)  # islice takes no index past sys.maxsize
        newest = _merged(lists)
        return total, [e.item for e in itertools.islice(newest, start, start + limit)]

    def newest(
        self, *, variant: str | None = None, free: bool | None = None, lang: str | None = None
    ) -> tuple[int, Iterator[Entry]]:
        """How many tables match the filters, and their entries newest first."""
        lists = self._lists_for(variant, free, lang)
        return sum(map(len, lists)), _merged(lists)

    def _lists_for(
        self, variant: str | None, free: bool | None, lang: str | None
    ) -> list[list[Entry]]:
        return [
            entries
            for (kind_variant, kind_lang, kind_free), entries in self._lists.items()
            if (variant is None or kind_variant == variant)
            and (lang is None or kind_lang == lang)
            and (free is None or kind_free == free)
        ]


def _merged(lists: list[list[Entry]]) -> Iterator[Entry]:
    """The entries of ``lists`` (each oldest first), newest first."""
    return heapq.merge(*map(reversed, lists), key=Entry.key, reverse=True)
