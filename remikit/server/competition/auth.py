"""Who may do what at a competition: the accounts' passwords and sign-in (slowed down and
locked by :mod:`.guard` after failures), the login a request's token names until it
expires or logs out, players' confirmation codes, and the audit row that records who
did it."""

from __future__ import annotations

import asyncio
import functools
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from remikit.server.clock import Clock
from remikit.server.competition.guard import Guard
from remikit.server.competition.ledger import Ledger
from remikit.server.passwords import MIN_PASSWORD, hash_password, password_matches
from remikit.server.problems import Problem
from remikit.server.tables.seats import hash_token
from remikit.storage.competition import AccountRow, AuditRow, CompetitionRow, LoginRow
from remikit.storage.store import now

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""A player's code: letters and digits nobody mistakes for another (no 0 O 1 I L)."""
CODE_LENGTH = 6


def check_password(password: str) -> str:
    """A new password of at least :data:`MIN_PASSWORD` characters (``short_password``)."""
    if len(password) < MIN_PASSWORD:
        raise Problem("short_password", "competition.short_password", min=MIN_PASSWORD)
    return password


@functools.cache
def no_account_hash() -> str:
    """A hash the password tried at an unknown account is checked against, so that the
    answer takes as long as at an account."""
    return hash_password(secrets.token_urlsafe(16))


def new_code() -> str:
    """A player's confirmation code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def code_matches(given: str, code: str) -> bool:
    """A code as typed (any case, spaces ignored) against the player's."""
    typed = "".join(given.split()).upper()
    return hmac.compare_digest(typed.encode(), code.encode())


def account_key(name: str) -> str:
    """The key of an account's name: names equal but for case are one account."""
    return name.casefold()


@dataclass(frozen=True)
class Login:
    """Who a request's token says asks: ``organiser`` or ``referee``, their account's
    name and key."""

    role: str
    name: str
    token_hash: str
    account: str


def audit(
    competition_id: str,
    who: Login | str,
    what: str,
    target: str,
    *,
    before: Any = None,
    after: Any = None,
    reason: str | None = None,
    role: str = "web_table",
) -> AuditRow:
    """An audit row; ``who`` a login, or a name with its ``role``."""
    name, role = (who.name, who.role) if isinstance(who, Login) else (who, role)
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


def login_row(competition_id: str, login: Login, expires_at: datetime) -> LoginRow:
    return LoginRow(
        token_hash=login.token_hash,
        competition_id=competition_id,
        role=login.role,
        name=login.name,
        account=login.account,
        created_at=now(),
        expires_at=expires_at,
    )


def account_row(competition_id: str, name: str, role: str, stored: str) -> AccountRow:
    return AccountRow(
        competition_id=competition_id,
        key=account_key(name),
        name=name,
        role=role,
        password=stored,
        created_at=now(),
    )


def aware(moment: datetime) -> datetime:
    """SQLite gives naive datetimes back; they were stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class WallClock:
    """Wall time moving with the server's clock, so tests that move a manual clock on
    move the logins' expiry with it."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.start: tuple[datetime, float] | None = None

    def now(self) -> datetime:
        if self.start is None:
            self.start = (now(), self.clock.now())
        wall, then = self.start
        return wall + timedelta(seconds=self.clock.now() - then)


class Logins:
    """Sign-in to the accounts of each competition, and logging out."""

    def __init__(self, ledger: Ledger, clock: Clock, lifetime: float) -> None:
        self.ledger = ledger
        self.wall = WallClock(clock)
        self.guard = Guard(ledger, clock)
        self.lifetime = lifetime
        """Seconds a login lasts where its competition does not say (``login_hours``)."""
        self.locks: dict[str, asyncio.Lock] = {}

    def expiry(self, competition: CompetitionRow) -> datetime:
        """When a login made now expires."""
        return self.expiry_after(competition.login_hours)

    def expiry_after(self, hours: int | None) -> datetime:
        """When a login made now expires at a competition whose logins last ``hours``
        (None: the server's setting)."""
        seconds = self.lifetime if hours is None else hours * 3600.0
        return self.wall.now() + timedelta(seconds=seconds)

    async def login_of(self, competition_id: str, token: str | None) -> Login | None:
        """The login of ``token`` at this competition (None: no token, another's, one
        expired or logged out)."""
        if not token:
            return None
        digest = hash_token(token)
        found: LoginRow | None = await self.ledger.read(lambda s: s.get(LoginRow, digest))
        if found is None or found.competition_id != competition_id.upper():
            return None
        if found.ended_at is not None or aware(found.expires_at) <= self.wall.now():
            return None
        return Login(found.role, found.name, digest, found.account)

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

    async def login(
        self, competition_id: str, name: str, password: str, role: str | None = None
    ) -> tuple[str, Login, datetime]:
        """A new token of the account ``name`` (of ``role`` when given), its login and
        when it expires: ``bad_password`` (403) for a wrong password or name, and the
        guard's ``slow_down`` (429) and ``locked`` (423). One attempt at a time per
        competition; the password's hash is worked out off the event loop."""
        snap = await self.ledger.snapshot(competition_id)
        code = snap.competition.id
        key = account_key(name)
        async with self.locks.setdefault(code, asyncio.Lock()):
            account: AccountRow | None = await self.ledger.read(
                lambda s: s.get(AccountRow, (code, key))
            )
            subject = None if account is None else f"account:{key}"
            await self.guard.check(code, subject)
            stored = no_account_hash() if account is None else account.password
            right = await asyncio.to_thread(password_matches, password, stored)
            if account is None or not right or role not in (None, account.role):
                who = name if account is None else account.name
                lock = audit(code, who, "account.lock", f"account:{who}", role="guard")
                await self.guard.failed(code, subject, lock)
                raise Problem("bad_password", "competition.bad_login", status=403)
            assert subject is not None
            await self.guard.passed(code, subject)
        token = secrets.token_urlsafe(32)
        login = Login(account.role, account.name, hash_token(token), key)
        expires = self.expiry(snap.competition)

        def write(session: Session) -> None:
            session.add(login_row(code, login, expires))
            session.add(audit(code, login, "login", f"login:{login.role}"))

        await self.ledger.writer.run(write)
        return token, login, expires

    async def logout(self, competition_id: str, login: Login) -> None:
        """End a login: its token is refused from now on."""
        code = competition_id.upper()
        moment = self.wall.now()

        def write(session: Session) -> None:
            row = session.get(LoginRow, login.token_hash)
            assert row is not None
            row.ended_at = moment
            session.add(audit(code, login, "logout", f"login:{login.role}"))

        await self.ledger.writer.run(write)
