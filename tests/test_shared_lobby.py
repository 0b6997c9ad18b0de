"""The lobby of a site of several processes, shared in Redis (remikit/server/cluster/
lobby.py): each node's tables reach every other node's lobby, pages and per-client counts;
a table that leaves one leaves all; what Redis lost is written again.

These use the Redis server of ``make test`` (.ci/with-redis.sh), each under a site name
of its own; they skip without one, except in CI.
"""

from __future__ import annotations

import asyncio
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from redis.asyncio import Redis

from remikit.server.cluster import lobby as shared
from remikit.server.cluster.lobby import SharedLobby
from remikit.server.tables.lobby import Entry
from tests.cluster import needs_redis, redis_url

pytestmark = [needs_redis]
START = datetime(2026, 12, 3, tzinfo=UTC)


def entry(code: str, minute: int, client: str, *, free: bool = True) -> Entry:
    return Entry(code, START + timedelta(minutes=minute), client, ("gin", "en", free), False, code)


def ids(node: SharedLobby, **page: Any) -> list[str]:
    """A page's tables: this node's own as themselves (here their codes), the others' as
    their nodes showed them."""
    items = node.page(limit=page.pop("limit", 10), offset=page.pop("offset", 0), **page)[1]
    return [item if isinstance(item, str) else item["id"] for item in items]


def test_every_node_shows_every_nodes_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared, "table_info", lambda code: {"id": code})
    site = secrets.token_hex(4)

    async def run() -> None:
        a = SharedLobby(Redis.from_url(redis_url()), site, "a", ttl=30)
        b = SharedLobby(Redis.from_url(redis_url()), site, "b", ttl=30)
        try:
            a.put(entry("AAAAAAA1", 1, "ana"))
            a.put(entry("AAAAAAA2", 3, "ana", free=False))
            b.put(entry("BBBBBBB1", 2, "ana"))
            for node in (a, b, a):
                await node.sync()
            for node in (a, b):  # newest first, both nodes' tables, filtered alike
                assert ids(node) == ["AAAAAAA2", "BBBBBBB1", "AAAAAAA1"]
                assert ids(node, limit=1, offset=1) == ["BBBBBBB1"]
                assert node.page(limit=10, offset=0, free=True)[0] == 2
                assert len(node) == 3 and node.client_tables("ana") == 3
            a.remove("AAAAAAA1")
            await a.sync()
            await b.sync()
            assert ids(b) == ["AAAAAAA2", "BBBBBBB1"]
            # Redis lost a's share (a restart): a writes it all again, b reads it back
            await a.redis.delete(a.tables_key + "a", a.version_key + "a")
            await b.sync()
            assert b.client_tables("ana") == 1  # only its own left
            await a.sync()
            await b.sync()
            assert b.client_tables("ana") == 2 and len(b) == 2
        finally:
            for node in (a, b):
                await node.redis.delete(node.tables_key + node.node, node.version_key + node.node)
                await node.close()

    asyncio.run(run())
