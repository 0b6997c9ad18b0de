"""The rules of a competition's service (docs/competition.md): who may do what, what
an entry, a confirmation and a correction change, and the audit log of it all.

Every change of one competition is made under its lock: the competition is read,
the change checked against it, then written through the server's
:class:`~remikit.server.writer.Writer` and committed before anyone is answered, so
a server killed at any moment loses nothing it acknowledged. A refused change
raises :class:`~remikit.server.problems.Problem` and stores nothing.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal, cast

from sqlalchemy.orm import Session

from remikit.competition.results import EntryRefused, GameResult, points_result, score_cards
from remikit.competition.seat_draw import POSITIONS, Redraw, drawn_cards, seats
from remikit.competition.seating import draw_first_round, seat_round
from remikit.server.clock import Clock
from remikit.server.competition.views import entrants, game_players, round_done
from remikit.server.competition.web import create_web_table, web_games, web_seat_draw
from remikit.server.hub import Hub, build_game, new_table_code
from remikit.server.live import LiveTable, hash_token
from remikit.server.problems import Problem
from remikit.storage import StoredTable
from remikit.storage.competition import (
    AuditRow,
    CompetitionRow,
    CompTableRow,
    EntryRow,
    LoginRow,
    PlayerRow,
    RoundRow,
    Snapshot,
    find_entry,
    load,
    online_tables,
    running_timers,
    unconfirmed_web_tables,
)
from remikit.storage.store import now

log = logging.getLogger("remikit.server")

SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
DEFAULT_MINUTES = 90
PLAYER_MOVES: dict[str, tuple[tuple[str, ...], str]] = {
    "check_in": (("registered",), "checked_in"),
    "drop": (("registered", "checked_in"), "dropped"),
    "disqualify": (("registered", "checked_in", "dropped"), "disqualified"),
}
"""A change of a player's status: the statuses it may be made from, and the new one."""


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


def refused(exc: EntryRefused) -> Problem:
    return Problem(exc.code, exc.key, **cast(dict[str, Any], exc.params))


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


