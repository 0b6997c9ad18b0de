"""remikit.storage.migrations: the Alembic revisions that make and upgrade the database.

An empty database is made at the head revision, on SQLite and on PostgreSQL (the
PostgreSQL cases need ``REMI_TEST_POSTGRES_URL``; they skip without it, except in CI);
the models match what the revisions make; a database at revision 0001 whose tables were
dealt by the old ``random.Random`` shuffle upgrades and rebuilds them with the very decks
and state the old code gave; a database a newer remikit has upgraded is refused.
"""

from __future__ import annotations

import hashlib
import logging
import os
import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from remikit.actions import Discard, Draw, Play
from remikit.bots import make_bot
from remikit.cards import Card
from remikit.engine import Game
from remikit.i18n import t
from remikit.server.tables.build import build_game
from remikit.storage import NewerDatabase, Store
from remikit.storage.migrations import config, head
from remikit.storage.models import Base
from remikit.variants import find_playable
from remikit.variants.three_thirteen.rules import (
    ThreeThirteenDeal,
    ThreeThirteenGame,
    ThreeThirteenOptions,
)


def revision_of(url: str) -> str | None:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()


def table_names(url: str) -> set[str]:
    engine = sa.create_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


# -- from nothing to head ------------------------------------------------------------------


def test_an_empty_database_is_upgraded_to_head(database_url: str) -> None:
    assert head() == "0015"
    Store(database_url).close()
    assert revision_of(database_url) == head()
    assert table_names(database_url) == {
        "alembic_version",
        "tables",
        "actions",
        "deals",
        "calls",
        "competitions",
        "competition_players",
        "competition_rounds",
        "competition_tables",
        "competition_entries",
        "competition_audit",
        "competition_logins",
        "competition_accounts",
        "competition_guards",
        "server_keys",
        "nodes",
        "table_owners",
        "competition_absences",
        "profiles",
        "profile_tokens",
        "profile_blocks",
        "profile_games",
        "profile_ratings",
        "profile_tables",
    }
    Store(database_url).close()  # at head: nothing more to do
    assert revision_of(database_url) == head()


def test_alembics_own_commands_run_the_same_revisions(database_url: str) -> None:
    command.upgrade(config(url=database_url), "0001")
    assert revision_of(database_url) == "0001"
    assert table_names(database_url) == {"alembic_version", "tables", "actions"}
    command.upgrade(config(url=database_url), "head")
    assert revision_of(database_url) == "0015"
    command.downgrade(config(url=database_url), "0001")
    assert table_names(database_url) == {"alembic_version", "tables", "actions"}
    command.downgrade(config(url=database_url), "base")
    assert table_names(database_url) == {"alembic_version"}


def test_the_models_match_the_migrated_schema(database_url: str) -> None:
    Store(database_url).close()
    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()


# -- tables dealt the old way ----------------------------------------------------------


def old_game(
    variant: str, options: dict[str, Any], seed: str, count: int
) -> tuple[Game, list[str], list[list[str]]]:
    """A game dealt as remikit dealt before the decks were stored (one
    ``random.Random(int(seed))`` shuffling the full deck with ``shuffle`` for each deal in
    turn), after ``count`` actions of random bots: the game, the actions, the decks."""
    game_type = find_playable(variant).game_class()
    game = game_type(game_type.options_type.from_mapping(options), auto_deal=False)
    rng = random.Random(int(seed))
    decks: list[list[str]] = []

    def deal() -> None:
        cards = game.full_deck()
        rng.shuffle(cards)
        game.start_deal(cards)
        decks.append([str(c) for c in cards])

    deal()
    bots = [make_bot("random", seed=s) for s in range(game.players)]
    actions = []
    for _ in range(count):
        seat = game.to_play
        assert seat is not None
        action = bots[seat].choose(game.view(seat))
        game.apply(seat, action)
        actions.append(str(Play(seat, action)))
        if game.needs_deal:
            deal()
    return game, actions, decks


TABLES = [  # id, variant, options, seed, actions: two deals, one, none
    ("REMITWO2", "remi13d", {"games": 2}, "98765432109876543210", 260),
    ("THIRTEEN", "three-thirteen", {"players": 3, "jokers": 2}, "31337", 40),
    ("RUMMY500", "rummy500", {"players": 3}, "5", 0),
]


