"""The hub: every live table, the database writer and the bots' thread pool.

Tables are created here (options checked, seats set, a seed drawn with
:mod:`secrets`, the first deal's deck shuffled and stored), joined here (a
token per seat; only its hash is stored; the variant's seat draw once the last
seat is taken) and rebuilt here on start-up from configuration + stored decks
+ actions, so a server killed at any moment resumes every table exactly.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import random
import re
import secrets
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from remikit.actions import ActionSyntaxError, parse_action, parse_seat_action
from remikit.bots import LEVELS as BOT_LEVELS
from remikit.bots import Bot, check_bot, make_bot, parse_bot_name
from remikit.engine import Game, OptionError, Options
from remikit.errors import IllegalAction
from remikit.i18n import N_
from remikit.records import RecordError, apply_recorded, new_game, start_hand
from remikit.server.clock import Clock, LoopClock
from remikit.server.expiry import Expiry, expired
from remikit.server.fair_deals import FairDeal
from remikit.server.limits import Limits
from remikit.server.live import (
    STORAGE_RETRY,
    LiveTable,
    SeatConfig,
    game_result,
    hash_token,
)
from remikit.server.lobby import Lobby
from remikit.server.option_help import option_help
from remikit.server.pool import DaemonPool
from remikit.server.problems import Problem
from remikit.server.settings import Settings
from remikit.server.table_settings import SettingRefused, TableSettings
from remikit.server.writer import Writer
from remikit.storage import Store, StoredTable
from remikit.storage.store import now
from remikit.variants import VARIANTS, VariantSpec, find_playable, playable

log = logging.getLogger("remikit.server")

CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I
CODE_LENGTH = 8
NAME_MAX = 24
TITLE_MAX = 60
CODE_RE = re.compile(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")


def new_table_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """Table codes are read in any letter case."""
    return code.strip().upper()


def bot_seed(seed: str, seat: int, role: str = "bot") -> int:
    """The seed of the bot of ``seat`` (``role``: ``stand-in`` for a person's stand-in)."""
    digest = hashlib.sha256(f"{seed}/{role}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def seat_rng(seed: str) -> random.Random:
    """The random source of a table's seat draw (R13-2): from its seed, apart from the deals."""
    digest = hashlib.sha256(f"{seed}/seats".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def seat_by_draw(
    info: VariantSpec, seed: str, seats: Sequence[SeatConfig]
) -> tuple[list[SeatConfig], list[dict[str, Any]]]:
    """The variant's seat draw (R13-2): the seats in the order it puts them, and the draw as
    stored, per seat: the seat its player took before the draw and the cards drawn."""
    assert info.seating is not None
    draw = info.seating(seat_rng(seed), len(seats))
    stored = [{"joined": p, "cards": [str(c) for c in draw.draws[p]]} for p in draw.order]
    return [seats[p] for p in draw.order], stored


def make_bots(seed: str, seats: Sequence[SeatConfig]) -> dict[int, Bot]:
    """The bots of a table's bot seats, each seeded from the table's seed and its seat."""
    return {
        index: make_bot(seat.level or "random", seed=bot_seed(seed, index), timed=True)
        for index, seat in enumerate(seats)
        if seat.kind == "bot"
    }


def build_game(stored: StoredTable, steps: int | None = None) -> Game:
    """The game of a stored table after its first ``steps`` actions (all by default), as
    a record is replayed (:mod:`remikit.records`): each stored deck is dealt when the deal
    before it is over, the actions are applied in turn. The seed plays no part. A deal
    whose deck is stored starts even after the last action (as it did at the table); a
    table still waiting for its players may have none. ValueError for a table that does
    not replay."""
    try:
        game = new_game({"variant": stored.variant, "options": stored.options})
    except RecordError as exc:
        raise ValueError(f"table {stored.id}: {exc}") from None

    def deal_next() -> bool:
        number = len(game.deals) + 1
        if number > len(stored.decks):
            return False
        try:
            start_hand(game, {"deck": list(stored.decks[number - 1])}, number)
        except RecordError as exc:
            raise ValueError(f"table {stored.id}: {exc}") from None
        return True

    if not deal_next() and stored.actions:
        raise ValueError(f"table {stored.id}: no deck is stored for its first deal")
    actions = stored.actions if steps is None else stored.actions[:steps]
    for index, text in enumerate(actions):
        if game.needs_deal and not deal_next():
            number = len(game.deals) + 1
            raise ValueError(
                f"table {stored.id}: action {index} {text!r} needs deal {number}, "
                "whose deck is not stored"
            )
        try:
            seat, action = parse_seat_action(text)
            apply_recorded(game, seat, action)
        except (ActionSyntaxError, IllegalAction) as exc:
            raise ValueError(f"table {stored.id}: action {index} {text!r}: {exc}") from exc
    if game.needs_deal:
        deal_next()
    return game


def default_bot(variant: str) -> str:
    for level in ("greedy", "random"):
        if level in BOT_LEVELS:
            try:
                check_bot(level, variant)
            except ValueError:
                continue
            return level
    return "random"


def bot_levels(variant: str) -> list[str]:
    out = []
    for level in sorted(BOT_LEVELS):
        try:
            check_bot(level, variant)
        except ValueError:
            continue
        out.append(level)
    return out


def variants_json() -> list[dict[str, Any]]:
    """Each variant with its options (name, type, default, allowed values, the message ids
    of their labels) in the order clients offer them, how a client draws its table and the
    bot levels that play it."""
    out = []
    for info in playable():
        options = [
            {
                "name": o.name,
                "type": o.kind,
                "default": o.default,
                "choices": list(o.choices) if o.choices is not None else None,
                "min": o.low,
                "max": o.high,
                "label": o.label,
                "choice_labels": list(o.choice_labels) if o.choice_labels is not None else None,
                **option_help(info.name, o.name),
            }
            for o in info.options()
        ]
        out.append(
            {
                "name": info.name,
                "aliases": list(info.aliases),
                "title": info.titles,
                "options": options,
                "client": info.client_json(),
                "bots": bot_levels(info.name),
                "default_bot": default_bot(info.name),
            }
        )
    return out


def table_options(info: VariantSpec, options: Mapping[str, Any]) -> Options:
    """The options a request names for a table of ``info``, else the problem ``bad_option``."""
    try:
        return info.game_class().options_type.from_mapping(options)
    except (OptionError, ValueError, TypeError) as exc:
        why: OptionError | str = exc if isinstance(exc, OptionError) else str(exc)
        raise Problem("bad_option", "server.bad_option", why=why) from None


def playable_variant(name: str) -> VariantSpec:
    """The variant a request names (a name or an alias), else the problem ``bad_variant``."""
    try:
        return find_playable(name)
    except ValueError as exc:
        raise Problem(
            "bad_variant",
            "server.bad_variant",
            detail=str(exc),
            variant=name,
            variants=", ".join(sorted(VARIANTS)),
        ) from None


def variant_client(variant: str) -> dict[str, Any]:
    """How a client draws a table of ``variant`` (as in :func:`variants_json`)."""
    return find_playable(variant).client_json()


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """No garbage collection while it lasts: a start-up that rebuilds thousands of
    long-lived tables spends half its time collecting otherwise."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Hub:
    """Every table of one server."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None) -> None:
        self.settings = settings
        self.clock: Clock = clock or LoopClock()
        self.store = Store(settings.database_url)
        self.writer = Writer(self.store)
        self.bot_pool = DaemonPool(max(1, settings.bot_threads), name="remikit-bot")
        self.bot_delay = settings.bot_delay
        self.call_window = settings.call_window
        self.tables: dict[str, LiveTable] = {}
        self.rebuilds: set[asyncio.Task[None]] = set()
        self.lobby = Lobby()
        self.expiry = Expiry(self, settings.waiting_expiry)
        self.limits = Limits(settings, self.clock)
        self.finish_hooks: list[Callable[[LiveTable], None]] = []
        """Told of each table whose deal ends, the game's last included (a competition
        takes each game's result as it ends)."""
        self.waiting_kept: list[Callable[[str], Awaitable[bool]]] = []
        """Asked before a table that waits too long closes: one that any of them keeps
        (a competition's online table waits for its round) stays open."""
        self.ready = False

    # -- start and stop -------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every unfinished table from the database and set it going again."""
        stored = await asyncio.to_thread(self.store.unfinished)
        for table in stored:
            try:
                live = self._live(table)
            except Exception:
                log.exception("table %s cannot be rebuilt; it is left out", table.id)
                continue
            self.tables[live.id] = live
            if live.game.over:  # the server stopped between the last action and the mark
                await self._mark_finished(live)
            else:  # or between the action that ended a deal and the next deal's deck
                await self._deal_pending(live)
                self.lobby.add(live, table.client)
                self.expiry.watch(live)
        for live in self.tables.values():
            live.resume()
        await self.expiry.start()
        self.ready = True
        log.info("remikit: %d tables resumed", len(stored))

    async def _mark_finished(self, live: LiveTable) -> None:
        result, table_id, moment = game_result(live.game), live.id, now()

        def write(session: Any) -> None:
            Store.set_finished(session, table_id, result, moment)

        await self.writer.run(write)
        live.finished_at = moment

    async def _deal_pending(self, live: LiveTable) -> None:
        async with live.lock:
            try:
                await live.deal_pending()
            except Problem:
                log.warning("table %s: its next deal could not be stored", live.id)

    async def close(self) -> None:
        self.ready = False
        for task in self.rebuilds:
            task.cancel()
        await self.expiry.stop()
        await asyncio.gather(*(t.stop() for t in self.tables.values()), return_exceptions=True)
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self.writer.close)
        self.store.close()

    def _live(self, stored: StoredTable) -> LiveTable:
        info = find_playable(stored.variant)
        game = build_game(stored)
        seats = [SeatConfig.from_stored(s) for s in stored.seats]
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seats for {game.players} players")
        return LiveTable(
            self,
            table_id=stored.id,
            variant=info,
            game=game,
            seed=stored.seed,
            seats=seats,
            title=stored.title,
            created_at=stored.created_at,
            actions=list(stored.actions),
            bots=make_bots(stored.seed, seats),
            finished_at=stored.finished_at,
            seat_draw=stored.seat_draw,
            settings=TableSettings.from_mapping(stored.settings),
            lang=stored.lang,
            owner_hash=stored.owner_hash,
            rematch=stored.rematch,
            calls={seat: parse_action(text) for seat, text in stored.calls.items()},
            fair=[FairDeal.from_stored(f) for f in stored.fair],
            fixed_seed=stored.fixed_seed,
        )

    async def keeps_waiting(self, table_id: str) -> bool:
        for kept in self.waiting_kept:
            if await kept(table_id):
                return True
        return False

    def table_idle(self, table: LiveTable) -> None:
        """A finished table nobody watches leaves memory (the database keeps it)."""
        if table.status == "finished" and not table.connections:
            self.tables.pop(table.id, None)
            self.lobby.remove(table.id)

    def table_finished(self, table: LiveTable) -> None:
        """A finished table leaves the lobby (and memory once nobody watches it)."""
        self.lobby.remove(table.id)
        for hook in self.finish_hooks:
            hook(table)

    def deal_ended(self, table: LiveTable) -> None:
        for hook in self.finish_hooks:
            hook(table)

    def seats_changed(self, table: LiveTable) -> None:
        """A seat was freed or taken during play: the lobby files the table again."""
        self.lobby.update(table)

    def stand_in(self, table: LiveTable, seat: int, level: str | None = None) -> Bot:
        seed = bot_seed(table.seed, seat, "stand-in" if level is None else "bot")
        return make_bot(level or table.settings.stand_in, seed=seed, timed=True)

    def table_broken(self, table: LiveTable) -> None:
        """A table whose engine failed leaves memory; the next use rebuilds it, or else it
        is rebuilt by itself a pause later (a table of bots has no next use; its deck may
        only have missed a database that was down)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.lobby.remove(table.id)
            self._rebuild_later(table.id)

    def _rebuild_later(self, code: str) -> None:
        if self.ready:
            task = asyncio.get_running_loop().create_task(self._rebuild(code))
            self.rebuilds.add(task)
            task.add_done_callback(self.rebuilds.discard)

    async def _rebuild(self, code: str) -> None:
        await self.clock.wait(asyncio.Event(), until=self.clock.now() + STORAGE_RETRY)
        if code in self.tables:  # opened again since
            return
        try:
            await self.get(code)
        except Problem as exc:  # broken again (and so rebuilt again later), or for good
            log.warning("table %s is not rebuilt: %s", code, exc)
        except Exception:
            log.warning("table %s is not rebuilt yet: its storage failed", code)
            self._rebuild_later(code)

    # -- tables -----------------------------------------------------------------------

    async def get(self, table_id: str, *, keep: bool = True) -> LiveTable:
        """A live table, or a finished one loaded from the database (kept in memory only
        with ``keep``, for a socket); else the problem ``unknown_table``."""
        code = normalize_code(table_id)
        live = self.tables.get(code)
        if live is not None:
            return live
        stored = await self.stored(table_id)
        if stored.closed_at is not None and stored.finished_at is None:
            raise expired(stored.id)
        try:  # a long game takes a while to replay: off the event loop
            live = await asyncio.to_thread(self._live, stored)
        except Exception:
            log.exception("table %s cannot be rebuilt", code)
            raise Problem("broken_table", "server.broken_table", status=500, table=code) from None
        if not keep:
            return live
        kept = self.tables.setdefault(code, live)
        if kept is live and not live.game.over:
            await self._deal_pending(live)
            if live.broken:
                raise Problem("broken_table", "server.broken_table", status=500, table=code)
            self.lobby.add(live, stored.client)
            self.expiry.watch(live)
            live.resume()  # its bots play on
        return kept

    async def stored(self, table_id: str) -> StoredTable:
        code = normalize_code(table_id)
        stored = None
        if CODE_RE.match(code):
            stored = await asyncio.to_thread(self.store.load, code)
        if stored is None:
            raise Problem("unknown_table", "server.unknown_table", status=404, table=table_id)
        return stored

    async def create(
        self,
        *,
        variant: str,
        options: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]] | None,
        title: str | None,
        settings: Mapping[str, Any] | None = None,
        lang: str | None = None,
        owner_hash: str | None = None,
        client: str | None = None,
        seed: str | None = None,
    ) -> LiveTable:
        """A new table (not yet joined by anyone); raises :class:`Problem` on bad input.

        ``settings`` are its :class:`TableSettings`, ``lang`` its creator's language,
        ``owner_hash`` the hash of the token that lets its creator manage it, ``client``
        who made it (a hash of their address). ``seed`` fixes the deals (tests); a real
        table draws it with :mod:`secrets`. Refused beyond the limits (:mod:`.limits`)."""
        self.limits.create.check(client)
        if 0 < self.settings.max_open_tables <= len(self.lobby):
            raise Problem("too_many_tables", "server.too_many_tables", status=503)
        info = playable_variant(variant)
        parsed = table_options(info, options)
        table_settings = self._table_settings(info, settings or {})
        fixed_seed = seed is not None
        seed = str(secrets.randbits(256)) if seed is None else str(int(seed))
        players = parsed.players
        configs = self._seat_configs(info, players, seats)
        bots_only = all(c.kind == "bot" for c in configs)
        self.limits.check_tables(self.lobby, client, bots_only=bots_only)
        seat_draw = None
        if info.seating is not None and bots_only:
            configs, seat_draw = seat_by_draw(info, seed, configs)
        clean_title = " ".join((title or "").split())[:TITLE_MAX] or info.titles["en"]
        if not clean_title.isprintable():  # control characters, direction overrides
            raise Problem("bad_title", "server.bad_title", max=TITLE_MAX)
        code = new_table_code()
        while code in self.tables or await asyncio.to_thread(self.store.exists, code):
            code = new_table_code()
        stored = StoredTable(
            id=code,
            variant=info.name,
            options=parsed.as_dict(),
            seed=seed,
            seats=[c.stored() for c in configs],
            title=clean_title,
            created_at=now(),
            seat_draw=seat_draw,
            settings=table_settings.as_dict(),
            lang=lang,
            owner_hash=owner_hash,
            client=client,
            fixed_seed=fixed_seed,
        )
        first = FairDeal.draw(code, 1, players, seed if fixed_seed else None).stored()

        def write(session: Any) -> None:
            Store.add_table(session, stored)
            Store.add_fairness(session, code, first)

        await self.writer.run(write)
        live = self._live(replace(stored, fair=(first,)))
        self.tables[code] = live
        self.lobby.add(live, client)
        self.expiry.watch(live)
        await self._deal_pending(live)  # a table of bots only starts at once
        live.settle()
        return live

    def _seat_configs(
        self, info: VariantSpec, players: int, seats: Sequence[Mapping[str, Any]] | None
    ) -> list[SeatConfig]:
        if seats is None:
            level = default_bot(info.name)
            return [SeatConfig("person")] + [
                SeatConfig("bot", name=f"Bot {i}", level=level) for i in range(1, players)
            ]
        if len(seats) != players:
            raise Problem("bad_seats", "server.seat_count", players=players, given=len(seats))
        out = []
        for index, seat in enumerate(seats):
            kind = seat.get("kind")
            if kind == "person":
                out.append(SeatConfig("person"))
            elif kind == "bot":
                level = str(seat.get("level") or default_bot(info.name)).strip().lower()
                keys = (N_("server.bad_bot"), N_("server.bot_budget"))
                self._check_level(info, level, "bad_seats", keys, seat=index + 1)
                out.append(SeatConfig("bot", name=f"Bot {index}", level=level))
            else:
                raise Problem("bad_seats", "server.seat_kind", seat=index + 1, kind=str(kind))
        return out

    def _check_level(
        self, info: VariantSpec, level: str, code: str, keys: tuple[str, str], seat: int = 0
    ) -> None:
        """A bot level a web table may use: one that plays the variant, thinking no longer
        than the server allows (one table's bots must not hold the threads every table
        shares); else the problem ``code`` with the first of ``keys`` (no such bot) or
        the second (it thinks too long); ``seat`` counts from 1."""
        try:
            check_bot(level, info.name)
        except ValueError as exc:
            raise Problem(code, keys[0], why=exc, level=level, seat=seat) from None
        budget = parse_bot_name(level)[1]
        limit = self.settings.max_bot_budget
        if budget is not None and budget > limit:
            raise Problem(code, keys[1], level=level, max=limit, seat=seat)

    def check_level(self, info: VariantSpec, level: str) -> None:
        """A bot level a table's creator may seat: as a stand-in's (``bad_setting``)."""
        keys = (N_("server.bad_stand_in"), N_("server.stand_in_budget"))
        self._check_level(info, level, "bad_setting", keys)

    def _table_settings(self, info: VariantSpec, data: Mapping[str, Any]) -> TableSettings:
        try:
            settings = TableSettings.from_mapping(data)
        except SettingRefused as exc:
            raise Problem(
                "bad_setting", exc.key, setting=exc.name, value=json.dumps(exc.value)
            ) from None
        self.check_level(info, settings.stand_in)
        return settings

    async def join(
        self,
        table_id: str,
        *,
        name: str,
        seat: int | None,
        lang: str,
        token: str | None = None,
        client: str | None = None,
        entropy: bytes | None = None,
    ) -> tuple[LiveTable, int, str]:
        """Give a person a free seat: returns the table, the seat and its token (``token``
        when the client made it; a token already seated gets its seat again, so a join
        whose answer was lost is asked again safely). ``client`` (who asks) may take only
        so many seats a minute (:mod:`.limits`).

        ``entropy`` is the person's contribution to the next deal (docs/fairness.md).
        When that takes the last seat of a variant with a seat draw (R13-2), the
        draw moves everyone to the seat it gives them; the seat returned is the new one.
        A table whose last seat is taken deals its first deal.
        """
        clean = " ".join(name.split())
        if not 1 <= len(clean) <= NAME_MAX or not clean.isprintable():
            raise Problem("bad_name", "server.bad_name", max=NAME_MAX)
        self.limits.join.check(client)
        table = await self.get(table_id)
        async with table.lock:
            if token is not None and (again := table.seat_for_token(token)) is not None:
                return table, again, token
            if table.stopped and not table.broken:  # it expired while this waited
                raise expired(table.id)
            if table.status == "finished":
                raise Problem.from_illegal(IllegalAction("game_over"))
            free = [i for i, s in enumerate(table.seats) if not s.taken]
            if seat is None:
                if not free:
                    raise Problem("table_full", "server.table_full", status=409, table=table.id)
                seat = free[0]
            elif not 0 <= seat < len(table.seats):
                raise Problem("bad_seat", "server.no_seat", status=400, seat=seat + 1)
            elif seat not in free:
                key = (
                    N_("server.seat_bot")
                    if table.seats[seat].kind == "bot"
                    else N_("server.seat_taken")
                )
                raise Problem("seat_taken", key, status=409, seat=seat + 1)
            token = token or secrets.token_urlsafe(32)
            seats = list(table.seats)
            seats[seat] = SeatConfig("person", name=clean, lang=lang, token_hash=hash_token(token))
            contribution = None  # a contribution the table does not take is left out
            if entropy is not None and table.takes_contribution(seat, seats[seat]):
                contribution = table.contribution(seat, entropy, seats[seat])
            seat_draw = None
            if table.variant.seating is not None and all(s.taken for s in seats):
                seats, seat_draw = seat_by_draw(table.variant, table.seed, seats)
                if contribution is not None:  # each contribution moves with its person
                    number, given_by_seat = contribution
                    moved = [given_by_seat[d["joined"]] for d in seat_draw]
                    contribution = number, moved
            stored_seats = [s.stored() for s in seats]
            table_code = table.id

            def write(session: Any) -> None:
                Store.set_seats(session, table_code, stored_seats, seat_draw)
                if contribution is not None:
                    number, given_by_seat = contribution
                    texts = [c.hex() if c else None for c in given_by_seat]
                    Store.set_contributions(session, table_code, number, texts)

            await self.writer.run(write)
            if contribution is not None:
                table.contributed(*contribution)
            if seat_draw is None:
                table.seats = seats
                table.stand_ins.pop(seat, None)  # a seat freed during play had a stand-in
            else:
                table.reseat(seats, make_bots(table.seed, seats), seat_draw)
                seat = next(i for i, d in enumerate(seat_draw) if d["joined"] == seat)
            self.lobby.update(table)
            table.start_grace(seat)  # until their socket connects
            try:
                await table.deal_pending()  # the last seat taken: the first deal
            except Problem:
                log.warning("table %s: its first deal could not be stored", table.id)
            table.settle()
        return table, seat, token

    async def rematch(self, table_id: str, token: str, entropy: bytes | None = None) -> LiveTable:
        """A finished table's rematch for the person of ``token``: the same variant,
        options, settings and seats (each person's token works there too; the seat draw
        stands), made once: asked again, the same table. Its first deal is dealt at once,
        with ``entropy`` as the contribution of the person who asked."""
        old = await self.get(table_id)
        async with old.lock:
            if old.seat_for_token(token) is None:
                raise Problem("bad_token", "server.bad_token", status=403, table=old.id)
            if not old.game.over:
                raise Problem("not_finished", "server.not_finished", status=409, table=old.id)
            if old.rematch is not None:
                return await self.get(old.rematch)
            seat = old.seat_for_token(token)
            seed = str(secrets.randbits(256))
            code = new_table_code()
            while code in self.tables or await asyncio.to_thread(self.store.exists, code):
                code = new_table_code()
            seats = [replace(s, away=False, then=None) for s in old.seats]
            stored = StoredTable(
                id=code,
                variant=old.variant.name,
                options=old.game.options.as_dict(),
                seed=seed,
                seats=[s.stored() for s in seats],
                title=old.title,
                created_at=now(),
                seat_draw=old.seat_draw,
                settings=old.settings.as_dict(),
                lang=old.lang,
                owner_hash=old.owner_hash,
            )
            fair = FairDeal.draw(code, 1, len(seats), None)
            if entropy is not None and seat is not None:
                fair.contributions[seat] = entropy
            first, old_id = fair.stored(), old.id

            def write(session: Any) -> None:
                Store.add_table(session, stored)
                Store.add_fairness(session, code, first)
                Store.set_table(session, old_id, rematch=code)

            await self.writer.run(write)
            live = self._live(replace(stored, fair=(first,)))
            self.tables[code] = live
            self.lobby.add(live, None)
            old.rematch = code
            old.broadcast()
            for index in range(len(live.seats)):
                live.start_grace(index)
            await self._deal_pending(live)
            live.settle()
            return live
