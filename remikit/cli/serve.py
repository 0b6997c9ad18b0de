"""``remi serve [--host 127.0.0.1] [--port 8000]``: the web table under uvicorn.

``--host 0.0.0.0`` (or ``::``) serves the machine's networks; ``--public-url URL`` (else
``REMI_PUBLIC_URL``) is the address shared links start with, ``--root-path /PREFIX`` the
path a reverse proxy serves it under, ``--forwarded-allow-ips`` the proxies trusted
with ``X-Forwarded-For`` and ``X-Forwarded-Proto``, ``--allowed-host HOST`` (repeated;
else ``REMI_ALLOWED_HOSTS``) a host name requests may name besides this computer's, the
public URL's and ``--host``'s (remikit/server/hosts.py).

The database is ``--database``, else ``REMI_DATABASE_URL``, else the SQLite
file of :mod:`remikit.storage`, made or upgraded to the newest schema first (a
database a newer remikit has upgraded past what this one knows is refused: exit
status 1 and a message). Once every unfinished table is rebuilt and the
port is open the server prints ``remikit: open http://HOST:PORT/`` (then the network
addresses and the public URL, one a line); it ends cleanly (exit status 0, every stored
action kept) on SIGTERM and SIGINT.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
import sys
from typing import Any
from urllib.parse import urlsplit

from remikit.i18n import N_, default_lang, t
from remikit.server.settings import Settings, env_hosts

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
LIMITS = (
    ("max_open_tables", N_("serve.help_max_open_tables")),
    ("create_rate", N_("serve.help_create_rate")),
    ("join_rate", N_("serve.help_join_rate")),
    ("max_client_tables", N_("serve.help_max_client_tables")),
    ("max_client_bot_tables", N_("serve.help_max_client_bot_tables")),
    ("max_bot_tables", N_("serve.help_max_bot_tables")),
    ("max_seat_sockets", N_("serve.help_max_seat_sockets")),
    ("max_client_sockets", N_("serve.help_max_client_sockets")),
    ("advice_rate", N_("serve.help_advice_rate")),
)
"""The whole-number limits of :class:`Settings` ``remi serve`` takes as options."""


def add_parser(subparsers: Any) -> None:
    lang = default_lang()
    defaults = Settings()
    p = subparsers.add_parser("serve", help=t("serve.help", lang))
    p.add_argument("--host", default=DEFAULT_HOST, help=t("serve.help_host", lang))
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=t("serve.help_port", lang))
    p.add_argument("--database", metavar="URL", default=None, help=t("serve.help_database", lang))
    p.add_argument(
        "--bot-delay",
        type=float,
        default=defaults.bot_delay,
        metavar="SECONDS",
        help=t("serve.help_bot_delay", lang, default=defaults.bot_delay),
    )
    p.add_argument(
        "--call-window",
        type=float,
        default=defaults.call_window,
        metavar="SECONDS",
        help=t("serve.help_call_window", lang, default=defaults.call_window),
    )
    p.add_argument(
        "--review-budget",
        type=float,
        default=defaults.review_budget,
        metavar="SECONDS",
        help=t("serve.help_review_budget", lang, default=defaults.review_budget),
    )
    p.add_argument(
        "--public-url",
        metavar="URL",
        default=os.environ.get("REMI_PUBLIC_URL") or None,
        help=t("serve.help_public_url", lang),
    )
    p.add_argument(
        "--allowed-host",
        metavar="HOST",
        action="append",
        default=None,
        help=t("serve.help_allowed_host", lang),
    )
    p.add_argument("--root-path", metavar="PATH", default="", help=t("serve.help_root_path", lang))
    p.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        default=None,
        help=t("serve.help_forwarded_allow_ips", lang),
    )
    p.add_argument(
        "--waiting-expiry",
        type=float,
        default=defaults.waiting_expiry,
        metavar="SECONDS",
        help=t("serve.help_waiting_expiry", lang, default=defaults.waiting_expiry),
    )
    p.add_argument(
        "--login-expiry",
        type=float,
        default=defaults.login_expiry,
        metavar="SECONDS",
        help=t("serve.help_login_expiry", lang, default=defaults.login_expiry),
    )
    p.add_argument(
        "--abandon-after",
        type=float,
        default=defaults.abandon_after,
        metavar="SECONDS",
        help=t("serve.help_abandon_after", lang, default=defaults.abandon_after),
    )
    for name, key in LIMITS:
        p.add_argument(
            f"--{name.replace('_', '-')}",
            type=int,
            default=getattr(defaults, name),
            metavar="N",
            help=t(key, lang, default=getattr(defaults, name)),
        )
    p.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        metavar="N",
        help=t("serve.help_bot_workers", lang),
    )
    p.add_argument(
        "--redis",
        metavar="URL",
        default=os.environ.get("REMI_REDIS_URL") or None,
        help=t("serve.help_redis", lang),
    )
    p.add_argument(
        "--node-url",
        metavar="URL",
        default=os.environ.get("REMI_NODE_URL") or None,
        help=t("serve.help_node_url", lang),
    )
    p.add_argument(
        "--lease",
        type=float,
        default=defaults.lease,
        metavar="SECONDS",
        help=t("serve.help_lease", lang, default=defaults.lease),
    )
    p.add_argument("--bot-threads", type=int, default=defaults.bot_threads, help=argparse.SUPPRESS)
    # tests: time stands still until POST /api/clock moves it (docs/protocol.md)
    p.add_argument("--manual-clock", action="store_true", help=argparse.SUPPRESS)
    p.add_argument(
        "--log-level",
        default="warning",
        choices=("critical", "error", "warning", "info", "debug"),
        help=argparse.SUPPRESS,
    )
    p.set_defaults(func=run)


def site_problem(node_url: str | None, one_file: bool) -> str | None:
    """Why this process cannot join a site of several (``--redis``), if it cannot: the
    message id to print."""
    if node_url is None:
        return N_("serve.needs_node_url")
    if one_file:
        return N_("serve.site_needs_postgres")
    try:
        import httpx  # noqa: F401
        import redis  # noqa: F401
    except ModuleNotFoundError:
        return N_("serve.needs_scale")
    return None


def public_url(text: str) -> str:
    """An ``http(s)://host[:port][/path]`` URL without its trailing slash, else ValueError."""
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.port == 0:
        raise ValueError(text)  # reading .port raises ValueError too, for one not a number
    if parts.query or parts.fragment or parts.username is not None:
        raise ValueError(text)
    return parts.geturl().rstrip("/")


