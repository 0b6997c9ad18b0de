"""A competition's login accounts as the organiser keeps them (docs/competition.md §5.2):
a referee's account made with a name and a password, the accounts listed with their
failed attempts, and a locked account or player's code unlocked."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from remikit.server.competition.auth import (
    Login,
    Logins,
    account_key,
    account_row,
    audit,
    check_password,
)
from remikit.server.competition.ledger import Ledger, known_player
from remikit.server.passwords import hash_password
from remikit.server.problems import Problem
from remikit.storage.competition import AccountRow, GuardRow


def account_json(account: AccountRow, guard: GuardRow | None) -> dict[str, Any]:
    return {
        "name": account.name,
        "role": account.role,
        "failures": 0 if guard is None else guard.failures,
        "locked": guard is not None and guard.locked,
    }


class Accounts:
    """The organiser's work on a competition's accounts and locks."""

    def __init__(self, ledger: Ledger, logins: Logins) -> None:
        self.ledger = ledger
        self.logins = logins

    async def listed(self, competition_id: str) -> list[dict[str, Any]]:
        """Every account, the organiser's first, then in the order they were made."""
        code = (await self.ledger.snapshot(competition_id)).competition.id

        def read(session: Session) -> list[dict[str, Any]]:
            rows = session.scalars(
                select(AccountRow)
                .where(AccountRow.competition_id == code)
                .order_by(AccountRow.role != "organiser", AccountRow.created_at)
            )
            guards = {
                g.subject: g
                for g in session.scalars(select(GuardRow).where(GuardRow.competition_id == code))
            }
            return [account_json(a, guards.get(f"account:{a.key}")) for a in rows]

        found: list[dict[str, Any]] = await self.ledger.read(read)
        return found

    async def account(self, competition_id: str, name: str) -> dict[str, Any]:
        key = account_key(name)
        found = [a for a in await self.listed(competition_id) if account_key(a["name"]) == key]
        if not found:
            raise Problem("unknown_account", "competition.unknown_account", status=404, name=name)
        return found[0]

    async def create(
        self, competition_id: str, login: Login, name: str, password: str
    ) -> dict[str, Any]:
        """A referee's account (``account_exists``, 409, for a name taken, whatever its
        case)."""
        check_password(password)
        stored = await asyncio.to_thread(hash_password, password)
        async with self.ledger.lock(competition_id):
            code = (await self.ledger.snapshot(competition_id)).competition.id
            taken = await self.ledger.read(lambda s: s.get(AccountRow, (code, account_key(name))))
            if taken is not None:
                raise Problem("account_exists", "competition.account_exists", status=409, name=name)
            row = account_row(code, name, "referee", stored)
            after = {"name": name, "role": "referee"}

            def write(session: Session) -> None:
                session.add(row)
                session.add(audit(code, login, "account.create", f"account:{name}", after=after))

            await self.ledger.writer.run(write)
        return await self.account(competition_id, name)

    async def unlock_account(self, competition_id: str, login: Login, name: str) -> dict[str, Any]:
        """Open an account its failed logins locked."""
        found = await self.account(competition_id, name)
        code = competition_id.upper()
        subject = f"account:{account_key(found['name'])}"
        row = audit(code, login, "account.unlock", f"account:{found['name']}")
        await self.logins.guard.unlock(code, subject, row)
        return await self.account(competition_id, name)

    async def unlock_player(self, competition_id: str, login: Login, pid: str) -> str:
        """Open a player's code that wrong codes locked; the player's id."""
        player = known_player(await self.ledger.snapshot(competition_id), pid)
        code = competition_id.upper()
        target = f"player:{player.id}"
        row = audit(code, login, "player.unlock", target)
        await self.logins.guard.unlock(code, target, row)
        return player.id
