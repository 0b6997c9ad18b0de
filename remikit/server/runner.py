"""Running the app under uvicorn: print the address once players can come in (then the
addresses friends on the network open, and the public URL), and end with status 0 after a
clean shutdown on SIGTERM or SIGINT.

Slow or greedy clients: a connection is closed when its request headers take
over :data:`HEADER_TIMEOUT` seconds to come or pass :data:`HEADER_LIMIT` bytes
(:class:`TimedHttp`), or when it stays idle :data:`KEEP_ALIVE` seconds after a
response; a request body is read within the app's limits
(:mod:`remikit.server.guard`); uvicorn closes a WebSocket (1009) on a message
over :data:`WS_MAX_SIZE` bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import signal
import socket
import sys
import threading
from collections.abc import Iterator

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from remikit.i18n import default_lang, t
from remikit.server import redact
from remikit.server.app import create_app
from remikit.server.settings import Settings
from remikit.server.share import netloc

LOOPBACK_OF_WILDCARD = {"0.0.0.0": "127.0.0.1", "::": "::1"}

KEEP_ALIVE = 5
HEADER_TIMEOUT = 10.0
HEADER_LIMIT = 16 * 1024
WS_MAX_SIZE = 64 * 1024


class TimedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing a connection whose request headers have not all
    come :data:`HEADER_TIMEOUT` seconds after it opened or after its last response, or
    pass :data:`HEADER_LIMIT` bytes (uvicorn itself waits for ever on a client that
    sends a header a byte at a time, and reads headers of any size)."""

    header_timeout = HEADER_TIMEOUT
    _headers_due: asyncio.TimerHandle | None = None
    _header_bytes = 0

    def data_received(self, data: bytes) -> None:
        if self._headers_due is not None:  # still reading a request's headers
            self._header_bytes += len(data)
            if self._header_bytes > HEADER_LIMIT:
                self._too_slow()
                return
        super().data_received(data)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.timeout_keep_alive_task is not None:  # idle: no request under way
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_bytes = 0
        self._headers_due = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None

    def _too_slow(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.close()


def settle_collector() -> None:
    """The garbage collector of a started server: what lives now (the rebuilt tables)
    stays out of every collection, and young objects are collected less often, since a
    busy server makes many short-lived ones a move and each collection walks megabytes
    (docs/performance.md)."""
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


class Server(uvicorn.Server):
    """uvicorn's server; unlike it, does not re-raise the signal it stopped on."""

    def __init__(self, config: uvicorn.Config, settings: Settings) -> None:
        super().__init__(config)
        self.settings = settings

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        settle_collector()
        if self.started:
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            print(self.banner(host, port), flush=True)

    def banner(self, host: str, port: int) -> str:
        """The first line ``remikit: open http://HOST:PORT/`` (on a wildcard host, this
        computer's loopback address), then where others come in."""
        lang = default_lang()
        home = LOOPBACK_OF_WILDCARD.get(host, host)
        lines = [f"remikit: open http://{netloc(home, port)}/"]
        for lan in self.settings.lan_hosts:
            lines.append(t("serve.lan_url", lang, url=f"http://{netloc(lan, port)}/"))
        if self.settings.public_url:
            lines.append(t("serve.public_url", lang, url=f"{self.settings.public_url}/"))
        if self.settings.node_url:
            lines.append(t("serve.node_url", lang, url=self.settings.node_url))
        return "\n".join(lines)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        handled = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def serve(
    settings: Settings,
    *,
    host: str,
    port: int,
    root_path: str = "",
    forwarded_allow_ips: str | None = None,
    log_level: str = "warning",
) -> int:
    """Serve until a signal; the exit status (1 when the server could not start).
    ``root_path`` is the prefix a reverse proxy serves the app under; ``forwarded_allow_ips``
    the proxies whose ``X-Forwarded-For``/``-Proto`` are believed (uvicorn's default: the
    ``FORWARDED_ALLOW_IPS`` environment variable, else 127.0.0.1)."""
    # The event loop shares the GIL with the writer and bot threads: hand it over sooner
    # than the default 5 ms so a busy thread delays nobody's action for long.
    sys.setswitchinterval(0.001)
    redact.install()
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        root_path=root_path,
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
        log_level=log_level,
        access_log=False,
        http=TimedHttp,
        timeout_keep_alive=KEEP_ALIVE,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,  # CPU per message outweighs bytes
        timeout_graceful_shutdown=5,
        lifespan="on",
    )
    server = Server(config, settings)
    server.run()
    return 0 if server.started else 1
