"""Changing a round before it starts, and the pairings to avoid: a new seating of the
round (re-pair), two players swapped with the seating quality before and after, and the
pairs of players never to seat together (docs/competition.md §8).

A round may be changed only while it is the current round and ``seated``: no seat draw,
no entry, its timer never started. An online table's web table seats people as they
come, not by name, so a round whose online tables someone has sat down at is not
changed there (``online_joined``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import Session

from remikit.competition.seat_draw import POSITIONS
from remikit.competition.seating import assess
from remikit.server.competition.auth import Login, audit
from remikit.server.competition.ledger import Ledger, known_player
from remikit.server.competition.ranking import entrants
from remikit.server.competition.rounds import Rounds, quality_json
from remikit.server.competition.views import round_status, round_tables
from remikit.server.problems import Problem
from remikit.storage.competition import CompetitionRow, CompTableRow, RoundRow, Snapshot


def before_round(snap: Snapshot, number: int) -> Snapshot:
    """The competition as it was before round ``number`` was made."""
    return Snapshot(
        snap.competition,
        snap.players,
        {n: r for n, r in snap.rounds.items() if n < number},
        {k: t for k, t in snap.tables.items() if k[0] < number},
        {k: e for k, e in snap.entries.items() if k[0] < number},
    )


def clubs_apart(snap: Snapshot, number: int) -> bool:
    """Whether club-mates are kept apart in round ``number``."""
    c = snap.competition
    return c.clubs_every_round or (number == 1 and c.clubs_apart)


def round_quality(
    snap: Snapshot, number: int, tables: Sequence[Sequence[str | None]], byes: Sequence[str]
) -> dict[str, Any]:
    """The quality of round ``number`` seated at ``tables`` with ``byes``."""
    seated = [p for seats in tables for p in seats if p is not None]
    field = entrants(before_round(snap, number), [*seated, *byes])
    return quality_json(assess(tables, field, clubs=clubs_apart(snap, number)))


def avoid_json(competition: CompetitionRow) -> dict[str, Any]:
    return {
        "clubs_every_round": competition.clubs_every_round,
        "pairs": [list(p) for p in competition.avoid_pairs],
    }


@dataclass
class Swap:
    """Two players swapped in a round: the tables before and after, and their quality."""

    number: int
    before: dict[str, Any]
    after: dict[str, Any]
    tables: dict[int, list[str | None]]
    byes: list[str]


class Reseating:
    """Re-pairing and swapping in a round not started; the pairings to avoid."""

    def __init__(self, ledger: Ledger, rounds: Rounds) -> None:
        self.ledger = ledger
        self.rounds = rounds

    def unstarted(self, snap: Snapshot, number: int) -> list[CompTableRow]:
        """The tables of round ``number``, else ``unknown_round`` (404) or
        ``round_started`` (409) unless it is the current round and ``seated``."""
        if number not in snap.rounds:
            raise Problem("unknown_round", "competition.unknown_round", status=404, round=number)
        if number != snap.current_round or round_status(snap, number) != "seated":
            raise Problem("round_started", "competition.round_started", status=409, round=number)
        return round_tables(snap, number)

    def check_online(self, tables: Sequence[CompTableRow]) -> None:
        """``online_joined`` (409) when a person sits at the web table of one of ``tables``."""
        for table in tables:
            live = (
                None
                if table.web_table is None
                else self.rounds.online.hub.tables.get(table.web_table)
            )
            if live is not None and any(s.kind == "person" and s.taken for s in live.seats):
                raise Problem(
                    "online_joined", "competition.online_joined", status=409, table=table.number
                )

    # -- re-pair --------------------------------------------------------------------------

    async def repair(
        self, competition_id: str, login: Login, number: int, online: Sequence[int] | None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new seating of round ``number`` from the players checked in now (round 1 a new
        draw, later rounds Swiss), its online tables (``online``, else the same numbers)
        made again; the quality before and after."""
        async with self.ledger.lock(competition_id):
            snap = await self.ledger.snapshot(competition_id)
            old = self.unstarted(snap, number)
            self.check_online(old)
            row = snap.rounds[number]
            wanted = sorted(set(row.seating.get("online_tables", []) if online is None else online))
            made, rows, after = await self.rounds.build(before_round(snap, number), number, wanted)
            made.timer, made.created_at = row.timer, row.created_at
            code = snap.competition.id
            before = {
                "byes": row.seating.get("byes", []),
                "quality": row.seating.get("quality", {}),
                "tables": [[t.number, [s["player"] for s in t.seats]] for t in old],
                "web_tables": [t.web_table for t in old if t.web_table],
            }

            def write(session: Session) -> None:
                session.execute(
                    delete(CompTableRow).where(
                        CompTableRow.competition_id == code, CompTableRow.round == number
                    )
                )
                stored = session.get(RoundRow, (code, number))
                assert stored is not None
                stored.seating, stored.secret = made.seating, made.secret  # new decks
                session.add_all(rows)
                session.add(
                    audit(
                        code, login, "round.repair", f"round:{number}", before=before, after=after
                    )
                )

            await self.ledger.writer.run(write)
            return before["quality"], made.seating["quality"]

    # -- swap ----------------------------------------------------------------------------

    async def swap(
        self, competition_id: str, login: Login, number: int, pair: Sequence[str], *, store: bool
    ) -> Swap:
        """Players ``pair`` exchange their places in round ``number`` (table and position,
        or a bye); stored only with ``store`` (else a preview)."""
        async with self.ledger.lock(competition_id):
            snap = await self.ledger.snapshot(competition_id)
            tables = self.unstarted(snap, number)
            a, b = (known_player(snap, pid).id for pid in pair)
            seats = {t.number: [s["player"] for s in t.seats] for t in tables}
            byes = list(snap.rounds[number].seating.get("byes", []))
            where = {pid: self._place(seats, byes, pid, number) for pid in (a, b)}
            if a == b or (where[a] is None and where[b] is None):
                raise Problem("bad_swap", "competition.bad_swap", status=400)
            moved = [t for t in tables if t.number in {w[0] for w in where.values() if w}]
            self.check_online([t for t in moved if t.kind == "online"])
            before = round_quality(snap, number, list(seats.values()), byes)
            new_seats = {n: list(s) for n, s in seats.items()}
            new_byes = list(byes)
            for pid, other in ((a, b), (b, a)):
                spot = where[pid]
                if spot is None:
                    new_byes[new_byes.index(pid)] = other
                else:
                    new_seats[spot[0]][spot[1]] = other
            after = round_quality(snap, number, list(new_seats.values()), new_byes)
            swap = Swap(number, before, after, new_seats, new_byes)
            if store:
                await self._store(snap, login, swap, (a, b), moved)
            return swap

    def _place(
        self, seats: dict[int, list[str | None]], byes: list[str], pid: str, number: int
    ) -> tuple[int, int] | None:
        """Where ``pid`` sits in the round (table, position index), None for a bye; else
        ``not_in_round`` (400)."""
        for table, players in seats.items():
            if pid in players:
                return table, players.index(pid)
        if pid in byes:
            return None
        raise Problem("not_in_round", "competition.not_in_round", player=pid, round=number)

    async def _store(
        self,
        snap: Snapshot,
        login: Login,
        swap: Swap,
        pair: tuple[str, str],
        moved: Sequence[CompTableRow],
    ) -> None:
        code, number = snap.competition.id, swap.number
        names = {p.id: p.name for p in snap.players.values()}
        place = {
            pid: [
                [t, POSITIONS[i]]
                for t, s in swap.tables.items()
                for i, p in enumerate(s)
                if p == pid
            ]
            for pid in pair
        }
        after = {"players": list(pair), "places": place, "quality": swap.after}

        def write(session: Session) -> None:
            for table in moved:
                stored = session.get(CompTableRow, (code, number, table.number))
                assert stored is not None
                stored.seats = [
                    seat | {"player": pid, "name": names[pid] if pid else seat["name"]}
                    for seat, pid in zip(stored.seats, swap.tables[table.number], strict=True)
                ]
            row = session.get(RoundRow, (code, number))
            assert row is not None
            row.seating = row.seating | {"byes": swap.byes, "quality": swap.after}
            before = {"quality": swap.before}
            session.add(
                audit(code, login, "round.swap", f"round:{number}", before=before, after=after)
            )

        await self.ledger.writer.run(write)

    # -- pairings to avoid -------------------------------------------------------------------

    async def set_avoid(
        self, competition_id: str, login: Login, clubs: bool, pairs: Sequence[Sequence[str]]
    ) -> dict[str, Any]:
        """Keep club-mates apart every round (``clubs``) and the named ``pairs`` apart in
        the rounds made from now on; ``bad_pair`` (400) for a pair not of two players."""
        async with self.ledger.lock(competition_id):
            snap = await self.ledger.snapshot(competition_id)
            order = {p.id: p.number for p in snap.players.values()}
            cleaned: set[tuple[str, ...]] = set()
            for pair in pairs:
                ids = sorted({known_player(snap, pid).id for pid in pair}, key=order.__getitem__)
                if len(ids) != 2 or len(pair) != 2:
                    raise Problem("bad_pair", "competition.bad_pair", pair=" ".join(pair))
                cleaned.add(tuple(ids))
            chosen = [list(p) for p in sorted(cleaned, key=lambda p: [order[i] for i in p])]
            c = snap.competition
            before = avoid_json(c)
            after = {"clubs_every_round": clubs, "pairs": chosen}

            def write(session: Session) -> None:
                row = session.get(CompetitionRow, c.id)
                assert row is not None
                row.clubs_every_round, row.avoid_pairs = clubs, chosen
                target = f"competition:{c.id}"
                session.add(audit(c.id, login, "avoid.set", target, before=before, after=after))

            await self.ledger.writer.run(write)
            return after
