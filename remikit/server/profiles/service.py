"""Every profile of one server, on the tables' database and writer (docs/ratings.md).

A first visit makes a profile and gets its token; the token is all a device needs. A
password (scrypt, as the competitions keep theirs) lets the player sign in on another
device, which gets a token of its own. Failed sign-ins slow down: after the ``k``-th in a
row the next may come only ``2 ** (k - 1)`` seconds later, and from the
:data:`LOCK_AFTER`-th on only an hour later (the profile is locked); a good one starts
the count again. The service also follows the tables: each finished game is taken into
its profiles' games and ratings (:mod:`.games`), and a blocked profile is kept from the
tables of the profiles that block it.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import delete, update
from sqlalchemy.orm import Session

from remikit.i18n import LANGUAGES, N_, t
from remikit.server.limits import RateLimit
from remikit.server.passwords import MIN_PASSWORD, hash_password, password_matches
from remikit.server.problems import Problem
from remikit.server.profiles import views
from remikit.server.profiles.games import finished_game, record
from remikit.server.profiles.ratings import bot_ratings, leaderboard_json
from remikit.server.settings import Settings
from remikit.server.tables.build import playable_variant
from remikit.server.tables.registry import Tables
from remikit.server.tables.seats import hash_token
from remikit.server.tables.service import Table
from remikit.storage import profiles as stored
from remikit.storage.profiles import BlockRow, ProfileRow, ProfileTokenRow
from remikit.storage.store import now as store_now
from remikit.variants import find_playable

log = logging.getLogger("remikit.server")
T = TypeVar("T")

NAME_MAX = 40
PASSWORD_MAX = 200
LOCK_AFTER = 8
"""Failed sign-ins in a row after which a profile is locked for :data:`LOCK_SECONDS`."""
LOCK_SECONDS = 3600
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_profile_id() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))


def wait_after(failures: int) -> int:
    """Seconds before the next sign-in after ``failures`` failed ones in a row.

    >>> [wait_after(k) for k in (1, 2, 3, 7, 8, 9)]
    [1, 2, 4, 64, 3600, 3600]
    """
    return LOCK_SECONDS if failures >= LOCK_AFTER else 2 ** (failures - 1)


def clean_name(name: str) -> str:
    """A display name, spaces collapsed: 1 to 40 printable characters, else ``bad_name``."""
    clean = " ".join(name.split())
    if not 1 <= len(clean) <= NAME_MAX or not clean.isprintable():
        raise Problem("bad_name", "server.bad_name", max=NAME_MAX)
    return clean


def need_profile() -> Problem:
    return Problem("need_profile", "profile.need_profile", status=401)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=store_now().tzinfo)


class Profiles:
    """The profiles: made, named, signed in, deleted, blocking; their games and ratings."""

    def __init__(
        self, hub: Tables, settings: Settings, *, clock: Callable[[], datetime] = store_now
    ) -> None:
        self.hub = hub
        self.store = hub.store
        self.writer = hub.writer
        self.settings = settings
        self.now = clock
        self.making = RateLimit(hub.clock, rate=settings.create_rate, key=N_("profile.rate"))
        self.signing = asyncio.Lock()
        self.tasks: set[asyncio.Task[bool]] = set()
        self.deleted_name = {lang: t("profile.deleted_player", lang) for lang in LANGUAGES}
        self.deleted_name[""] = t("profile.deleted_player", "en")
        hub.blocked.append(self.blocks)
        hub.finish_hooks.append(self._finished)

    async def _read(self, work: Callable[[Session], T]) -> T:
        def run() -> T:
            with self.store.session() as session:
                return work(session)

        return await asyncio.to_thread(run)

    async def close(self) -> None:
        await asyncio.gather(*list(self.tasks), return_exceptions=True)

    # -- a device's profile --------------------------------------------------------

    async def create(self, name: str | None, lang: str, client: str | None) -> tuple[str, str]:
        """A new profile (named ``name``, else a name of its own): its id and token."""
        self.making.check(client)
        named = name is not None
        chosen = clean_name(name) if name is not None else ""
        token, moment = secrets.token_urlsafe(32), self.now()

        def write(session: Session) -> str:
            code = new_profile_id()
            while session.get(ProfileRow, code) is not None:
                code = new_profile_id()
            default = t("profile.default_name", lang, n=code[:4])
            session.add(
                ProfileRow(
                    id=code,
                    name=chosen or default,
                    named=named,
                    failures=0,
                    created_at=moment,
                )
            )
            session.flush()
            session.add(
                ProfileTokenRow(token_hash=hash_token(token), profile_id=code, created_at=moment)
            )
            return code

        return await self.writer.run(write), token

    async def resolve(self, token: str | None) -> str | None:
        """The id of the profile of ``token`` (None: no token, or none of a profile)."""
        if not token:
            return None
        digest = hash_token(token)
        found = await self._read(lambda s: stored.profile_of_token(s, digest))
        return None if found is None else found.id

    async def require(self, token: str | None) -> str:
        """The id of the profile of ``token``, else ``need_profile`` (401)."""
        found = await self.resolve(token)
        if found is None:
            raise need_profile()
        return found

    async def own(self, token: str | None) -> dict[str, Any]:
        profile = await self.require(token)

        def read(session: Session) -> dict[str, Any]:
            row = session.get(ProfileRow, profile)
            if row is None:
                raise need_profile()
            return views.own_json(row, stored.blocks_of(session, profile))

        return await self._read(read)

    async def rename(self, token: str | None, name: str) -> dict[str, Any]:
        profile, clean = await self.require(token), clean_name(name)
        await self.writer.run(
            lambda s: s.execute(
                update(ProfileRow).where(ProfileRow.id == profile).values(name=clean, named=True)
            )
        )
        return await self.own(token)

    async def set_password(self, token: str | None, password: str) -> dict[str, Any]:
        profile = await self.require(token)
        if not MIN_PASSWORD <= len(password) <= PASSWORD_MAX:
            raise Problem("bad_password", "profile.short_password", min=MIN_PASSWORD)
        hashed = await asyncio.to_thread(hash_password, password)
        await self.writer.run(
            lambda s: s.execute(
                update(ProfileRow)
                .where(ProfileRow.id == profile)
                .values(password=hashed, failures=0, retry_at=None)
            )
        )
        return await self.own(token)

    async def sign_in(self, profile_id: str, password: str) -> str:
        """A new token of the profile for a device that knows its password; refused
        (``bad_sign_in``, the same for an unknown profile) and slowed down after failures."""
        async with self.signing:  # one attempt at a time: no guesses side by side
            return await self._sign_in(profile_id.strip().upper(), password)

    async def _sign_in(self, code: str, password: str) -> str:
        row = await self._read(lambda s: s.get(ProfileRow, code))
        if row is None or row.password is None:
            raise Problem("bad_sign_in", "profile.bad_sign_in", status=403)
        moment = self.now()
        if row.retry_at is not None and moment < _aware(row.retry_at):
            seconds = max(1, math.ceil((_aware(row.retry_at) - moment).total_seconds()))
            problem, key = ("sign_in_wait", N_("profile.sign_in_wait"))
            if row.failures >= LOCK_AFTER:
                problem, key = ("sign_in_locked", N_("profile.sign_in_locked"))
            raise Problem(
                problem,
                key,
                status=429,
                headers={"Retry-After": str(seconds)},
                seconds=seconds,
            )
        if not await asyncio.to_thread(password_matches, password, row.password):
            failures = row.failures + 1
            retry = moment + timedelta(seconds=wait_after(failures))
            await self.writer.run(
                lambda s: s.execute(
                    update(ProfileRow)
                    .where(ProfileRow.id == code)
                    .values(failures=failures, retry_at=retry)
                )
            )
            raise Problem("bad_sign_in", "profile.bad_sign_in", status=403)
        token = secrets.token_urlsafe(32)

        def write(session: Session) -> None:
            session.execute(
                update(ProfileRow).where(ProfileRow.id == code).values(failures=0, retry_at=None)
            )
            session.add(
                ProfileTokenRow(token_hash=hash_token(token), profile_id=code, created_at=moment)
            )

        await self.writer.run(write)
        return token

    async def delete(self, token: str | None) -> None:
        """Delete the profile of ``token`` with its name, password, tokens, blocks, games'
        statistics and ratings; its finished games stay, under "a deleted player"."""
        profile = await self.require(token)
        await self.writer.run(lambda s: stored.delete_profile(s, profile, self.deleted_name))

    # -- blocks ---------------------------------------------------------------------

    async def block(self, token: str | None, other: str, *, on: bool) -> dict[str, Any]:
        profile, code = await self.require(token), other.strip().upper()
        if code == profile:
            raise Problem("bad_block", "profile.block_self")
        if await self._read(lambda s: s.get(ProfileRow, code)) is None:
            raise Problem("unknown_profile", "profile.unknown", status=404)

        def write(session: Session) -> None:
            found = session.get(BlockRow, (profile, code))
            if on and found is None:
                session.add(BlockRow(profile_id=profile, blocked_id=code, created_at=self.now()))
            elif not on:
                session.execute(
                    delete(BlockRow).where(
                        BlockRow.profile_id == profile, BlockRow.blocked_id == code
                    )
                )

        await self.writer.run(write)
        return await self.own(token)

    async def blocks(self, among: Sequence[str], profile: str) -> bool:
        """Whether any profile of ``among`` blocks ``profile`` (the tables ask)."""
        if not among:
            return False
        return await self._read(lambda s: stored.blocked_by(s, profile, among))

    # -- pages ------------------------------------------------------------------------

    async def public(self, profile_id: str) -> dict[str, Any]:
        code = profile_id.strip().upper()

        def read(session: Session) -> dict[str, Any]:
            row = session.get(ProfileRow, code)
            if row is None:
                raise Problem("unknown_profile", "profile.unknown", status=404)
            games = stored.games_of(session, code)
            variants = sorted({g.variant for g in games})
            ratings = {}
            for variant in variants:
                found = stored.ratings_of(session, [code], variant).get(code)
                if found is not None:
                    ratings[variant] = found
            bots = {v: bot_ratings(find_playable(v)) for v in variants}
            return views.public_json(row, games, ratings, bots, self.settings.provisional_games)

        return await self._read(read)

    async def leaderboard(self, variant: str) -> tuple[str, list[dict[str, Any]]]:
        """A variant's name (``variant`` may be an alias) and its leaderboard's entries."""
        info = playable_variant(variant)
        people = await self._read(lambda s: stored.leaderboard(s, info.name))
        entries = leaderboard_json(people, bot_ratings(info), self.settings.provisional_games)
        return info.name, entries

    # -- finished games -------------------------------------------------------------

    def _finished(self, table: Table) -> None:
        """A table's deal ended: when it ended the game, take it into the profiles."""
        game = finished_game(table, self.settings.stand_in_share)
        if game is None or not game.profiles:
            return
        bots = bot_ratings(table.variant)
        task = asyncio.get_running_loop().create_task(
            self.writer.run(lambda s: record(s, game, bots, self.deleted_name))
        )
        self.tasks.add(task)
        task.add_done_callback(self._recorded)

    def _recorded(self, task: asyncio.Task[bool]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a finished game was not taken into its profiles", exc_info=task.exception())
