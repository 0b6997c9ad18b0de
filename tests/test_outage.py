"""A database outage: every request that needs the database is answered 503 ``storage``
in the documented shape while it is down, and every table, bot tables included, goes on
by itself once it is back; in-process with a store that fails on demand, and with a real
PostgreSQL cluster stopped and started mid-game."""

from __future__ import annotations

import logging
import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from remikit.server.app import create_app
from remikit.server.clock import ManualClock
from remikit.server.settings import Settings
from remikit.server.tables.registry import Tables
from remikit.server.tables.service import STORAGE_RETRY, Table
from remikit.storage import Store
from remikit.storage.testing import scratch_database
from tests.conftest import postgres_admin_url
from tests.test_server import create, hub_of, join

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BOTS = [{"kind": "bot", "level": "random"}] * 4
BOT_DELAY = 1.0


class Outage:
    """Makes a store fail, as a database that cannot be reached does, while ``down``."""

    METHODS = ("transaction", "connection", "load", "finished", "exists", "unfinished")

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.down = False
        self.failures = 0
        self.failed = threading.Event()
        for name in self.METHODS:
            monkeypatch.setattr(store, name, self._guarded(getattr(store, name)))

    def _guarded(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def guarded(*args: Any, **kwargs: Any) -> Any:
            if self.down:
                self.failures += 1
                self.failed.set()
                raise OperationalError("SELECT 1", {}, ConnectionRefusedError("down"))
            return method(*args, **kwargs)

        return guarded


@contextmanager
def served(url: str, clock: ManualClock | None = None) -> Iterator[TestClient]:
    settings = Settings(database_url=url, bot_delay=BOT_DELAY if clock else 0.0)
    with TestClient(create_app(settings, clock=clock), raise_server_exceptions=False) as client:
        yield client


def until(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 60
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def tick(clock: ManualClock, seconds: float) -> None:
    """Move the clock on once something waits on it."""
    until(lambda: clock.waiting > 0, "nothing waits on the clock: the table has stalled")
    clock.advance(seconds)


def play_on(clock: ManualClock, table: Table, actions: int) -> None:
    """Move the clock on until the table has ``actions`` more actions; it returns with no
    move under way (the next bot waits on the clock)."""
    goal = table.state_id + actions
    while table.state_id < goal:
        done = moved_or_waiting(clock, table)
        tick(clock, BOT_DELAY)  # then a move is stored, or a retry or a move waits again
        until(done, "the table stalled")


def either(one: Callable[[], bool], other: Callable[[], bool]) -> Callable[[], bool]:
    return lambda: one() or other()


def moved_or_waiting(clock: ManualClock, table: Table) -> Callable[[], bool]:
    """Whether the table has moved since now, or something waits on the clock."""
    seen = table.state_id
    return lambda: table.state_id > seen or clock.waiting > 0


def storage_error(response: Any) -> None:
    assert response.status_code == 503, response.text
    assert response.json() == {
        "error": {
            "code": "storage",
            "message": "the database cannot be reached right now; nothing changed, "
            "try again shortly",
        }
    }


def test_requests_get_503_while_the_database_is_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with served(f"sqlite:///{tmp_path / 'remikit.db'}") as client:
        hub: Tables = hub_of(client)
        live, away = create(client), create(client)
        del hub.tables[away]  # as after a restart: loaded from the database when asked
        hub.lobby.remove(away)
        outage = Outage(hub.store, monkeypatch)
        outage.down = True
        storage_error(client.post("/api/tables", json={"variant": "remi13d"}))
        storage_error(client.post(f"/api/tables/{live}/join", json={"name": "Budi"}))
        storage_error(client.get(f"/api/tables/{away}"))
        storage_error(client.get("/api/games"))
        storage_error(client.get(f"/api/games/{away}"))
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [live]
        with client.websocket_connect(f"/ws/tables/{away}") as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["code"] == "storage"
            assert ws.receive()["code"] == 4503
        outage.down = False
        create(client)
        join(client, live, "Budi")
        assert client.get(f"/api/tables/{away}").status_code == 200
        assert client.get("/api/games").status_code == 200


def test_a_bot_table_goes_on_by_itself_when_the_database_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock()
    with served(f"sqlite:///{tmp_path / 'remikit.db'}", clock) as client:
        hub: Tables = hub_of(client)
        table = hub.tables[create(client, seats=BOTS)]
        play_on(clock, table, 2)
        outage = Outage(hub.store, monkeypatch)
        outage.down = True
        before = table.state_id
        tick(clock, BOT_DELAY)  # the next bot's move comes due and cannot be stored
        until(outage.failed.is_set, "no write was tried")
        for _ in range(3):  # still down: each try fails, a pause later
            tick(clock, STORAGE_RETRY)
        assert table.state_id == before and outage.failures >= 2
        outage.down = False
        play_on(clock, table, 5)
        assert hub.store.actions(table.id) == table.actions


def test_a_bot_table_whose_next_deck_missed_the_database_is_rebuilt_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    down, failed = threading.Event(), threading.Event()
    real = Store.add_deal

    def add_deal(session: Any, table_id: str, number: int, deck: Any) -> None:
        if down.is_set() and number == 2:
            failed.set()
            raise OperationalError("INSERT", {}, ConnectionRefusedError("down"))
        real(session, table_id, number, deck)

    monkeypatch.setattr(Store, "add_deal", staticmethod(add_deal))
    clock = ManualClock()
    with served(f"sqlite:///{tmp_path / 'remikit.db'}", clock) as client:
        hub: Tables = hub_of(client)
        table_id = create(client, options={"games": 2}, seats=BOTS)
        table = hub.tables[table_id]
        down.set()
        while not failed.is_set():  # the first deal ends: its next deck cannot be stored
            moved = moved_or_waiting(clock, table)
            tick(clock, BOT_DELAY)
            until(either(moved, failed.is_set), "the table stalled")
        until(lambda: table_id not in hub.tables, "the table was not let go")
        assert table.broken and table.game.needs_deal
        down.clear()
        tick(clock, STORAGE_RETRY)  # rebuilt by itself: the deck is stored and dealt
        until(lambda: table_id in hub.tables, "the table was not rebuilt")
        again = hub.tables[table_id]
        play_on(clock, again, 3)
        assert len(again.game.deals) == 2
        assert hub.store.actions(table_id) == again.actions


def postgres_ctl() -> str:
    """The script that stops and starts the PostgreSQL cluster of .ci/with-postgres.sh."""
    postgres_admin_url()  # skips without a server (fails in CI)
    ctl = os.environ.get("REMI_TEST_POSTGRES_CTL", "")
    if not ctl:
        pytest.skip("the PostgreSQL server was not started by .ci/with-postgres.sh")
    return ctl


def test_postgresql_stopped_and_started_mid_game(caplog: pytest.LogCaptureFixture) -> None:
    ctl = postgres_ctl()
    clock = ManualClock()
    with scratch_database(postgres_admin_url()) as url, served(url, clock) as client:
        hub: Tables = hub_of(client)
        table = hub.tables[create(client, seats=BOTS)]
        play_on(clock, table, 3)
        subprocess.run([ctl, "stop"], check=True, capture_output=True)
        try:
            before = table.state_id
            with caplog.at_level(logging.WARNING, logger="remikit.server"):
                tick(clock, BOT_DELAY)
                until(
                    lambda: any("could not store" in r.getMessage() for r in caplog.records),
                    "no write was tried",
                )
            storage_error(client.get("/api/games"))
            storage_error(client.post("/api/tables", json={"variant": "remi13d"}))
            assert table.state_id == before
        finally:
            subprocess.run([ctl, "start"], check=True, capture_output=True)
        play_on(clock, table, 5)
        assert hub.store.actions(table.id) == table.actions
        assert client.get("/api/games").status_code == 200
