"""This machine's addresses on its networks: where friends reach a server that listens on
every interface (``remi serve --host 0.0.0.0`` or ``::``)."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable

import psutil

WILDCARDS = {"0.0.0.0": (socket.AF_INET,), "::": (socket.AF_INET, socket.AF_INET6)}
"""The families each wildcard host serves (on Linux ``::`` also takes IPv4), IPv4 first."""


def pick_hosts(
    bind_host: str, addresses: Iterable[tuple[socket.AddressFamily, str]]
) -> tuple[str, ...]:
    """Of the interfaces' ``(family, address)`` pairs, the addresses others can open a server
    bound to ``bind_host`` at: none unless it is a wildcard; never a loopback or link-local
    address (the latter needs a zone no link carries)."""
    families = WILDCARDS.get(bind_host, ())
    found: list[str] = []
    for family in families:
        for kind, address in addresses:
            if kind != family:
                continue
            try:
                ip = ipaddress.ip_address(address.split("%", 1)[0])
            except ValueError:
                continue
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified or str(ip) in found:
                continue
            found.append(str(ip))
    return tuple(found)


def lan_hosts(bind_host: str) -> tuple[str, ...]:
    """The network addresses of this machine's interfaces that are up (see :func:`pick_hosts`)."""
    if bind_host not in WILDCARDS:
        return ()
    up = {name for name, stats in psutil.net_if_stats().items() if stats.isup}
    addresses = [
        (a.family, a.address)
        for name, found in psutil.net_if_addrs().items()
        if name in up
        for a in found
    ]
    return pick_hosts(bind_host, addresses)
