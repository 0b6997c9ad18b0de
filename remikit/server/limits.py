"""Per-client limits: how fast one client may create tables and take seats, and how
many open tables (and tables of bots only) it and the whole server may have.

A client is a network address (an IPv6 address by its /64 network, which one
subscriber usually holds whole), known only by a keyed hash of it. The key is
``Settings.client_secret`` when one is configured, else one drawn once and kept in the
database (:func:`~remikit.storage.server_key`), so that a restart still knows who made
each table it rebuilds. The rates are
token buckets on the server's clock: a client may do ``rate`` things at once, then
one more every ``60 / rate`` seconds.

>>> from remikit.server.clock import ManualClock
>>> clock = ManualClock()
>>> bucket = RateLimit(clock, rate=2, key="server.rate_create")
>>> bucket.wait("a"), bucket.wait("a"), bucket.wait("a"), bucket.wait("b")
(0.0, 0.0, 30.0, 0.0)
>>> clock.advance(30)
>>> bucket.wait("a")
0.0
>>> client_key("2001:db8::1", b"k") == client_key("2001:db8::ffff", b"k")
True
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
from dataclasses import dataclass

from remikit.i18n import N_
from remikit.server.clock import Clock
from remikit.server.problems import Problem
from remikit.server.settings import Settings
from remikit.server.tables.lobby import Lobby
from remikit.storage import Store, server_key

WINDOW = 60.0  # seconds: rates are per minute
MAX_BUCKETS = 10_000  # beyond this many clients, those idle long enough are forgotten


def client_key(host: str | None, secret: bytes) -> str | None:
    """A client's key: HMAC-SHA-256 of its address (of its /64 network for IPv6) under
    ``secret``, 32 hex digits; None when the address is not known."""
    if not host:
        return None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        who = host
    else:
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        if isinstance(address, ipaddress.IPv6Address):
            who = str(ipaddress.IPv6Network((address, 64), strict=False))
        else:
            who = str(address)
    return hmac.new(secret, who.encode(), hashlib.sha256).hexdigest()[:32]


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimit:
    """``rate`` actions of one kind a minute per client (0: no limit); ``key`` is the
    message that refuses one more."""

    def __init__(self, clock: Clock, *, rate: int, key: str) -> None:
        self.clock = clock
        self.rate = rate
        self.key = key
        self.buckets: dict[str, _Bucket] = {}
        self._tidy_at = MAX_BUCKETS

    def wait(self, client: str) -> float:
        """Take one action for ``client``: 0.0 when it may act now (its token is spent),
        else the seconds until it may (nothing is spent)."""
        if self.rate <= 0:
            return 0.0
        now = self.clock.now()
        per_second = self.rate / WINDOW
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) >= self._tidy_at:
                self._forget_full(now)
                self._tidy_at = max(MAX_BUCKETS, 2 * len(self.buckets))
            bucket = self.buckets[client] = _Bucket(float(self.rate), now)
        bucket.tokens = min(float(self.rate), bucket.tokens + (now - bucket.at) * per_second)
        bucket.at = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / per_second

    def check(self, client: str | None) -> None:
        """Spend one of ``client``'s actions, else raise the problem ``rate_limited``
        (429, with the whole seconds to wait in its ``Retry-After`` header)."""
        if client is None:
            return
        seconds = self.wait(client)
        if seconds > 0:
            whole = max(1, math.ceil(seconds - 1e-6))  # not 11 for 10.000000001
            raise Problem(
                "rate_limited",
                self.key,
                status=429,
                headers={"Retry-After": str(whole)},
                seconds=whole,
            )

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have filled up again: they hold nothing to remember."""
        per_second = self.rate / WINDOW
        full = float(self.rate)
        self.buckets = {
            k: b for k, b in self.buckets.items() if b.tokens + (now - b.at) * per_second < full
        }


def stored_secret(database_url: str | None) -> str:
    """The database's key of the hashes of clients' addresses (drawn the first time)."""
    store = Store(database_url)
    try:
        return server_key(store, "client")
    finally:
        store.close()


class Limits:
    """A server's limits (:class:`~remikit.server.settings.Settings`): the two rates and
    the most open tables, and tables of bots only, per client and on the server."""

    def __init__(self, settings: Settings, clock: Clock) -> None:
        self.settings = settings
        self.secret = (settings.client_secret or stored_secret(settings.database_url)).encode()
        self.create = RateLimit(clock, rate=settings.create_rate, key=N_("server.rate_create"))
        self.join = RateLimit(clock, rate=settings.join_rate, key=N_("server.rate_join"))

    def client(self, host: str | None) -> str | None:
        """The key that stands for the client at ``host`` (:func:`client_key`)."""
        return client_key(host, self.secret)

    def check_tables(self, lobby: Lobby, client: str | None, *, bots_only: bool) -> None:
        """Whether ``client`` may make one more table (of bots only, with ``bots_only``);
        else the problem ``client_tables`` or ``client_bot_tables`` (429) or
        ``too_many_bot_tables`` (503)."""
        settings = self.settings
        if bots_only and 0 < settings.max_bot_tables <= lobby.bot_tables():
            raise Problem(
                "too_many_bot_tables",
                "server.too_many_bot_tables",
                status=503,
                max=settings.max_bot_tables,
            )
        if client is None:
            return
        most = settings.max_client_tables
        if 0 < most <= lobby.client_tables(client):
            raise Problem("client_tables", "server.client_tables", status=429, max=most)
        most = settings.max_client_bot_tables
        if bots_only and 0 < most <= lobby.bot_tables(client):
            raise Problem("client_bot_tables", "server.client_bot_tables", status=429, max=most)
