"""The server's timers (the Rummy call window, the bots' pause before they play, turn
times and grace periods) read one clock, so tests can hold time still and move it on
when they choose.

>>> import asyncio
>>> clock = ManualClock()
>>> async def window() -> bool:
...     answered = asyncio.Event()
...     waiting = asyncio.ensure_future(clock.wait(answered, until=clock.now() + 3))
...     await asyncio.sleep(0)
...     clock.advance(2.9)
...     await asyncio.sleep(0)
...     still = not waiting.done()
...     clock.advance(0.1)
...     await waiting
...     return still
>>> asyncio.run(window())
True
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass, field
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on this clock (only differences mean anything)."""

    async def wait(self, event: asyncio.Event, *, until: float) -> None:
        """Return when ``event`` is set or the clock reaches ``until``, whichever is first."""

    async def sleep(self, until: float) -> None:
        """Return when the clock reaches ``until``."""


class LoopClock:
    """The event loop's monotonic time: the clock of a running server."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    async def wait(self, event: asyncio.Event, *, until: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout=max(0.0, until - self.now()))

    async def sleep(self, until: float) -> None:
        """A plain sleep: no task, no timeout raised (a bot's pause, every move)."""
        await asyncio.sleep(max(0.0, until - self.now()))


class ManualClock:
    """A clock that moves only when :meth:`advance` is called (tests; from any thread)."""

    def __init__(self) -> None:
        self.time = 0.0
        self._lock = threading.Lock()
        self._waiters: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self.time

    @property
    def waiting(self) -> int:
        """How many waits have yet to reach their time."""
        with self._lock:
            return len(self._waiters)

    def advance(self, seconds: float) -> None:
        """Move on by ``seconds``, ending every wait whose time has come."""
        with self._lock:
            self.time += seconds
            due = [f for t, f in self._waiters if t <= self.time]
            self._waiters = [(t, f) for t, f in self._waiters if t > self.time]
        for future in due:
            future.get_loop().call_soon_threadsafe(_settle, future)

    async def sleep(self, until: float) -> None:
        await self.wait(asyncio.Event(), until=until)

    async def wait(self, event: asyncio.Event, *, until: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._lock:
            if until <= self.time:
                return
            self._waiters.append((until, future))
        answered = asyncio.ensure_future(event.wait())
        due = asyncio.ensure_future(_settled(future))
        try:
            await asyncio.wait({answered, due}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            answered.cancel()
            due.cancel()


async def _settled(future: asyncio.Future[None]) -> bool:
    await future
    return True


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


@dataclass
class Timer:
    """A deadline on a clock (a person's turn time, a grace period) that can be called
    off: :meth:`expired` returns True when the time came first."""

    duration: float
    ends_at: float
    called_off: asyncio.Event = field(default_factory=asyncio.Event)

    @classmethod
    def start(cls, clock: Clock, duration: float) -> Timer:
        return cls(duration, clock.now() + duration)

    def call_off(self) -> None:
        self.called_off.set()

    async def expired(self, clock: Clock) -> bool:
        await clock.wait(self.called_off, until=self.ends_at)
        return not self.called_off.is_set()

    def json(self, clock: Clock) -> dict[str, int]:
        left = max(0.0, self.ends_at - clock.now())
        return {"duration_ms": round(self.duration * 1000), "ends_in_ms": round(left * 1000)}
