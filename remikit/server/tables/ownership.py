"""Whether this process may hold a table: always, for a server alone; on a site of
several processes, only while it owns the table (remikit.server.cluster)."""

from __future__ import annotations

from typing import Any, Protocol

from remikit.server.problems import Problem


def table_moved(table_id: str) -> Problem:
    """Another process of the site holds the table now: 503, to be tried again (the
    request, or the socket, then reaches the owner)."""
    return Problem(
        "table_moved",
        "server.table_moved",
        status=503,
        headers={"Retry-After": "1"},
        table=table_id,
    )


class Ownership(Protocol):
    """The registry's question before it holds a table, and its news of what it made."""

    shared: bool
    """Several processes serve the site: each rebuilds only the tables it claims."""

    async def claim(self, table_id: str) -> bool:
        """Own an unfinished table (False: another live process owns it)."""
        ...

    def adopt(self, session: Any, table_id: str) -> None:
        """Own a table this process is making, in the transaction that stores it."""
        ...

    def forget(self, table_id: str) -> None:
        """A table left this process's memory."""
        ...


class Alone:
    """The ownership of a server that is the whole site: every table is its own."""

    shared = False

    async def claim(self, table_id: str) -> bool:
        return True

    def adopt(self, session: Any, table_id: str) -> None:
        pass

    def forget(self, table_id: str) -> None:
        pass
