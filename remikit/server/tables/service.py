"""A table in play: its game, seats, settings, fair deals, call window and timers, as one
state machine over an injected writer and clock. It knows no socket and no JSON: what
changes is told to its listeners (:mod:`remikit.server.tables.events`).

Everything that changes a table happens under its lock, in this order: check the action
against the state id and the rules, commit it to the database, apply it to the game; when
that ended a deal and the game goes on, shuffle the next deal's deck with its key
(docs/fairness.md), store it, deal it; then tell the listeners.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Container
from dataclasses import replace
from datetime import datetime
from typing import Any, Literal

from remikit.actions import Action, Play
from remikit.engine import Game
from remikit.errors import IllegalAction
from remikit.server.clock import Clock, Timer
from remikit.server.problems import Problem
from remikit.server.tables.build import game_result
from remikit.server.tables.contributions import Contributions
from remikit.server.tables.events import (
    Changed,
    DealEnded,
    Ended,
    Event,
    Finished,
    Idle,
    Listener,
)
from remikit.server.tables.fair_deals import FairDeal
from remikit.server.tables.ownership import table_moved
from remikit.server.tables.seating import Seating
from remikit.server.tables.seats import BotPlayer, SeatConfig
from remikit.server.tables.table_settings import TableSettings
from remikit.server.tables.timers import Timers
from remikit.server.tables.window import CallWindow, CallWindows
from remikit.storage import Store
from remikit.storage.owners import Fenced
from remikit.storage.store import now
from remikit.storage.writer import Writer
from remikit.variants import VariantSpec
from remikit.views import PlayerView

log = logging.getLogger("remikit.server")

Status = Literal["waiting", "playing", "finished"]
STORAGE_RETRY = 2.0
"""Seconds before a broken table is rebuilt, or a bot plays again after a failed write."""


class Table(Seating, CallWindows, Contributions, Timers):
    """One table: its game rebuilt from configuration + decks + actions, and who sits at it."""

    def __init__(
        self,
        *,
        writer: Writer,
        clock: Clock,
        table_id: str,
        variant: VariantSpec,
        game: Game,
        seed: str,
        seats: list[SeatConfig],
        title: str,
        created_at: datetime,
        actions: list[str],
        call_window: float = 3.0,
        abandon_after: float = 0.0,
        finished_at: datetime | None = None,
        seat_draw: list[dict[str, Any]] | None = None,
        settings: TableSettings | None = None,
        lang: str | None = None,
        owner_hash: str | None = None,
        creator: str | None = None,
        rematch: str | None = None,
        calls: dict[int, Action] | None = None,
        fair: list[FairDeal] | None = None,
        fixed_seed: bool = False,
        abandoned: bool = False,
        held: Container[str] = frozenset(),
    ) -> None:
        self.writer = writer
        self.clock = clock
        self.id = table_id
        self.variant = variant
        self.game = game
        self.seed = seed
        self.seats = seats
        self.title = title
        self.created_at = created_at
        self.finished_at = finished_at
        self.actions = actions
        self.call_window = call_window
        self.abandon_after = abandon_after
        self.seat_draw = seat_draw  # as stored (remikit.storage.models.TableRow)
        self.settings = settings or TableSettings()
        self.lang = lang
        self.owner_hash = owner_hash
        self.creator = creator  # the key of who made it (remikit.server.limits.client_key)
        self.rematch = rematch  # the table that plays this one again
        self.fair = {f.number: f for f in fair or ()}  # deal number: its secret and more
        self.unshuffled = [str(card) for card in game.full_deck()]  # what every deal shuffles
        self.fixed_seed = fixed_seed  # its secrets come from the seed; no contributions
        self.held = held  # the codes of tables whose secrets are held back (Tables.held)
        self.abandoned = abandoned
        self.lock = asyncio.Lock()
        self.listeners: list[Listener] = []
        self.window: CallWindow | None = None
        # answers people gave, before a restart, to the window open at the last action
        self.stored_calls = (len(actions), dict(calls or {}))
        self.bots = {i: self.bot_for(i, s.level) for i, s in enumerate(seats) if s.kind == "bot"}
        self.thinking: int | None = None  # the seat whose bot is choosing its move
        self.stand_ins: dict[int, BotPlayer] = {}
        self.present: dict[int, int] = {}  # seat: its sockets connected
        self.spectators = 0  # sockets watching
        self.turn_timer: tuple[tuple[int, int], Timer] | None = None  # (deal, seat), timer
        self.seen: dict[int, int] = {}  # seat: the last deal its person has in sight
        self.idle_timer: tuple[int, Timer] | None = None  # (state id, timer) without turn time
        self.grace: dict[int, Timer] = {}  # seats whose person left, until they are away
        self.move_codes: dict[str, tuple[int, float]] = {}  # code hash: seat, valid until
        self.tasks: set[asyncio.Task[None]] = set()
        self.stopped = False
        self.broken = False

    # -- what the table is ----------------------------------------------------

    @property
    def secrets_held(self) -> bool:
        """Whether its ended deals' secrets are held back (docs/fairness.md §11)."""
        return self.id in self.held

    @property
    def state_id(self) -> int:
        """The number of actions applied so far."""
        return len(self.actions)

    @property
    def status(self) -> Status:
        if self.game.over or self.abandoned:
            return "finished"
        if self.state_id > 0 or all(seat.taken for seat in self.seats):
            return "playing"  # a seat freed once play began is played by the stand-in
        return "waiting"

    @property
    def playing(self) -> bool:
        return self.status == "playing"

    @property
    def to_move(self) -> int | None:
        """The seat to play now, outside a call window."""
        return self.game.to_play if self.playing and self.window is None else None

    @property
    def watched(self) -> bool:
        """Whether any socket is at the table."""
        return self.spectators > 0 or any(self.present.values())

    @property
    def awaiting_seat_draw(self) -> bool:
        """Whether the seat draw (R13-2) has yet to say who plays which seat."""
        return (
            self.variant.seating is not None and self.seat_draw is None and self.status == "waiting"
        )

    def view(self, seat: int | None) -> PlayerView:
        """``seat``'s view with the actions the table takes from it now (before the seat
        draw the public view: the seat's cards may go to whoever the draw puts there)."""
        if seat is not None and self.awaiting_seat_draw:
            return replace(self.game.view(None), seat=seat)
        view = self.game.view(seat)
        if seat is None:
            return view
        allowed = self._allowed(seat, view.legal_actions)
        return view if allowed == view.legal_actions else replace(view, legal_actions=allowed)

    def _allowed(self, seat: int, legal: tuple[Action, ...]) -> tuple[Action, ...]:
        if self.status != "playing":
            return ()
        window = self.window
        if window is None:
            return legal
        if seat not in window.seats or seat in window.held:
            return ()
        if window.blank and seat == self.game.to_play:  # or play on: nobody can call
            return window.answers + legal
        return window.answers

    # -- listeners and tasks ----------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def emit(self, event: Event) -> None:
        for listener in list(self.listeners):
            try:
                listener(self, event)
            except Exception:
                log.exception("table %s: a listener failed on %s", self.id, event)

    def spawn(self, work: Callable[[], Awaitable[None]]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(self._guard(work))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def _guard(self, work: Callable[[], Awaitable[None]]) -> None:
        try:
            await work()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a background task failed", self.id)

    def settle(self) -> None:
        """After a change: set the turn timer, tell the listeners (the bot driver starts
        the bot whose turn it is)."""
        self._arm_turn()
        self.emit(Changed())

    # -- acting -------------------------------------------------------------------

    async def submit(self, seat: int, state_id: int, action: Action) -> str:
        """Take ``action`` from ``seat`` made against ``state_id``.

        Returns ``"applied"``, or ``"call_pending"`` for an answer to a call window
        held until the window closes; raises :class:`Problem` (and changes nothing)
        otherwise.
        """
        async with self.lock:
            status = self.status
            if self.broken:
                raise Problem("broken_table", "server.broken_table", status=500, table=self.id)
            if status == "finished":
                raise Problem.from_illegal(IllegalAction("game_over"))
            if status == "waiting":
                raise Problem("waiting", "server.waiting", status=409)
            if self.seats[seat].away:  # acting is coming back
                await self._set_away(seat, False)
            if state_id != self.state_id:
                raise Problem(
                    "stale_state",
                    "server.stale_state",
                    status=409,
                    sent=state_id,
                    current=self.state_id,
                )
            window = self.window
            if window is not None and self._plays_on(window, seat, action):
                try:  # the next player plays on: it closes a window no call can take
                    self.game.verify(seat, action)
                except IllegalAction as exc:
                    raise Problem.from_illegal(exc) from None
                self.window = None
                window.done.set()
                await self.commit(seat, action)
                return "applied"
            if window is not None:
                await self.hold_call(window, seat, action)
                self.emit(Changed(seat))  # call_window.my_call now shows the call
                return "call_pending"
            try:
                self.game.verify(seat, action)
            except IllegalAction as exc:
                raise Problem.from_illegal(exc) from None
            await self.commit(seat, action)
            return "applied"

    async def commit(self, seat: int, action: Action) -> None:
        """Store, apply and announce a verified action (the lock is held)."""
        await self._store_and_apply(seat, action)
        self._maybe_open_window()
        if self.game.over:
            await self.finish()
        self.settle()
        if self.game.over and not self.watched:
            self.emit(Idle())

    async def _store_and_apply(self, seat: int, action: Action) -> None:
        """Store a verified action, then apply it (the lock is held)."""
        index, text = self.state_id, str(Play(seat, action))
        try:
            await self.writer.append_action(self.id, index, seat, text)
        except Fenced:
            raise self.hand_over() from None
        except Exception:
            log.exception("table %s: could not store action %d (%s)", self.id, index, text)
            raise Problem("storage", "server.storage", status=503) from None
        try:
            self.game.apply(seat, action)
        except Exception:  # verified, so an engine bug: stop rather than drift from the log
            log.exception("table %s: stored action %d (%s) failed to apply", self.id, index, text)
            raise self._break() from None
        self.actions.append(text)
        ended = self.game.deals[-1].is_over
        await self.deal_pending()
        if ended and not self.game.over:  # the last deal: Finished says it
            self.emit(DealEnded())

    async def deal_pending(self) -> None:
        """When the game waits for its next deal: shuffle its deck, store it, deal it (the
        lock is held), so the deck is on disk before anyone sees the deal. A table whose
        deck cannot be stored breaks (:meth:`_break`): rebuilt, it deals again."""
        game = self.game
        if not game.needs_deal or not (game.deals or all(s.taken for s in self.seats)):
            return
        number = len(game.deals) + 1
        # the next deal's secret is drawn now, so that people can contribute to it during
        # this one; this deal's was drawn before it, unless the table dates from before
        new = [self.draw_fair(n) for n in (number, number + 1) if n not in self.fair]
        fair = self.fair.get(number) or new[0]
        deck = fair.deck(game.full_deck())
        texts, table_id = [str(c) for c in deck], self.id
        seats = self._seat_replacements()

        def write(session: Any) -> None:
            for f in new:
                Store.add_fairness(session, table_id, f.stored())
            Store.add_deal(session, table_id, number, texts)
            if seats is not None:
                Store.set_seats(session, table_id, seats)

        try:
            await self.writer.run(write, table=table_id)
        except Fenced:
            raise self.hand_over() from None
        except Exception:
            log.exception("table %s: could not store the deck of deal %d", self.id, number)
            raise self._break() from None
        self.fair.update({f.number: f for f in new})
        try:
            game.start_deal(deck)
        except Exception:
            log.exception("table %s: deal %d failed to start", self.id, number)
            raise self._break() from None

    def _break(self) -> Problem:
        """The engine failed on an action already stored: this copy of the table stops,
        tells everyone at it and leaves memory, so the next connection rebuilds the table
        from storage with that action applied."""
        self.broken = True
        return self._end(Problem("broken_table", "server.broken_table", status=500, table=self.id))

    def hand_over(self) -> Problem:
        """Another process owns the table now: this copy stops and tells everyone at it
        (their sockets come back through the owner)."""
        return self._end(table_moved(self.id))

    def _end(self, problem: Problem) -> Problem:
        self.stopped = True
        self.emit(Ended(problem))
        return problem

    async def finish(self, **extra: Any) -> None:
        """The game is over (or abandoned): its result (with ``extra``) stored, then
        :class:`Finished` told. A failed write is logged: the actions are stored, and a
        restart marks the game finished again."""
        result, moment, table_id = game_result(self.game, self.seats, self.actions), now(), self.id

        def write(session: Any) -> None:
            Store.set_finished(session, table_id, result | extra, moment)

        try:
            await self.writer.run(write, table=table_id)
        except Exception:
            log.exception("table %s: could not mark the game finished", self.id)
        self.finished_at = moment
        self.emit(Finished())

    # -- life ---------------------------------------------------------------------

    def resume(self) -> None:
        """After a restart: reopen a call window the engine waits on; start bots and the
        turn timer; every person not yet back has the grace period to come back."""
        if self.playing:
            self._maybe_open_window()
        for seat in range(len(self.seats)):
            self.start_grace(seat)
        self.settle()

    async def stop(self) -> None:
        self.stopped = True
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
