"""Running the app under uvicorn: print the address once players can come in, and
end with status 0 after a clean shutdown on SIGTERM or SIGINT."""

from __future__ import annotations

import contextlib
import gc
import signal
import socket
import sys
import threading
from collections.abc import Iterator

import uvicorn

from remikit.server.app import create_app
from remikit.server.settings import Settings


class Server(uvicorn.Server):
    """uvicorn's server; unlike it, does not re-raise the signal it stopped on."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        gc.freeze()  # the rebuilt tables are long-lived: keep them out of every collection
        if self.started:
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            shown = f"[{host}]" if ":" in host else host
            print(f"remikit: open http://{shown}:{port}/", flush=True)

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


def serve(settings: Settings, *, host: str, port: int, log_level: str = "warning") -> int:
    """Serve until a signal; the exit status (1 when the server could not start)."""
    # The event loop shares the GIL with the writer and bot threads: hand it over sooner
    # than the default 5 ms so a busy thread delays nobody's action for long.
    sys.setswitchinterval(0.001)
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # CPU per message outweighs bytes
        timeout_graceful_shutdown=5,
        lifespan="on",
    )
    server = Server(config)
    server.run()
    return 0 if server.started else 1
