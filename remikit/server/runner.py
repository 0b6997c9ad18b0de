"""Running the app under uvicorn: print the address once players can come in (then the
addresses friends on the network open, and the public URL), and end with status 0 after a
clean shutdown on SIGTERM or SIGINT."""

from __future__ import annotations

import contextlib
import gc
import signal
import socket
import sys
import threading
from collections.abc import Iterator

import uvicorn

from remikit.i18n import default_lang, t
from remikit.server.app import create_app
from remikit.server.settings import Settings
from remikit.server.share import netloc

LOOPBACK_OF_WILDCARD = {"0.0.0.0": "127.0.0.1", "::": "::1"}


class Server(uvicorn.Server):
    """uvicorn's server; unlike it, does not re-raise the signal it stopped on."""

    def __init__(self, config: uvicorn.Config, settings: Settings) -> None:
        super().__init__(config)
        self.settings = settings

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        gc.freeze()  # the rebuilt tables are long-lived: keep them out of every collection
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
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        root_path=root_path,
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
        log_level=log_level,
        access_log=False,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # CPU per message outweighs bytes
        timeout_graceful_shutdown=5,
        lifespan="on",
    )
    server = Server(config, settings)
    server.run()
    return 0 if server.started else 1
