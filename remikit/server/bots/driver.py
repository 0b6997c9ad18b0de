"""The bot driver: it follows every live table and, when a bot is to play (a bot's seat,
or the stand-in of a person who is away) or to answer a call window, asks the workers
for its decision and plays it through the table like anyone else.

A decision is made from the seat's own view only, in a worker process
(:mod:`remikit.server.bots.workers`; in the server's threads when it runs none; at once
in the server's process for a level that picks without thinking,
:func:`~remikit.server.bots.lanes.at_once`), and depends only on the bot's level and
seed, the state it is made at and that view. A bot's
move takes at least the table's bot delay, on the table's clock, so people can follow.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from remikit.actions import Action, Pass
from remikit.server.bots.lanes import at_once
from remikit.server.bots.workers import Lane, Owner, decide, lane_of
from remikit.server.clock import Clock
from remikit.server.problems import Problem
from remikit.server.tables.events import Changed, Event, WindowOpened
from remikit.server.tables.seats import BotPlayer
from remikit.server.tables.service import STORAGE_RETRY, Table
from remikit.server.tables.window import CallWindow

log = logging.getLogger("remikit.server")

T = TypeVar("T")


class Runner(Protocol):
    """Where decisions are made: :class:`remikit.server.bots.workers.Workers`, or
    :class:`InProcess`."""

    async def run(self, owner: Owner, lane: Lane, fn: Callable[..., T], *args: Any) -> T: ...


class InProcess:
    """Decisions in a few threads of the server's own process (``remi serve
    --bot-workers 0``: tests, and machines where processes cannot be started)."""

    def __init__(self, threads: int) -> None:
        self.pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="remikit-bot")

    async def run(self, owner: Owner, lane: Lane, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    async def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


class BotDriver:
    """Plays the bots of every table it follows (:meth:`follow`)."""

    def __init__(self, runner: Runner, clock: Clock, *, delay: float) -> None:
        self.runner = runner
        self.clock = clock
        self.delay = delay  # the server's bot delay; a table's settings may change it
        self.turns: dict[Table, asyncio.Task[None]] = {}

    def follow(self, table: Table, event: Event) -> None:
        match event:
            case Changed(seat=None):
                self.schedule(table)
            case WindowOpened(window=window):
                table.spawn(lambda: self._answers(table, window))
            case _:
                pass

    def schedule(self, table: Table) -> None:
        """Start the bot whose turn it is, if any (with the lock held or at rest)."""
        seat = table.to_move
        if table.stopped or seat is None or table.player_bot(seat) is None:
            return
        running = self.turns.get(table)
        if running is not None and not running.done():
            return
        state_id = table.state_id
        table.thinking = seat
        task = self.turns[table] = table.spawn(lambda: self._turn(table, seat, state_id))
        task.add_done_callback(lambda done: self._done(table, done))

    def _done(self, table: Table, task: asyncio.Task[None]) -> None:
        if self.turns.get(table) is task:
            del self.turns[table]

    async def decision(self, table: Table, bot: BotPlayer, view: Any, state_id: int) -> Action:
        """``bot``'s choice in ``view`` (a legal action: its first one if the bot fails)."""
        level, seed = bot.level, bot.seed_at(state_id)
        try:
            if at_once(level):  # cheaper than the hand-over to a worker
                action = decide(level, seed, view)
            else:
                owner = Owner(table.id, table.creator)
                action = await self.runner.run(owner, lane_of(level), decide, level, seed, view)
        except Exception:
            log.exception(
                "table %s: bot %s failed; it plays its first legal action", table.id, bot.level
            )
            return view.legal_actions[0]  # type: ignore[no-any-return]
        if action not in view.legal_actions:
            log.warning(
                "table %s: bot %s chose %s, not a legal action", table.id, bot.level, action
            )
            return view.legal_actions[0]  # type: ignore[no-any-return]
        return action

    async def _turn(self, table: Table, seat: int, state_id: int) -> None:
        started = self.clock.now()
        view = table.view(seat)
        bot = table.player_bot(seat)
        if not view.legal_actions or bot is None:
            table.thinking = None
            return
        action = await self.decision(table, bot, view, state_id)
        delay = table.settings.bot_delay(self.delay)
        if delay > 0:  # a pause people can follow, on the table's clock
            await self.clock.sleep(started + delay)
        async with table.lock:
            self.turns.pop(table, None)
            table.thinking = None
            if (
                table.state_id != state_id
                or table.window is not None
                or table.stopped
                or table.player_bot(seat) != bot  # its person came back
            ):
                table.settle()
                return
            try:
                await table.commit(seat, action)
            except Problem as exc:
                log.warning("table %s: bot %s: %s", table.id, bot.level, exc)
                if exc.code == "storage":  # the database may be back in a moment
                    table.spawn(lambda: self._again(table))

    async def _again(self, table: Table) -> None:
        """After a failed write: the bot whose turn it is plays again, a pause later."""
        await self.clock.sleep(self.clock.now() + STORAGE_RETRY)
        async with table.lock:
            self.schedule(table)

    async def _answers(self, table: Table, window: CallWindow) -> None:
        """The bots' answers to a call window, one decision after another."""
        for seat in [s for s in window.seats if s in window.bots]:
            answer: Action = Pass()
            try:
                view = table.view(seat)  # during the window: the seat's answers
                bot = table.player_bot(seat)
                if view.legal_actions and bot is not None:
                    answer = await self.decision(table, bot, view, window.state_id)
            finally:
                async with table.lock:
                    table.bot_answer(window, seat, answer)
