"""The sockets of each live table, and what they are sent.

A table's state message for a seat is built once per change and encoded once, whatever
the number of that seat's sockets (spectators share one). A socket that has the seat's
previous state gets only what changed since (a ``change``, docs/protocol.md §4.3); a
socket that has nothing to apply it to (it just connected, or asked with ``sync``) gets
the full state. Changes and presence updates made in one turn of the event loop go out
together, once.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from remikit.i18n import t
from remikit.server.problems import Problem
from remikit.server.serialize import PROTOCOL
from remikit.server.tables.events import (
    CallLost,
    Changed,
    Ended,
    Event,
    Notice,
    Presence,
    Reseated,
    SeatMoved,
)
from remikit.server.tables.service import Table
from remikit.server.transport.changes import diff
from remikit.server.transport.connection import Connection, dumps
from remikit.server.transport.messages import presence_json, state_json, table_info

Seat = int | None


@dataclass
class Sent:
    """The last state built for one seat: its rev, the message and its text."""

    rev: int
    message: dict[str, Any]
    text: str | None = None  # encoded when a socket first needs the whole of it

    def full(self) -> str:
        if self.text is None:
            m = self.message  # its rev after its state id, where a change leaves it
            head = {"type": m["type"], "table_id": m["table_id"], "state_id": m["state_id"]}
            self.text = dumps(head | {"rev": self.rev} | m)
        return self.text


@dataclass(eq=False)
class Room:
    """One table's sockets (by seat) and the last state each seat was sent."""

    table: Table
    sockets: dict[Seat, dict[Connection, None]] = field(default_factory=dict)  # oldest first
    sent: dict[Seat, Sent] = field(default_factory=dict)
    dirty: set[Seat] = field(default_factory=set)
    info: dict[str, Any] | None = None  # the table's info in the last states built
    presence: int = 0  # how many presence changes the table told of
    presence_sent: int = 0  # of them, how many the last presence message showed
    flushing: bool = False

    def __len__(self) -> int:
        return sum(map(len, self.sockets.values()))

    def connections(self) -> list[Connection]:
        return [conn for group in self.sockets.values() for conn in group]

    # -- sockets ---------------------------------------------------------------------

    def attach(self, conn: Connection, *, most: int = 0) -> None:
        """A socket joins: it is welcomed and gets the full state; the others a presence
        update; the table learns who is here. A seat holds at most ``most`` sockets (0:
        any number): the oldest is let go (``replaced``) for a new one."""
        group = self.sockets.setdefault(conn.seat, {})
        while conn.seat is not None and 0 < most <= len(group):
            oldest = next(iter(group))
            replaced = Problem("replaced", "server.replaced")
            oldest.send_json({"type": "error", **replaced.json(oldest.lang)})
            self.detach(oldest)
            group = self.sockets.setdefault(conn.seat, {})
        self.welcome(conn)
        self.table.arrive(conn.seat)
        self.flush()  # the others first: what changed, and who is here now
        group[conn] = None
        conn.presence = self.presence  # its state shows who is here
        self.send_full(conn)

    def detach(self, conn: Connection) -> None:
        """A socket leaves (or is let go): closed, and the table told."""
        group = self.sockets.get(conn.seat)
        if group is None or conn not in group:
            return
        del group[conn]
        if not group:
            del self.sockets[conn.seat]
            self.sent.pop(conn.seat, None)
        conn.close()
        self.table.leave(conn.seat)

    def welcome(self, conn: Connection) -> None:
        seat = conn.seat
        conn.send_json(
            {
                "type": "welcome",
                "protocol": PROTOCOL,
                "table_id": self.table.id,
                "seat": seat,
                "name": self.table.seats[seat].name if seat is not None else None,
                "lang": conn.lang,
            }
        )

    def send_full(self, conn: Connection) -> None:
        """The seat's current state, whole (a new socket, or one that asked ``sync``)."""
        self.flush()  # the seat's other sockets get what changed first: one base for all
        sent = self.sent.get(conn.seat) or self._build(conn.seat)
        conn.rev = sent.rev
        conn.send(sent.full())

    # -- what the table tells -----------------------------------------------------------

    def follow(self, table: Table, event: Event) -> None:
        """The room's listener on its table."""
        match event:
            case Changed(seat=None):
                self.dirty.update(self.sockets)
                self._soon()
            case Changed(seat=seat):
                self.dirty.add(seat)
                self._soon()
            case Presence():
                self.presence += 1
                self._soon()
            case Notice(key=key, seat=seat, params=params):
                self.flush()
                code = key.split(".")[-1]
                for conn in self.connections():
                    text = t(key, conn.lang, **params)
                    conn.send_json({"type": "notice", "code": code, "seat": seat, "message": text})
            case CallLost(seat=seat, action=action, winner=winner):
                self.flush()
                message = dumps(
                    {
                        "type": "call_lost",
                        "action": action,
                        "winner": winner,
                        "state_id": table.state_id,
                    }
                )
                for conn in self.sockets.get(seat, ()):
                    conn.send(message)
            case Reseated(moved=moved):
                self._reseat(moved)
            case SeatMoved(seat=seat):
                self.flush()
                for conn in list(self.sockets.get(seat, ())):
                    conn.send_json(
                        {"type": "error", **Problem("moved", "server.moved").json(conn.lang)}
                    )
                    self.detach(conn)  # the table counts it gone
            case Ended(problem=problem):
                self.flush()
                for conn in self.connections():
                    error = {"type": "error", **problem.json(conn.lang)}
                    conn.send_json(error | {"state_id": table.state_id, "ref": None})
                    conn.close()
                self.sockets.clear()
            case _:
                pass

    def _reseat(self, moved: dict[int, int]) -> None:
        """The seat draw moved everyone: each seat's sockets follow their player and are
        welcomed again to the new seat (the state of the new seat follows with the first
        deal)."""
        sockets, self.sockets = self.sockets, {}
        self.sent.clear()
        for seat, group in sockets.items():
            new = moved[seat] if seat is not None else None
            for conn in group:
                conn.seat, conn.rev = new, None
                self.sockets.setdefault(new, {})[conn] = None
                if new is not None:
                    self.welcome(conn)

    # -- sending -------------------------------------------------------------------

    def _soon(self) -> None:
        if not self.flushing:
            self.flushing = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Send what changed: each dirty seat's change (or state), then presence."""
        self.flushing = False
        dirty, self.dirty = self.dirty, set()
        info = None  # made once for all the seats
        for seat in dirty:
            group = self.sockets.get(seat)
            if group:
                info = info or self._info()
                self._send_change(seat, group, info)
        if self.presence > self.presence_sent:
            self.presence_sent = self.presence
            text = dumps(presence_json(self.table))
            for conn in self.connections():
                if conn.presence < self.presence:
                    conn.send(text)
                    conn.presence = self.presence

    def _info(self) -> dict[str, Any]:
        """The table's info now: the last one built while it is the same (a change then
        passes over it at once)."""
        info = table_info(self.table)
        if info != self.info:
            self.info = info
        return self.info

    def _build(self, seat: Seat, info: dict[str, Any] | None = None) -> Sent:
        old = self.sent.get(seat)
        message = state_json(self.table, seat, info or self._info())
        sent = Sent(old.rev + 1 if old else 1, message)
        self.sent[seat] = sent
        self.dirty.discard(seat)
        return sent

    def _send_change(self, seat: Seat, group: dict[Connection, None], info: dict[str, Any]) -> None:
        old = self.sent.get(seat)
        new = self._build(seat, info)
        change: str | None = None
        for conn in list(group):
            if old is not None and conn.rev == old.rev:
                if change is None:
                    ops = diff(old.message, new.message)
                    change = dumps(
                        {
                            "type": "change",
                            "table_id": self.table.id,
                            "state_id": self.table.state_id,
                            "rev": new.rev,
                            "base": old.rev,
                            "ops": ops,
                        }
                    )
                conn.send(change)
            else:
                conn.send(new.full())
            conn.rev = new.rev


class Rooms:
    """The room of every table with sockets, by table code."""

    def __init__(self) -> None:
        self.rooms: dict[str, Room] = {}

    def room(self, table: Table) -> Room:
        room = self.rooms.get(table.id)
        if room is None or room.table is not table:
            room = self.rooms[table.id] = Room(table)
            table.listen(room.follow)
        return room

    def leave(self, room: Room, conn: Connection) -> None:
        """``conn`` left ``room``; a room with no sockets left stops following its table."""
        room.detach(conn)
        if not len(room) and self.rooms.get(room.table.id) is room:
            del self.rooms[room.table.id]
            if room.follow in room.table.listeners:
                room.table.listeners.remove(room.follow)

    def close(self) -> None:
        for room in self.rooms.values():
            for conn in room.connections():
                conn.close()
        self.rooms.clear()
