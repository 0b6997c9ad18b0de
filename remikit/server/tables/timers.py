"""The clocks of a live table: the turn timer (when it runs out the stand-in bot plays for
the person), the grace period of a person whose last socket left, and the time after
which a table without a turn timer that nobody moves ends as abandoned.

A person's turn runs whole once their table is in sight: until their page has said it
shows the deal (the seat draw show and the last deal's results closed; docs/protocol.md,
``seen``), their turn has :data:`SHOW_MAX` seconds more; once it says so, the turn timer
starts again with the turn time alone."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from remikit.i18n import N_
from remikit.server.clock import Timer
from remikit.server.tables.events import Changed, Idle, Notice

SHOW_MAX = 15.0  # seconds more for a turn while the deal is not yet in the person's sight

if TYPE_CHECKING:
    from remikit.engine import Game
    from remikit.server.clock import Clock
    from remikit.server.tables.events import Event
    from remikit.server.tables.seats import BotPlayer, SeatConfig
    from remikit.server.tables.table_settings import TableSettings
    from remikit.server.tables.window import CallWindow


class Timers:
    """The timers part of :class:`remikit.server.tables.service.Table`."""

    game: Game
    seats: list[SeatConfig]
    settings: TableSettings
    clock: Clock
    lock: asyncio.Lock
    stopped: bool
    abandon_after: float
    abandoned: bool
    window: CallWindow | None
    present: dict[int, int]
    turn_timer: tuple[tuple[int, int], Timer] | None
    idle_timer: tuple[int, Timer] | None
    grace: dict[int, Timer]
    seen: dict[int, int]
    actions: list[str]

    if TYPE_CHECKING:

        @property
        def state_id(self) -> int: ...

        @property
        def to_move(self) -> int | None: ...

        def player_bot(self, seat: int) -> BotPlayer | None: ...

        def spawn(self, work: Callable[[], Awaitable[None]]) -> asyncio.Task[None]: ...

        async def _set_away(self, seat: int, away: bool, why: str = ...) -> None: ...

        @property
        def watched(self) -> bool: ...

        def emit(self, event: Event) -> None: ...

        def settle(self) -> None: ...

        async def finish(self, **extra: Any) -> None: ...

    def _arm_turn(self) -> None:
        """Start the turn timer when a person is to play (once per turn), stop it when
        nobody is; when it runs out the stand-in bot plays for them (:meth:`_set_away`).
        Without a turn time, the idle timer ends the table once nobody has moved for
        ``abandon_after`` seconds."""
        seat = self.to_move
        if seat is None or self.stopped or self.player_bot(seat) is not None:
            self._stop_turn_timer()
            return
        limit = self.settings.turn_time
        if limit is None:
            self._arm_idle()
            return
        key = (len(self.game.deals), seat)
        if self.turn_timer is not None and self.turn_timer[0] == key:
            return
        self._stop_turn_timer()
        shown = self.seen.get(seat, 0) >= key[0]
        timer = Timer.start(self.clock, limit if shown else limit + SHOW_MAX)
        self.turn_timer = (key, timer)
        self.spawn(lambda: self._turn_time_up(timer, seat))

    async def see(self, seat: int, deal: int) -> None:
        """``seat``'s page shows deal ``deal``: nothing covers the table any more."""
        async with self.lock:
            if deal <= self.seen.get(seat, 0) or deal > len(self.game.deals):
                return
            self.seen[seat] = deal
            running = self.turn_timer
            if running is None or running[0] != (deal, seat):
                return
            self._stop_turn_timer()  # the turn again, its time alone from now
            self._arm_turn()
            self.emit(Changed())

    def _arm_idle(self) -> None:
        if self.abandon_after <= 0:
            return
        if self.idle_timer is not None and self.idle_timer[0] == self.state_id:
            return
        self._stop_turn_timer()
        timer = Timer.start(self.clock, self.abandon_after)
        self.idle_timer = (self.state_id, timer)
        self.spawn(lambda: self._idle_too_long(timer))

    def _stop_turn_timer(self) -> None:
        for running in (self.turn_timer, self.idle_timer):
            if running is not None:
                running[1].call_off()
        self.turn_timer = self.idle_timer = None

    async def _turn_time_up(self, timer: Timer, seat: int) -> None:
        if not await timer.expired(self.clock):
            return
        async with self.lock:
            if self.turn_timer is None or self.turn_timer[1] is not timer or self.stopped:
                return
            self.turn_timer = None
            await self._set_away(seat, True, N_("server.away_time"))

    async def _idle_too_long(self, timer: Timer) -> None:
        if not await timer.expired(self.clock):
            return
        async with self.lock:
            if self.idle_timer is None or self.idle_timer[1] is not timer or self.stopped:
                return
            self.idle_timer = None
            await self._abandon()

    def start_grace(self, seat: int) -> None:
        """A person's seat with nobody connected: after the grace period the stand-in
        plays it, unless they come back first."""
        config = self.seats[seat]
        if (
            config.kind != "person"
            or config.token_hash is None
            or config.away
            or self.present.get(seat)
            or seat in self.grace
            or self.game.over
            or self.stopped
        ):
            return
        timer = self.grace[seat] = Timer.start(self.clock, self.settings.grace)
        self.spawn(lambda: self._grace_over(timer, seat))

    def end_grace(self, seat: int) -> None:
        grace = self.grace.pop(seat, None)
        if grace is not None:
            grace.call_off()

    async def _grace_over(self, timer: Timer, seat: int) -> None:
        if not await timer.expired(self.clock):
            return
        async with self.lock:
            if self.grace.get(seat) is not timer or self.stopped:
                return
            del self.grace[seat]
            if not self.present.get(seat) and not self.seats[seat].away:
                await self._set_away(seat, True, N_("server.away_left"))

    async def _abandon(self) -> None:
        """Nobody has moved for ``abandon_after`` seconds at a table without a turn time:
        it ends as abandoned (the lock is held)."""
        self.abandoned = True
        self.window = None
        await self.finish(abandoned=True)
        seat = self.game.to_play if self.game.to_play is not None else 0
        self.emit(Notice(N_("server.abandoned"), seat, {"hours": self.abandon_after / 3600}))
        self.settle()
        if not self.watched:
            self.emit(Idle())
