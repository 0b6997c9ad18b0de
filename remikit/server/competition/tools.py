"""The organiser's tools (docs/competition.md §8): many players registered or checked
in at once, a whole competition exported and imported, the archive, and deleting a
competition. Each change is one transaction: all of it stored, or nothing."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from remikit.competition.player_csv import NewPlayer
from remikit.server.competition.auth import Login, Logins, audit, login_row
from remikit.server.competition.auth import new_code as new_player_code
from remikit.server.competition.ledger import Ledger, known_player
from remikit.server.competition.transfer import BadFile, check, delete_rows, export, import_rows
from remikit.server.problems import Problem
from remikit.storage.competition import (
    AccountRow,
    AuditRow,
    CompetitionRow,
    PlayerRow,
    Snapshot,
)
from remikit.storage.store import now

log = logging.getLogger("remikit.server")
AUDIT_COLUMNS = [c.key for c in AuditRow.__table__.columns if c.key != "id"]


def add_audit(session: Session, rows: Sequence[AuditRow]) -> None:
    """Many audit rows in one insert, in their order."""
    if rows:
        values = [{key: getattr(row, key) for key in AUDIT_COLUMNS} for row in rows]
        session.execute(insert(AuditRow), values)


class Tools:
    """The organiser's tools on a competition's ledger; ``new_code`` draws a competition
    code no competition has; ``logins`` say how long a login lasts."""

    def __init__(
        self, ledger: Ledger, new_code: Callable[[], Awaitable[str]], logins: Logins
    ) -> None:
        self.ledger = ledger
        self.new_code = new_code
        self.logins = logins

    async def register(
        self, competition_id: str, login: Login, players: Sequence[NewPlayer], *, check_in: bool
    ) -> list[PlayerRow]:
        """Register ``players`` (checked in at once with ``check_in``), in their order."""
        async with self.ledger.lock(competition_id):
            snap = await self.ledger.snapshot(competition_id)
            code, late = snap.competition.id, bool(snap.rounds)
            first = max((p.number for p in snap.players.values()), default=0) + 1
            status = "checked_in" if check_in else "registered"
            rows = [
                PlayerRow(
                    competition_id=code,
                    id=f"P{number}",
                    number=number,
                    name=p.name,
                    club=p.club,
                    contact=p.contact,
                    status=status,
                    reason=None,
                    late=late,
                    created_at=now(),
                    code=new_player_code(),
                )
                for number, p in enumerate(players, start=first)
            ]

            def write(session: Session) -> None:
                session.add_all(rows)
                session.flush()
                logged: list[AuditRow] = []
                for row in rows:
                    target = f"player:{row.id}"
                    state: dict[str, Any] = {"name": row.name, "club": row.club}
                    state |= {"status": "registered", "late": late}
                    logged.append(audit(code, login, "player.register", target, after=state))
                    if check_in:
                        before = {"status": "registered", "reason": None}
                        after = {"status": "checked_in", "reason": None}
                        what = "player.check_in"
                        logged.append(audit(code, login, what, target, before=before, after=after))
                add_audit(session, logged)

            await self.ledger.writer.run(write)
            return rows

    async def check_in(
        self, competition_id: str, login: Login, pids: Sequence[str] | None
    ) -> list[str]:
        """Check in the players ``pids`` (None: every registered player); one not
        registered refuses them all (``bad_status``, 409)."""
        async with self.ledger.lock(competition_id):
            snap = await self.ledger.snapshot(competition_id)
            if pids is None:
                chosen = [p for p in snap.players.values() if p.status == "registered"]
            else:
                chosen = list(
                    {known_player(snap, pid).id: known_player(snap, pid) for pid in pids}.values()
                )
            for player in chosen:
                if player.status != "registered":
                    raise Problem(
                        "bad_status",
                        "competition.bad_status",
                        status=409,
                        player=player.name,
                        now=player.status,
                    )
            code, ids = snap.competition.id, [p.id for p in chosen]

            def write(session: Session) -> None:
                before = {"status": "registered", "reason": None}
                after = {"status": "checked_in", "reason": None}
                session.execute(
                    update(PlayerRow)
                    .where(PlayerRow.competition_id == code, PlayerRow.id.in_(ids))
                    .values(status="checked_in")
                )
                what = "player.check_in"
                add_audit(
                    session,
                    [
                        audit(code, login, what, f"player:{pid}", before=before, after=after)
                        for pid in ids
                    ],
                )

            await self.ledger.writer.run(write)
            return ids

    async def set_archived(self, competition_id: str, login: Login, archived: bool) -> Snapshot:
        """Put the competition in the archive (read-only) or take it out again."""
        code = competition_id.upper()
        async with self.ledger.locks.setdefault(code, asyncio.Lock()):
            snap = await self.ledger.snapshot(code)
            was = snap.competition.archived_at
            if (was is not None) == archived:
                return snap
            moment = now() if archived else None
            what = "competition.archive" if archived else "competition.unarchive"

            def write(session: Session) -> None:
                row = session.get(CompetitionRow, code)
                assert row is not None
                row.archived_at = moment
                before = {"archived": was is not None}
                after = {"archived": archived}
                session.add(
                    audit(code, login, what, f"competition:{code}", before=before, after=after)
                )

            await self.ledger.writer.run(write)
            return await self.ledger.snapshot(code)

    async def delete(self, competition_id: str, login: Login, confirm: str) -> str:
        """Delete the competition and every row of it when ``confirm`` repeats its name
        (else ``bad_confirmation``); the server's log keeps who did it."""
        code = competition_id.upper()
        async with self.ledger.locks.setdefault(code, asyncio.Lock()):
            snap = await self.ledger.snapshot(code)
            name = snap.competition.name
            if " ".join(confirm.split()).casefold() != name.casefold():
                raise Problem("bad_confirmation", "competition.bad_confirmation", name=name)
            await self.ledger.writer.run(lambda session: delete_rows(session, code))
            self.ledger.forget(code)
        log.warning("competition %s (%s) deleted by %s (%s)", code, name, login.name, login.role)
        return code

    async def export(self, competition_id: str) -> dict[str, Any]:
        code = (await self.ledger.snapshot(competition_id)).competition.id
        doc: dict[str, Any] = await self.ledger.read(lambda session: export(session, code))
        return doc

    async def import_event(self, doc: Any, token_hash: str) -> tuple[str, bool]:
        """Store an exported competition under its own code, or a new one when that is
        taken; its organiser's login is ``token_hash``. The code, and whether it is new."""
        try:
            check(doc)
        except BadFile as exc:
            raise Problem("bad_file", "competition.bad_file", what=exc.what) from None
        wanted = str(doc["competition"].get("id", ""))[:16].upper()
        wanted = wanted if wanted.isalnum() and wanted.isascii() else ""

        def taken(session: Session) -> bool:
            found = session.scalar(select(CompetitionRow.id).where(CompetitionRow.id == wanted))
            return not wanted or found is not None

        code = await self.new_code() if await self.ledger.read(taken) else wanted
        hours = doc["competition"].get("login_hours")
        expires = self.logins.expiry_after(hours if isinstance(hours, int) else None)

        def write(session: Session) -> None:
            import_rows(session, doc, code)
            session.flush()
            competition = session.get(CompetitionRow, code)
            account = session.scalars(
                select(AccountRow)
                .where(AccountRow.competition_id == code, AccountRow.role == "organiser")
                .order_by(AccountRow.created_at)
            ).first()
            if competition is None or account is None:
                raise ValueError("the file has no organiser's account")
            login = Login("organiser", account.name, token_hash, account.key)
            session.add(login_row(code, login, expires))

        try:
            await self.ledger.writer.run(write)
        except (SQLAlchemyError, ValueError, TypeError, KeyError) as exc:
            why = str(getattr(exc, "orig", None) or exc)[:200]
            raise Problem("bad_file", "competition.bad_file", what=why) from None
        log.info("competition %s imported as %s", wanted, code)
        return code, code != wanted
