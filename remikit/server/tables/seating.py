"""Who plays each seat of a live table, and who is at it: the sockets at each seat, people
away (their seat's stand-in bot plays) and back, and the replacements a table's creator
asked for, seated as the next deal starts."""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from remikit.i18n import N_
from remikit.server.tables.events import Event, Idle, Notice, Presence, Reseated, SeatsChanged
from remikit.server.tables.seats import BotPlayer, SeatConfig, bot_seed, hash_token
from remikit.storage import Store

if TYPE_CHECKING:
    from remikit.engine import Game
    from remikit.server.tables.table_settings import TableSettings
    from remikit.storage.writer import Writer

log = logging.getLogger("remikit.server")


class Seating:
    """The seats part of :class:`remikit.server.tables.service.Table`."""

    id: str
    game: Game
    seed: str
    seats: list[SeatConfig]
    seat_draw: list[dict[str, Any]] | None
    settings: TableSettings
    writer: Writer
    bots: dict[int, BotPlayer]
    stand_ins: dict[int, BotPlayer]
    present: dict[int, int]
    spectators: int
    stopped: bool
    lock: asyncio.Lock
    actions: list[str]

    if TYPE_CHECKING:

        def emit(self, event: Event) -> None: ...

        def spawn(self, work: Callable[[], Awaitable[None]]) -> asyncio.Task[None]: ...

        def settle(self) -> None: ...

        def start_grace(self, seat: int) -> None: ...

        def end_grace(self, seat: int) -> None: ...

        @property
        def watched(self) -> bool: ...

        @property
        def state_id(self) -> int: ...

    def connected(self, seat: int) -> bool:
        return self.seats[seat].kind == "bot" or bool(self.present.get(seat))

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return index
        return None

    @property
    def has_people(self) -> bool:
        return any(s.kind == "person" for s in self.seats)

    def bot_for(self, seat: int, level: str | None = None) -> BotPlayer:
        """The bot of ``seat`` at ``level``; without a level, the table's stand-in for a
        person who is away."""
        if level is None:
            return BotPlayer(self.settings.stand_in, bot_seed(self.seed, seat, "stand-in"))
        return BotPlayer(level, bot_seed(self.seed, seat))

    def player_bot(self, seat: int) -> BotPlayer | None:
        """The bot that plays ``seat`` now: a bot seat's, or the stand-in of a person who
        is away; None when a person plays it."""
        bot = self.bots.get(seat)
        if bot is None and self.seats[seat].away:
            bot = self.stand_ins.get(seat)
            if bot is None:
                bot = self.stand_ins[seat] = self.bot_for(seat)
        return bot

    def arrive(self, seat: int | None) -> None:
        """A socket came to ``seat`` (None: to watch): a person who was away is back."""
        if seat is None:
            self.spectators += 1
            self.emit(Presence())
            return
        self.present[seat] = self.present.get(seat, 0) + 1
        self.end_grace(seat)
        self.emit(Presence())
        if self.seats[seat].away:
            self.spawn(lambda: self.come_back(seat))

    def leave(self, seat: int | None) -> None:
        """A socket left ``seat``: when it was the last of a person's seat, the grace
        period starts after which the stand-in plays for them."""
        if seat is None:
            self.spectators = max(0, self.spectators - 1)
        elif self.present.get(seat, 0) > 1:
            self.present[seat] -= 1
        else:
            self.present.pop(seat, None)
        if self.stopped:
            return
        self.emit(Presence())
        if seat is not None:
            self.start_grace(seat)
        if not self.watched:
            self.emit(Idle())

    async def come_back(self, seat: int) -> None:
        """The person of an away seat is back: their seat is theirs to play again."""
        async with self.lock:
            if self.seats[seat].away and self.seats[seat].token_hash is not None:
                await self._set_away(seat, False)

    async def _set_away(self, seat: int, away: bool, why: str = N_("server.back")) -> None:
        """Mark ``seat`` away (its stand-in bot plays) or back, store it, tell everyone
        (the lock is held)."""
        config = self.seats[seat]
        self.seats[seat] = config.gone(self.state_id) if away else config.back(self.actions, seat)
        stored, table_id = [c.stored() for c in self.seats], self.id
        try:
            await self.writer.run(lambda s: Store.set_seats(s, table_id, stored), table=table_id)
        except Exception:  # it holds in memory; a restart gives the seat its person back
            log.exception("table %s: could not store seat %d away=%s", self.id, seat, away)
        name = self.seats[seat].name or str(seat + 1)
        self.emit(Notice(why, seat, {"name": name, "bot": self.settings.stand_in}))
        if not away:
            self.stand_ins.pop(seat, None)
        self.settle()

    def reseat(self, seats: list[SeatConfig], seat_draw: list[dict[str, Any]]) -> None:
        """Seat everyone where the seat draw (R13-2) puts them, before the first action;
        each seat's sockets follow their player."""
        moved = {d["joined"]: seat for seat, d in enumerate(seat_draw)}
        self.seats, self.seat_draw = seats, seat_draw
        self.bots = {i: self.bot_for(i, s.level) for i, s in enumerate(seats) if s.kind == "bot"}
        self.present = {moved[seat]: count for seat, count in self.present.items()}
        self.emit(Reseated(moved))

    def _seat_replacements(self) -> list[dict[str, Any]] | None:
        """Seat the replacements the table's creator asked for, as a deal starts (the lock
        is held): the seats to store, or None when nothing changed."""
        if not any(s.then for s in self.seats):
            return None
        seats = list(self.seats)
        for index, config in enumerate(seats):
            if not config.then:
                continue
            if config.then.get("kind") == "bot":
                level = config.then.get("level") or self.settings.stand_in
                seats[index] = SeatConfig("bot", name=f"Bot {index}", level=level)
                self.bots[index] = self.bot_for(index, level)
            else:  # open for someone new: the stand-in plays until they join
                seats[index] = SeatConfig("person", away=True)
            self.stand_ins.pop(index, None)
        self.seats = seats
        self.emit(SeatsChanged())
        return [s.stored() for s in seats]