class Competitions:
    """Every competition of one server, on the hub's database, writer and clock."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = hub.store
        self.writer = hub.writer
        self.clock: Clock = hub.clock
        self.locks: dict[str, asyncio.Lock] = {}
        self.timers: dict[tuple[str, int], float] = {}
        """The clock time each running round timer ends (a restart resumes them from
        the wall-clock time stored as their end)."""
        self.tasks: set[asyncio.Task[None]] = set()
        hub.waiting_kept.append(self.is_online_table)  # before the hub starts closing any

    async def is_online_table(self, code: str) -> bool:
        """Whether web table ``code`` is a competition's online table (it waits for its
        players however long the round takes)."""
        return bool(await self.read(lambda s: online_tables(s, code)))

    def lock(self, competition_id: str) -> asyncio.Lock:
        return self.locks.setdefault(competition_id.upper(), asyncio.Lock())

    async def read(self, work: Callable[[Session], Any]) -> Any:
        def run() -> Any:
            with self.store.session() as session:
                return work(session)

        return await asyncio.to_thread(run)

    async def snapshot(self, competition_id: str) -> Snapshot:
        """The competition, else the problem ``unknown_competition``."""
        snap: Snapshot | None = await self.read(lambda s: load(s, competition_id.upper()))
        if snap is None:
            raise Problem(
                "unknown_competition",
                "competition.unknown",
                status=404,
                competition=competition_id[:16],
            )
        return snap

    # -- logins ---------------------------------------------------------------------

    async def login_of(self, competition_id: str, token: str | None) -> Login | None:
        """The login of ``token`` at this competition (None: no token or another's)."""
        if not token:
            return None
        digest = hash_token(token)
        found: LoginRow | None = await self.read(lambda s: s.get(LoginRow, digest))
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

    async def create(self, data: Mapping[str, Any]) -> tuple[Snapshot, str]:
        """A new competition and its organiser's token."""
        organiser, referee = await asyncio.gather(
            asyncio.to_thread(hash_password, data["organiser_password"]),
            asyncio.to_thread(hash_password, data["referee_password"]),
        )
        code = await self._new_code()
        fields = {k: v for k, v in data.items() if not k.endswith("_password")}
        token = secrets.token_urlsafe(32)
        row = CompetitionRow(
            id=code,
            **fields,
            organiser_password=organiser,
            referee_password=referee,
            created_at=now(),
        )
        login = Login("organiser", "organiser", hash_token(token))

        def write(session: Session) -> None:
            session.add(row)
            session.flush()
            session.add(self._login_row(code, login))
            session.add(
                audit(code, login, "competition.create", f"competition:{code}", after=fields)
            )

        await self.writer.run(write)
        return await self.snapshot(code), token

    async def _new_code(self) -> str:
        """A competition code no competition has (the alphabet of table codes)."""

        def taken(session: Session, code: str) -> bool:
            return session.get(CompetitionRow, code) is not None

        code = new_table_code()
        while await self.read(functools.partial(taken, code=code)):
            code = new_table_code()
        return code

    @staticmethod
    def _login_row(competition_id: str, login: Login) -> LoginRow:
        return LoginRow(
            token_hash=login.token_hash,
            competition_id=competition_id,
            role=login.role,
            name=login.name,
            created_at=now(),
        )

    async def login(self, competition_id: str, role: str, password: str, name: str) -> str:
        """A new token for ``role``; ``bad_password`` (403) for a wrong password."""
        snap = await self.snapshot(competition_id)
        stored = getattr(snap.competition, f"{role}_password")
        if not await asyncio.to_thread(password_matches, password, stored):
            raise Problem("bad_password", "competition.bad_password", status=403)
        token = secrets.token_urlsafe(32)
        login = Login(role, name, hash_token(token))
        code = snap.competition.id

        def write(session: Session) -> None:
            session.add(self._login_row(code, login))
            session.add(audit(code, login, "login", f"login:{role}"))

        await self.writer.run(write)
        return token

    # -- players ----------------------------------------------------------------------

    async def add_player(
        self, competition_id: str, login: Login, name: str, club: str | None, contact: str | None
    ) -> PlayerRow:
        async with self.lock(competition_id):
            snap = await self.snapshot(competition_id)
            code = snap.competition.id
            number = len(snap.players) + 1
            player = PlayerRow(
                competition_id=code,
                id=f"P{number}",
                number=number,
                name=name,
                club=club,
                contact=contact,
                status="registered",
                reason=None,
                late=bool(snap.rounds),
                created_at=now(),
            )
            state = {"name": name, "club": club, "status": "registered", "late": player.late}

            def write(session: Session) -> None:
                session.add(player)
                session.add(
                    audit(code, login, "player.register", f"player:{player.id}", after=state)
                )

            await self.writer.run(write)
            return player

    def player(self, snap: Snapshot, pid: str) -> PlayerRow:
        found = snap.players.get(pid.upper())
        if found is None:
            raise Problem("unknown_player", "competition.unknown_player", status=404, player=pid)
        return found

    async def move_player(
        self, competition_id: str, login: Login, pid: str, move: str, reason: str | None
    ) -> PlayerRow:
        """Check in, drop or disqualify a player (R13-24); ``bad_status`` (409) when the
        player's status does not allow it."""
        async with self.lock(competition_id):
            snap = await self.snapshot(competition_id)
            player = self.player(snap, pid)
            allowed, status = PLAYER_MOVES[move]
            if player.status not in allowed:
                raise Problem(
                    "bad_status",
                    "competition.bad_status",
                    status=409,
                    player=player.name,
                    now=player.status,
                )
            before = {"status": player.status, "reason": player.reason}
            after = {"status": status, "reason": reason}
            key = (snap.competition.id, player.id)

            def write(session: Session) -> None:
                row = session.get(PlayerRow, key)
                assert row is not None
                row.status, row.reason = status, reason
                target = f"player:{key[1]}"
                session.add(
                    audit(
                        key[0],
                        login,
                        f"player.{move}",
                        target,
                        before=before,
                        after=after,
                        reason=reason,
                    )
                )

            await self.writer.run(write)
            player.status, player.reason = status, reason
            return player

    # -- the seat draw ------------------------------------------------------------------

    def table(self, snap: Snapshot, number: int, table: int) -> CompTableRow:
        found = snap.tables.get((number, table))
        if found is None:
            raise Problem("unknown_game", "competition.unknown_table", round=number, table=table)
        return found

    async def seat_draw(
        self, competition_id: str, login: Login, number: int, table: int, cards: Mapping[str, str]
    ) -> Sequence[str] | None:
        """One draw of R13-2 at a physical table (the first, or a redraw): the positions
        that must draw again (None once the draw is complete). A draw
        that leaves a tie is stored, and the caller answers ``redraw`` (409)."""
        async with self.lock(competition_id):
            snap = await self.snapshot(competition_id)
            row = self.table(snap, number, table)
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

            await self.writer.run(write)
            return pending

    # -- entries ----------------------------------------------------------------------------

    @staticmethod
    def result(body: Mapping[str, Any]) -> GameResult:
        """The game an entry's body gives: cards scored, or scores entered directly."""
        try:
            if body.get("hands") is not None:
                return score_cards(
                    body["hands"], closer=body.get("closer"), closing=body.get("closing")
                )
            return points_result(
                body["points"], closer=body.get("closer"), closing=body.get("closing")
            )
        except EntryRefused as exc:
            raise refused(exc) from None

    def game(self, snap: Snapshot, number: int, table: int, game: int) -> CompTableRow:
        """The table of a game that may be entered: ``unknown_game`` for a round not
        made, a table it lacks or a game beyond its games."""
        if number not in snap.rounds or not 1 <= game <= snap.competition.games:
            raise Problem(
                "unknown_game", "competition.unknown_game", round=number, table=table, game=game
            )
        row = self.table(snap, number, table)
        if row.kind == "online":
            raise Problem("online_table", "competition.online_table", status=409, table=table)
        return row

    @staticmethod
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
        """A game entered at a physical table: scored, stored, not yet counted. An
        entry not confirmed yet is replaced; a confirmed one is refused (``confirmed``:
        correct it instead). Without ``store``, the entry as it would be (a preview: no
        id, nothing stored)."""
        async with self.lock(competition_id):
            snap = await self.snapshot(competition_id)
            row = self.game(snap, number, table, game)
            players = game_players(row)
            if players is None:
                raise Problem("no_seat_draw", "competition.no_seat_draw", status=409, table=table)
            key = (number, table, game)
            old = snap.entries.get(key)
            if old is not None and old.confirmed_by:
                raise Problem("confirmed", "competition.confirmed", entry=old.id)
            result = self.result(body)
            entry = self.new_entry(snap, key, result, players, body, login.name, login.token_hash)
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

        stored: EntryRow = await self.writer.run(write)
        return stored

    async def entry(self, snap: Snapshot, entry_id: int) -> EntryRow:
        code = snap.competition.id
        found: EntryRow | None = await self.read(lambda s: find_entry(s, code, entry_id))
        if found is None:
            raise Problem("unknown_entry", "competition.unknown_entry", status=404, entry=entry_id)
        if not found.current:
            raise Problem("not_current", "competition.not_current", status=409, entry=entry_id)
        return found

    async def confirm(
        self, competition_id: str, login: Login, entry_id: int, player: str | None
    ) -> EntryRow:
        """A second person confirms an entry: a player of its table (chosen at the
        referee's screen) or another login; never who entered it (``same_person``)."""
        async with self.lock(competition_id):
            snap = await self.snapshot(competition_id)
            entry = await self.entry(snap, entry_id)
            if entry.confirmed_by:
                raise Problem("confirmed", "competition.confirmed", entry=entry.id)
            if player is not None:
                found = self.player(snap, player)
                if found.id not in entry.players:
                    raise Problem("not_at_table", "competition.not_at_table", player=found.name)
                who = f"{found.name} ({found.id})"
            else:
                same = login.token_hash == entry.entered_login
                if same or login.name.casefold() == entry.entered_by.casefold():
                    raise Problem("same_person", "competition.same_person", name=login.name)
                who = login.name
            before = entry_state(entry)
            code, moment = snap.competition.id, now()
            target = f"entry:{entry.id}"

            def write(session: Session) -> None:
                stored = session.get(EntryRow, entry.id)
                assert stored is not None
                stored.confirmed_by, stored.confirmed_at = who, moment
                after = entry_state(stored)
                session.add(audit(code, login, "entry.confirm", target, before=before, after=after))

            await self.writer.run(write)
            entry.confirmed_by, entry.confirmed_at = who, moment
            return entry

    async def correct(
        self, competition_id: str, login: Login, entry_id: int, body: Mapping[str, Any]
    ) -> EntryRow:
        """A referee corrects a confirmed entry, with a reason: a new entry that counts at
        once, the old one kept (``not_confirmed``, 409, for one not confirmed yet)."""
        async with self.lock(competition_id):
            snap = await self.snapshot(competition_id)
            old = await self.entry(snap, entry_id)
            if not old.confirmed_by:
                raise Problem(
                    "not_confirmed", "competition.not_confirmed", status=409, entry=old.id
                )
            result = self.result(body)
            key = (old.round, old.table, old.game)
            entry = self.new_entry(
                snap, key, result, old.players, body, login.name, login.token_hash
            )
            entry.replaces, entry.confirmed_by, entry.confirmed_at = old.id, login.name, now()
            return await self._store_entry(
                snap, login, "entry.correct", f"entry:{old.id}", entry, old
            )

    # -- the round timer --------------------------------------------------------------------

    def timer_json(
        self, competition_id: str, number: int, stored: Mapping[str, Any]
    ) -> dict[str, Any]:
        """``{minutes, running, ends_in_ms}`` while it runs, else ``{minutes, running,
        left_ms}``."""
        minutes = stored.get("minutes", DEFAULT_MINUTES)
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
        async with self.lock(competition_id):
            snap = await self.snapshot(competition_id)
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
                # when it ends, on the wall clock: a restart resumes it from there
                "ends_at": (now() + timedelta(milliseconds=left)).isoformat() if running else None,
            }
            key = (code, number)

            def write(session: Session) -> None:
                stored = session.get(RoundRow, key)
                assert stored is not None
                stored.timer = timer
                session.add(audit(code, login, f"timer.{action}", f"round:{number}", after=timer))

            await self.writer.run(write)
            if running:
                self.timers[key] = self.clock.now() + left / 1000
            else:
                self.timers.pop(key, None)
            row.timer = timer
            return self.timer_json(code, number, timer)

    # -- rounds -----------------------------------------------------------------------------

    async def make_round(self, competition_id: str, login: Login, online: Sequence[int]) -> int:
        """The next round from the checked-in players: the seating (round 1 drawn, later
        rounds Swiss), the tables ``online`` made web tables (bot seats only there)."""
        async with self.lock(competition_id):
            snap = await self.snapshot(competition_id)
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
            ids = [p.id for p in snap.players.values() if p.status == "checked_in"]
            fill: Literal["bots", "byes"] = "bots" if c.fill == "bots" else "byes"
            if fill == "bots" and len(ids) % 4 and not online:
                raise Problem("need_online", "competition.need_online", status=409)
            field = entrants(snap, ids)
            try:
                if number == 1:
                    seating = draw_first_round(
                        field, fill=fill, clubs_apart=c.clubs_apart, online_capacity=len(online)
                    )
                else:
                    seating = seat_round(field, fill=fill, online_capacity=len(online))
            except ValueError:
                raise Problem(
                    "too_few_players", "competition.too_few_players", status=409, count=len(ids)
                ) from None
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
            rows = []
            for table_number, players in tables:
                web = None
                if table_number in online:
                    web = await create_web_table(
                        self.hub,
                        title=f"Kompetisi {c.name} R{number} M{table_number}",
                        games=c.games,
                        bot_level=c.bot_level,
                        players=players,
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
            q = seating.quality
            plan = {
                "byes": list(seating.byes),
                "quality": {
                    "repeat_meetings": q.repeat_meetings,
                    "seat_imbalance": q.seat_imbalance,
                    "club_clashes": q.club_clashes,
                    "spread": q.spread,
                },
                "seed": seating.seed,
                "online_tables": sorted(online),
            }
            timer = {
                "minutes": DEFAULT_MINUTES,
                "left_ms": DEFAULT_MINUTES * 60_000,
                "running": False,
            }
            made = RoundRow(
                competition_id=c.id, number=number, seating=plan, timer=timer, created_at=now()
            )
            after = plan | {"tables": [[t.number, [s["player"] for s in t.seats]] for t in rows]}

            def write(session: Session) -> None:
                session.add(made)
                session.flush()
                session.add_all(rows)
                session.add(audit(c.id, login, "round.make", f"round:{number}", after=after))

            await self.writer.run(write)
            return number

    # -- online tables -----------------------------------------------------------------------

    def watch(self) -> None:
        """Take the games of every online table as each of them ends."""
        self.hub.finish_hooks.append(self._finished)

    def _finished(self, table: LiveTable) -> None:
        task = asyncio.get_running_loop().create_task(self.take_web_games(table.id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def start(self) -> None:
        """Resume the round timers that were running; take the games of online tables
        that ended while the server was down."""
        running: list[tuple[str, int, str]] = await self.read(running_timers)
        moment = now()
        for competition_id, number, ends_at in running:
            left = (datetime.fromisoformat(ends_at) - moment).total_seconds()
            self.timers[(competition_id, number)] = self.clock.now() + max(0.0, left)
        codes: list[str] = await self.read(unconfirmed_web_tables)
        for code in codes:
            await self.take_web_games(code)

    async def close(self) -> None:
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def take_web_games(self, code: str) -> None:
        """The finished games of a web table become its competition table's confirmed
        entries, by "web table CODE" (those confirmed already stay)."""
        rows: list[CompTableRow] = await self.read(lambda s: online_tables(s, code))
        if not rows:  # a table of no competition
            return
        try:
            stored = await self.hub.stored(code)
        except Problem:
            return
        for row in rows:
            try:
                await self._take(row.competition_id, row.round, row.number, stored)
            except Exception:
                log.exception("web table %s: its games could not enter the competition", code)

    async def _take(
        self, competition_id: str, number: int, table: int, stored: StoredTable
    ) -> None:
        async with self.lock(competition_id):
            snap = await self.snapshot(competition_id)
            row = snap.tables[(number, table)]
            seat_draw = web_seat_draw(stored.seat_draw, row.seats)
            if seat_draw is None:
                return
            row.seat_draw = seat_draw
            players = game_players(row)
            assert players is not None
            game = await asyncio.to_thread(build_game, stored)
            who = f"web table {stored.id}"
            entries = []
            for index, result in enumerate(web_games(game)[: snap.competition.games], start=1):
                old = snap.entries.get((number, table, index))
                if old is not None and old.confirmed_by:
                    continue
                entry = self.new_entry(snap, (number, table, index), result, players, {}, who, None)
                entry.kind, entry.confirmed_by, entry.confirmed_at = "cards", who, now()
                entries.append(entry)
            if not entries:
                return
            code = snap.competition.id

            def write(session: Session) -> None:
                stored_row = session.get(CompTableRow, (code, number, table))
                assert stored_row is not None
                stored_row.seat_draw = seat_draw
                for entry in entries:
                    session.add(entry)
                    session.flush()
                    target = f"round:{number}/table:{table}/game:{entry.game}"
                    session.add(audit(code, who, "entry.web", target, after=entry_state(entry)))

            await self.writer.run(write)


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
