"""Who may do what at a competition: the organiser's and the referees' passwords and
sign-in, the login a request's token names, and the audit row that records who did it."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from remikit.server.competition.ledger import Ledger
from remikit.server.problems import Problem
from remikit.server.tables.seats import hash_token
from remikit.storage.competition import AuditRow, LoginRow
from remikit.storage.store import now

SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}


def hash_password(password: str) -> str:
    """``scrypt$SALT$HASH`` (hex) of a password, with a random salt."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, **SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def password_matches(password: str, stored: str) -> bool:
    _, salt, digest = stored.split("$")
    found = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), **SCRYPT)
    return hmac.compare_digest(found.hex(), digest)


@dataclass(frozen=True)
class Login:
    """Who a request's token says asks: ``organiser`` or ``referee``, and their name."""

    role: str
    name: str
    token_hash: str


def audit(
    competition_id: str,
    who: Login | str,
    what: str,
    target: str,
    *,
    before: Any = None,
    after: Any = None,
    reason: str | None = None,
) -> AuditRow:
    name, role = (who.name, who.role) if isinstance(who, Login) else (who, "web_table")
    return AuditRow(
        competition_id=competition_id,
        at=now(),
        who=name,
        role=role,
        what=what,
        target=target,
        before=before,
        after=after,
        reason=reason,
    )


def login_row(competition_id: str, login: Login) -> LoginRow:
    return LoginRow(
        token_hash=login.token_hash,
        competition_id=competition_id,
        role=login.role,
        name=login.name,
        created_at=now(),
    )


class Logins:
    """The organiser's and the referees' sign-in at each competition."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def login_of(self, competition_id: str, token: str | None) -> Login | None:
        """The login of ``token`` at this competition (None: no token or another's)."""
        if not token:
            return None
        digest = hash_token(token)
        found: LoginRow | None = await self.ledger.read(lambda s: s.get(LoginRow, digest))
        if found is None or found.competition_id != competition_id.upper():
            return None
        return Login(found.role, found.name, digest)

    async def require(
        self, competition_id: str, token: str | None, *, organiser: bool = False
    ) -> Login:
        """The login of ``token``: ``need_login`` (401) without one, ``organiser_only``
        (403) for a referee where ``organiser`` work is asked."""
        found = await self.login_of(competition_id, token)
        if found is None:
            raise Problem("need_login", "competition.need_login", status=401)
        if organiser and found.role != "organiser":
            raise Problem("organiser_only", "competition.organiser_only", status=403)
        return found

    async def login(self, competition_id: str, role: str, password: str, name: str) -> str:
        """A new token for ``role``; ``bad_password`` (403) for a wrong password."""
        snap = await self.ledger.snapshot(competition_id)
        stored = getattr(snap.competition, f"{role}_password")
        if not await asyncio.to_thread(password_matches, password, stored):
            raise Problem("bad_password", "competition.bad_password", status=403)
        token = secrets.token_urlsafe(32)
        login = Login(role, name, hash_token(token))
        code = snap.competition.id

        def write(session: Session) -> None:
            session.add(login_row(code, login))
            session.add(audit(code, login, "login", f"login:{role}"))

        await self.ledger.writer.run(write)
        return token
