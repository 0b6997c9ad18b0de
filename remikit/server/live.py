"""A table in play on the server: its game, seats, sockets, bots and Rummy call window.

Everything that changes a table happens under its lock, in this order:
check the action against the state id and the rules, commit it to the
database, apply it to the game, then tell every socket (each its own seat's
view; spectators the public one). Bots think in a thread pool, off the event
loop, and act through the same path.

Rummy 500 calls (R5-10): after every discard that leaves a call possible in
the engine, the table opens a call window of a fixed length (the same
whether or not anyone could call, so its timing gives nothing away). While
it is open only ``rummy K`` is taken, from any seat but the discarder, and
held; when it closes the first caller in the deal's call order wins and the
others are told they lost. Outside the window calls are refused.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from fastapi import WebSocket

from remikit.actions import Action, CallRummy, Discard, format_seat_action
from remikit.bots import Bot
from remikit.engine import MAX_ACTIONS_PER_DEAL, Game
from remikit.errors import IllegalAction
from remikit.server.problems import Problem
from remikit.server.serialize import view_json
from remikit.storage import Store
from remikit.storage.store import now
from remikit.variants import VariantSpec
from remikit.views import PlayerView

if TYPE_CHECKING:
    from remikit.server.writer import Writer

log = logging.getLogger("remikit.server")

Status = Literal["waiting", "playing", "finished"]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatConfig:
    """Who sits in a seat: a person (once someone has joined: a name and a token hash)
    or a bot of some level."""

    kind: Literal["person", "bot"]
    name: str | None = None
    level: str | None = None
    lang: str = "id"
    token_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def stored(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "level": self.level, "lang": self.lang,
                "token_hash": self.token_hash}

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> SeatConfig:
        kind: Literal["person", "bot"] = "bot" if data.get("kind") == "bot" else "person"
        return cls(kind=kind, name=data.get("name"), level=data.get("level"),
                   lang=data.get("lang") or "id", token_hash=data.get("token_hash"))


@runtime_checkable
class CallingDeal(Protocol):
    """A deal whose discards may be called (Rummy 500)."""

    @property
    def rummy_window(self) -> int | None: ...

    def call_order(self, discarder: int) -> list[int]: ...


@dataclass
class CallWindow:
    """The few seconds after a discard in which Rummy may be called."""

    discarder: int
    state_id: int
    duration: float
    ends_at: float  # event-loop time
    calls: dict[int, CallRummy] = field(default_factory=dict)


class Connection:
    """One WebSocket: its seat (None: a spectator), language, and queue of outgoing text.

    Sending never waits: text goes into the queue and a pump task writes it
    out, so a slow client holds up nobody. A client that falls too far
    behind is disconnected.
    """

    def __init__(self, websocket: WebSocket, seat: int | None, lang: str, *,
                 limit: int = 256) -> None:
        self.websocket = websocket
        self.seat = seat
        self.lang = lang
        self.limit = limit
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.slow = False

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.limit:
            log.warning("closing a socket that fell %d messages behind", self.limit)
            self.close(slow=True)
            return
        self.queue.put_nowait(text)

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(json.dumps(message, separators=(",", ":")))

    def close(self, *, slow: bool = False) -> None:
        if not self.closed:
            self.closed = True
            self.slow = slow
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Write queued text to the socket until :meth:`close`, then close the socket
        (code 1013 for a client too slow to keep up)."""
        while not self.slow:
            text = await self.queue.get()
            if text is None:
                break
            await self.websocket.send_text(text)
        await self.websocket.close(code=1013 if self.slow else 1000)


class TableHost(Protocol):
    """What a table needs from the hub that holds it."""

    @property
    def writer(self) -> Writer: ...

    @property
    def bot_pool(self) -> Executor: ...

    @property
    def bot_delay(self) -> float: ...

    @property
    def call_window(self) -> float: ...

    def table_idle(self, table: LiveTable) -> None: ...


