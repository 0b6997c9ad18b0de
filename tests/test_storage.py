"""remikit.storage: tables, decks and actions in SQLite and in a real PostgreSQL server.

The PostgreSQL cases need ``REMI_TEST_POSTGRES_URL`` (``make test`` starts a
throwaway cluster with ``.ci/with-postgres.sh``); without it they skip, except
in CI where they fail.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Coroutine, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import text as sql
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from remikit.actions import Play
from remikit.bots import make_bot
from remikit.server.tables.build import build_game
from remikit.storage import Store, StoredTable, default_database_url
from remikit.storage.writer import Writer
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions

T = TypeVar("T")


def run_then_close(writer: Writer, main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` on a new event loop, then close ``writer`` (its thread ends)."""
    try:
        return asyncio.run(main)
    finally:
        writer.close()


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    store = Store(database_url)
    yield store
    store.close()


def table(table_id: str = "ABCDEFGH", seed: str = "12345") -> StoredTable:
    return StoredTable(
        id=table_id,
        variant="remi13d",
        options=Remi13DOptions().as_dict(),
        seed=seed,
        seats=[{"kind": "person", "name": None, "token_hash": None}]
        + [{"kind": "bot", "level": "random", "name": f"Bot {i}"} for i in (1, 2, 3)],
        title="Remi 13 D",
        created_at=datetime.now(UTC),
    )


def bot_game(seed: str, count: int) -> tuple[Remi13DGame, list[str]]:
    """A game of random bots on the deals of ``seed`` after ``count`` actions, and those."""
    game = Remi13DGame(Remi13DOptions(), rng=random.Random(int(seed)))
    bots = [make_bot("random", seed=s) for s in range(4)]
    out = []
    for _ in range(count):
        seat = game.to_play
        assert seat is not None
        action = bots[seat].choose(game.view(seat))
        game.apply(seat, action)
        out.append(str(Play(seat, action)))
    return game, out


def decks_of(game: Remi13DGame) -> list[list[str]]:
    return [[str(c) for c in deal.deck] for deal in game.deals]


def test_default_url_names_the_sqlite_file(tmp_path: Path) -> None:
    assert (
        default_database_url({"REMI_DATA_DIR": str(tmp_path)})
        == f"sqlite:///{tmp_path / 'remikit.db'}"
    )
    home = default_database_url({})
    assert home.endswith("/.local/share/remikit/remikit.db") and home.startswith("sqlite:////")
    assert (
        default_database_url({"REMI_DATABASE_URL": "postgresql://u@h/d"})
        == "postgresql+psycopg://u@h/d"
    )


