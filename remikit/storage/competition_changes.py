"""A competition's snapshot brought up to date from its audit log.

Every change of a competition writes an audit row in the same transaction, so the
highest audit id of a competition stamps the state it is in. A snapshot taken at one
stamp is brought to a later one by reloading only the rows the audit rows since then
name (a player, a game's current entry, a table, a round); a change of another kind,
or many at once, is not followed here and the caller loads the competition again.
"""

from __future__ import annotations

import re
from dataclasses import replace

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from remikit.storage.competition import (
    AuditRow,
    CompetitionRow,
    CompTableRow,
    EntryRow,
    PlayerRow,
    RoundRow,
    Snapshot,
)

MAX_CHANGES = 64
"""More audit rows than this since a stamp: the competition is loaded again whole."""

GAME = re.compile(r"^round:(\d+)/table:(\d+)(?:/game:(\d+))?$")
ROUND = re.compile(r"^round:(\d+)$")


def stamp(session: Session, competition_id: str) -> int | None:
    """The competition's highest audit id, 0 before any (None: no such competition)."""
    found = session.scalar(
        select(func.max(AuditRow.id)).where(AuditRow.competition_id == competition_id)
    )
    if found is not None:
        return int(found)
    known = session.scalar(select(CompetitionRow.id).where(CompetitionRow.id == competition_id))
    return None if known is None else 0


def changes(session: Session, competition_id: str, since: int) -> list[AuditRow]:
    """The audit rows after ``since``, oldest first (at most ``MAX_CHANGES`` + 1)."""
    return list(
        session.scalars(
            select(AuditRow)
            .where(AuditRow.competition_id == competition_id, AuditRow.id > since)
            .order_by(AuditRow.id)
            .limit(MAX_CHANGES + 1)
        )
    )


def _game(snap: Snapshot, session: Session, key: tuple[int, int, int]) -> None:
    """The current entry of game ``key`` read again into ``snap.entries``."""
    code = snap.competition.id
    found = session.scalars(
        select(EntryRow).where(
            EntryRow.competition_id == code,
            EntryRow.round == key[0],
            EntryRow.table == key[1],
            EntryRow.game == key[2],
            EntryRow.current,
        )
    ).first()
    if found is None:
        snap.entries.pop(key, None)
    else:
        snap.entries[key] = found


def _table(snap: Snapshot, session: Session, number: int, table: int) -> bool:
    found = session.get(CompTableRow, (snap.competition.id, number, table))
    if found is None:
        return False
    snap.tables[(number, table)] = found
    return True


def _apply(snap: Snapshot, session: Session, row: AuditRow) -> bool:
    """Reload what ``row`` changed into ``snap``; False for a change not followed."""
    code, what, target = snap.competition.id, row.what, row.target
    if what == "login":
        return True
    if what.startswith("player.") and target.startswith("player:"):
        player = session.get(PlayerRow, (code, target.removeprefix("player:")))
        if player is None:
            return False
        snap.players[player.id] = player
        return True
    game = GAME.match(target)
    if what in ("entry.enter", "entry.web", "seat_draw") and game is not None:
        number, table = int(game[1]), int(game[2])
        if what != "entry.enter" and not _table(snap, session, number, table):
            return False
        if game[3] is not None:
            _game(snap, session, (number, table, int(game[3])))
        return what == "seat_draw" or game[3] is not None
    if what in ("entry.confirm", "entry.correct") and target.startswith("entry:"):
        entry = session.get(EntryRow, int(target.removeprefix("entry:")))
        if entry is None or entry.competition_id != code:
            return False
        _game(snap, session, (entry.round, entry.table, entry.game))
        return True
    whole_round = ROUND.match(target)
    if what.startswith("timer.") and whole_round is not None:
        found = session.get(RoundRow, (code, int(whole_round[1])))
        if found is None:
            return False
        snap.rounds[found.number] = found
        return True
    return False


def refreshed(session: Session, snap: Snapshot, rows: list[AuditRow]) -> Snapshot | None:
    """A new snapshot: ``snap`` with the changes of ``rows`` read again (``snap`` itself
    is left as it was, for whoever still reads it); None when a change is not followed
    or there are too many."""
    if len(rows) > MAX_CHANGES:
        return None
    fresh = replace(
        snap,
        players=dict(snap.players),
        rounds=dict(snap.rounds),
        tables=dict(snap.tables),
        entries=dict(snap.entries),
    )
    for row in rows:
        if not _apply(fresh, session, row):
            return None
    return fresh
