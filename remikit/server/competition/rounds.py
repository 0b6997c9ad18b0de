"""A competition's rounds: making the next one (its seating and tables, some online),
the seat draw at each physical table (R13-2) and the round timer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy.orm import Session

from remikit.competition.results import EntryRefused
from remikit.competition.seat_draw import POSITIONS, Redraw, drawn_cards, seats
from remikit.competition.seating import Quality, Seating, draw_first_round, seat_round
from remikit.fairness import round_seed
from remikit.server.clock import Clock
from remikit.server.competition.absences import give
from remikit.server.competition.auth import Login, audit
from remikit.server.competition.ledger import Ledger, known_table, refused
from remikit.server.competition.online import OnlineTables, round_secret
from remikit.server.competition.ranking import entrants
from remikit.server.competition.views import done_at, round_done
from remikit.server.problems import Problem
from remikit.storage.competition import CompTableRow, RoundRow, Snapshot, running_timers
from remikit.storage.store import now

DEFAULT_MINUTES = 90


def bots_online(
    tables: Sequence[tuple[int, list[str | None]]], online: Sequence[int]
) -> list[tuple[int, list[str | None]]]:
    """The tables numbered so that every table with bot seats is online: a bot table
    that is not swaps its number with an online table of people only."""
    numbers = {number: seats for number, seats in tables}
    offline_bots = [n for n, seats in tables if None in seats and n not in online]
    free = [n for n in sorted(online) if n in numbers and None not in numbers[n]]
    if len(free) < len(offline_bots):
        raise Problem("need_online", "competition.need_online", status=409)
    for bot_table, online_table in zip(offline_bots, free, strict=False):
        numbers[bot_table], numbers[online_table] = numbers[online_table], numbers[bot_table]
    return sorted(numbers.items())


def quality_json(q: Quality) -> dict[str, Any]:
    return {
        "repeat_meetings": q.repeat_meetings,
        "seat_imbalance": q.seat_imbalance,
        "club_clashes": q.club_clashes,
        "spread": q.spread,
        "avoid_clashes": q.avoid_clashes,
    }


class Rounds:
    """Every competition's rounds, their seat draws and their timers (on ``clock``)."""

    def __init__(self, ledger: Ledger, clock: Clock, online: OnlineTables) -> None:
        self.ledger = ledger
        self.clock = clock
        self.online = online
        self.timers: dict[tuple[str, int], float] = {}
        """The clock time each running round timer ends (a restart resumes them from
        the wall-clock time stored as their end)."""

    # -- the seat draw ------------------------------------------------------------------

    async def seat_draw(
        self, competition_id: str, login: Login, number: int, table: int, cards: Mapping[str, str]
    ) -> Sequence[str] | None:
        """One draw of R13-2 at a physical table (the first, or a redraw): the positions
        that must draw again (None once the draw is complete). A draw
        that leaves a tie is stored, and the caller answers ``redraw`` (409)."""
        async with self.ledger.lock(competition_id):
            snap = await self.ledger.snapshot(competition_id)
            row = known_table(snap, number, table)
            if row.kind == "online":
                raise Problem("online_table", "competition.online_table", status=409, table=table)
            if row.seat_draw is not None:
                raise Problem("seat_draw_done", "competition.seat_draw_done", status=409)
            draws = [*row.draws, {p.upper(): c for p, c in cards.items()}]
            pending: Sequence[str] | None = None
            try:
                result = seats(draws)
            except Redraw as again:
                pending, result = again.positions, {}
            except EntryRefused as exc:
                raise refused(exc) from None
            drawn = drawn_cards(draws)
            seat_draw = None
            if pending is None:
                by_position = {s["position"]: s["player"] for s in row.seats}
                seat_draw = [
                    {"position": p, "player": by_position[p], "cards": drawn[p], "seat": result[p]}
                    for p in POSITIONS
                ]
            key = (snap.competition.id, number, table)

            def write(session: Session) -> None:
                stored = session.get(CompTableRow, key)
                assert stored is not None
                stored.draws, stored.seat_draw = draws, seat_draw
                target = f"round:{number}/table:{table}"
                after = {"draws": draws, "seat_draw": seat_draw, "redraw": pending}
                session.add(audit(key[0], login, "seat_draw", target, after=after))

            await self.ledger.writer.run(write)
            return pending

    # -- the round timer --------------------------------------------------------------------

    def timer_json(
        self,
        competition_id: str,
        number: int,
        stored: Mapping[str, Any],
        done_at: datetime | None = None,
    ) -> dict[str, Any]:
        """``{minutes, running, ends_in_ms}`` while it runs, else ``{minutes, running,
        left_ms}``. A round done (at ``done_at``, its last confirmation) has its timer
        stopped at the time that was left then, ``done: true`` (unless the organiser
        set it going again since)."""
        minutes = stored.get("minutes", DEFAULT_MINUTES)
        since = stored.get("at")
        if done_at is not None and (since is None or datetime.fromisoformat(since) <= done_at):
            left = stored.get("left_ms", minutes * 60_000)
            if stored.get("running") and stored.get("ends_at"):
                spare = datetime.fromisoformat(stored["ends_at"]) - done_at
                left = max(0, round(spare.total_seconds() * 1000))
            return {"minutes": minutes, "running": False, "left_ms": left, "done": True}
        ends = self.timers.get((competition_id, number))
        if ends is None:
            left = stored.get("left_ms", minutes * 60_000)
            return {"minutes": minutes, "running": False, "left_ms": left}
        left = max(0, round((ends - self.clock.now()) * 1000))
        return {"minutes": minutes, "running": True, "ends_in_ms": left}

    async def timer(
        self, competition_id: str, login: Login, number: int, action: str, minutes: int | None
    ) -> dict[str, Any]:
        """Start (from the time left, or from ``minutes`` when given), pause or reset the
        round timer."""
        async with self.ledger.lock(competition_id):
            snap = await self.ledger.snapshot(competition_id)
            code = snap.competition.id
            row = snap.rounds.get(number)
            if row is None:
                raise Problem(
                    "unknown_round", "competition.unknown_round", status=404, round=number
                )
            shown = self.timer_json(code, number, row.timer)
            total = minutes or shown["minutes"]
            left = int(shown["ends_in_ms"] if shown["running"] else shown["left_ms"])
            if action == "reset" or minutes is not None:
                left = total * 60_000
            running = action == "start"
            timer = {
                "minutes": total,
                "left_ms": left,
                "running": running,
                "started": row.timer.get("started", False) or running,
                "at": now().isoformat(),
                # when it ends, on the wall clock: a restart resumes it from there
                "ends_at": (now() + timedelta(milliseconds=left)).isoformat() if running else None,
            }
            key = (code, number)

            def write(session: Session) -> None:
                stored = session.get(RoundRow, key)
                assert stored is not None
                stored.timer = timer
                session.add(audit(code, login, f"timer.{action}", f"round:{number}", after=timer))

            await self.ledger.writer.run(write)
            if running:
                self.timers[key] = self.clock.now() + left / 1000
            else:
                self.timers.pop(key, None)
            row.timer = timer
            return self.timer_json(code, number, timer, done_at(snap, number))

    async def resume_timers(self) -> None:
        """Resume the round timers that were running when the server stopped."""
        running: list[tuple[str, int, str]] = await self.ledger.read(running_timers)
        moment = now()
        for competition_id, number, ends_at in running:
            left = (datetime.fromisoformat(ends_at) - moment).total_seconds()
            self.timers[(competition_id, number)] = self.clock.now() + max(0.0, left)

    # -- rounds -----------------------------------------------------------------------------

    async def make_round(self, competition_id: str, login: Login, online: Sequence[int]) -> int:
        """The next round from the checked-in players: the seating (round 1 drawn, later
        rounds Swiss), the tables ``online`` made web tables (bot seats only there)."""
        async with self.ledger.lock(competition_id):
            snap = await self.ledger.snapshot(competition_id)
            c = snap.competition
            number = snap.current_round + 1
            if number > c.rounds:
                raise Problem(
                    "no_more_rounds", "competition.no_more_rounds", status=409, rounds=c.rounds
                )
            if number > 1 and not round_done(snap, number - 1):
                raise Problem(
                    "round_not_done", "competition.round_not_done", status=409, round=number - 1
                )
            made, rows, after = await self.build(snap, number, online)

            def write(session: Session) -> None:
                session.add(made)
                session.flush()
                session.add_all(rows)
                session.add(audit(c.id, login, "round.make", f"round:{number}", after=after))

            await self.ledger.writer.run(write)
            await give(self.ledger, await self.ledger.snapshot(c.id), login)  # late entries
            return number

    def seating(self, snap: Snapshot, number: int, online: Sequence[int]) -> Seating:
        """Round ``number``'s seating from the checked-in players of ``snap`` (the rounds
        before it): round 1 drawn, later rounds Swiss, the pairings to avoid honoured."""
        c = snap.competition
        ids = [p.id for p in snap.players.values() if p.status == "checked_in"]
        fill: Literal["bots", "byes"] = "bots" if c.fill == "bots" else "byes"
        if fill == "bots" and len(ids) % 4 and not online:
            raise Problem("need_online", "competition.need_online", status=409)
        field = entrants(snap, ids)
        try:
            if number == 1:
                return draw_first_round(
                    field,
                    fill=fill,
                    clubs_apart=c.clubs_apart or c.clubs_every_round,
                    online_capacity=len(online),
                )
            return seat_round(
                field, fill=fill, online_capacity=len(online), clubs_apart=c.clubs_every_round
            )
        except ValueError:
            raise Problem(
                "too_few_players", "competition.too_few_players", status=409, count=len(ids)
            ) from None

    async def build(
        self, snap: Snapshot, number: int, online: Sequence[int]
    ) -> tuple[RoundRow, list[CompTableRow], dict[str, Any]]:
        """Round ``number`` seated after the rounds of ``snap``: its row, its tables (the
        web tables of those ``online`` made) and what the audit log keeps of it."""
        c = snap.competition
        seating = self.seating(snap, number, online)
        beyond = [n for n in online if n > len(seating.tables)]
        if beyond:
            raise Problem(
                "bad_online_tables",
                "competition.bad_online_tables",
                table=beyond[0],
                tables=len(seating.tables),
            )
        tables = bots_online([(t.number, list(t.seats)) for t in seating.tables], online)
        names = {p.id: p.name for p in snap.players.values()}
        secret = round_secret() if c.duplicate else None  # docs/fairness.md §11
        rows = []
        for table_number, players in tables:
            web = None
            if table_number in online:
                web = await self.online.create(
                    title=f"Kompetisi {c.name} R{number} M{table_number}",
                    games=c.games,
                    bot_level=c.bot_level,
                    players=players,
                    seed=None if secret is None else round_seed(secret),
                )
            rows.append(
                CompTableRow(
                    competition_id=c.id,
                    round=number,
                    number=table_number,
                    kind="online" if web else "physical",
                    seats=[
                        {
                            "position": position,
                            "player": pid,
                            "bot": None if pid else c.bot_level,
                            "name": names[pid] if pid else "Bot",
                        }
                        for position, pid in zip(POSITIONS, players, strict=True)
                    ],
                    draws=[],
                    seat_draw=None,
                    web_table=web,
                )
            )
        plan = {
            "byes": list(seating.byes),
            "quality": quality_json(seating.quality),
            "seed": seating.seed,
            "online_tables": sorted(online),
        }
        timer = {
            "minutes": DEFAULT_MINUTES,
            "left_ms": DEFAULT_MINUTES * 60_000,
            "running": False,
        }
        made = RoundRow(
            competition_id=c.id,
            number=number,
            seating=plan,
            timer=timer,
            created_at=now(),
            secret=None if secret is None else secret.hex(),
        )
        after = plan | {"tables": [[t.number, [s["player"] for s in t.seats]] for t in rows]}
        return made, rows, after
