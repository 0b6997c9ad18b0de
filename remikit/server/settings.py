"""How a server runs (no heavy imports: ``remi --help`` reads the defaults)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """``remi serve`` sets these from its options; tests set them directly."""

    database_url: str | None = None  # None: remikit.storage.default_database_url()
    bot_delay: float = 0.8  # seconds a bot's move takes at least, so people can follow
    call_window: float = 3.0  # seconds Rummy may be called after each discard
    bot_threads: int = 4
    send_queue_limit: int = 256  # messages a socket may fall behind before it is closed
    hello_timeout: float = 30.0
    max_open_tables: int = 10_000
    max_spectators: int = 100  # sockets watching one table
    max_bot_budget: float = 3.0  # seconds a bot at a web table may think per decision
    body_limit: int = 64 * 1024  # bytes of an HTTP request body
    body_timeout: float = 10.0  # seconds an HTTP request body may take to arrive
    manual_clock: bool = False  # tests: timers wait until POST /api/clock moves time on
    # Where people reach the server (remikit/server/share.py).
    public_url: str | None = None  # base of shared links, e.g. "https://example.org/remi"
    lan_hosts: tuple[str, ...] = ()  # this machine's network addresses, when it listens on all
