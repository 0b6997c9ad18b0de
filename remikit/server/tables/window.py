"""The Rummy call window (R5-10) of a live table.

The engine's call window (phase ``call``) asks the seats after the discarder in turn,
nearest first, to call or pass. The table lets them all answer at once: it opens a window
of a fixed length, takes ``rummy K`` or ``pass`` from every seat the engine will ask, holds
the answers (bots answer at once, through the bot driver), and when everyone has answered
or the time is up it hands them to the engine in its order (a seat that did not answer
passes). The first call wins; the seats whose calls came too late are told they lost.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from remikit.actions import Action, Discard, Pass
from remikit.errors import IllegalAction
from remikit.server.problems import Problem
from remikit.server.tables.events import CallLost, Event, WindowOpened

if TYPE_CHECKING:
    from remikit.engine import Game
    from remikit.server.clock import Clock
    from remikit.server.tables.seats import BotPlayer
    from remikit.storage.writer import Writer

log = logging.getLogger("remikit.server")


@dataclass
class CallWindow:
    """The few seconds after a discard in which the seats asked answer a Rummy call."""

    discarder: int
    seats: list[int]  # the seats the engine asks, in its order
    answers: tuple[Action, ...]  # what each of them may answer
    state_id: int
    duration: float
    ends_at: float  # on the table's clock
    blank: bool = False  # no call is possible: the window only hides that
    held: dict[int, Action] = field(default_factory=dict)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    bots: set[int] = field(default_factory=set)  # bot seats yet to answer
    bots_done: asyncio.Event = field(default_factory=asyncio.Event)

    def hold(self, seat: int, answer: Action) -> None:
        self.held.setdefault(seat, answer)
        self.bots.discard(seat)
        if not self.bots:
            self.bots_done.set()
        if all(s in self.held for s in self.seats):
            self.done.set()


class CallWindows:
    """The call window part of :class:`remikit.server.tables.service.Table`."""

    id: str
    game: Game
    lock: asyncio.Lock
    window: CallWindow | None
    stopped: bool
    clock: Clock
    writer: Writer
    call_window: float
    stored_calls: tuple[int, dict[int, Action]]

    if TYPE_CHECKING:

        @property
        def state_id(self) -> int: ...

        @property
        def playing(self) -> bool: ...

        def player_bot(self, seat: int) -> BotPlayer | None: ...

        def emit(self, event: Event) -> None: ...

        def spawn(self, work: Callable[[], Awaitable[None]]) -> asyncio.Task[None]: ...

        async def _store_and_apply(self, seat: int, action: Action) -> None: ...

        async def finish(self, **extra: Any) -> None: ...

        def settle(self) -> None: ...

    def _plays_on(self, window: CallWindow, seat: int, action: Action) -> bool:
        """Whether ``action`` is the next player playing on in a window no call can take."""
        return (
            window.blank
            and seat == self.game.to_play
            and seat not in window.held
            and not isinstance(action, Pass)
        )

    def _check_answer(self, window: CallWindow, seat: int, action: Action) -> None:
        """Whether ``seat`` may give ``action`` as its answer to the open call window (the
        lock is held); :class:`Problem` if not."""
        if not (action.calls or isinstance(action, Pass)):
            raise Problem("call_window", "server.call_window_open", status=409)
        deal = self.game.current()
        if seat not in window.seats:
            raise Problem.from_illegal(deal.turn_refusal(seat, action))
        if action not in window.answers:
            try:  # every seat asked has the same answers: the engine says why not this one
                deal.verify(window.seats[0], action)
            except IllegalAction as exc:
                raise Problem.from_illegal(exc) from None
        if seat in window.held:
            raise Problem("answered", "server.call_answered", status=409)

    async def hold_call(self, window: CallWindow, seat: int, action: Action) -> None:
        """Hold ``seat``'s answer to ``window``, stored before it is acknowledged (the lock
        is held): a restart keeps it."""
        self._check_answer(window, seat, action)
        try:
            await self.writer.append_call(self.id, window.state_id, seat, str(action))
        except Exception:
            log.exception("table %s: could not store %s's call", self.id, seat)
            raise Problem("storage", "server.storage", status=503) from None
        window.hold(seat, action)

    def bot_answer(self, window: CallWindow, seat: int, answer: Action) -> None:
        """A bot's answer to ``window`` (the lock is held): anything but an answer the
        window takes is a pass (held even once the window has closed: it is then read by
        nobody, and the window's task ends)."""
        window.hold(seat, answer if answer in window.answers else Pass())

    def _maybe_open_window(self) -> None:
        """When the engine asks for answers to a call window, let every seat it asks
        answer at once (see the module docstring). After a discard no call can take, the
        people the engine would have asked get a window all the same, with only ``pass``
        to answer (a ``rummy K`` is refused with the rules' reason), so that a window
        opening tells nobody a call is possible."""
        deal = self.game.deal
        if deal is None or self.window is not None or not self.playing:
            return
        blank = not deal.phase.is_call_window
        if blank:
            seats = [s for s in deal.offered_calls() if self.player_bot(s) is None]
            answers: tuple[Action, ...] = (Pass(),)
            if not seats:
                return
        else:
            seats = deal.awaiting()
            answers = tuple(self.game.legal_actions(seats[0]))
        discarder = next(p.seat for p in reversed(deal.log) if isinstance(p.action, Discard))
        bots = {s for s in seats if self.player_bot(s) is not None}
        duration = self.call_window if len(bots) < len(seats) else 0.0
        window = CallWindow(
            discarder=discarder,
            seats=seats,
            answers=answers,
            state_id=self.state_id,
            duration=duration,
            ends_at=self.clock.now() + duration,
            blank=blank,
            bots=bots,
        )
        if not bots:
            window.bots_done.set()
        (state, stored), self.stored_calls = self.stored_calls, (-1, {})
        for seat, answer in stored.items():  # acknowledged before a restart
            if state == window.state_id and seat in seats and answer in window.answers:
                window.hold(seat, answer)
        self.window = window
        self.spawn(lambda: self._run_window(window))
        if window.bots:
            self.emit(WindowOpened(window))

    async def _run_window(self, window: CallWindow) -> None:
        await self.clock.wait(window.done, until=window.ends_at)
        await window.bots_done.wait()
        async with self.lock:
            if self.window is not window or self.stopped:
                return
            self.window = None
            if not window.blank:
                try:
                    await self._answer_in_order(window)
                except Problem as exc:
                    log.warning("table %s: the call window's answers failed: %s", self.id, exc)
                if self.game.over:
                    await self.finish()
            self.settle()

    async def _answer_in_order(self, window: CallWindow) -> None:
        """Hand the held answers to the engine in its order; tell late callers they lost."""
        deal = self.game.current()
        while deal.phase.is_call_window and self.state_id >= window.state_id:
            seat = deal.to_play
            assert seat is not None
            answer = window.held.get(seat, Pass())
            if not deal.can(seat, answer):
                answer = Pass()
            await self._store_and_apply(seat, answer)
            if answer.calls:
                for other, lost in window.held.items():
                    if other != seat and lost.calls:
                        self.emit(CallLost(other, str(lost), seat))
                break
