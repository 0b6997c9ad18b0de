"""The rules of a competition's service (docs/competition.md): who may do what, what
an entry, a confirmation and a correction change, and the audit log of it all.

:class:`Competitions` ties the parts: the sign-in (:mod:`.auth`), the entries
(:mod:`.entries`), the rounds (:mod:`.rounds`) and the online tables (:mod:`.online`),
each on the same :class:`~.ledger.Ledger`; it creates competitions and registers
and moves their players itself.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from remikit.server.competition.accounts import Accounts
from remikit.server.competition.auth import (
    Login,
    Logins,
    account_key,
    account_row,
    audit,
    login_row,
    new_code,
)
from remikit.server.competition.entries import Entries
from remikit.server.competition.ledger import Ledger, known_player
from remikit.server.competition.online import OnlineTables, TableHub, new_table_code
from remikit.server.competition.reseat import Reseating
from remikit.server.competition.rounds import Rounds
from remikit.server.competition.tools import Tools
from remikit.server.passwords import hash_password
from remikit.server.problems import Problem
from remikit.server.tables.seats import hash_token
from remikit.storage.competition import CompetitionRow, PlayerRow, Snapshot
from remikit.storage.store import now

PLAYER_MOVES: dict[str, tuple[tuple[str, ...], str]] = {
    "check_in": (("registered",), "checked_in"),
    "drop": (("registered", "checked_in"), "dropped"),
    "disqualify": (("registered", "checked_in", "dropped"), "disqualified"),
}
"""A change of a player's status: the statuses it may be made from, and the new one."""


class Competitions(Ledger):
    """Every competition of one server, on the tables' database, writer and clock."""

    def __init__(self, hub: TableHub) -> None:
        super().__init__(hub.store, hub.writer)
        self.hub = hub
        self.online = OnlineTables(self, hub)
        self.logins = Logins(self, hub.clock, hub.settings.login_expiry)
        self.accounts = Accounts(self, self.logins)
        self.entries = Entries(self, self.logins.guard)
        self.rounds = Rounds(self, hub.clock, self.online)
        self.reseating = Reseating(self, self.rounds)
        self.tools = Tools(self, self._new_code, self.logins)

    def watch(self) -> None:
        """Take the games of every online table as each of them ends."""
        self.online.watch()

    async def start(self) -> None:
        """Resume the round timers that were running; take the games of online tables
        that ended while the server was down."""
        await self.rounds.resume_timers()
        await self.online.start()

    async def close(self) -> None:
        await self.online.close()

    async def create(self, data: Mapping[str, Any]) -> tuple[Snapshot, str]:
        """A new competition, its organiser's account (and a first referee's account
        ``referee`` when ``referee_password`` is given), and the organiser's token."""
        passwords = {"organiser": data["organiser_password"], "referee": data["referee_password"]}
        given = {role: p for role, p in passwords.items() if p is not None}
        hashes = await asyncio.gather(
            *(asyncio.to_thread(hash_password, p) for p in given.values())
        )
        names = {"organiser": data["organiser_name"], "referee": "referee"}
        code = await self._new_code()
        secret = {"organiser_password", "referee_password", "organiser_name"}
        fields = {k: v for k, v in data.items() if k not in secret}
        token = secrets.token_urlsafe(32)
        row = CompetitionRow(id=code, **fields, created_at=now())
        accounts = [
            account_row(code, names[role], role, stored)
            for role, stored in zip(given, hashes, strict=True)
        ]
        login = Login(
            "organiser", names["organiser"], hash_token(token), account_key(names["organiser"])
        )
        expires = self.logins.expiry(row)

        def write(session: Session) -> None:
            session.add(row)
            session.flush()
            session.add_all(accounts)
            session.add(login_row(code, login, expires))
            session.add(
                audit(code, login, "competition.create", f"competition:{code}", after=fields)
            )
            for account in accounts:
                after = {"name": account.name, "role": account.role}
                target = f"account:{account.name}"
                session.add(audit(code, login, "account.create", target, after=after))

        await self.writer.run(write)
        return await self.snapshot(code), token

    async def _new_code(self) -> str:
        """A competition code no competition has (the alphabet of table codes)."""

        def taken(session: Session, code: str) -> bool:
            return session.get(CompetitionRow, code) is not None

        code = new_table_code()
        while await self.read(functools.partial(taken, code=code)):
            code = new_table_code()
        return code

    # -- players ----------------------------------------------------------------------

    async def add_player(
        self, competition_id: str, login: Login, name: str, club: str | None, contact: str | None
    ) -> PlayerRow:
        async with self.lock(competition_id):
            snap = await self.snapshot(competition_id)
            code = snap.competition.id
            number = len(snap.players) + 1
            player = PlayerRow(
                competition_id=code,
                id=f"P{number}",
                number=number,
                name=name,
                club=club,
                contact=contact,
                status="registered",
                reason=None,
                late=bool(snap.rounds),
                created_at=now(),
                code=new_code(),
            )
            state = {"name": name, "club": club, "status": "registered", "late": player.late}

            def write(session: Session) -> None:
                session.add(player)
                session.add(
                    audit(code, login, "player.register", f"player:{player.id}", after=state)
                )

            await self.writer.run(write)
            return player

    async def move_player(
        self, competition_id: str, login: Login, pid: str, move: str, reason: str | None
    ) -> PlayerRow:
        """Check in, drop or disqualify a player (R13-24); ``bad_status`` (409) when the
        player's status does not allow it."""
        async with self.lock(competition_id):
            snap = await self.snapshot(competition_id)
            player = known_player(snap, pid)
            allowed, status = PLAYER_MOVES[move]
            if player.status not in allowed:
                raise Problem(
                    "bad_status",
                    "competition.bad_status",
                    status=409,
                    player=player.name,
                    now=player.status,
                )
            before = {"status": player.status, "reason": player.reason}
            after = {"status": status, "reason": reason}
            key = (snap.competition.id, player.id)

            def write(session: Session) -> None:
                row = session.get(PlayerRow, key)
                assert row is not None
                row.status, row.reason = status, reason
                target = f"player:{key[1]}"
                session.add(
                    audit(
                        key[0],
                        login,
                        f"player.{move}",
                        target,
                        before=before,
                        after=after,
                        reason=reason,
                    )
                )

            await self.writer.run(write)
            player.status, player.reason = status, reason
            return player
