"""A competition's online tables on the server's tables: each is one of its web tables
(Remi 13 D, the competition's games, no hints), kept open for its players however long
the round takes, and its games, as each ends, become the table's confirmed entries.

With duplicate deals (docs/fairness.md §11) every online table of a round is made with
the round's secret as its seed, so they all deal the same decks; their deals' secrets,
records and replays are held back until the round's last online table has played.

This is the one module that uses the server's tables: :class:`TableHub` names all a
competition asks of them.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from remikit.competition import competition_variant
from remikit.fairness import SECRET_BYTES, round_commitment
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
from remikit.storage.competition import (
    CompetitionRow,
    CompTableRow,
    Snapshot,
    online_tables,
    unconfirmed_web_tables,
)
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
    held: set[str]
    """The tables whose deals' secrets, record and replay are held back."""

    async def create(
        self,
        *,
        variant: str,
        options: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]] | None,
        title: str | None,
        settings: Mapping[str, Any] | None,
        lang: str | None,
        seed: str | None = None,
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
        self,
        *,
        title: str,
        games: int,
        bot_level: str,
        players: Sequence[str | None],
        seed: str | None = None,
    ) -> str:
        """A web table for the players of positions A–D (None: a bot seat), seated in
        that order before its seat draw (R13-2); its code. ``seed``: a duplicate round's
        (:func:`remikit.fairness.round_seed`), whose table holds its secrets back."""
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
            seed=seed,
        )
        if seed is not None:
            self.hub.held.add(live.id)
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
        """Hold back the secrets of duplicate rounds not yet over; take the games of
        online tables that ended while the server was down."""
        duplicates: list[str] = await self.ledger.read(
            lambda s: list(s.scalars(select(CompetitionRow.id).where(CompetitionRow.duplicate)))
        )
        for competition_id in duplicates:
            snap = await self.ledger.snapshot(competition_id)
            for number, row in snap.rounds.items():
                if row.secret is not None and not duplicate_done(snap, number):
                    self.hub.held.update(web_codes(snap, number))
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
            if snap.rounds[number].secret is not None:
                after = await self.ledger.snapshot(competition_id)
                if duplicate_done(after, number):  # the round's secrets may be shown
                    self.hub.held.difference_update(web_codes(after, number))


def round_secret() -> bytes:
    """A new round's duplicate secret, from the system's CSPRNG."""
    return secrets.token_bytes(SECRET_BYTES)


def web_codes(snap: Snapshot, number: int) -> list[str]:
    """The web tables of round ``number``'s online tables."""
    return [t.web_table for (r, _), t in snap.tables.items() if r == number and t.web_table]


def duplicate_done(snap: Snapshot, number: int) -> bool:
    """Whether every online table of round ``number`` has its every game confirmed."""
    games = range(1, snap.competition.games + 1)
    return all(
        (entry := snap.entries.get((number, t, g))) is not None and entry.confirmed_by
        for (r, t), row in snap.tables.items()
        if r == number and row.kind == "online"
        for g in games
    )


def duplicate_json(snap: Snapshot, number: int) -> dict[str, Any] | None:
    """A duplicate round's ``{commitment, secret}`` (docs/fairness.md §11): the
    commitment from the start, the secret once its online tables have all played
    (else null); None for a round without duplicate deals."""
    secret = snap.rounds[number].secret
    if secret is None:
        return None
    shown = secret if duplicate_done(snap, number) else None
    return {"commitment": round_commitment(bytes.fromhex(secret)).hex(), "secret": shown}
