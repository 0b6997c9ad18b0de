"""The web table: FastAPI + WebSockets under uvicorn (``remi serve``).

* :mod:`remikit.server.app`: the application, assembled from the routers of
  :mod:`remikit.server.http` (the HTTP API, the pages) and
  :mod:`remikit.server.transport.socket` (the WebSocket endpoint);
* :mod:`remikit.server.hosts`: the hosts the server answers to;
* :mod:`remikit.server.hub`: every table, created, joined and rebuilt;
* :mod:`remikit.server.live`: one table in play (seats, sockets, bots, Rummy calls);
* :mod:`remikit.server.lobby`: the lobby's index (pages, filters, counts per client);
* :mod:`remikit.server.expiry`: tables that waited too long for their players close;
* :mod:`remikit.server.limits`: per-client rates and bounds on open tables;
* :mod:`remikit.server.serialize`: views as JSON;
* :mod:`remikit.server.writer`: durable writes with group commit.

The protocol is documented in ``docs/protocol.md``.
"""

from __future__ import annotations

from remikit.server.settings import Settings

__all__ = ["Settings"]