class LiveTable:
    """One table: its game rebuilt from configuration + seed + actions, and who is at it."""

    def __init__(self, host: TableHost, *, table_id: str, variant: VariantSpec, game: Game,
                 seed: str, seats: list[SeatConfig], title: str, created_at: datetime,
                 actions: list[str], bots: dict[int, Bot],
                 finished_at: datetime | None = None) -> None:
        self.host = host
        self.id = table_id
        self.variant = variant
        self.game = game
        self.seed = seed
        self.seats = seats
        self.title = title
        self.created_at = created_at
        self.finished_at = finished_at
        self.actions = actions
        self.bots = bots
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.window: CallWindow | None = None
        self.bot_task: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.stopped = False
        self.broken = False

    # -- what the table is ----------------------------------------------------

    @property
    def state_id(self) -> int:
        """The number of actions applied so far."""
        return len(self.actions)

    @property
    def status(self) -> Status:
        if self.game.over:
            return "finished"
        if all(seat.taken for seat in self.seats):
            return "playing"
        return "waiting"

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.connections if c.seat is not None}

    def seats_json(self) -> list[dict[str, Any]]:
        online = self.connected_seats()
        return [{"seat": i, "kind": s.kind, "name": s.name, "level": s.level, "taken": s.taken,
                 "connected": s.kind == "bot" or i in online}
                for i, s in enumerate(self.seats)]

    def info(self) -> dict[str, Any]:
        """The table as the lobby and every state message show it."""
        return {
            "id": self.id,
            "variant": self.variant.name,
            "variant_title": self.variant.titles,
            "client": self.variant.client_json(),
            "title": self.title,
            "options": self.game.options.as_dict(),
            "players": self.game.players,
            "status": self.status,
            "state_id": self.state_id,
            "seats": self.seats_json(),
            "free_seats": [i for i, s in enumerate(self.seats) if not s.taken],
            "spectators": sum(1 for c in self.connections if c.seat is None),
            "created_at": self.created_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
        }

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return index
        return None

    @property
    def has_people(self) -> bool:
        return any(s.kind == "person" for s in self.seats)

    # -- views ------------------------------------------------------------------

    def view(self, seat: int | None) -> PlayerView:
        """``seat``'s view with the actions the table takes from it now."""
        view = self.game.view(seat)
        if seat is None:
            return view
        allowed = self._allowed(view.legal_actions)
        return view if allowed == view.legal_actions else replace(view, legal_actions=allowed)

    def _allowed(self, legal: tuple[Action, ...]) -> tuple[Action, ...]:
        if self.status != "playing":
            return ()
        if self.window is not None:
            return tuple(a for a in legal if isinstance(a, CallRummy))
        return tuple(a for a in legal if not isinstance(a, CallRummy))

    def window_json(self, seat: int | None) -> dict[str, Any] | None:
        window = self.window
        if window is None:
            return None
        left = max(0.0, window.ends_at - asyncio.get_running_loop().time())
        mine = window.calls.get(seat) if seat is not None else None
        return {"discarder": window.discarder, "duration_ms": round(window.duration * 1000),
                "ends_in_ms": round(left * 1000), "my_call": str(mine) if mine else None}

    def state_message(self, seat: int | None) -> str:
        message = {
            "type": "state",
            "table_id": self.id,
            "state_id": self.state_id,
            "table": self.info(),
            "call_window": self.window_json(seat),
            "view": view_json(self.view(seat)),
        }
        return json.dumps(message, separators=(",", ":"))

    # -- sockets ------------------------------------------------------------------

    def attach(self, conn: Connection) -> None:
        self.connections.add(conn)
        seat = conn.seat
        conn.send_json({"type": "welcome", "table_id": self.id, "seat": seat,
                        "name": self.seats[seat].name if seat is not None else None,
                        "lang": conn.lang})
        self.broadcast()  # everyone sees who is connected; the newcomer gets the state

    def detach(self, conn: Connection) -> None:
        self.connections.discard(conn)
        conn.close()
        if not self.stopped:
            self.broadcast()
            if not self.connections:
                self.host.table_idle(self)

    def broadcast(self) -> None:
        """Send every socket the current state (one text per seat, built once)."""
        texts: dict[int | None, str] = {}
        for conn in list(self.connections):
            text = texts.get(conn.seat)
            if text is None:
                text = texts[conn.seat] = self.state_message(conn.seat)
            conn.send(text)

    def send_state(self, seat: int) -> None:
        """Send the current state to ``seat``'s sockets only."""
        text = None
        for conn in list(self.connections):
            if conn.seat == seat:
                text = text or self.state_message(seat)
                conn.send(text)

    def tell_seat(self, seat: int, message: dict[str, Any]) -> None:
        for conn in list(self.connections):
            if conn.seat == seat:
                conn.send_json(message)

    # -- acting -------------------------------------------------------------------

    async def submit(self, seat: int, state_id: int, action: Action) -> str:
        """Take ``action`` from ``seat`` made against ``state_id``.

        Returns ``"applied"``, or ``"call_pending"`` for a Rummy call held until
        the window closes; raises :class:`Problem` (and changes nothing) otherwise.
        """
        async with self.lock:
            status = self.status
            if self.broken:
                raise Problem("broken_table", "server.broken_table", status=500,
                              table=self.id)
            if status == "finished":
                raise Problem.from_illegal(IllegalAction("game_over"))
            if status == "waiting":
                raise Problem("waiting", "server.waiting", status=409)
            if state_id != self.state_id:
                raise Problem("stale_state", "server.stale_state", status=409,
                              sent=state_id, current=self.state_id)
            window = self.window
            if window is not None and not isinstance(action, CallRummy):
                raise Problem("call_window", "server.call_window_open", status=409)
            if window is None and isinstance(action, CallRummy):
                raise Problem.from_illegal(IllegalAction("rummy_closed"))
            try:
                self.game.verify(seat, action)
            except IllegalAction as exc:
                raise Problem.from_illegal(exc) from None
            if window is not None:
                assert isinstance(action, CallRummy)
                window.calls[seat] = action
                return "call_pending"
            await self._commit(seat, action)
            return "applied"

    async def _commit(self, seat: int, action: Action) -> None:
        """Store, apply and announce a verified action (the lock is held)."""
        deal = self.game.current()
        if len(deal.log) >= MAX_ACTIONS_PER_DEAL:
            raise Problem.from_illegal(IllegalAction("game_over"))
        index, text = self.state_id, format_seat_action(seat, action)
        try:
            await self.host.writer.append_action(self.id, index, seat, text)
        except Exception:
            log.exception("table %s: could not store action %d (%s)", self.id, index, text)
            raise Problem("storage", "server.storage", status=503) from None
        try:
            self.game.apply(seat, action)
        except Exception:  # verified, so an engine bug: stop rather than drift from the log
            log.exception("table %s: stored action %d (%s) failed to apply", self.id, index,
                          text)
            self.stopped = self.broken = True
            raise Problem("broken_table", "server.broken_table", status=500,
                          table=self.id) from None
        self.actions.append(text)
        if isinstance(action, Discard):
            self._maybe_open_window(seat)
        if self.game.over:
            await self._finish()
        self.broadcast()
        self.schedule()
        if self.game.over and not self.connections:
            self.host.table_idle(self)

    async def _finish(self) -> None:
        result = game_result(self.game)
        moment = now()
        table_id = self.id

        def write(session: Any) -> None:
            Store.set_finished(session, table_id, result, moment)

        try:
            await self.host.writer.run(write)
        except Exception:  # the actions are stored: a restart marks it finished
            log.exception("table %s: could not mark the game finished", self.id)
        self.finished_at = moment

    # -- bots ---------------------------------------------------------------------

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

    def schedule(self) -> None:
        """Start the bot whose turn it is, if any (call with the lock held or at rest)."""
        if self.stopped or self.status != "playing" or self.window is not None:
            return
        seat = self.game.to_play
        if seat is None or seat not in self.bots:
            return
        if self.bot_task is not None and not self.bot_task.done():
            return
        state_id = self.state_id
        self.bot_task = self.spawn(lambda: self._bot_turn(seat, state_id))

    async def _bot_turn(self, seat: int, state_id: int) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        view = self.view(seat)
        if not view.legal_actions:
            return
        bot = self.bots[seat]
        try:
            action = await loop.run_in_executor(self.host.bot_pool, bot.choose, view)
        except Exception:
            log.exception("table %s: bot %s failed; it plays its first legal action",
                          self.id, bot.name)
            action = view.legal_actions[0]
        wait = self.host.bot_delay - (loop.time() - started)
        if wait > 0:
            await asyncio.sleep(wait)
        async with self.lock:
            self.bot_task = None
            if self.state_id != state_id or self.window is not None or self.stopped:
                return
            if action not in view.legal_actions:
                log.warning("table %s: bot %s chose %s, not a legal action", self.id,
                            bot.name, action)
                action = view.legal_actions[0]
            try:
                await self._commit(seat, action)
            except Problem as exc:
                log.warning("table %s: bot %s: %s", self.id, bot.name, exc)

    # -- the Rummy call window ---------------------------------------------------------

    def _maybe_open_window(self, discarder: int) -> None:
        deal = self.game.deal
        if not isinstance(deal, CallingDeal) or deal.is_over or deal.rummy_window != discarder:
            return
        duration = self.host.call_window if self.has_people else 0.0
        loop = asyncio.get_running_loop()
        window = CallWindow(discarder=discarder, state_id=self.state_id, duration=duration,
                            ends_at=loop.time() + duration)
        self.window = window
        self.spawn(lambda: self._run_window(window))

    async def _run_window(self, window: CallWindow) -> None:
        asks = [self.spawn(partial(self._bot_call, seat, window))
                for seat in self.bots if seat != window.discarder]
        await asyncio.sleep(max(0.0, window.ends_at - asyncio.get_running_loop().time()))
        if asks:
            await asyncio.gather(*asks, return_exceptions=True)
        async with self.lock:
            if self.window is not window or self.stopped:
                return
            self.window = None
            deal = self.game.deal
            order: list[int] = (deal.call_order(window.discarder)
                                if isinstance(deal, CallingDeal) else [])
            winner = next((s for s in order if s in window.calls
                           and self.game.can(s, window.calls[s])), None)
            if winner is None:
                self.broadcast()
                self.schedule()
                return
            call = window.calls[winner]
            try:
                await self._commit(winner, call)
            except Problem as exc:
                log.warning("table %s: the winning call %s failed: %s", self.id, call, exc)
                self.broadcast()
                self.schedule()
                return
            for seat, lost in window.calls.items():
                if seat != winner:
                    self.tell_seat(seat, {"type": "call_lost", "action": str(lost),
                                          "winner": winner, "state_id": self.state_id})

    async def _bot_call(self, seat: int, window: CallWindow) -> None:
        view = self.view(seat)  # during the window: only the seat's legal calls
        if not view.legal_actions:
            return
        loop = asyncio.get_running_loop()
        answer = await loop.run_in_executor(self.host.bot_pool, self.bots[seat].call, view)
        if isinstance(answer, CallRummy) and answer in view.legal_actions:
            async with self.lock:
                if self.window is window:
                    window.calls.setdefault(seat, answer)

    # -- life ---------------------------------------------------------------------

    def resume(self) -> None:
        """After a restart: reopen a call window the last discard left open; start bots."""
        if self.status == "playing" and self.actions:
            last = self.actions[-1].split()
            if len(last) >= 2 and last[1] == "discard":
                self._maybe_open_window(int(last[0][1:]))
        self.schedule()

    async def stop(self) -> None:
        self.stopped = True
        for conn in list(self.connections):
            conn.close()
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def game_result(game: Game) -> dict[str, Any]:
    """What a finished game's listing shows: totals, winner, scores per deal."""
    return {
        "totals": list(game.totals),
        "winner": game.winner,
        "hand_scores": [list(d.summary.points) for d in game.deals if d.summary is not None],
    }
