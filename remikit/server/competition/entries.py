"""A physical table's games as referees enter them (docs/competition.md): an entry
scored from cards or given as points, confirmed by a second person, corrected with a
reason; each change in the audit log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC
from typing import Any, cast

from sqlalchemy.orm import Session

from remikit.competition.results import EntryRefused, GameResult, points_result, score_cards
from remikit.errors import Reason
from remikit.server.competition.absences import give
from remikit.server.competition.auth import Login, audit, code_matches
from remikit.server.competition.guard import Guard
from remikit.server.competition.ledger import Ledger, known_player, known_table, refused
from remikit.server.competition.views import game_players
from remikit.server.problems import Problem
from remikit.storage.competition import (
    CompTableRow,
    EntryRow,
    LoginRow,
    PlayerRow,
    Snapshot,
    find_entry,
)
from remikit.storage.store import now


def entry_state(entry: EntryRow | None) -> dict[str, Any] | None:
    """What the audit log keeps of an entry before and after a change."""
    if entry is None:
        return None
    return {
        "entry": entry.id,
        "points": list(entry.points),
        "closer": entry.closer,
        "closing": entry.closing,
        "confirmed_by": entry.confirmed_by,
    }


def new_entry(
    snap: Snapshot,
    key: tuple[int, int, int],
    result: GameResult,
    players: Sequence[str | None],
    body: Mapping[str, Any],
    entered_by: str,
    login: str | None,
) -> EntryRow:
    return EntryRow(
        competition_id=snap.competition.id,
        round=key[0],
        table=key[1],
        game=key[2],
        kind="cards" if body.get("hands") is not None else "points",
        players=list(players),
        points=list(result.points),
        closer=result.closer,
        closing=result.closing,
        hands=body.get("hands"),
        arrangements=[a.json() for a in result.arrangements],
        entered_by=entered_by,
        entered_login=login,
        reason=body.get("reason"),
        current=True,
        created_at=now(),
    )


def game_result(body: Mapping[str, Any], names: Sequence[str] = ()) -> GameResult:
    """The game an entry's body gives: cards scored, or scores entered directly. A
    refusal that concerns one hand names its seat and player (``names``, by game seat)
    and carries the game seat (0–3) as the error's ``seat``."""
    try:
        if body.get("hands") is not None:
            return score_cards(
                body["hands"], closer=body.get("closer"), closing=body.get("closing")
            )
        return points_result(body["points"], closer=body.get("closer"), closing=body.get("closing"))
    except EntryRefused as exc:
        if exc.hand is None or exc.hand >= len(names):
            raise refused(exc) from None
        why = Reason(exc.key, **cast(dict[str, Any], exc.params))
        name, seat = names[exc.hand], exc.hand + 1
        at = {"seat": exc.hand}
        raise Problem(
            exc.code, "competition.at_seat", extra=at, seat=seat, name=name, why=why
        ) from None


def enterable(snap: Snapshot, number: int, table: int, game: int) -> CompTableRow:
    """The table of a game that may be entered: ``unknown_game`` for a round not
    made, a table it lacks or a game beyond its games."""
    if number not in snap.rounds or not 1 <= game <= snap.competition.games:
        raise Problem(
            "unknown_game", "competition.unknown_game", round=number, table=table, game=game
        )
    row = known_table(snap, number, table)
    if row.kind == "online":
        raise Problem("online_table", "competition.online_table", status=409, table=table)
    return row


def seat_names(snap: Snapshot, players: Sequence[str | None]) -> list[str]:
    """The name of each game seat's player ("?" for a seat without one)."""
    return [snap.players[p].name if p in snap.players else "?" for p in players]


def already_entered(old: EntryRow) -> Problem:
    """``already_entered`` (409): the game has an entry not yet confirmed, and the body
    did not ask to replace it; the error says who entered it, when, and its id."""
    shown = {
        "entry": old.id,
        "entered_by": old.entered_by,
        "entered_at": old.created_at.replace(tzinfo=old.created_at.tzinfo or UTC).isoformat(),
    }
    return Problem(
        "already_entered",
        "competition.already_entered",
        status=409,
        extra=shown,
        name=old.entered_by,
    )