HOST_NAME = re.compile(r"[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?")


def allowed_host(text: str) -> str:
    """A host name, an IP address (an IPv6 one with or without brackets), ``*.DOMAIN`` or
    ``*``, in lower case; else ValueError (a port, a path or a misplaced ``*``)."""
    host = text.strip().lower()
    if host == "*":
        return host
    try:
        ipaddress.ip_address(host.removeprefix("[").removesuffix("]"))
    except ValueError:
        if not HOST_NAME.fullmatch(host.removeprefix("*.")):
            raise
    return host


def root_path(text: str) -> str:
    """``/prefix`` without its trailing slash (``""`` for none), else ValueError."""
    path = text.strip().rstrip("/")
    if path and (not path.startswith("/") or "?" in path or "#" in path or "//" in path):
        raise ValueError(text)
    return path


def run(args: argparse.Namespace) -> int:
    lang = default_lang()
    try:
        public = public_url(args.public_url) if args.public_url else None
    except ValueError:
        print(t("serve.bad_public_url", lang, url=args.public_url), file=sys.stderr)
        return 2
    try:
        prefix = root_path(args.root_path)
    except ValueError:
        print(t("serve.bad_root_path", lang, path=args.root_path), file=sys.stderr)
        return 2
    hosts = []
    for given in args.allowed_host or env_hosts():
        try:
            hosts.append(allowed_host(given))
        except ValueError:
            print(t("serve.bad_allowed_host", lang, host=given), file=sys.stderr)
            return 2
    try:
        from sqlalchemy.exc import SQLAlchemyError

        from remikit.server.hosts import host_form
        from remikit.server.lan import WILDCARDS, lan_hosts
        from remikit.server.runner import serve
        from remikit.storage import NewerDatabase, Store
    except ModuleNotFoundError as exc:  # installed without the web extra
        print(t("serve.needs_web", default_lang(), module=exc.name), file=sys.stderr)
        return 1

    try:  # a clear message, rather than a server that fails at start-up
        store = Store(args.database)  # made, or upgraded to the newest schema
        one_file = store.is_sqlite
        store.close()
    except NewerDatabase as exc:
        print(
            t("serve.newer_database", default_lang(), revision=exc.revision, head=exc.head),
            file=sys.stderr,
        )
        return 1
    except (SQLAlchemyError, OSError, ValueError) as exc:
        print(t("serve.bad_database", default_lang(), why=exc), file=sys.stderr)
        return 1
    node_url: str | None = None
    if args.redis:
        node_url = args.node_url or (
            None if args.host in WILDCARDS else f"http://{host_form(args.host)}:{args.port}"
        )
        problem = site_problem(node_url, one_file)
        if problem or node_url is None:
            print(t(problem or "serve.needs_node_url", lang), file=sys.stderr)
            return 2
        hosts.append(str(urlsplit(node_url).hostname or ""))
    settings = Settings(
        database_url=args.database,
        redis_url=args.redis,
        node_url=node_url,
        lease=max(1.0, args.lease),
        bot_delay=max(0.0, args.bot_delay),
        call_window=max(0.0, args.call_window),
        review_budget=min(max(0.001, args.review_budget), Settings.max_bot_budget),
        bot_threads=max(1, args.bot_threads),
        bot_workers=None if args.bot_workers is None else max(0, args.bot_workers),
        public_url=public,
        lan_hosts=lan_hosts(args.host),
        allowed_hosts=(*hosts, *(() if args.host in WILDCARDS else (args.host,))),
        manual_clock=args.manual_clock,
        waiting_expiry=max(0.0, args.waiting_expiry),
        login_expiry=max(60.0, args.login_expiry),
        abandon_after=max(0.0, args.abandon_after),
        **{name: max(0, getattr(args, name)) for name, _ in LIMITS},
    )
    return serve(
        settings,
        host=args.host,
        port=args.port,
        root_path=prefix,
        forwarded_allow_ips=args.forwarded_allow_ips,
        log_level=args.log_level,
    )
