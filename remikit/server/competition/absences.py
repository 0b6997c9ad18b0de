"""Storing what absences score (docs/competition.md §1): once a round is done, each
absence from it is given its value by the competition's declared rule, stored with an
audit row (``absence.give``), and never worked out again."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy.orm import Session

from remikit.server.competition.auth import Login, audit
from remikit.server.competition.ledger import Ledger
from remikit.server.competition.ranking import due_awards
from remikit.server.competition.views import round_done
from remikit.storage.competition import AbsenceRow, EntryRow, Snapshot
from remikit.storage.store import now


async def give(
    ledger: Ledger, snap: Snapshot, who: Login | str, confirmed: Iterable[EntryRow] = ()
) -> None:
    """Store the absences of the rounds done not given yet, under the competition's lock.
    ``confirmed``: entries just stored, which may have completed their round (nothing to
    do when none did)."""
    entries = list(confirmed)
    for entry in entries:
        snap.entries[(entry.round, entry.table, entry.game)] = entry
    if entries and not any(round_done(snap, number) for number in {e.round for e in entries}):
        return
    awards = due_awards(snap)
    if not awards:
        return
    code, moment = snap.competition.id, now()
    rows = [
        AbsenceRow(
            competition_id=code,
            round=a.round,
            player=a.player,
            kind=a.kind,
            rule=a.rule,
            points=a.points,
            games=a.games,
            created_at=moment,
        )
        for a in awards
    ]

    def write(session: Session) -> None:
        session.add_all(rows)
        for number in sorted({a.round for a in awards}):
            given = [a.json() for a in awards if a.round == number]
            session.add(audit(code, who, "absence.give", f"round:{number}", after=given))

    await ledger.writer.run(write)
    snap.absences.update({(row.round, row.player): row for row in rows})
