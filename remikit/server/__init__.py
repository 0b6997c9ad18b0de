"""The web table: FastAPI + WebSockets under uvicorn (``remi serve``).

* :mod:`remikit.server.app`: the application, assembled from the routers of
  :mod:`remikit.server.http` (the HTTP API, the pages) and
  :mod:`remikit.server.transport.socket` (the WebSocket endpoint);
* :mod:`remikit.server.hosts`: the hosts the server answers to;
* :mod:`remikit.server.tables`: the table service: every table's state machine
  (:mod:`~remikit.server.tables.service`), the registry that makes, joins and rebuilds
  them, the lobby's index and the expiry of waiting tables;
* :mod:`remikit.server.transport`: the sockets, each seat's state sent once per change;
* :mod:`remikit.server.bots`: the bot driver and the worker processes that think;
* :mod:`remikit.server.limits`: per-client rates and bounds on open tables;
* :mod:`remikit.server.serialize`: views as JSON;
* :mod:`remikit.storage.writer`: durable writes with group commit.

The protocol is documented in ``docs/protocol.md``.
"""

from __future__ import annotations

from remikit.server.settings import Settings

__all__ = ["Settings"]
