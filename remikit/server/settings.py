"""How a server runs (no heavy imports: ``remi --help`` reads the defaults)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

ALLOWED_HOSTS_ENV = "REMI_ALLOWED_HOSTS"


def env_hosts() -> tuple[str, ...]:
    """The hosts of ``REMI_ALLOWED_HOSTS``, separated by commas or spaces."""
    return tuple(os.environ.get(ALLOWED_HOSTS_ENV, "").replace(",", " ").split())


@dataclass(frozen=True)
class Settings:
    """``remi serve`` sets these from its options; tests set them directly.

    The limits (docs/protocol.md §3.11) are per client: one network address (an IPv6
    address by its /64 network), as ``request.client.host`` gives it. A rate of 0 and
    a maximum of 0 mean no limit."""

    database_url: str | None = None  # None: remikit.storage.default_database_url()
    bot_delay: float = 0.8  # seconds a bot's move takes at least, so people can follow
    call_window: float = 3.0  # seconds Rummy may be called after each discard
    bot_threads: int = 4  # threads that think for bots when no worker process does
    bot_workers: int | None = 0
    """Worker processes that think for bots (None: one per core, as ``remi serve`` runs;
    0: none, the server's threads think)."""
    send_queue_limit: int = 256  # messages a socket may fall behind before it is closed
    hello_timeout: float = 30.0
    max_open_tables: int = 10_000
    max_spectators: int = 100  # sockets watching one table
    max_seat_sockets: int = 4  # sockets of one seat token (a new one replaces the oldest)
    max_client_sockets: int = 64  # sockets open from one client
    advice_rate: int = 30  # on-demand advice answers one seat may ask for a minute
    max_bot_budget: float = 3.0  # seconds a bot at a web table may think per decision
    waiting_expiry: float = 3600.0  # seconds a table waits for its players (0: for ever)
    login_expiry: float = 86_400.0  # seconds a competition's login lasts (its login_hours rule)
    abandon_after: float = 86_400.0
    """Seconds a table without a turn time waits for its player to move before it ends as
    abandoned (0: for ever)."""
    create_rate: int = 20  # tables one client may create per minute
    join_rate: int = 60  # seats one client may take per minute
    max_client_tables: int = 50  # open (waiting or playing) tables one client has made
    max_client_bot_tables: int = 3  # open tables of bots only one client has made
    max_bot_tables: int = 100  # open tables of bots only on the server
    client_secret: str | None = None
    """The key of the hash that stands for a client's address (tables.client); None: a
    key drawn once and kept in the database (server_keys), so a restart still knows who
    made which table."""
    body_limit: int = 64 * 1024  # bytes of an HTTP request body
    upload_limit: int = 16 * 1024 * 1024  # bytes of a body sent to a path ending in /import
    body_timeout: float = 10.0  # seconds an HTTP request body may take to arrive
    review_budget: float = 0.3  # seconds of search per decision of a game review
    reviews_kept: int = 100  # finished game reviews kept in memory (the oldest dropped)
    reviews_waiting: int = 20  # game reviews under way or waiting their turn, at most
    reviews_per_client: int = 2  # of those, asked by one client (docs/protocol.md §3.12)
    reviews_per_table: int = 2  # of those, of the seats of one game
    manual_clock: bool = False  # tests: timers wait until POST /api/clock moves time on
    # Profiles and ratings (docs/ratings.md).
    stand_in_share: float = 0.5  # a game whose stand-in played more of one's turns: not one's
    provisional_games: int = 5  # rated games before a rating is ranked
    # Where people reach the server (remikit/server/share.py).
    public_url: str | None = None  # base of shared links, e.g. "https://example.org/remi"
    lan_hosts: tuple[str, ...] = ()  # this machine's network addresses, when it listens on all
    # A site of several processes (docs/deploy.md): all on one PostgreSQL database.
    redis_url: str | None = None  # the site's Redis: None, this process is the whole site
    node_url: str | None = None  # where the site's other processes reach this one
    lease: float = 5.0  # seconds a process owns its tables without renewing its lease
    allowed_hosts: tuple[str, ...] = field(default_factory=env_hosts)
    """Host names requests may name besides this computer's loopback, the public URL's and
    :attr:`lan_hosts` (remikit/server/hosts.py): ``remi serve --host`` and ``--allowed-host``."""
