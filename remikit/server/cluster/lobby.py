"""One lobby for every node of a site: each node's open tables in Redis.

Each node keeps its own tables as a server alone does (:class:`Lobby`) and writes them,
as the lobby shows them, to the Redis hash ``remikit:SITE:lobby:NODE`` (table code → JSON;
SITE is drawn once per database, so several sites may share one Redis),
with a version drawn afresh at each change (a counter would start again when Redis
loses its data, and read as unchanged); both keys live for :attr:`SharedLobby.ttl`
seconds unless renewed, so the tables of a node that died leave every lobby with its
lease. About every second each node writes what changed and reads again the hashes of the
other nodes whose version changed. A page of the lobby, the site's open tables and each
client's count (the limits of docs/protocol.md §3.11) are then those of every node. When
Redis is away, each node goes on with its own tables and the others' as last read, and
writes all of its own again once Redis is back.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import json
import logging
import secrets
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from redis.asyncio import Redis

from remikit.server.tables.lobby import Entry, Kind, Lobby
from remikit.server.tables.service import Table
from remikit.server.transport.messages import table_info

log = logging.getLogger("remikit.server")


class SharedLobby(Lobby):
    """This node's tables (as :class:`Lobby`) and those of the site's other nodes."""

    def __init__(
        self, redis: Redis, site: str, node: str, *, ttl: float, every: float = 1.0
    ) -> None:
        super().__init__()
        self.tables_key = f"remikit:{site}:lobby:"  # + a node: its tables
        self.version_key = f"remikit:{site}:lobby-version:"  # + a node: their version
        self.redis = redis
        self.node = node
        self.ttl = max(1, round(ttl))
        self.every = every
        self.others = Lobby()
        """The other nodes' tables, each entry's item the table as its node showed it."""
        self._theirs: dict[str, set[str]] = {}  # node → its table codes
        self._node_of: dict[str, str] = {}  # another node's table code → that node
        self._versions: dict[str, str] = {}  # node → the version read last
        self._dirty: set[str] = set()
        self._whole = True  # write every table of this node next time
        self._task: asyncio.Task[None] | None = None
        self._failing = False

    # -- this node's tables ------------------------------------------------------

    def put(self, entry: Entry) -> None:
        super().put(entry)
        self._dirty.add(entry.id)

    def update(self, table: Table) -> None:
        super().update(table)
        self._dirty.add(table.id)

    def refile(self, entry: Entry, kind: Kind) -> None:
        super().refile(entry, kind)
        self._dirty.add(entry.id)

    def remove(self, table_id: str) -> None:
        super().remove(table_id)
        self._dirty.add(table_id)

    # -- the site ----------------------------------------------------------------

    def __len__(self) -> int:
        return super().__len__() + len(self.others)

    def client_tables(self, client: str) -> int:
        return super().client_tables(client) + self.others.client_tables(client)

    def bot_tables(self, client: str | None = None) -> int:
        return super().bot_tables(client) + self.others.bot_tables(client)

    def page(
        self,
        *,
        limit: int,
        offset: int,
        variant: str | None = None,
        free: bool | None = None,
        lang: str | None = None,
    ) -> tuple[int, list[Any]]:
        filters: dict[str, Any] = {"variant": variant, "free": free, "lang": lang}
        mine, theirs = self.newest(**filters), self.others.newest(**filters)
        total = mine[0] + theirs[0]
        merged = heapq.merge(mine[1], theirs[1], key=Entry.key, reverse=True)
        start = min(offset, total)
        return total, [e.item for e in itertools.islice(merged, start, start + limit)]

    # -- keeping Redis up to date ------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self.redis.aclose()

    async def _run(self) -> None:
        while True:
            try:
                await self.sync()
                if self._failing:
                    log.warning("node %s: Redis is back; the lobby is shared again", self.node)
                self._failing = False
            except Exception as exc:
                if not self._failing:
                    log.warning("node %s: Redis cannot be reached (%s)", self.node, exc)
                self._failing = True
                self._whole = True
            await asyncio.sleep(self.every)

    async def sync(self) -> None:
        """Write what changed of this node's tables; read the others' that changed."""
        await self._write()
        await self._read()

    async def _write(self) -> None:
        key, version = self.tables_key + self.node, self.version_key + self.node
        whole = self._whole or not await self.redis.exists(key)
        codes = self.ids() if whole else sorted(self._dirty)
        self._dirty.clear()
        shown: dict[Any, Any] = {}
        gone = []
        for code in codes:
            entry = self.get(code)
            if entry is None:
                gone.append(code)
            else:
                shown[code] = _described(entry)
        async with self.redis.pipeline(transaction=True) as pipe:
            if whole:
                pipe.delete(key)
            if shown:
                pipe.hset(key, mapping=shown)
            if gone:
                pipe.hdel(key, *gone)
            if whole or shown or gone:
                pipe.set(version, secrets.token_hex(8))
            pipe.expire(key, self.ttl)
            pipe.expire(version, self.ttl)
            await pipe.execute()
        self._whole = False

    async def _read(self) -> None:
        found: dict[str, str] = {}
        async for raw in self.redis.scan_iter(match=self.version_key + "*", count=1000):
            node = _text(raw).removeprefix(self.version_key)
            if node != self.node:
                found[node] = ""
        if found:
            nodes = list(found)
            versions = await self.redis.mget([self.version_key + n for n in nodes])
            for node, value in zip(nodes, versions, strict=True):
                found[node] = _text(value or "")
        for node in set(self._theirs) - set(found):
            self._drop(node)
        for node, version in found.items():
            if self._versions.get(node) != version:
                tables = await self.redis.hgetall(self.tables_key + node)
                self._drop(node)
                self._keep(node, tables)
                self._versions[node] = version

    def _drop(self, node: str) -> None:
        for code in self._theirs.pop(node, set()):
            if self._node_of.get(code) == node:  # not listed by another node since
                del self._node_of[code]
                self.others.remove(code)
        self._versions.pop(node, None)

    def _keep(self, node: str, tables: Mapping[bytes | str, bytes | str]) -> None:
        codes = set()
        for raw_code, raw in tables.items():
            code = _text(raw_code)
            if self.get(code) is not None:  # moved here since that node last wrote
                continue
            data = json.loads(raw)
            variant, lang, free = data["kind"]
            entry = Entry(
                id=code,
                created_at=datetime.fromisoformat(data["created_at"]),
                client=data["client"],
                kind=(variant, lang, bool(free)),
                bots_only=bool(data["bots_only"]),
                item=data["info"],
            )
            self.others.put(entry)
            self._node_of[code] = node
            codes.add(code)
        self._theirs[node] = codes


def _described(entry: Entry) -> str:
    """An entry of this node as the other nodes read it."""
    return json.dumps(
        {
            "info": table_info(entry.item),
            "created_at": entry.created_at.isoformat(),
            "kind": list(entry.kind),
            "client": entry.client,
            "bots_only": entry.bots_only,
        },
        separators=(",", ":"),
    )


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
