"""The web table: FastAPI + WebSockets under uvicorn (``remi serve``).

* :mod:`remikit.server.app`: the HTTP API, the WebSocket endpoint, the pages;
* :mod:`remikit.server.tables.registry`: every table, created, joined and rebuilt;
* :mod:`remikit.server.tables.service`: one table in play (seats, sockets, bots, Rummy calls);
* :mod:`remikit.server.tables.lobby`: the lobby's index (pages, filters, counts per client);
* :mod:`remikit.server.tables.expiry`: tables that waited too long for their players close;
* :mod:`remikit.server.limits`: per-client rates and bounds on open tables;
* :mod:`remikit.server.serialize`: views as JSON;
* :mod:`remikit.storage.writer`: durable writes with group commit.

The protocol is documented in ``docs/protocol.md``.
"""

from __future__ import annotations

from remikit.server.settings import Settings

__all__ = ["Settings"]
