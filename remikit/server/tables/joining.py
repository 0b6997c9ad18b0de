"""Taking a seat at a live table, and a finished table's rematch."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from remikit.errors import IllegalAction
from remikit.i18n import N_
from remikit.server.problems import Problem
from remikit.server.tables.build import new_table_code
from remikit.server.tables.events import Changed
from remikit.server.tables.expiry import expired
from remikit.server.tables.fair_deals import FairDeal
from remikit.server.tables.seats import SeatConfig, hash_token, seat_by_draw
from remikit.storage import Store, StoredTable
from remikit.storage.store import now

if TYPE_CHECKING:
    from remikit.server.limits import Limits
    from remikit.server.tables.lobby import Lobby
    from remikit.server.tables.ownership import Ownership
    from remikit.server.tables.service import Table
    from remikit.storage.writer import Writer

log = logging.getLogger("remikit.server")

NAME_MAX = 24
TITLE_MAX = 60

Blocked = Callable[[Sequence[str], str], Awaitable[bool]]
"""Whether any of the profiles (first) blocks the profile (second)."""


class Joining:
    """The joining part of :class:`remikit.server.tables.registry.Tables`."""

    tables: dict[str, Table]
    lobby: Lobby
    limits: Limits
    writer: Writer
    store: Store
    ownership: Ownership
    blocked: list[Blocked]
    """Asked before a profile sits down with other profiles (the profiles' blocks)."""

    if TYPE_CHECKING:

        async def get(self, table_id: str, *, keep: bool = True) -> Table: ...

        def _live(self, stored: StoredTable) -> Table: ...

        async def _deal_pending(self, live: Table) -> None: ...

    async def join(
        self,
        table_id: str,
        *,
        name: str,
        seat: int | None,
        lang: str,
        token: str | None = None,
        client: str | None = None,
        entropy: bytes | None = None,
        profile: str | None = None,
    ) -> tuple[Table, int, str]:
        """Give a person a free seat: returns the table, the seat and its token (``token``
        when the client made it; a token already seated gets its seat again, so a join
        whose answer was lost is asked again safely). ``client`` (who asks) may take only
        so many seats a minute (:mod:`.limits`).

        ``profile`` is the id of the profile the person is signed in to: the seat is
        theirs, refused where a profile seated there blocks it or has a seat already.
        ``entropy`` is the person's contribution to the next deal (docs/fairness.md).
        When that takes the last seat of a variant with a seat draw (R13-2), the
        draw moves everyone to the seat it gives them; the seat returned is the new one.
        A table whose last seat is taken deals its first deal.
        """
        clean = " ".join(name.split())
        if not 1 <= len(clean) <= NAME_MAX or not clean.isprintable():
            raise Problem("bad_name", "server.bad_name", max=NAME_MAX)
        self.limits.join.check(client)
        table = await self.get(table_id)
        async with table.lock:
            if token is not None and (again := table.seat_for_token(token)) is not None:
                return table, again, token
            if table.stopped and not table.broken:  # it expired while this waited
                raise expired(table.id)
            if table.status == "finished":
                raise Problem.from_illegal(IllegalAction("game_over"))
            free = [i for i, s in enumerate(table.seats) if not s.taken]
            if seat is None:
                if not free:
                    raise Problem("table_full", "server.table_full", status=409, table=table.id)
                seat = free[0]
            elif not 0 <= seat < len(table.seats):
                raise Problem("bad_seat", "server.no_seat", status=400, seat=seat + 1)
            elif seat not in free:
                key = (
                    N_("server.seat_bot")
                    if table.seats[seat].kind == "bot"
                    else N_("server.seat_taken")
                )
                raise Problem("seat_taken", key, status=409, seat=seat + 1)
            if profile is not None:
                await self._admit(table, profile)
            token = token or secrets.token_urlsafe(32)
            seats = list(table.seats)
            seats[seat] = SeatConfig(
                "person", name=clean, lang=lang, token_hash=hash_token(token), profile=profile
            )
            contribution = None  # a contribution the table does not take is left out
            if entropy is not None and table.takes_contribution(seat, seats[seat]):
                contribution = table.contribution(seat, entropy, seats[seat])
            seat_draw = None
            if table.variant.seating is not None and all(s.taken for s in seats):
                seats, seat_draw = seat_by_draw(table.variant, table.seed, seats)
                if contribution is not None:  # each contribution moves with its person
                    number, given_by_seat = contribution
                    moved = [given_by_seat[d["joined"]] for d in seat_draw]
                    contribution = number, moved
            stored_seats = [s.stored() for s in seats]
            table_code = table.id

            def write(session: Any) -> None:
                Store.set_seats(session, table_code, stored_seats, seat_draw)
                if contribution is not None:
                    number, given_by_seat = contribution
                    texts = [c.hex() if c else None for c in given_by_seat]
                    Store.set_contributions(session, table_code, number, texts)

            await self.writer.run(write, table=table_code)
            if contribution is not None:
                table.contributed(*contribution)
            if seat_draw is None:
                table.seats = seats
                table.stand_ins.pop(seat, None)  # a seat freed during play had a stand-in
            else:
                table.reseat(seats, seat_draw)
                seat = next(i for i, d in enumerate(seat_draw) if d["joined"] == seat)
            self.lobby.update(table)
            table.start_grace(seat)  # until their socket connects
            try:
                await table.deal_pending()  # the last seat taken: the first deal
            except Problem:
                log.warning("table %s: its first deal could not be stored", table.id)
            table.settle()
        return table, seat, token

    async def _admit(self, table: Table, profile: str) -> None:
        """Refuse ``profile`` a seat where it has one already or someone seated blocks it
        (the message does not say who)."""
        seated = [s.profile for s in table.seats if s.profile is not None]
        if profile in seated:
            raise Problem("profile_seated", "server.profile_seated", status=409)
        for blocked in self.blocked:
            if await blocked(seated, profile):
                raise Problem("blocked", "server.blocked_join", status=403)

    async def rematch(self, table_id: str, token: str, entropy: bytes | None = None) -> Table:
        """A finished table's rematch for the person of ``token``: the same variant,
        options, settings and seats (each person's token works there too; the seat draw
        stands), made once: asked again, the same table. Its first deal is dealt at once,
        with ``entropy`` as the contribution of the person who asked."""
        old = await self.get(table_id)
        async with old.lock:
            if old.seat_for_token(token) is None:
                raise Problem("bad_token", "server.bad_token", status=403, table=old.id)
            if not old.game.over:
                raise Problem("not_finished", "server.not_finished", status=409, table=old.id)
            if old.rematch is not None:
                return await self.get(old.rematch)
            profiles = [s.profile for s in old.seats if s.profile is not None]
            for blocked in self.blocked:
                for one in profiles:
                    if await blocked([p for p in profiles if p != one], one):
                        raise Problem("blocked", "server.blocked_rematch", status=403)
            seat = old.seat_for_token(token)
            seed = str(secrets.randbits(256))
            code = new_table_code()
            while code in self.tables or await asyncio.to_thread(self.store.exists, code):
                code = new_table_code()
            seats = [
                replace(s, away=False, then=None, away_from=None, stand_in_turns=0)
                for s in old.seats
            ]
            stored = StoredTable(
                id=code,
                variant=old.variant.name,
                options=old.game.options.as_dict(),
                seed=seed,
                seats=[s.stored() for s in seats],
                title=old.title,
                created_at=now(),
                seat_draw=old.seat_draw,
                settings=old.settings.as_dict(),
                lang=old.lang,
                owner_hash=old.owner_hash,
            )
            fair = FairDeal.draw(code, 1, len(seats), None)
            if entropy is not None and seat is not None:
                fair.contributions[seat] = entropy
            first, old_id = fair.stored(), old.id

            def write(session: Any) -> None:
                Store.add_table(session, stored)
                Store.add_fairness(session, code, first)
                Store.set_table(session, old_id, rematch=code)
                self.ownership.adopt(session, code)

            await self.writer.run(write)
            live = self._live(replace(stored, fair=(first,)))
            self.tables[code] = live
            self.lobby.add(live, None)
            old.rematch = code
            old.emit(Changed())
            for index in range(len(live.seats)):
                live.start_grace(index)
            await self._deal_pending(live)
            live.settle()
            return live
