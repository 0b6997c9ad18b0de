"""The host names the server answers to (docs/protocol.md §9): a request or a socket whose
``Host`` names another is refused before anything reads it, so a page of another site
whose name was made to point at this computer (DNS rebinding) reaches nothing.

Trusted are this computer's loopback names, the public URL's host, the machine's network
addresses when it listens on every interface (:attr:`Settings.lan_hosts`) and the hosts
the operator adds (:attr:`Settings.allowed_hosts`: ``remi serve --allowed-host``, which
adds ``--host`` too); ``*.example.org`` names every host under example.org and ``*``
any host at all. Starlette's :class:`TrustedHostMiddleware` checks them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from remikit.server.guard import scope_lang
from remikit.server.problems import Problem
from remikit.server.settings import Settings

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
_TRUSTED = "remikit.trusted_host"
"""Set in the scope of a request :class:`TrustedHostMiddleware` let through."""


def host_form(host: str) -> str:
    """A host as the ``Host`` header names it: lower case, an IPv6 address in brackets."""
    bare = host.strip().lower().strip("[]")
    return f"[{bare}]" if ":" in bare else bare


def trusted_hosts(settings: Settings) -> tuple[str, ...]:
    """The hosts (and ``*`` patterns) requests may name, in their ``Host`` form."""
    named: list[str] = [*LOOPBACK_HOSTS, *settings.lan_hosts, *settings.allowed_hosts]
    if settings.public_url:
        named.append(urlsplit(settings.public_url).hostname or "")
    return tuple(dict.fromkeys(host_form(host) for host in named if host.strip()))


def host_trusted(host: str, patterns: Iterable[str]) -> bool:
    """Whether ``host`` is one of ``patterns``, as :class:`TrustedHostMiddleware` matches."""
    host = host_form(host)
    return any(
        pattern == "*"
        or host == pattern
        or (pattern.startswith("*.") and host.endswith(pattern[1:]))
        for pattern in patterns
    )


class HostGuard:
    """:class:`TrustedHostMiddleware` over ``hosts``, for requests and sockets alike, whose
    refusal is the documented one: 400 ``bad_host`` (a socket: before it is accepted)."""

    def __init__(self, app: ASGIApp, *, hosts: Sequence[str]) -> None:
        self.app = app
        self.check = TrustedHostMiddleware(_let_through, allowed_hosts=hosts, www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            await self.check(scope, receive, _dropped)  # its own answer is dropped
            if not scope.pop(_TRUSTED, False):
                problem = Problem("bad_host", "server.bad_host")
                refusal = JSONResponse({"error": problem.json(scope_lang(scope))}, status_code=400)
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _let_through(scope: Scope, receive: Receive, send: Send) -> None:
    scope[_TRUSTED] = True


async def _dropped(message: Message) -> None:
    """Starlette's own plain-text refusal, not sent: :class:`HostGuard` answers instead."""
