"""A table in play on the server: its game, seats, sockets, bots and Rummy call window.

Everything that changes a table happens under its lock, in this order:
check the action against the state id and the rules, commit it to the
database, apply it to the game; when that ended a deal and the game goes on,
shuffle the next deal's deck with its key (docs/fairness.md), store it, deal
it; then tell every socket (each its own seat's view; spectators the public
one). Bots think in a thread pool, off the event loop, and act through the
same path.

Rummy 500 calls (R5-10): the engine's call window (phase ``call``) asks the
seats after the discarder in turn, nearest first, to call or pass. The table
lets them all answer at once: it opens a window of a fixed length, takes
``rummy K`` or ``pass`` from every seat the engine will ask, holds the answers
(bots answer at once), and when everyone has answered or the time is up it
hands them to the engine in its order (a seat that did not answer passes).
The first call wins; the seats whose calls came too late are told they lost.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, Protocol

import orjson
from fastapi import WebSocket

from remikit.actions import Action, Discard, Pass, Play
from remikit.bots import Bot
from remikit.cards import Card
from remikit.engine import Game
from remikit.errors import IllegalAction
from remikit.fairness import fair_deck
from remikit.i18n import N_, t
from remikit.server.advice import state_advice
from remikit.server.clock import Clock, Timer
from remikit.server.fair_deals import FairDeal, fixed_secret
from remikit.server.problems import Problem
from remikit.server.serialize import PROTOCOL, action_json, view_json
from remikit.server.table_settings import TableSettings
from remikit.storage import Store
from remikit.storage.store import now
from remikit.variants import VariantSpec
from remikit.views import PlayerView

if TYPE_CHECKING:
    from remikit.server.writer import Writer

log = logging.getLogger("remikit.server")

Status = Literal["waiting", "playing", "finished"]
STORAGE_RETRY = 2.0
"""Seconds a bot waits before it plays again when its action could not be stored."""


def dumps(message: dict[str, Any]) -> str:
    """A message as compact JSON text (orjson: a long game's states are big, and every
    action sends one to every socket)."""
    return orjson.dumps(message).decode()


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def next_deck(game: Game, seed: str) -> list[Card]:
    """The deck of the next deal of ``game``, the game of a table made with ``seed``
    (:func:`remikit.server.fair_deals.fixed_secret`, no contributions)."""
    number = len(game.deals) + 1
    return fair_deck(game.full_deck(), fixed_secret(seed, number), [None] * game.players)


@dataclass
class SeatConfig:
    """Who sits in a seat: a person (once someone has joined: a name and a token hash)
    or a bot of some level."""

    kind: Literal["person", "bot"]
    name: str | None = None
    level: str | None = None
    lang: str = "id"
    token_hash: str | None = None
    away: bool = False
    """A person's seat the table's stand-in bot plays until they come back."""
    then: dict[str, Any] | None = None
    """Who plays the seat from the next deal on, as its creator asked: ``{"kind": "bot",
    "level": ...}`` or ``{"kind": "person"}`` (open for someone new)."""

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def stored(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "lang": self.lang,
            "token_hash": self.token_hash,
            "away": self.away,
            "then": self.then,
        }

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> SeatConfig:
        kind: Literal["person", "bot"] = "bot" if data.get("kind") == "bot" else "person"
        return cls(
            kind=kind,
            name=data.get("name"),
            level=data.get("level"),
            lang=data.get("lang") or "id",
            token_hash=data.get("token_hash"),
            away=data.get("away") is True,
            then=data.get("then"),
        )


@dataclass
class CallWindow:
    """The few seconds after a discard in which the seats asked answer a Rummy call."""

    discarder: int
    seats: list[int]  # the seats the engine asks, in its order
    answers: tuple[Action, ...]  # what each of them may answer
    state_id: int
    duration: float
    ends_at: float  # on the host's clock
    blank: bool = False  # no call is possible: the window only hides that
    held: dict[int, Action] = field(default_factory=dict)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def hold(self, seat: int, answer: Action) -> None:
        self.held.setdefault(seat, answer)
        if all(s in self.held for s in self.seats):
            self.done.set()


class Connection:
    """One WebSocket: its seat (None: a spectator), language, and queue of outgoing text.

    Sending never waits: text goes into the queue and a pump task writes it
    out, so a slow client holds up nobody. A client that falls too far
    behind is disconnected.
    """

    def __init__(
        self, websocket: WebSocket, seat: int | None, lang: str, *, limit: int = 256
    ) -> None:
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
        self.send(dumps(message))

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

    @property
    def clock(self) -> Clock: ...

    def table_idle(self, table: LiveTable) -> None: ...

    def table_broken(self, table: LiveTable) -> None: ...

    def stand_in(self, table: LiveTable, seat: int, level: str | None = None) -> Bot:
        """The bot that plays ``seat`` of ``table`` while its person is away (the table's
        stand-in level unless ``level`` is given)."""
        ...

    def table_finished(self, table: LiveTable) -> None: ...

    def seats_changed(self, table: LiveTable) -> None: ...

    def deal_ended(self, table: LiveTable) -> None: ...


class LiveTable:
    """One table: its game rebuilt from configuration + decks + actions, and who is at it."""

    def __init__(
        self,
        host: TableHost,
        *,
        table_id: str,
        variant: VariantSpec,
        game: Game,
        seed: str,
        seats: list[SeatConfig],
        title: str,
        created_at: datetime,
        actions: list[str],
        bots: dict[int, Bot],
        finished_at: datetime | None = None,
        seat_draw: list[dict[str, Any]] | None = None,
        settings: TableSettings | None = None,
        lang: str | None = None,
        owner_hash: str | None = None,
        rematch: str | None = None,
        calls: dict[int, Action] | None = None,
        fair: list[FairDeal] | None = None,
        fixed_seed: bool = False,
    ) -> None:
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
        self.seat_draw = seat_draw  # as stored (remikit.storage.models.TableRow)
        self.settings = settings or TableSettings()
        self.lang = lang
        self.owner_hash = owner_hash
        self.rematch = rematch  # the table that plays this one again
        self.fair = {f.number: f for f in fair or ()}  # deal number: its secret and more
        self.unshuffled = [str(card) for card in game.full_deck()]  # what every deal shuffles
        self.fixed_seed = fixed_seed  # its secrets come from the seed; no contributions
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.window: CallWindow | None = None
        # answers people gave, before a restart, to the window open at the last action
        self.stored_calls = (len(actions), dict(calls or {}))
        self.bot_task: asyncio.Task[None] | None = None
        self.thinking: int | None = None  # the seat whose bot is choosing its move
        self.stand_ins: dict[int, Bot] = {}
        self.turn_timer: tuple[tuple[int, int], Timer] | None = None  # (deal, seat), timer
        self.grace: dict[int, Timer] = {}  # seats whose person left, until they are away
        self.move_codes: dict[str, tuple[int, float]] = {}  # code hash: seat, valid until
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
        if self.state_id > 0 or all(seat.taken for seat in self.seats):
            return "playing"  # a seat freed once play began is played by the stand-in
        return "waiting"

    def spectator_count(self) -> int:
        return sum(1 for c in self.connections if c.seat is None)

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.connections if c.seat is not None}

    def seats_json(self) -> list[dict[str, Any]]:
        online = self.connected_seats()
        return [
            {
                "seat": i,
                "kind": s.kind,
                "name": s.name,
                "level": s.level,
                "taken": s.taken,
                "connected": s.kind == "bot" or i in online,
                "away": s.away,
                "then": s.then,
                "thinking": i == self.thinking,
            }
            for i, s in enumerate(self.seats)
        ]

    def info(self) -> dict[str, Any]:
        """The table as the lobby and every state message show it."""
        return {
            "id": self.id,
            "variant": self.variant.name,
            "variant_title": self.variant.titles,
            "client": self.variant.client_json(),
            "title": self.title,
            "options": self.game.options.as_dict(),
            "settings": self.settings.as_dict(),
            "lang": self.lang,
            "players": self.game.players,
            "status": self.status,
            "state_id": self.state_id,
            "seats": self.seats_json(),
            "free_seats": [i for i, s in enumerate(self.seats) if not s.taken],
            "spectators": self.spectator_count(),
            "created_at": self.created_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
            "seat_draw": self.seat_draw_json(),
            "timer": self.timer_json(),
            "rematch": self.rematch,
        }

    def timer_json(self) -> dict[str, int] | None:
        """The turn timer running now: whose turn, the turn time and the time left."""
        if self.turn_timer is None:
            return None
        (_, seat), timer = self.turn_timer
        return {"seat": seat} | timer.json(self.host.clock)

    def seat_draw_json(self) -> list[dict[str, Any]] | None:
        """The seat draw (R13-2) in seat order: who sits there, the seat taken before it
        and the cards drawn; None before the draw or where the variant has none."""
        if self.seat_draw is None:
            return None
        return [
            {
                "seat": i,
                "name": self.seats[i].name,
                "joined": d["joined"],
                "cards": list(d["cards"]),
            }
            for i, d in enumerate(self.seat_draw)
        ]

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return index
        return None

    @property
    def has_people(self) -> bool:
        return any(s.kind == "person" for s in self.seats)

    @property
    def awaiting_seat_draw(self) -> bool:
        """Whether the seat draw (R13-2) has yet to say who plays which seat."""
        return (
            self.variant.seating is not None and self.seat_draw is None and self.status == "waiting"
        )

    # -- views ------------------------------------------------------------------

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

    def window_json(self, seat: int | None) -> dict[str, Any] | None:
        window = self.window
        if window is None:
            return None
        left = max(0.0, window.ends_at - self.host.clock.now())
        mine = window.held.get(seat) if seat is not None else None
        return {
            "discarder": window.discarder,
            "seats": window.seats,
            "duration_ms": round(window.duration * 1000),
            "ends_in_ms": round(left * 1000),
            "my_call": action_json(mine) if mine else None,
        }

    def state_message(self, seat: int | None) -> str:
        view = self.view(seat)
        message = {
            "type": "state",
            "table_id": self.id,
            "state_id": self.state_id,
            "table": self.info(),
            "call_window": self.window_json(seat),
            "view": view_json(view),
            "fairness": self.fairness_json(seat),
        }
        if seat is not None and self.settings.hints:
            message["advice"] = state_advice(view)
        step = self.lay_down_step(view)
        if step is not None:
            message["lay_down"] = action_json(step)
        return dumps(message)

    def lay_down_step(self, view: PlayerView) -> Action | None:
        """The next step of the seat's best laying down, where the variant has one (its
        ``lay_down`` part) and the seat is to play: from the seat's own view only."""
        if view.seat is None or view.to_play != view.seat or not self.variant.has("lay_down"):
            return None
        step: Action | None = self.variant.part("lay_down")(view)
        return step

    # -- fair deals (docs/fairness.md) ---------------------------------------------

    @property
    def next_deal(self) -> int | None:
        """The number of the deal after the one in play (1 before any), if the game goes
        on."""
        return None if self.game.over else len(self.game.deals) + 1

    def fairness_json(self, seat: int | None) -> dict[str, Any]:
        """What a state shows of the fair deals: the unshuffled deck every deal shuffles,
        the deal in play (no secret), the last deal over (its secret revealed) and, for the
        next deal, its commitment and whether ``seat`` may contribute to it."""
        deals = self.game.deals
        playing = deals[-1].number if deals and not deals[-1].is_over else None
        ended = next((d.number for d in reversed(deals) if d.is_over), None)
        shown: dict[str, Any] = {
            "version": 1,
            "deck": self.unshuffled,
            "deal": None,
            "ended": None,
            "next": None,
        }
        if playing in self.fair:
            shown["deal"] = self.fair[playing].public(self.id, revealed=False)
        if ended in self.fair:
            shown["ended"] = self.fair[ended].public(self.id, revealed=True)
        number = self.next_deal
        if number in self.fair:
            fair = self.fair[number]
            mine = fair.contributions[seat] if seat is not None else None
            shown["next"] = {
                "deal": number,
                "commitment": fair.commitment.hex(),
                "open": self.takes_contribution(seat),
                "mine": mine.hex() if mine is not None else None,
            }
        return shown

    def takes_contribution(self, seat: int | None, config: SeatConfig | None = None) -> bool:
        """Whether ``seat`` (who sits there: ``config``, by default the seat's own) may
        contribute to the next deal now: a person's seat that has not yet, at a table not
        made with a fixed seed."""
        number = self.next_deal
        if seat is None or self.fixed_seed or number not in self.fair:
            return False
        config = config or self.seats[seat]
        return (
            config.kind == "person"
            and config.token_hash is not None
            and self.fair[number].contributions[seat] is None
        )

    def contribution(
        self, seat: int, entropy: bytes, config: SeatConfig | None = None
    ) -> tuple[int, list[bytes | None]] | None:
        """The next deal and its contributions with ``entropy`` added as ``seat``'s (its
        person: ``config``, by default the seat's own; the lock is held; nothing changes
        until the caller has stored them and calls :meth:`contributed`); None when that
        one is already in; :class:`Problem` when the seat may not contribute
        (``contribution_closed``, ``contributed_already``)."""
        number = self.next_deal
        fair = self.fair.get(number) if number is not None else None
        if fair is None:
            raise Problem("contribution_closed", "server.contribution_closed", status=409)
        given = fair.contributions[seat]
        if given is not None:
            if given == entropy:
                return None
            raise Problem("contributed_already", "server.contributed_already", status=409)
        if not self.takes_contribution(seat, config):
            raise Problem("contribution_closed", "server.contribution_closed", status=409)
        contributions = list(fair.contributions)
        contributions[seat] = entropy
        return fair.number, contributions

    def contributed(self, number: int, contributions: list[bytes | None]) -> None:
        self.fair[number].contributions = contributions

    async def contribute(self, seat: int, deal: int, entropy: bytes) -> None:
        """Take ``seat``'s contribution to deal ``deal`` (the next one), stored before it
        is acknowledged; :class:`Problem` if refused."""
        async with self.lock:
            if deal != self.next_deal:
                raise Problem("contribution_closed", "server.contribution_closed", status=409)
            change = self.contribution(seat, entropy)
            if change is None:
                return
            number, contributions = change
            table_id, texts = self.id, [c.hex() if c else None for c in contributions]
            try:
                await self.host.writer.run(
                    lambda s: Store.set_contributions(s, table_id, number, texts)
                )
            except Exception:
                log.exception("table %s: could not store a contribution", self.id)
                raise Problem("storage", "server.storage", status=503) from None
            self.contributed(number, contributions)
            self.send_state(seat)

    def draw_fair(self, number: int) -> FairDeal:
        """A new secret for deal ``number`` (not yet stored)."""
        seed = self.seed if self.fixed_seed else None
        return FairDeal.draw(self.id, number, self.game.players, seed)

    # -- sockets ------------------------------------------------------------------

    def attach(self, conn: Connection) -> None:
        """A socket joins the table: it gets the state, everyone else a presence update;
        a person who was away is back (their seat's stand-in bot stops)."""
        self.connections.add(conn)
        self.welcome(conn)
        conn.send(self.state_message(conn.seat))
        self.send_presence(but=conn)
        seat = conn.seat
        if seat is not None:
            grace = self.grace.pop(seat, None)
            if grace is not None:
                grace.call_off()
            if self.seats[seat].away:
                self.spawn(lambda: self.come_back(seat))

    def presence_message(self) -> str:
        """Who is connected and away, and how many watch: what changes when a socket comes
        or goes, sent instead of the whole state."""
        seats = [
            {k: s[k] for k in ("seat", "connected", "away", "thinking")} for s in self.seats_json()
        ]
        message = {
            "type": "presence",
            "table_id": self.id,
            "state_id": self.state_id,
            "seats": seats,
            "spectators": self.spectator_count(),
        }
        return dumps(message)

    def send_presence(self, *, but: Connection | None = None) -> None:
        text = self.presence_message()
        for conn in list(self.connections):
            if conn is not but:
                conn.send(text)

    def welcome(self, conn: Connection) -> None:
        seat = conn.seat
        conn.send_json(
            {
                "type": "welcome",
                "protocol": PROTOCOL,
                "table_id": self.id,
                "seat": seat,
                "name": self.seats[seat].name if seat is not None else None,
                "lang": conn.lang,
            }
        )

    def reseat(
        self, seats: list[SeatConfig], bots: dict[int, Bot], seat_draw: list[dict[str, Any]]
    ) -> None:
        """Seat everyone where the seat draw (R13-2) puts them, before the first action;
        each seat's sockets follow their player and are welcomed again to the new seat."""
        moved = {d["joined"]: seat for seat, d in enumerate(seat_draw)}
        self.seats, self.bots, self.seat_draw = seats, bots, seat_draw
        for conn in list(self.connections):
            if conn.seat is not None:
                conn.seat = moved[conn.seat]
                self.welcome(conn)

    def detach(self, conn: Connection) -> None:
        """A socket leaves: the others get a presence update; when it was the last of a
        person's seat, the grace period starts after which the stand-in plays for them."""
        self.connections.discard(conn)
        conn.close()
        if self.stopped:
            return
        self.send_presence()
        if conn.seat is not None:
            self.start_grace(conn.seat)
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
                await self._commit(seat, action)
                return "applied"
            if window is not None:
                self._check_answer(window, seat, action)
                try:  # stored before it is acknowledged: a restart keeps it
                    await self.host.writer.append_call(self.id, window.state_id, seat, str(action))
                except Exception:
                    log.exception("table %s: could not store %s's call", self.id, seat)
                    raise Problem("storage", "server.storage", status=503) from None
                window.hold(seat, action)
                return "call_pending"
            try:
                self.game.verify(seat, action)
            except IllegalAction as exc:
                raise Problem.from_illegal(exc) from None
            await self._commit(seat, action)
            return "applied"

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

    async def _commit(self, seat: int, action: Action) -> None:
        """Store, apply and announce a verified action (the lock is held)."""
        await self._store_and_apply(seat, action)
        self._maybe_open_window()
        if self.game.over:
            await self._finish()
        self.settle()
        if self.game.over and not self.connections:
            self.host.table_idle(self)

    async def _store_and_apply(self, seat: int, action: Action) -> None:
        """Store a verified action, then apply it (the lock is held)."""
        index, text = self.state_id, str(Play(seat, action))
        try:
            await self.host.writer.append_action(self.id, index, seat, text)
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
        if ended and not self.game.over:  # the last deal: table_finished says it
            self.host.deal_ended(self)

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
            await self.host.writer.run(write)
        except Exception:
            log.exception("table %s: could not store the deck of deal %d", self.id, number)
            raise self._break() from None
        self.fair.update({f.number: f for f in new})
        try:
            game.start_deal(deck)
        except Exception:
            log.exception("table %s: deal %d failed to start", self.id, number)
            raise self._break() from None

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
                self.bots[index] = self.host.stand_in(self, index, level)
            else:  # open for someone new: the stand-in plays until they join
                seats[index] = SeatConfig("person", away=True)
            self.stand_ins.pop(index, None)
        self.seats = seats
        self.host.seats_changed(self)
        return [s.stored() for s in seats]

    def _break(self) -> Problem:
        """The engine failed on an action already stored: this copy of the table stops,
        tells everyone at it, closes their sockets and leaves memory, so the next
        connection rebuilds the table from storage with that action applied."""
        self.stopped = self.broken = True
        problem = Problem("broken_table", "server.broken_table", status=500, table=self.id)
        for conn in list(self.connections):
            conn.send_json(
                {"type": "error", **problem.json(conn.lang), "state_id": self.state_id, "ref": None}
            )
            conn.close()
        self.host.table_broken(self)
        return problem

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
        self.host.table_finished(self)

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

    def settle(self) -> None:
        """After a change: start the bot to play, set the turn timer, tell everyone."""
        self.schedule()
        self._arm_turn()
        self.broadcast()

    def player_bot(self, seat: int) -> Bot | None:
        """The bot that plays ``seat`` now: a bot seat's, or the stand-in of a person who
        is away; None when a person plays it."""
        bot = self.bots.get(seat)
        if bot is None and self.seats[seat].away:
            bot = self.stand_ins.get(seat)
            if bot is None:
                bot = self.stand_ins[seat] = self.host.stand_in(self, seat)
        return bot

    def schedule(self) -> None:
        """Start the bot whose turn it is, if any (call with the lock held or at rest)."""
        if self.stopped or self.status != "playing" or self.window is not None:
            return
        seat = self.game.to_play
        if seat is None or self.player_bot(seat) is None:
            return
        if self.bot_task is not None and not self.bot_task.done():
            return
        state_id = self.state_id
        self.thinking = seat
        self.bot_task = self.spawn(lambda: self._bot_turn(seat, state_id))

    async def _bot_turn(self, seat: int, state_id: int) -> None:
        loop = asyncio.get_running_loop()
        clock = self.host.clock
        started = clock.now()
        view = self.view(seat)
        bot = self.player_bot(seat)
        if not view.legal_actions or bot is None:
            self.thinking = None
            return
        try:
            action = await loop.run_in_executor(self.host.bot_pool, bot.choose, view)
        except Exception:
            log.exception(
                "table %s: bot %s failed; it plays its first legal action", self.id, bot.name
            )
            action = view.legal_actions[0]
        delay = self.settings.bot_delay(self.host.bot_delay)
        if delay > 0:  # a pause people can follow, on the host's clock
            await clock.wait(asyncio.Event(), until=started + delay)
        async with self.lock:
            self.bot_task = None
            self.thinking = None
            if (
                self.state_id != state_id
                or self.window is not None
                or self.stopped
                or self.player_bot(seat) is not bot  # its person came back
            ):
                self._arm_turn()
                return
            if action not in view.legal_actions:
                log.warning(
                    "table %s: bot %s chose %s, not a legal action", self.id, bot.name, action
                )
                action = view.legal_actions[0]
            try:
                await self._commit(seat, action)
            except Problem as exc:
                log.warning("table %s: bot %s: %s", self.id, bot.name, exc)
                if exc.code == "storage":  # the database may be back in a moment
                    self.spawn(self._bots_again)

    async def _bots_again(self) -> None:
        """After a failed write: the bot whose turn it is plays again, a pause later."""
        clock = self.host.clock
        await clock.wait(asyncio.Event(), until=clock.now() + STORAGE_RETRY)
        async with self.lock:
            self.schedule()

    # -- absent players ------------------------------------------------------------------

    def _arm_turn(self) -> None:
        """Start the turn timer when a person is to play (once per turn), stop it when
        nobody is; when it runs out the stand-in bot plays for them (:meth:`_set_away`)."""
        seat = self.game.to_play if self.status == "playing" and self.window is None else None
        limit = self.settings.turn_time
        if seat is None or limit is None or self.stopped or self.player_bot(seat) is not None:
            self._stop_turn_timer()
            return
        key = (len(self.game.deals), seat)
        if self.turn_timer is not None and self.turn_timer[0] == key:
            return
        self._stop_turn_timer()
        timer = Timer.start(self.host.clock, limit)
        self.turn_timer = (key, timer)
        self.spawn(lambda: self._turn_time_up(timer, seat))

    def _stop_turn_timer(self) -> None:
        if self.turn_timer is not None:
            self.turn_timer[1].call_off()
            self.turn_timer = None

    async def _turn_time_up(self, timer: Timer, seat: int) -> None:
        if not await timer.expired(self.host.clock):
            return
        async with self.lock:
            if self.turn_timer is None or self.turn_timer[1] is not timer or self.stopped:
                return
            self.turn_timer = None
            await self._set_away(seat, True, N_("server.away_time"))

    def start_grace(self, seat: int) -> None:
        """A person's seat with nobody connected: after the grace period the stand-in
        plays it, unless they come back first."""
        config = self.seats[seat]
        if (
            config.kind != "person"
            or config.token_hash is None
            or config.away
            or seat in self.connected_seats()
            or seat in self.grace
            or self.game.over
            or self.stopped
        ):
            return
        timer = self.grace[seat] = Timer.start(self.host.clock, self.settings.grace)
        self.spawn(lambda: self._grace_over(timer, seat))

    async def _grace_over(self, timer: Timer, seat: int) -> None:
        if not await timer.expired(self.host.clock):
            return
        async with self.lock:
            if self.grace.get(seat) is not timer or self.stopped:
                return
            del self.grace[seat]
            if seat not in self.connected_seats() and not self.seats[seat].away:
                await self._set_away(seat, True, N_("server.away_left"))

    async def come_back(self, seat: int) -> None:
        """The person of an away seat is back: their seat is theirs to play again."""
        async with self.lock:
            if self.seats[seat].away and self.seats[seat].token_hash is not None:
                await self._set_away(seat, False)

    async def _set_away(self, seat: int, away: bool, why: str = N_("server.back")) -> None:
        """Mark ``seat`` away (its stand-in bot plays) or back, store it, tell everyone
        (the lock is held)."""
        self.seats[seat] = replace(self.seats[seat], away=away)
        stored, table_id = [c.stored() for c in self.seats], self.id
        try:
            await self.host.writer.run(lambda s: Store.set_seats(s, table_id, stored))
        except Exception:  # it holds in memory; a restart gives the seat its person back
            log.exception("table %s: could not store seat %d away=%s", self.id, seat, away)
        name = self.seats[seat].name or str(seat + 1)
        for conn in list(self.connections):
            text = t(why, conn.lang, name=name, bot=self.settings.stand_in)
            conn.send_json(
                {"type": "notice", "code": why.split(".")[-1], "seat": seat, "message": text}
            )
        if not away:
            self.stand_ins.pop(seat, None)
        self.settle()

    # -- the Rummy call window ---------------------------------------------------------

    def _maybe_open_window(self) -> None:
        """When the engine asks for answers to a call window, let every seat it asks
        answer at once (see the module docstring). After a discard no call can take, the
        people the engine would have asked get a window all the same, with only ``pass``
        to answer (a ``rummy K`` is refused with the rules' reason), so that a window
        opening tells nobody a call is possible."""
        deal = self.game.deal
        if deal is None or self.window is not None or self.status != "playing":
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
        people = any(self.player_bot(s) is None for s in seats)
        duration = self.host.call_window if people else 0.0
        window = CallWindow(
            discarder=discarder,
            seats=seats,
            answers=answers,
            state_id=self.state_id,
            duration=duration,
            ends_at=self.host.clock.now() + duration,
            blank=blank,
        )
        (state, stored), self.stored_calls = self.stored_calls, (-1, {})
        for seat, answer in stored.items():  # acknowledged before a restart
            if state == window.state_id and seat in seats and answer in window.answers:
                window.hold(seat, answer)
        self.window = window
        self.spawn(lambda: self._run_window(window))

    async def _run_window(self, window: CallWindow) -> None:
        bots = [(seat, bot) for seat in window.seats if (bot := self.player_bot(seat))]
        asks = self.spawn(partial(self._bot_answers, bots, window)) if bots else None
        await self.host.clock.wait(window.done, until=window.ends_at)
        if asks is not None:
            await asks
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
                    await self._finish()
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
                        self.tell_seat(
                            other,
                            {
                                "type": "call_lost",
                                "action": str(lost),
                                "winner": seat,
                                "state_id": self.state_id,
                            },
                        )
                break

    async def _bot_answers(self, bots: list[tuple[int, Bot]], window: CallWindow) -> None:
        """The bots' answers, one decision after another: a table holds at most one of
        the bot threads every table shares."""
        loop = asyncio.get_running_loop()
        for seat, bot in bots:
            view = self.view(seat)  # during the window: the seat's answers
            if not view.legal_actions:
                continue
            answer = await loop.run_in_executor(self.host.bot_pool, bot.choose, view)
            async with self.lock:
                if self.window is not window:
                    return
                window.hold(seat, answer if answer in window.answers else Pass())

    # -- life ---------------------------------------------------------------------

    def resume(self) -> None:
        """After a restart: reopen a call window the engine waits on; start bots and the
        turn timer; every person not yet back has the grace period to come back."""
        if self.status == "playing":
            self._maybe_open_window()
        for seat in range(len(self.seats)):
            self.start_grace(seat)
        self.settle()

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