class Entries:
    """Entering, confirming and correcting the games of physical tables."""

    def __init__(self, ledger: Ledger, guard: Guard) -> None:
        self.ledger = ledger
        self.guard = guard

    async def enter(
        self,
        competition_id: str,
        login: Login,
        number: int,
        table: int,
        game: int,
        body: Mapping[str, Any],
        *,
        store: bool = True,
    ) -> EntryRow:
        """A game entered at a physical table: scored, stored, not yet counted. An entry
        not confirmed yet is replaced only when the body asks (``"replace": true``), else
        ``already_entered`` (409); the replaced one stays stored, not current. A
        confirmed one is refused (``confirmed``: correct it instead). Without ``store``,
        the entry as it would be (a preview: no id, nothing stored, never 409)."""
        async with self.ledger.lock(competition_id):
            snap = await self.ledger.snapshot(competition_id)
            row = enterable(snap, number, table, game)
            players = game_players(row)
            if players is None:
                raise Problem("no_seat_draw", "competition.no_seat_draw", status=409, table=table)
            key = (number, table, game)
            old = snap.entries.get(key)
            if old is not None and old.confirmed_by:
                raise Problem("confirmed", "competition.confirmed", entry=old.id)
            result = game_result(body, seat_names(snap, players))
            if store and old is not None and body.get("replace") is not True:
                raise already_entered(old)
            entry = new_entry(snap, key, result, players, body, login.name, login.token_hash)
            entry.replaces = None if old is None else old.id
            if not store:
                return entry
            target = f"round:{number}/table:{table}/game:{game}"
            return await self._store_entry(snap, login, "entry.enter", target, entry, old)

    async def _store_entry(
        self,
        snap: Snapshot,
        who: Login | str,
        what: str,
        target: str,
        entry: EntryRow,
        old: EntryRow | None,
    ) -> EntryRow:
        before = entry_state(old)
        code = snap.competition.id

        def write(session: Session) -> EntryRow:
            if old is not None:
                stored = session.get(EntryRow, old.id)
                assert stored is not None
                stored.current = False
            session.add(entry)
            session.flush()  # its id
            session.add(
                audit(
                    code,
                    who,
                    what,
                    target,
                    before=before,
                    after=entry_state(entry),
                    reason=entry.reason,
                )
            )
            return entry

        stored: EntryRow = await self.ledger.writer.run(write)
        return stored

    async def entry(self, snap: Snapshot, entry_id: int) -> EntryRow:
        code = snap.competition.id
        found: EntryRow | None = await self.ledger.read(lambda s: find_entry(s, code, entry_id))
        if found is None:
            raise Problem("unknown_entry", "competition.unknown_entry", status=404, entry=entry_id)
        if not found.current:
            raise Problem("not_current", "competition.not_current", status=409, entry=entry_id)
        return found

    async def confirm(
        self,
        competition_id: str,
        login: Login,
        entry_id: int,
        player: str | None,
        code: str | None = None,
    ) -> EntryRow:
        """A second person confirms an entry: a player of its table with their code
        (typed at the referee's screen) or another account's login; never the account
        that entered it (``same_person``)."""
        async with self.ledger.lock(competition_id):
            snap = await self.ledger.snapshot(competition_id)
            entry = await self.entry(snap, entry_id)
            if entry.confirmed_by:
                raise Problem("confirmed", "competition.confirmed", entry=entry.id)
            if player is not None:
                found = known_player(snap, player)
                if found.id not in entry.players:
                    raise Problem("not_at_table", "competition.not_at_table", player=found.name)
                await self._player_code(snap, login, found, code)
                who = f"{found.name} ({found.id})"
            else:
                if await self._same_account(login, entry):
                    raise Problem("same_person", "competition.same_person", name=login.name)
                who = login.name
            before = entry_state(entry)
            code_id, moment = snap.competition.id, now()
            target = f"entry:{entry.id}"

            def write(session: Session) -> None:
                stored = session.get(EntryRow, entry.id)
                assert stored is not None
                stored.confirmed_by, stored.confirmed_at = who, moment
                after = entry_state(stored)
                session.add(
                    audit(code_id, login, "entry.confirm", target, before=before, after=after)
                )

            await self.ledger.writer.run(write)
            entry.confirmed_by, entry.confirmed_at = who, moment
            await give(self.ledger, snap, login, [entry])
            return entry

    async def _player_code(
        self, snap: Snapshot, login: Login, player: PlayerRow, code: str | None
    ) -> None:
        """A player's code checked: ``need_code`` without one; a wrong one is a failed
        attempt (``bad_code``, 403; the guard's slow-down and lock)."""
        if not code:
            raise Problem("need_code", "competition.need_code", player=player.name)
        cid, subject = snap.competition.id, f"player:{player.id}"
        await self.guard.check(cid, subject)
        if not code_matches(code, player.code):
            await self.guard.failed(cid, subject, audit(cid, login, "player.lock", subject))
            raise Problem("bad_code", "competition.bad_code", status=403, player=player.name)
        await self.guard.passed(cid, subject)

    async def _same_account(self, login: Login, entry: EntryRow) -> bool:
        """Whether ``login`` is of the account that entered ``entry`` (any of its
        tokens), or bears the name it was entered under."""
        if login.name.casefold() == entry.entered_by.casefold():
            return True
        digest = entry.entered_login
        if digest is None:
            return False
        if digest == login.token_hash:
            return True
        entering: LoginRow | None = await self.ledger.read(lambda s: s.get(LoginRow, digest))
        return entering is not None and entering.account == login.account

    async def correct(
        self, competition_id: str, login: Login, entry_id: int, body: Mapping[str, Any]
    ) -> EntryRow:
        """A referee corrects a confirmed entry, with a reason: a new entry that counts at
        once, the old one kept (``not_confirmed``, 409, for one not confirmed yet)."""
        async with self.ledger.lock(competition_id):
            snap = await self.ledger.snapshot(competition_id)
            old = await self.entry(snap, entry_id)
            if not old.confirmed_by:
                raise Problem(
                    "not_confirmed", "competition.not_confirmed", status=409, entry=old.id
                )
            result = game_result(body)
            key = (old.round, old.table, old.game)
            entry = new_entry(snap, key, result, old.players, body, login.name, login.token_hash)
            entry.replaces, entry.confirmed_by, entry.confirmed_at = old.id, login.name, now()
            return await self._store_entry(
                snap, login, "entry.correct", f"entry:{old.id}", entry, old
            )