def test_sqlite_file_and_folder_are_created(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "remikit.db"
    store = Store(f"sqlite:///{path}")
    store.create_table(table())
    store.close()
    assert path.is_file()


def test_table_decks_and_actions_round_trip(store: Store) -> None:
    store.create_table(table())
    game, actions = bot_game("12345", 30)
    decks = decks_of(game)
    store.append_deal("ABCDEFGH", 1, decks[0])
    for index, text in enumerate(actions):
        store.append_action("ABCDEFGH", index, int(text[1]), text)
    loaded = store.load("ABCDEFGH")
    assert loaded is not None
    assert loaded.actions == tuple(actions)
    assert loaded.decks == (tuple(decks[0]),) and store.decks("ABCDEFGH") == decks
    assert loaded.seed == "12345" and loaded.variant == "remi13d"
    assert loaded.created_at.tzinfo is not None
    assert [t.id for t in store.unfinished()] == ["ABCDEFGH"]
    assert store.unfinished()[0].actions == tuple(actions)
    assert store.unfinished()[0].decks == (tuple(decks[0]),)
    # the same decks and actions rebuild the same game
    rebuilt = build_game(loaded)
    assert rebuilt.record() == game.record()
    assert store.load("NOSUCHID") is None


def test_a_table_rebuilds_from_its_decks_not_its_seed(store: Store) -> None:
    # a whole first game of the match and some of the second: two decks stored
    game, actions = bot_game("777", 400)
    assert len(game.deals) >= 2
    store.create_table(table(seed="1"))  # a seed that deals other cards
    for number, deck in enumerate(decks_of(game), start=1):
        store.append_deal("ABCDEFGH", number, deck)
    for index, text in enumerate(actions):
        store.append_action("ABCDEFGH", index, int(text[1]), text)
    loaded = store.load("ABCDEFGH")
    assert loaded is not None
    assert build_game(loaded).record() == game.record()
    # a step inside the first deal has only that deal; the last step, every stored deck
    assert len(build_game(loaded, 3).deals) == 1
    assert len(build_game(loaded, len(actions)).deals) == len(game.deals)


def test_a_deal_number_is_unique_per_table(store: Store) -> None:
    store.create_table(table())
    store.append_deal("ABCDEFGH", 1, ["As", "Kd"])
    with pytest.raises(IntegrityError):
        store.append_deal("ABCDEFGH", 1, ["Kd", "As"])
    assert store.decks("ABCDEFGH") == [["As", "Kd"]]


def test_an_action_index_is_unique_per_table(store: Store) -> None:
    store.create_table(table())
    store.create_table(table("HGFEDCBA"))
    store.append_action("ABCDEFGH", 0, 0, "p0 draw stock")
    store.append_action("HGFEDCBA", 0, 0, "p0 draw stock")  # another table: fine
    with pytest.raises(IntegrityError):
        store.append_action("ABCDEFGH", 0, 0, "p0 draw discard")
    assert store.actions("ABCDEFGH") == ["p0 draw stock"]


def test_seats_and_finish(store: Store) -> None:
    store.create_table(table())
    seats = table().seats
    seats[0] = {"kind": "person", "name": "Budi", "token_hash": "ab" * 32}
    store.update_seats("ABCDEFGH", seats)
    store.finish("ABCDEFGH", {"totals": [1, 2, 3, 4], "winner": 3})
    assert store.unfinished() == []
    finished = store.finished()
    assert [t.id for t in finished] == ["ABCDEFGH"]
    assert finished[0].seats[0]["name"] == "Budi"
    assert finished[0].result == {"totals": [1, 2, 3, 4], "winner": 3}
    assert finished[0].finished_at is not None


def test_R13_2_the_seat_draw_is_stored_with_the_seats(store: Store) -> None:
    store.create_table(table())
    assert [t.seat_draw for t in store.unfinished()] == [None]
    seats = table().seats[::-1]
    draw = [{"joined": 3 - i, "cards": ["Jk", "Ks"] if i == 0 else [f"{9 - i}c"]} for i in range(4)]
    store.update_seats("ABCDEFGH", seats, draw)
    loaded = store.load("ABCDEFGH")
    assert loaded is not None and loaded.seats == seats and loaded.seat_draw == draw
    assert store.unfinished()[0].seat_draw == draw


COMPETITION_TABLES = (
    "competition_absences",
    "competition_accounts",
    "competition_guards",
    "competition_tables",
    "competition_rounds",
    "competition_players",
    "competition_entries",
    "competition_audit",
    "competition_logins",
    "competitions",
)
"""The competitions' tables (revisions 0006, 0009 and 0010), children first."""
PROFILE_TABLES = (
    "profile_tables",
    "profile_ratings",
    "profile_games",
    "profile_blocks",
    "profile_tokens",
    "profiles",
)
"""The tables of revision 0015, children first."""


def test_a_database_without_the_newer_columns_still_loads(database_url: str) -> None:
    older = Store(database_url)
    older.create_table(table())
    older.append_action("ABCDEFGH", 0, 0, "p0 draw stock")
    with older.engine.begin() as conn:  # as a database made before the seat draw was stored
        conn.execute(sql("DROP TABLE alembic_version"))  # and before migrations
        for name in (*PROFILE_TABLES, *COMPETITION_TABLES):
            conn.execute(sql(f"DROP TABLE {name}"))
        conn.execute(sql("DROP TABLE calls"))
        conn.execute(sql("DROP TABLE deals"))
        conn.execute(sql("DROP TABLE server_keys"))
        conn.execute(sql("DROP TABLE table_owners"))
        conn.execute(sql("DROP TABLE nodes"))
        conn.execute(sql("ALTER TABLE tables DROP COLUMN seat_draw"))
        conn.execute(sql("DROP INDEX ix_tables_closed_at"))
        for column in (
            "settings",
            "lang",
            "owner_hash",
            "client",
            "closed_at",
            "rematch",
            "fixed_seed",
        ):
            conn.execute(sql(f"ALTER TABLE tables DROP COLUMN {column}"))
    older.close()
    store = Store(database_url)
    try:
        loaded = store.load("ABCDEFGH")
        assert loaded is not None and loaded.seat_draw is None and loaded.settings == {}
        assert loaded.actions == ("p0 draw stock",)
        assert len(loaded.decks) == 1  # dealt as it was before decks were stored
        store.update_seats("ABCDEFGH", loaded.seats, [{"joined": 0, "cards": ["As"]}])
        assert [t.seat_draw for t in store.unfinished()] == [[{"joined": 0, "cards": ["As"]}]]
    finally:
        store.close()


def test_writer_commits_many_jobs_and_isolates_a_bad_one(store: Store) -> None:
    store.create_table(table())
    writer = Writer(store)

    def add(index: int, text: str) -> Callable[[Session], None]:
        return lambda session: Store.add_action(session, "ABCDEFGH", index, 0, text)

    async def main() -> list[object]:
        jobs = [writer.run(add(i, f"a{i}")) for i in range(200)]
        jobs.append(writer.run(add(5, "duplicate")))
        return await asyncio.gather(*jobs, return_exceptions=True)

    results = run_then_close(writer, main())
    assert results[:200] == [None] * 200
    assert isinstance(results[200], IntegrityError)
    assert store.actions("ABCDEFGH") == [f"a{i}" for i in range(200)]


def test_writer_commits_action_rows_together_and_isolates_a_bad_one(store: Store) -> None:
    """Actions alone go in on a plain connection, many a commit; a duplicate index fails
    alone and the others are stored."""
    store.create_table(table())
    writer = Writer(store)

    async def main() -> list[object]:
        jobs = [writer.append_action("ABCDEFGH", i, i % 4, f"a{i}") for i in range(100)]
        jobs.append(writer.append_action("ABCDEFGH", 7, 0, "duplicate"))
        jobs.append(writer.append_action("NOTABLE1", 0, 0, "no such table"))
        return await asyncio.gather(*jobs, return_exceptions=True)

    results = run_then_close(writer, main())
    assert results[:100] == [None] * 100
    assert all(isinstance(r, IntegrityError) for r in results[100:])
    assert store.actions("ABCDEFGH") == [f"a{i}" for i in range(100)]


def test_a_busy_writer_lingers_before_its_next_commit(store: Store) -> None:
    """After a commit of several jobs the writer waits ``linger`` for more; after a commit
    of one it goes on at once (a quiet server adds no delay)."""
    store.create_table(table())
    slept: list[float] = []
    writer = Writer(store, linger=0.003, sleep=slept.append)
    holding, gate = threading.Event(), threading.Event()

    def add(index: int) -> Callable[[Session], None]:
        return lambda session: Store.add_action(session, "ABCDEFGH", index, 0, f"a{index}")

    def hold(session: Session) -> None:
        holding.set()
        gate.wait(5)

    async def main() -> None:
        first = asyncio.create_task(writer.run(hold))
        await asyncio.to_thread(holding.wait, 5)  # the writer holds the first job
        queued = [asyncio.create_task(writer.run(add(i))) for i in range(3)]
        await asyncio.sleep(0)  # all three queued behind it
        gate.set()
        await asyncio.gather(first, *queued)
        assert slept == []  # batches of one, then of three: no wait yet
        await writer.run(add(3))
        assert slept == [0.003]  # after the batch of three
        await writer.run(add(4))
        assert slept == [0.003]  # after a batch of one: at once

    run_then_close(writer, main())
    assert store.actions("ABCDEFGH") == [f"a{i}" for i in range(5)]


def test_a_call_answer_is_loaded_with_the_window_it_answers(database_url: str) -> None:
    """R5-10: a person's acknowledged answer is kept for the window open at the last action
    only; answers to earlier windows are history."""
    store = Store(database_url)
    try:
        store.create_table(table())
        store.append_action("ABCDEFGH", 0, 0, "p0 draw stock")
        with store.transaction() as session:
            Store.add_call(session, "ABCDEFGH", 0, 2, "pass")  # a window before the draw
            Store.add_call(session, "ABCDEFGH", 1, 1, "rummy 2")
            Store.add_call(session, "ABCDEFGH", 1, 3, "pass")
        loaded = store.load("ABCDEFGH")
        assert loaded is not None and loaded.calls == {1: "rummy 2", 3: "pass"}
        assert store.unfinished()[0].calls == {1: "rummy 2", 3: "pass"}
    finally:
        store.close()
