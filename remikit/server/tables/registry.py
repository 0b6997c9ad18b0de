"""The registry of live tables: every table of one server, made, joined and rebuilt.

Tables are created here (options checked, seats set, a seed drawn with :mod:`secrets`,
the first deal's deck shuffled and stored), joined here (:mod:`.joining`) and rebuilt here
on start-up from configuration + stored decks + actions, so a server killed at any moment
resumes every table exactly. Each table it holds is followed by the registry itself (the
lobby, competitions' hooks) and by its ``followers`` (the bot driver, the transport).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from remikit.actions import parse_action
from remikit.server.clock import Clock, LoopClock
from remikit.server.limits import Limits
from remikit.server.problems import Problem
from remikit.server.settings import Settings
from remikit.server.tables.build import (
    CODE_RE,
    build_game,
    new_table_code,
    normalize_code,
    playable_variant,
    table_options,
)
from remikit.server.tables.choices import check_stand_in, seats_chosen, settings_chosen
from remikit.server.tables.events import (
    DealEnded,
    Ended,
    Event,
    Finished,
    Idle,
    Listener,
    SeatsChanged,
)
from remikit.server.tables.expiry import Expiry, expired
from remikit.server.tables.fair_deals import FairDeal
from remikit.server.tables.joining import TITLE_MAX, Blocked, Joining
from remikit.server.tables.lobby import Lobby
from remikit.server.tables.ownership import Alone, Ownership, table_moved
from remikit.server.tables.seats import SeatConfig, seat_by_draw
from remikit.server.tables.service import STORAGE_RETRY, Table
from remikit.server.tables.table_settings import TableSettings
from remikit.storage import Store, StoredTable
from remikit.storage.store import now
from remikit.storage.writer import Writer
from remikit.variants import VariantSpec, find_playable

log = logging.getLogger("remikit.server")


class Tables(Joining):
    """Every live table of one server: made, joined, rebuilt from storage, followed."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None) -> None:
        self.settings = settings
        self.clock: Clock = clock or LoopClock()
        self.store = Store(settings.database_url)
        self.writer = Writer(self.store)
        self.tables: dict[str, Table] = {}
        self.followers: list[Listener] = []
        """Listeners every table gets as it comes into memory (the bot driver, the
        transport), in order."""
        self.rebuilds: set[asyncio.Task[None]] = set()  # and tables being stopped
        self.lobby = Lobby()
        self.expiry = Expiry(self, settings.waiting_expiry)
        self.limits = Limits(settings, self.clock)
        self.finish_hooks: list[Callable[[Table], None]] = []
        """Told of each table whose deal ends, the game's last included (a competition
        takes each game's result as it ends)."""
        self.waiting_kept: list[Callable[[str], Awaitable[bool]]] = []
        """Asked before a table that waits too long closes: one that any of them keeps
        (a competition's online table waits for its round) stays open."""
        self.held: set[str] = set()
        """The tables whose deals' secrets, record and replay are held back after they
        end (a duplicate round's online tables until the round's last one has played)."""
        self.blocked: list[Blocked] = []
        """Asked before a profile sits down with others (:meth:`Joining.join`)."""
        self.ownership: Ownership = Alone()
        """Which tables this process may hold (several processes: remikit.server.cluster)."""
        self.ready = False

    # -- start and stop -------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every unfinished table from the database and set it going again (on a
        site of several processes, each takes only the tables it claims: :meth:`get`)."""
        if self.ownership.shared:
            await self.expiry.start()
            self.ready = True
            return
        stored = await asyncio.to_thread(self.store.unfinished)
        for table in stored:
            try:
                live = self._live(table)
            except Exception:
                log.exception("table %s cannot be rebuilt; it is left out", table.id)
                continue
            self.tables[live.id] = live
            if live.game.over:  # the server stopped between the last action and the mark
                await live.finish()  # the profiles and competitions take the game now
            else:  # or between the action that ended a deal and the next deal's deck
                await self._deal_pending(live)
                self.lobby.add(live, table.client)
                self.expiry.watch(live)
        for live in self.tables.values():
            live.resume()
        await self.expiry.start()
        self.ready = True
        log.info("remikit: %d tables resumed", len(stored))

    async def _deal_pending(self, live: Table) -> None:
        async with live.lock:
            try:
                await live.deal_pending()
            except Problem:
                log.warning("table %s: its next deal could not be stored", live.id)

    async def close(self) -> None:
        self.ready = False
        for task in self.rebuilds:
            task.cancel()
        await self.expiry.stop()
        await asyncio.gather(*(t.stop() for t in self.tables.values()), return_exceptions=True)
        await asyncio.to_thread(self.writer.close)
        self.store.close()

    def _live(self, stored: StoredTable) -> Table:
        info = find_playable(stored.variant)
        game = build_game(stored)
        seats = [SeatConfig.from_stored(s) for s in stored.seats]
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seats for {game.players} players")
        table = Table(
            writer=self.writer,
            clock=self.clock,
            call_window=self.settings.call_window,
            abandon_after=self.settings.abandon_after,
            table_id=stored.id,
            variant=info,
            game=game,
            seed=stored.seed,
            seats=seats,
            title=stored.title,
            created_at=stored.created_at,
            actions=list(stored.actions),
            finished_at=stored.finished_at,
            seat_draw=stored.seat_draw,
            settings=TableSettings.from_mapping(stored.settings),
            lang=stored.lang,
            owner_hash=stored.owner_hash,
            creator=stored.client,
            rematch=stored.rematch,
            calls={seat: parse_action(text) for seat, text in stored.calls.items()},
            fair=[FairDeal.from_stored(f) for f in stored.fair],
            fixed_seed=stored.fixed_seed,
            abandoned=bool(stored.result and stored.result.get("abandoned")),
            held=self.held,
        )
        for listener in (self._follow, *self.followers):
            table.listen(listener)
        return table

    async def keeps_waiting(self, table_id: str) -> bool:
        for kept in self.waiting_kept:
            if await kept(table_id):
                return True
        return False

    def _follow(self, table: Table, event: Event) -> None:
        """What the registry does when a table tells something."""
        match event:
            case Idle():
                self.forget_unwatched(table)
            case Finished():
                self.lobby.remove(table.id)
                for hook in self.finish_hooks:
                    hook(table)
            case DealEnded():
                for hook in self.finish_hooks:
                    hook(table)
            case SeatsChanged():
                self.lobby.update(table)
            case Ended() if table.broken:
                self._broken(table)
            case Ended(problem=problem) if problem.code == "table_moved":
                self.let_go(table.id)
            case _:
                pass

    def forget_unwatched(self, table: Table) -> None:
        """A finished table nobody watches leaves memory (the database keeps it)."""
        if table.status == "finished" and not table.watched:
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
                self.ownership.forget(table.id)
            self.lobby.remove(table.id)

    def let_go(self, table_id: str) -> None:
        """A table another process owns now leaves this one: the people at it are told
        and their sockets closed (they come back through the owner)."""
        table = self.tables.pop(table_id, None)
        self.lobby.remove(table_id)
        self.ownership.forget(table_id)
        if table is None:
            return
        if not table.stopped:
            table.hand_over()
        stopping = asyncio.get_running_loop().create_task(table.stop())  # its timers, bots
        self.rebuilds.add(stopping)
        stopping.add_done_callback(self.rebuilds.discard)

    def _broken(self, table: Table) -> None:
        """A table whose engine failed leaves memory; the next use rebuilds it, or else it
        is rebuilt by itself a pause later (a table of bots has no next use; its deck may
        only have missed a database that was down)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.lobby.remove(table.id)
            self._rebuild_later(table.id)

    def _rebuild_later(self, code: str) -> None:
        if self.ready:
            task = asyncio.get_running_loop().create_task(self._rebuild(code))
            self.rebuilds.add(task)
            task.add_done_callback(self.rebuilds.discard)

    async def _rebuild(self, code: str) -> None:
        await self.clock.wait(asyncio.Event(), until=self.clock.now() + STORAGE_RETRY)
        if code in self.tables:  # opened again since
            return
        try:
            await self.get(code)
        except Problem as exc:  # broken again (and so rebuilt again later), or for good
            log.warning("table %s is not rebuilt: %s", code, exc)
        except Exception:
            log.warning("table %s is not rebuilt yet: its storage failed", code)
            self._rebuild_later(code)

    # -- tables -----------------------------------------------------------------------

    async def get(self, table_id: str, *, keep: bool = True) -> Table:
        """A live table, or a finished one loaded from the database (kept in memory only
        with ``keep``, for a socket); else the problem ``unknown_table``."""
        code = normalize_code(table_id)
        live = self.tables.get(code)
        if live is not None:
            return live
        stored = await self.stored(table_id)
        if stored.closed_at is not None and stored.finished_at is None:
            raise expired(stored.id)
        if keep and stored.finished_at is None and not await self.ownership.claim(code):
            raise table_moved(code)
        try:  # a long game takes a while to replay: off the event loop
            live = await asyncio.to_thread(self._live, stored)
        except Exception:
            log.exception("table %s cannot be rebuilt", code)
            raise Problem("broken_table", "server.broken_table", status=500, table=code) from None
        if not keep:
            return live
        kept = self.tables.setdefault(code, live)
        if kept is live and not live.game.over:
            await self._deal_pending(live)
            if live.broken:
                raise Problem("broken_table", "server.broken_table", status=500, table=code)
            self.lobby.add(live, stored.client)
            self.expiry.watch(live)
            live.resume()  # its bots play on
        return kept

    async def stored(self, table_id: str) -> StoredTable:
        code = normalize_code(table_id)
        stored = None
        if CODE_RE.match(code):
            stored = await asyncio.to_thread(self.store.load, code)
        if stored is None:
            raise Problem("unknown_table", "server.unknown_table", status=404, table=table_id)
        return stored

    async def create(
        self,
        *,
        variant: str,
        options: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]] | None,
        title: str | None,
        settings: Mapping[str, Any] | None = None,
        lang: str | None = None,
        owner_hash: str | None = None,
        client: str | None = None,
        seed: str | None = None,
    ) -> Table:
        """A new table (not yet joined by anyone); raises :class:`Problem` on bad input.

        ``settings`` are its :class:`TableSettings`, ``lang`` its creator's language,
        ``owner_hash`` the hash of the token that lets its creator manage it, ``client``
        who made it (a hash of their address). ``seed`` fixes the deals (tests); a real
        table draws it with :mod:`secrets`. Refused beyond the limits (:mod:`.limits`)."""
        self.limits.create.check(client)
        if 0 < self.settings.max_open_tables <= len(self.lobby):
            raise Problem("too_many_tables", "server.too_many_tables", status=503)
        info = playable_variant(variant)
        parsed = table_options(info, options)
        budget = self.settings.max_bot_budget
        table_settings = settings_chosen(info, settings or {}, budget)
        fixed_seed = seed is not None
        seed = str(secrets.randbits(256)) if seed is None else str(int(seed))
        players = parsed.players
        configs = seats_chosen(info, players, seats, budget)
        bots_only = all(c.kind == "bot" for c in configs)
        self.limits.check_tables(self.lobby, client, bots_only=bots_only)
        seat_draw = None
        if info.seating is not None and bots_only:
            configs, seat_draw = seat_by_draw(info, seed, configs)
        clean_title = " ".join((title or "").split())[:TITLE_MAX] or info.titles["en"]
        if not clean_title.isprintable():  # control characters, direction overrides
            raise Problem("bad_title", "server.bad_title", max=TITLE_MAX)
        code = new_table_code()
        while code in self.tables or await asyncio.to_thread(self.store.exists, code):
            code = new_table_code()
        stored = StoredTable(
            id=code,
            variant=info.name,
            options=parsed.as_dict(),
            seed=seed,
            seats=[c.stored() for c in configs],
            title=clean_title,
            created_at=now(),
            seat_draw=seat_draw,
            settings=table_settings.as_dict(),
            lang=lang,
            owner_hash=owner_hash,
            client=client,
            fixed_seed=fixed_seed,
        )
        first = FairDeal.draw(code, 1, players, seed if fixed_seed else None).stored()

        def write(session: Any) -> None:
            Store.add_table(session, stored)
            Store.add_fairness(session, code, first)
            self.ownership.adopt(session, code)

        await self.writer.run(write)
        live = self._live(replace(stored, fair=(first,)))
        self.tables[code] = live
        self.lobby.add(live, client)
        self.expiry.watch(live)
        await self._deal_pending(live)  # a table of bots only starts at once
        live.settle()
        return live

    def check_level(self, info: VariantSpec, level: str) -> None:
        """A bot level a table's creator may seat: as a stand-in's (``bad_setting``)."""
        check_stand_in(info, level, self.settings.max_bot_budget)