def write_old_tables(url: str) -> dict[str, tuple[Game, list[str], list[list[str]]]]:
    """The rows of :data:`TABLES` as the releases before migrations wrote them."""
    out = {}
    engine = sa.create_engine(url)
    meta = sa.MetaData()
    tables = sa.Table("tables", meta, autoload_with=engine)
    actions = sa.Table("actions", meta, autoload_with=engine)
    start = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
    try:
        with engine.begin() as conn:
            for n, (table_id, variant, options, seed, count) in enumerate(TABLES):
                game, texts, decks = old_game(variant, options, seed, count)
                out[table_id] = (game, texts, decks)
                seats = [
                    {"kind": "bot", "level": "random", "name": f"Bot {i}"}
                    for i in range(game.players)
                ]
                conn.execute(
                    tables.insert().values(
                        id=table_id,
                        variant=variant,
                        options=game.options.as_dict(),
                        seed=seed,
                        seats=seats,
                        title=variant,
                        created_at=start + timedelta(minutes=n),
                    )
                )
                if texts:
                    conn.execute(
                        actions.insert(),
                        [
                            {
                                "table_id": table_id,
                                "index": i,
                                "seat": int(text.split()[0][1:]),
                                "action": text,
                                "created_at": start + timedelta(minutes=n, seconds=i),
                            }
                            for i, text in enumerate(texts)
                        ],
                    )
    finally:
        engine.dispose()
    return out


def test_a_revision_1_database_keeps_the_decks_its_tables_were_dealt(database_url: str) -> None:
    command.upgrade(config(url=database_url), "0001")
    old = write_old_tables(database_url)
    game, _, decks = old["REMITWO2"]
    assert len(decks) == 2  # the first game of the match is over, the second dealt
    # the old first deck, pinned on this Python: random.Random(seed).shuffle of the full deck
    expected = game.full_deck()
    random.Random(98765432109876543210).shuffle(expected)
    assert decks[0] == [str(c) for c in expected]

    store = Store(database_url)  # upgrades to head
    try:
        assert revision_of(database_url) == head()
        for table_id, (game, texts, decks) in old.items():
            stored = store.load(table_id)
            assert stored is not None
            assert [list(d) for d in stored.decks] == decks
            assert stored.actions == tuple(texts)
            rebuilt = build_game(stored)
            assert rebuilt.record() == game.record()
            for seat in [*range(game.players), None]:
                assert rebuilt.view(seat) == game.view(seat)
        assert {t.id for t in store.unfinished()} == set(old)
        assert [list(d) for d in store.unfinished()[0].decks] == old["REMITWO2"][2]
    finally:
        store.close()


COMPETITION_ROWS = {
    "competitions": "INSERT INTO competitions (id, name, date, venue, rounds, games, tie_breaks,"
    " fill, bot_level, bye_points, clubs_apart, publish, organiser_password, referee_password,"
    " created_at) VALUES ('OLDCOMP1', 'Lama', '2026-12-01', '', 2, 1, '[]', 'byes', 'greedy',"
    " 'average', false, 'live', 'x$y', 'x$y', :at)",
    "competition_players": "INSERT INTO competition_players (competition_id, id, number, name,"
    " status, late, created_at) VALUES ('OLDCOMP1', 'P1', 1, 'Ani', 'checked_in', false, :at)",
    "competition_rounds": "INSERT INTO competition_rounds (competition_id, number, seating, timer,"
    " created_at) VALUES ('OLDCOMP1', 1, '{}', '{}', :at)",
    "competition_tables": "INSERT INTO competition_tables (competition_id, round, number, kind,"
    " seats, draws) VALUES ('OLDCOMP1', 1, 1, 'physical', '[]', '[]')",
}


def test_a_competition_stored_at_revision_8_keeps_every_row(database_url: str) -> None:
    """Columns added to ``competitions`` and ``competition_rounds`` later are added in place:
    a copy of either table would delete, through the foreign keys the store turns on, every
    row that refers to it."""
    command.upgrade(config(url=database_url), "0008")
    engine = sa.create_engine(database_url)
    with engine.begin() as conn:
        for insert in COMPETITION_ROWS.values():
            conn.execute(sa.text(insert), {"at": datetime.now(UTC)})
    engine.dispose()
    Store(database_url).close()  # upgrades to head, foreign keys on
    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as conn:
            for name in COMPETITION_ROWS:
                assert conn.execute(sa.text(f"SELECT count(*) FROM {name}")).scalar() == 1, name
    finally:
        engine.dispose()


def test_a_database_made_before_migrations_is_adopted(database_url: str) -> None:
    command.upgrade(config(url=database_url), "0001")
    old = write_old_tables(database_url)
    engine = sa.create_engine(database_url)
    with engine.begin() as conn:  # as create_all made it: no alembic_version
        conn.execute(sa.text("DROP TABLE alembic_version"))
    engine.dispose()
    store = Store(database_url)
    try:
        assert revision_of(database_url) == head()
        stored = store.load("THIRTEEN")
        assert stored is not None and [list(d) for d in stored.decks] == old["THIRTEEN"][2]
    finally:
        store.close()


# -- a newer database ------------------------------------------------------------------


def stamp_newer(url: str) -> None:
    Store(url).close()
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()


