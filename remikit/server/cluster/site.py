"""This process joining its site (``remi serve --redis URL``): the node's lease and
ownership, the fence of its writer, the shared lobby, in the order they start and stop."""

from __future__ import annotations

import secrets

from redis.asyncio import Redis

from remikit.server.cluster.lobby import SharedLobby
from remikit.server.cluster.node import Node
from remikit.server.settings import Settings
from remikit.server.tables.registry import Tables
from remikit.storage import server_key
from remikit.storage.owners import Owners


class Site:
    """One process's part in a site of several over PostgreSQL and Redis."""

    def __init__(self, tables: Tables, settings: Settings) -> None:
        if not settings.redis_url or not settings.node_url:
            raise ValueError("a site of several processes needs a Redis URL and a node URL")
        node_id = secrets.token_hex(8)
        owners = Owners(tables.store, node_id, settings.node_url, settings.lease)
        self.node = Node(tables, owners)
        self.lobby = SharedLobby(
            Redis.from_url(settings.redis_url, socket_timeout=2, socket_connect_timeout=2),
            server_key(tables.store, "site")[:16],
            node_id,
            ttl=settings.lease,
        )
        tables.ownership = self.node
        tables.writer.fence = self.node
        tables.lobby = self.lobby

    async def start(self) -> None:
        """Take the lease, share the lobby (the tables come as the node claims them)."""
        await self.node.start()
        self.lobby.start()

    async def stop(self) -> None:
        """Stop renewing the lease and claiming tables (before the tables close)."""
        await self.node.close()

    async def leave(self) -> None:
        """End the lease and the lobby's share (after the tables closed)."""
        await self.node.leave()
        await self.lobby.close()
