"""The lobby and the server's hygiene: tables that wait too long for players close (and
stay closed across a restart), the lobby comes a filtered page at a time, and each
client may create and join only so fast and hold only so many tables. Time is a
ManualClock throughout; clients are told apart by their X-Forwarded-For address, as a
reverse proxy would send it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import update
from starlette.websockets import WebSocketDisconnect
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from remikit.cli.main import build_parser
from remikit.server.app import create_app
from remikit.server.clock import ManualClock
from remikit.server.limits import client_key
from remikit.server.settings import Settings
from remikit.server.tables.lobby import Lobby
from remikit.server.tables.registry import Tables
from remikit.server.transport import messages
from remikit.server.transport.messages import lobby_json
from remikit.storage import Store, TableRow

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HOUR = 3600.0
BOTS = [{"kind": "bot", "level": "random"}] * 4
TWO_PEOPLE = [{"kind": "person"}, {"kind": "person"}, *BOTS[:2]]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'remikit.db'}"


@dataclass
class Server:
    client: TestClient
    app: FastAPI
    clock: ManualClock

    @property
    def hub(self) -> Tables:
        hub: Tables = self.app.state.hub
        return hub

    def post(self, path: str, body: dict[str, Any], address: str = "203.0.113.1") -> Any:
        return self.client.post(path, json=body, headers={"X-Forwarded-For": address})

    def create(self, address: str = "203.0.113.1", **body: Any) -> Any:
        return self.post("/api/tables", {"variant": "remi13d", **body}, address)

    def made(self, address: str = "203.0.113.1", **body: Any) -> str:
        response = self.create(address, **body)
        assert response.status_code == 201, response.text
        table_id: str = response.json()["table"]["id"]
        return table_id

    def join(self, table_id: str, address: str = "203.0.113.1", name: str = "Budi") -> Any:
        return self.post(f"/api/tables/{table_id}/join", {"name": name}, address)

    def lobby(self, query: str = "") -> dict[str, Any]:
        response = self.client.get(f"/api/tables{query}")
        assert response.status_code == 200, response.text
        page: dict[str, Any] = response.json()
        return page

    def expire_due(self) -> set[str]:
        """Close the tables due now (or wait for the expiry's task to): the tables left."""
        assert self.client.portal is not None
        self.client.portal.call(self.hub.expiry.close_due)
        return set(self.hub.tables)


@contextmanager
def serving(db_url: str, *, clock: ManualClock | None = None, **settings: Any) -> Iterator[Server]:
    """The app behind a proxy that is trusted to say who the client is."""
    clock = clock or ManualClock()
    app = create_app(
        Settings(database_url=db_url, bot_delay=0.5, **settings), clock=clock
    )  # bots wait on the clock: their tables stay unfinished until it moves
    with TestClient(ProxyHeadersMiddleware(app, trusted_hosts="*")) as client:  # type: ignore[arg-type]
        yield Server(client, app, clock)


def closed_at(db_url: str, table_id: str) -> Any:
    store = Store(db_url)
    try:
        stored = store.load(table_id)
        assert stored is not None
        return stored.closed_at
    finally:
        store.close()


# -- tables waiting for players expire ----------------------------------------------------


def test_a_waiting_table_expires_and_stays_closed_after_a_restart(db_url: str) -> None:
    with serving(db_url, waiting_expiry=HOUR) as server:
        waiting = server.made()
        playing = server.made(seats=[{"kind": "person"}, *BOTS[:3]])
        assert server.join(playing).status_code == 200
        with server.client.websocket_connect(f"/ws/tables/{waiting}") as ws:
            ws.send_json({"type": "hello", "lang": "id"})
            assert ws.receive_json()["type"] == "welcome"
            ws.receive_json()  # its state
            server.clock.advance(HOUR - 1)
            assert server.expire_due() == {waiting, playing}
            assert server.lobby()["total"] == 2
            server.clock.advance(1)
            error = ws.receive_json()  # the expiry's own task tells the socket
            assert error["type"] == "error" and error["code"] == "expired"
            assert waiting in error["message"] and "ditutup" in error["message"]
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
        assert [t["id"] for t in server.lobby()["tables"]] == [playing]
        gone = server.client.get(f"/api/tables/{waiting}?lang=en")
        assert gone.status_code == 410
        assert gone.json()["error"]["code"] == "expired"
        assert "waited too long" in gone.json()["error"]["message"]
        refused = server.join(waiting)
        assert refused.status_code == 410 and refused.json()["error"]["code"] == "expired"
        assert server.client.get(f"/api/tables/{playing}").json()["table"]["status"] == "playing"
    assert closed_at(db_url, waiting) is not None
    assert closed_at(db_url, playing) is None
    with serving(db_url, waiting_expiry=HOUR) as server:  # a restart leaves it closed
        assert waiting not in server.hub.tables and playing in server.hub.tables
        assert server.client.get(f"/api/tables/{waiting}").status_code == 410
        with server.client.websocket_connect(f"/ws/tables/{waiting}") as ws:
            ws.send_json({"type": "hello", "lang": "en"})
            assert ws.receive_json()["code"] == "expired"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4410
        assert [t["id"] for t in server.lobby()["tables"]] == [playing]


def test_a_table_that_waited_while_the_server_was_down_closes_at_start_up(db_url: str) -> None:
    with serving(db_url) as server:
        old, young = server.made(), server.made()
    store = Store(db_url)
    with store.transaction() as session:
        for table_id, age in ((old, 2 * HOUR), (young, HOUR / 2)):  # its age counts
            stored = store.load(table_id)
            assert stored is not None
            moved = stored.created_at - timedelta(seconds=age)
            session.execute(
                update(TableRow).where(TableRow.id == table_id).values(created_at=moved)
            )
    store.close()
    with serving(db_url, waiting_expiry=HOUR) as server:
        assert [t["id"] for t in server.lobby()["tables"]] == [young]
        server.clock.advance(HOUR / 2 - 1)
        assert server.expire_due() == {young}
        server.clock.advance(1)
        assert server.expire_due() == set()
        assert server.lobby()["total"] == 0
    assert closed_at(db_url, old) is not None and closed_at(db_url, young) is not None


def test_a_finished_table_leaves_the_lobby_and_stays_in_the_history(db_url: str) -> None:
    app = create_app(Settings(database_url=db_url, bot_delay=0.0))
    with TestClient(app) as client:
        response = client.post(
            "/api/tables", json={"variant": "remi13d", "options": {"games": 1}, "seats": BOTS}
        )
        table_id = response.json()["table"]["id"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:  # someone watches it
            ws.send_json({"type": "hello"})
            deadline = time.monotonic() + 60
            while not ws.receive_json().get("view", {}).get("game_over"):
                assert time.monotonic() < deadline, "the bots did not finish the game"
            hub: Tables = app.state.hub
            assert table_id in hub.tables  # still watched ...
            page = client.get("/api/tables").json()
            assert page["tables"] == [] and page["total"] == 0  # ... but not in the lobby
            assert len(hub.lobby) == 0
        games = client.get("/api/games").json()["games"]
        assert [g["id"] for g in games] == [table_id]


def test_no_expiry_when_it_is_zero(db_url: str) -> None:
    with serving(db_url, waiting_expiry=0) as server:
        table_id = server.made()
        server.clock.advance(100 * HOUR)
        assert server.expire_due() == {table_id}
        assert [t["id"] for t in server.lobby()["tables"]] == [table_id]


# -- the lobby: pages and filters ---------------------------------------------------------


def test_the_lobby_comes_a_filtered_page_at_a_time(db_url: str) -> None:
    with serving(db_url, create_rate=0, max_client_tables=0, max_client_bot_tables=0) as server:
        made = [
            server.made(lang="id"),
            server.made(variant="rummy500", lang="en"),
            server.made(variant="rummy500", lang="id", seats=BOTS[:3]),  # bots only: playing
            server.made(lang="en", seats=[{"kind": "person"}, *BOTS[:3]]),
            server.made(variant="three-thirteen", lang="id"),
        ]
        assert server.join(made[3]).status_code == 200  # now playing
        newest = made[::-1]
        page = server.lobby()
        assert [t["id"] for t in page["tables"]] == newest
        assert (page["total"], page["limit"], page["offset"]) == (5, 20, 0)
        page = server.lobby("?limit=2&offset=1")
        assert [t["id"] for t in page["tables"]] == newest[1:3] and page["total"] == 5
        assert server.lobby("?limit=2&offset=9")["tables"] == []
        rummy = server.lobby("?variant=500")  # an alias
        assert [t["id"] for t in rummy["tables"]] == [made[2], made[1]] and rummy["total"] == 2
        free = server.lobby("?open=true")
        assert [t["id"] for t in free["tables"]] == [made[4], made[1], made[0]]
        assert all(t["free_seats"] for t in free["tables"])
        assert [t["id"] for t in server.lobby("?open=false")["tables"]] == [made[3], made[2]]
        spoken = server.lobby("?table_lang=en&open=true")
        assert [t["id"] for t in spoken["tables"]] == [made[1]] and spoken["total"] == 1
        both = server.lobby("?variant=remi13d&table_lang=id&limit=1")
        assert [t["id"] for t in both["tables"]] == [made[0]] and both["total"] == 1
        unknown = server.client.get("/api/tables?variant=poker&lang=id")
        assert unknown.status_code == 400 and unknown.json()["error"]["code"] == "bad_variant"
        for query in ("?table_lang=fr", "?limit=0", "?limit=101", "?offset=-1", "?open=maybe"):
            bad = server.client.get(f"/api/tables{query}")
            assert bad.status_code == 422, query
            assert bad.json()["error"]["code"] == "bad_request"


def fake_table(number: int, created_at: datetime) -> Any:
    """What the lobby reads of a table, counting how often its info is built."""
    seat = SimpleNamespace(kind="person", taken=number % 2 == 0)
    table = SimpleNamespace(
        id=f"T{number:07d}",
        created_at=created_at,
        variant=SimpleNamespace(name="remi13d" if number % 3 else "rummy500"),
        lang="id" if number % 5 else "en",
        seats=[seat, SimpleNamespace(kind="bot", taken=True)],
        game=SimpleNamespace(over=False),
        built=0,
    )

    def info() -> dict[str, Any]:
        table.built += 1
        return {"id": table.id, "title": "Meja " * 10, "seats": [{}] * 4}

    table.info = info
    return table


def test_a_lobby_of_thousands_builds_only_the_page_it_shows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(messages, "table_info", lambda table: table.info())
    lobby = Lobby()
    start = datetime(2026, 1, 1, tzinfo=UTC)
    tables = [fake_table(n, start + timedelta(seconds=n)) for n in range(6000)]
    for table in reversed(tables):  # the order they come in does not matter
        lobby.add(table, client=f"c{table.id[-1]}")
    page = lobby_json(lobby, limit=50, offset=100)
    assert page["total"] == 6000 and len(page["tables"]) == 50
    assert page["tables"][0]["id"] == tables[5899].id  # newest first
    assert sum(t.built for t in tables) == 50  # the info of the page's tables only
    assert len(json.dumps(page)) < 20_000
    free = lobby_json(lobby, limit=100, offset=0, free=True, variant="remi13d", lang="id")
    expected = [
        t.id
        for t in reversed(tables)
        if not t.seats[0].taken and t.variant.name == "remi13d" and t.lang == "id"
    ]
    assert free["total"] == len(expected) and [t["id"] for t in free["tables"]] == expected[:100]
    assert lobby.client_tables("c0") == 600
    deep = lobby.page(limit=50, offset=5990)[1]
    assert [t.id for t in deep] == [t.id for t in reversed(tables[:10])]
    english = lobby.page(limit=50, offset=1190, lang="en")[1]  # merged from two lists
    assert [t.id for t in english] == [t.id for t in reversed(tables[:50]) if t.lang == "en"]
    tables[10].game.over = True
    lobby.update(tables[10])
    assert lobby.page(limit=1, offset=0)[0] == 5999 and len(lobby) == 5999
    lobby.remove(tables[11].id)
    lobby.remove(tables[11].id)  # removing twice is harmless
    assert len(lobby) == 5998 and lobby.client_tables("c1") == 599


# -- limits per client ----------------------------------------------------------------------


def test_creating_too_fast_is_refused_until_the_window_allows_it(db_url: str) -> None:
    with serving(db_url, create_rate=2) as server:  # 2 a minute: one more every 30 s
        server.made(), server.made()
        refused = server.post("/api/tables?lang=id", {"variant": "remi13d"})
        assert refused.status_code == 429
        assert refused.headers["Retry-After"] == "30"
        error = refused.json()["error"]
        assert error["code"] == "rate_limited" and "30 detik" in error["message"]
        english = server.post("/api/tables?lang=en", {"variant": "remi13d"})
        assert "try again in 30 s" in english.json()["error"]["message"]
        server.made("2001:db8::7")  # another client
        server.clock.advance(20)
        assert server.create().headers["Retry-After"] == "10"
        server.clock.advance(10)
        server.made()  # one more token
        assert server.create().status_code == 429
    stored = Store(db_url)
    try:
        clients = {t.client for t in stored.unfinished()}
    finally:
        stored.close()
    assert len(clients) == 2 and None not in clients  # who made each, hashed
    assert not any("203.0.113" in c or "2001" in c for c in clients if c)


def test_joining_too_fast_is_refused(db_url: str) -> None:
    with serving(db_url, join_rate=1, create_rate=0) as server:
        tables = [server.made(seats=TWO_PEOPLE) for _ in range(2)]
        assert server.join(tables[0]).status_code == 200
        refused = server.join(tables[1], name="Sari")
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
        assert refused.json()["error"]["code"] == "rate_limited"
        assert server.join(tables[1], "198.51.100.9").status_code == 200  # someone else
        server.clock.advance(60)
        assert server.join(tables[0], name="Sari").status_code == 200


def test_a_client_may_hold_only_so_many_open_tables(db_url: str) -> None:
    with serving(db_url, create_rate=0, max_client_tables=2, waiting_expiry=HOUR) as server:
        first = server.made()
        server.clock.advance(HOUR / 2)
        server.made()
        refused = server.create(lang="en")
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "client_tables"
        assert "2 open tables" in refused.json()["error"]["message"]
        server.made("203.0.113.2")  # the next address is another client
        server.clock.advance(HOUR / 2)
        assert first not in server.expire_due()  # one closes: room for one more
        server.made()
        assert server.create().status_code == 429


def test_tables_of_bots_only_are_bounded_per_client_and_on_the_server(db_url: str) -> None:
    limits: dict[str, Any] = {"create_rate": 0, "max_client_bot_tables": 1, "max_bot_tables": 2}
    with serving(db_url, **limits) as server:
        server.made(seats=BOTS)
        refused = server.create(seats=BOTS)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "client_bot_tables"
        server.made()  # a table with a person's seat is still allowed
        server.made("203.0.113.2", seats=BOTS)
        full = server.create("203.0.113.3", seats=BOTS)
        assert full.status_code == 503 and full.json()["error"]["code"] == "too_many_bot_tables"
        assert server.hub.lobby.bot_tables() == 2


def test_an_address_is_known_by_a_keyed_hash_of_it() -> None:
    key = client_key("203.0.113.1", b"secret")
    assert key is not None and len(key) == 32 and "203" not in key
    assert key == client_key("::ffff:203.0.113.1", b"secret")  # IPv4 mapped into IPv6
    assert key != client_key("203.0.113.1", b"other secret")
    assert key != client_key("203.0.113.2", b"secret")
    assert client_key("2001:db8:1:2::1", b"k") == client_key("2001:db8:1:2:ffff::9", b"k")
    assert client_key("2001:db8:1:2::1", b"k") != client_key("2001:db8:1:3::1", b"k")
    assert client_key(None, b"k") is None


def test_remi_serve_takes_the_limits_as_options() -> None:
    args = build_parser().parse_args(
        ["serve", "--waiting-expiry", "60", "--create-rate", "5", "--max-bot-tables", "0"]
    )
    assert (args.waiting_expiry, args.create_rate, args.max_bot_tables) == (60, 5, 0)
    defaults = build_parser().parse_args(["serve"])
    settings = Settings()
    for name in ("waiting_expiry", "join_rate", "max_client_tables", "max_client_bot_tables"):
        assert getattr(defaults, name) == getattr(settings, name)
    assert defaults.max_open_tables == settings.max_open_tables
