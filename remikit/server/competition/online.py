"""A competition's online tables on the server's tables: each is one of its web tables
(Remi 13 D, the competition's games, no hints), kept open for its players however long
the round takes, and its games, as each ends, become the table's confirmed entries.

This is the one module that uses the server's tables: :class:`TableHub` names all a
competition asks of them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from sqlalchemy.orm import Session

from remikit.competition import competition_variant
from remikit.server.clock import Clock
from remikit.server.competition.absences import give
from remikit.server.competition.auth import audit
from remikit.server.competition.entries import entry_state, new_entry
from remikit.server.competition.ledger import Ledger
from remikit.server.competition.views import game_players
from remikit.server.competition.web import web_games, web_seat_draw
from remikit.server.limits import Limits
from remikit.server.problems import Problem
from remikit.server.settings import Settings
from remikit.server.tables.build import build_game
from remikit.server.tables.build import new_table_code as new_table_code  # competition codes too
from remikit.server.tables.service import Table
from remikit.storage import Store, StoredTable
from remikit.storage.competition import CompTableRow, online_tables, unconfirmed_web_tables
from remikit.storage.store import now
from remikit.storage.writer import Writer

log = logging.getLogger("remikit.server")


class TableHub(Protocol):
    """The server's tables as a competition uses them
    (:class:`remikit.server.tables.registry.Tables`)."""

    settings: Settings
    store: Store
    writer: Writer
    clock: Clock
    limits: Limits
    tables: dict[str, Table]
    finish_hooks: list[Callable[[Table], None]]
    """Told of each table whose deal ends, the game's last included."""
    waiting_kept: list[Callable[[str], Awaitable[bool]]]
    """Asked before a table that waits too long closes: one any of them keeps stays."""

    async def create(
        self,
        *,
        variant: str,
        options: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]] | None,
        title: str | None,
        settings: Mapping[str, Any] | None,
        lang: str | None,
    ) -> Table: ...

    async def stored(self, table_id: str) -> StoredTable: ...


class OnlineTables:
    """Every competition's online tables: made for a round, kept waiting for their
    players, their games taken as each ends."""

    def __init__(self, ledger: Ledger, hub: TableHub) -> None:
        self.ledger = ledger
        self.hub = hub
        self.tasks: set[asyncio.Task[None]] = set()
        hub.waiting_kept.append(self.is_online_table)  # before the hub starts closing any

    async def is_online_table(self, code: str) -> bool:
        """Whether web table ``code`` is a competition's online table (it waits for its
        players however long the round takes)."""
        return bool(await self.ledger.read(lambda s: online_tables(s, code)))

    async def create(
        self, *, title: str, games: int, bot_level: str, players: Sequence[str | None]
    ) -> str:
        """A web table for the players of positions A–D (None: a bot seat), seated in
        that order before its seat draw (R13-2); its code."""
        seats = [
            {"kind": "person"} if player is not None else {"kind": "bot", "level": bot_level}
            for player in players
        ]
        live = await self.hub.create(
            variant=competition_variant().name,
            options={"games": games},
            seats=seats,
            title=title,
            settings={"hints": False},
            lang="id",
        )
        return live.id

    def live_seat_draw(self, row: CompTableRow) -> list[dict[str, Any]] | None:
        """The seat draw of an online table's web table while the server holds it open
        (None before the draw, or when it is not open)."""
        live = None if row.web_table is None else self.hub.tables.get(row.web_table)
        return None if live is None else web_seat_draw(live.seat_draw, row.seats)

    def watch(self) -> None:
        """Take the games of every online table as each of them ends."""
        self.hub.finish_hooks.append(self._finished)

    def _finished(self, table: Table) -> None:
        task = asyncio.get_running_loop().create_task(self.take_web_games(table.id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def start(self) -> None:
        """Take the games of online tables that ended while the server was down."""
        codes: list[str] = await self.ledger.read(unconfirmed_web_tables)
        for code in codes:
            await self.take_web_games(code)

    async def close(self) -> None:
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def take_web_games(self, code: str) -> None:
        """The finished games of a web table become its competition table's confirmed
        entries, by "web table CODE" (those confirmed already stay)."""
        rows: list[CompTableRow] = await self.ledger.read(lambda s: online_tables(s, code))
        if not rows:  # a table of no competition
            return
        try:
            stored = await self.hub.stored(code)
        except Problem:
            return
        for row in rows:
            try:
                await self._take(row.competition_id, row.round, row.number, stored)
            except Exception:
                log.exception("web table %s: its games could not enter the competition", code)

    async def _take(
        self, competition_id: str, number: int, table: int, stored: StoredTable
    ) -> None:
        async with self.ledger.lock(competition_id):
            snap = await self.ledger.snapshot(competition_id)
            row = snap.tables[(number, table)]
            seat_draw = web_seat_draw(stored.seat_draw, row.seats)
            if seat_draw is None:
                return
            row.seat_draw = seat_draw
            players = game_players(row)
            assert players is not None
            game = await asyncio.to_thread(build_game, stored)
            who = f"web table {stored.id}"
            entries = []
            for index, result in enumerate(web_games(game)[: snap.competition.games], start=1):
                old = snap.entries.get((number, table, index))
                if old is not None and old.confirmed_by:
                    continue
                entry = new_entry(snap, (number, table, index), result, players, {}, who, None)
                entry.kind, entry.confirmed_by, entry.confirmed_at = "cards", who, now()
                entries.append(entry)
            if not entries:
                return
            code = snap.competition.id

            def write(session: Session) -> None:
                stored_row = session.get(CompTableRow, (code, number, table))
                assert stored_row is not None
                stored_row.seat_draw = seat_draw
                for entry in entries:
                    session.add(entry)
                    session.flush()
                    target = f"round:{number}/table:{table}/game:{entry.game}"
                    session.add(audit(code, who, "entry.web", target, after=entry_state(entry)))

            await self.ledger.writer.run(write)
            await give(self.ledger, snap, who, entries)