def test_a_database_at_an_unknown_newer_revision_is_refused(database_url: str) -> None:
    stamp_newer(database_url)
    with pytest.raises(NewerDatabase) as refused:
        Store(database_url)
    assert (refused.value.revision, refused.value.head) == ("9999", head())
    assert revision_of(database_url) == "9999"  # left as it was
    assert "9999" in t("serve.newer_database", "id", revision="9999", head=head())


@pytest.mark.slow
def test_serve_refuses_a_newer_database_with_a_message(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'remikit.db'}"
    stamp_newer(url)
    for lang, start in (
        ("C.UTF-8", "the database is at schema revision 9999, newer than this remikit"),
        ("id_ID.UTF-8", "basis data ini memakai skema revisi 9999"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "remikit", "serve", "--database", url, "--port", "0"],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "LANG": lang, "LC_ALL": "", "LC_MESSAGES": ""},
        )
        assert done.returncode == 1
        assert done.stderr.startswith(start), done.stderr
        assert f"(up to {head()})" in done.stderr or f"(sampai {head()})" in done.stderr
        assert "Traceback" not in done.stderr


def test_a_three_thirteen_stock_the_old_code_reshuffled_is_named_in_the_log(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # round 1, two players: each turn takes the stock's top card and discards it, so the
    # 97-card stock runs out and the old code reshuffled it (random.Random, as it did)
    options = ThreeThirteenOptions(players=2)
    seed = next(s for s in range(100) if not any(map(complete, old_round(options, s).hands)))
    deal = old_round(options, seed)
    game_type = ThreeThirteenGame
    texts: list[str] = []
    last_card: tuple[int, list[Card]] | None = None
    for _ in range(100):
        seat = deal.to_play
        assert seat is not None
        if len(deal.stock) == 1:
            last_card = len(texts), list(deal.stock)
        card = deal.stock[-1]
        for action in (Draw("stock"), Discard(card)):
            deal.apply(seat, action)
            texts.append(str(Play(seat, action)))
    assert deal.reshuffles == 1 and not deal.is_over and last_card is not None
    command.upgrade(config(url=database_url), "0001")
    engine = sa.create_engine(database_url)
    meta = sa.MetaData()
    tables = sa.Table("tables", meta, autoload_with=engine)
    actions = sa.Table("actions", meta, autoload_with=engine)
    moment = datetime(2026, 11, 1, tzinfo=UTC)
    with engine.begin() as conn:
        conn.execute(
            tables.insert().values(
                id="OLDSTOCK",
                variant=game_type.name,
                options=options.as_dict(),
                seed=str(seed),
                seats=[{"kind": "bot", "level": "random"}] * 2,
                title="",
                created_at=moment,
            )
        )
        conn.execute(
            actions.insert(),
            [
                {"table_id": "OLDSTOCK", "index": i, "seat": int(x[1]), "action": x}
                | {"created_at": moment}
                for i, x in enumerate(texts)
            ],
        )
    engine.dispose()
    with caplog.at_level(logging.WARNING, logger="remikit.storage"):
        store = Store(database_url)
    try:
        stored = store.load("OLDSTOCK")
        assert stored is not None and [list(d) for d in stored.decks] == [
            [str(c) for c in deal.deck]
        ]
        assert "OLDSTOCK" in caplog.text and "reshuffled the old way" in caplog.text
        # up to the reshuffle the table replays; the old reshuffle's stock is not rebuilt
        steps, stock = last_card
        assert build_game(stored, steps).deals[0].stock == stock
        with pytest.raises(ValueError):
            build_game(stored)
    finally:
        store.close()


def old_round(options: ThreeThirteenOptions, seed: int) -> ThreeThirteenDeal:
    """Round 1 as the old code dealt it and reshuffled its stock (both random.Random)."""
    game = ThreeThirteenGame(options, auto_deal=False)
    cards = game.full_deck()
    random.Random(seed).shuffle(cards)
    deal = game.start_deal(cards)
    assert isinstance(deal, ThreeThirteenDeal)

    def reshuffle() -> None:
        deal.reshuffles += 1
        text = " ".join(str(c) for c in deal.deck) + f"|{deal.reshuffles}"
        digest = hashlib.sha256(text.encode("ascii")).digest()
        pile = deal.discard_pile[:-1]
        random.Random(int.from_bytes(digest[:8], "big")).shuffle(pile)
        del deal.discard_pile[:-1]
        deal.stock = pile

    deal.reshuffle = reshuffle  # type: ignore[method-assign]
    return deal


def complete(hand: list[Card]) -> bool:
    return ThreeThirteenDeal(
        number=1, players=2, dealer=1, first=0, options=ThreeThirteenOptions(players=2)
    ).is_complete(hand)
