"""Failed attempts at a competition's secrets (docs/competition.md §5.2): an account's
password and a player's confirmation code.

Each secret (a *subject*: ``account:KEY`` or ``player:P3``) may fail :data:`FREE` times
in a row; after that each attempt waits 2, 4, 8, … seconds after the last failure
(``slow_down``, 429 with ``Retry-After``), and the :data:`LOCK`-th failure locks it
until the organiser unlocks it (``locked``, 423). The competition as a whole counts
every failure there too (an unknown account's name included): after :data:`FIELD_FREE`
of them, each attempt waits the same way, at most :data:`FIELD_CAP` seconds, until
:data:`QUIET` seconds pass without one. The counts and locks of subjects are stored;
when each last failed is kept in memory on the server's clock.
"""

from __future__ import annotations

import math
from typing import Any

from sqlalchemy.orm import Session

from remikit.server.clock import Clock
from remikit.server.competition.ledger import Ledger
from remikit.server.problems import Problem
from remikit.storage.competition import AuditRow, GuardRow

FREE = 3
"""Failures of one secret in a row before each attempt waits."""
LOCK = 10
"""Failures of one secret in a row that lock it until the organiser unlocks it."""
FIELD_FREE = 10
"""Failures at one competition before each attempt there waits."""
FIELD_CAP = 60.0
"""The longest a competition-wide wait lasts (seconds)."""
QUIET = 900.0
"""Seconds without a failure after which a competition's count starts again."""


def pause(failures: int, free: int) -> float:
    """Seconds an attempt waits after ``failures`` failures: none for the first ``free``,
    then 2, 4, 8, …"""
    return 0.0 if failures < free else float(2 ** (failures - free + 1))


class Guard:
    """The failed attempts of every competition's secrets."""

    def __init__(self, ledger: Ledger, clock: Clock) -> None:
        self.ledger = ledger
        self.clock = clock
        self.last: dict[tuple[str, str], float] = {}
        """When each subject last failed, on the clock."""
        self.field: dict[str, tuple[int, float]] = {}
        """Each competition's failures since it was last quiet, and when the last was."""

    async def row(self, competition_id: str, subject: str) -> GuardRow | None:
        found: GuardRow | None = await self.ledger.read(
            lambda s: s.get(GuardRow, (competition_id, subject))
        )
        return found

    def _field(self, competition_id: str) -> tuple[int, float]:
        count, at = self.field.get(competition_id, (0, -math.inf))
        return (0, at) if self.clock.now() - at >= QUIET else (count, at)

    async def check(self, competition_id: str, subject: str | None) -> None:
        """Refuse an attempt at ``subject`` (None: a secret nobody has) that comes too
        early (``slow_down``, 429) or at a locked secret (``locked``, 423)."""
        failures = 0
        if subject is not None:
            row = await self.row(competition_id, subject)
            if row is not None and row.locked:
                raise Problem("locked", "competition.locked", status=423)
            failures = 0 if row is None else row.failures
        now = self.clock.now()
        waits = [0.0]
        last = None if subject is None else self.last.get((competition_id, subject))
        if last is not None:
            waits.append(last + pause(failures, FREE) - now)
        count, at = self._field(competition_id)
        waits.append(at + min(pause(count, FIELD_FREE), FIELD_CAP) - now)
        wait = math.ceil(max(waits))
        if wait > 0:
            raise Problem(
                "slow_down",
                "competition.slow_down",
                status=429,
                headers={"Retry-After": str(wait)},
                seconds=wait,
            )

    async def failed(self, competition_id: str, subject: str | None, lock: AuditRow) -> None:
        """Count a failed attempt; the :data:`LOCK`-th in a row locks ``subject``, with
        ``lock`` in the audit log."""
        now = self.clock.now()
        count, _ = self._field(competition_id)
        self.field[competition_id] = (count + 1, now)
        if subject is None:
            return
        self.last[(competition_id, subject)] = now

        def write(session: Session) -> None:
            row = session.get(GuardRow, (competition_id, subject))
            if row is None:
                row = GuardRow(competition_id=competition_id, subject=subject, failures=0)
                row.locked = False
                session.add(row)
            row.failures += 1
            if row.failures >= LOCK and not row.locked:
                row.locked = True
                lock.after = {"failures": row.failures, "locked": True}
                session.add(lock)

        await self.ledger.writer.run(write)

    async def passed(self, competition_id: str, subject: str) -> None:
        """A right attempt: the failures of ``subject`` start again from none."""
        self.last.pop((competition_id, subject), None)
        row = await self.row(competition_id, subject)
        if row is not None and row.failures:
            await self.ledger.writer.run(lambda s: self._clear(s, competition_id, subject))

    @staticmethod
    def _clear(session: Session, competition_id: str, subject: str) -> dict[str, Any] | None:
        row = session.get(GuardRow, (competition_id, subject))
        if row is None:
            return None
        before = {"failures": row.failures, "locked": row.locked}
        row.failures, row.locked = 0, False
        return before

    async def unlock(self, competition_id: str, subject: str, audit: AuditRow) -> None:
        """Open a locked secret and forget its failures, with ``audit`` in the log."""
        self.last.pop((competition_id, subject), None)

        def write(session: Session) -> None:
            audit.before = self._clear(session, competition_id, subject)
            audit.after = {"failures": 0, "locked": False}
            session.add(audit)

        await self.ledger.writer.run(write)
