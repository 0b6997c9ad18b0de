"""Who plays a seat, changed during a game: a person moves their seat to another device
with a one-time code, and the table's creator replaces a seat whose person is away by a
bot or opens it for someone new, from the next deal on.

A move code is valid once, for :data:`MOVE_CODE_SECONDS` on the host's clock, and only
its hash is kept (in memory: a restart forgets unused codes). Claiming it gives the seat
a new token; the old one stops working and the old device's sockets are closed.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from remikit.server.problems import Problem
from remikit.server.tables.events import Changed, SeatMoved, SeatsChanged
from remikit.server.tables.seats import SeatConfig, hash_token
from remikit.storage import Store

if TYPE_CHECKING:
    from remikit.server.tables.service import Table

MOVE_CODE_SECONDS = 600.0


def check_owner(table: Table, owner_token: str) -> None:
    """The problem ``not_owner`` unless ``owner_token`` is the table creator's."""
    digest = hash_token(owner_token)
    if table.owner_hash is None or not hmac.compare_digest(table.owner_hash, digest):
        raise Problem("not_owner", "server.not_owner", status=403, table=table.id)


async def offer_move(table: Table, token: str) -> str:
    """A one-time code that moves the seat of ``token`` to whoever claims it."""
    async with table.lock:
        seat = table.seat_for_token(token)
        if seat is None:
            raise Problem("bad_token", "server.bad_token", status=403, table=table.id)
        code = secrets.token_urlsafe(12)
        table.move_codes[hash_token(code)] = (seat, table.clock.now() + MOVE_CODE_SECONDS)
        return code


async def claim_move(table: Table, code: str) -> tuple[int, str]:
    """The seat a move code was made for and its new token; the code is spent."""
    async with table.lock:
        seat, ends_at = table.move_codes.pop(hash_token(code), (None, 0.0))
        if seat is None or table.clock.now() > ends_at:
            raise Problem("bad_move_code", "server.bad_move_code", status=403, table=table.id)
        token = secrets.token_urlsafe(32)
        seats = list(table.seats)
        back = seats[seat].back(table.actions, seat)  # the profile and its count stay
        seats[seat] = replace(back, token_hash=hash_token(token), then=None)
        await _store_seats(table, seats)
        table.emit(SeatMoved(seat))  # the old device's sockets are let go
        table.seats = seats
        table.stand_ins.pop(seat, None)
        table.emit(SeatsChanged())
        table.settle()
        return seat, token


async def replace_seat(
    table: Table, seat: int, kind: Literal["bot", "person"], level: str | None
) -> None:
    """From the next deal on, ``seat`` (whose person is away) is played by a bot of
    ``level`` or is open for a new person (the stand-in plays it until one joins)."""
    async with table.lock:
        if not 0 <= seat < len(table.seats):
            raise Problem("bad_seat", "server.no_seat", seat=seat + 1)
        config = table.seats[seat]
        if config.kind != "person" or not config.away:
            raise Problem("not_away", "server.not_away", status=409, seat=seat + 1)
        if table.status == "finished":
            raise Problem("not_away", "server.not_away", status=409, seat=seat + 1)
        seats = list(table.seats)
        seats[seat] = replace(
            config, then={"kind": kind, "level": level if kind == "bot" else None}
        )
        await _store_seats(table, seats)
        table.seats = seats
        table.emit(Changed())


async def _store_seats(table: Table, seats: list[SeatConfig]) -> None:
    stored, table_id = [s.stored() for s in seats], table.id
    try:
        await table.writer.run(
            lambda session: Store.set_seats(session, table_id, stored), table=table_id
        )
    except Exception:
        raise Problem("storage", "server.storage", status=503) from None
