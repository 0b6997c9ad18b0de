"""Several ``remi serve`` processes as one site over PostgreSQL and Redis, behind nginx
(docs/deploy.md; tests/cluster.py runs them as real processes on loopback).

A table made through one process is joined, watched and played through another; its bots
play once, on its owner; killing the owner mid-game loses no acknowledged action and
applies none twice, the table going on elsewhere; an owner that wakes up after its lease
ran out cannot write; Redis restarting mid-game loses nothing and the lobby comes back.

Outside CI these tests skip without PostgreSQL, Redis or nginx; in CI they must run.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from remikit.server.tables.build import build_game
from remikit.storage import Store
from tests import changes_client
from tests.cluster import Site, needs_postgres, needs_redis, redis_ctl, running_site
from tests.proxy import needs_nginx

pytestmark = [needs_postgres, needs_redis, needs_nginx, pytest.mark.slow]

Message = dict[str, Any]
OWNER = text(
    "SELECT nodes.url FROM table_owners JOIN nodes ON nodes.id = table_owners.node"
    " WHERE table_owners.table_id = :table AND nodes.expires_at > now()"
)
"""The address of the live process that owns a table (each process's node URL)."""
LEASE = 2.0
WAIT = 60.0  # seconds any one thing may take before the test fails


def site_args(site: Site, index: int) -> Sequence[str]:
    return (
        *("--redis", site.redis_url, "--node-url", site.direct_url(index)),
        *("--lease", str(LEASE), "--bot-delay", "0.05", "--call-window", "0"),
        *("--bot-workers", "0", "--log-level", "info"),
    )


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    with running_site(tmp_path, extra=site_args) as site:
        yield site


def http(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=30, trust_env=False)


def until(what: Callable[[], Any], why: str) -> Any:
    """The first truthy ``what()``, asked every 0.1 s for up to :data:`WAIT` seconds."""
    deadline = time.monotonic() + WAIT
    while True:
        found = what()
        if found:
            return found
        assert time.monotonic() < deadline, why
        time.sleep(0.1)


def owner_of(site: Site, table_id: str) -> int | None:
    """The process that owns a table now (by the database's leases), if a live one does."""
    store = Store(site.database)
    try:
        with store.session() as session:
            url = session.execute(OWNER, {"table": table_id}).scalar_one_or_none()
    finally:
        store.close()
    return None if url is None else [site.direct_url(i) for i in range(len(site.ports))].index(url)


def make_table(base: str, seats: list[dict[str, str]]) -> str:
    with http(base) as client:
        created = client.post("/api/tables", json={"variant": "gin", "seats": seats})
        assert created.status_code == 201, created.text
        return str(created.json()["table"]["id"])


def join(base: str, table_id: str, name: str = "Budi") -> str:
    with http(base) as client:
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": name})
        assert joined.status_code == 200, joined.text
        return str(joined.json()["token"])


@contextmanager
def sit(
    base: str, table_id: str, token: str | None, *, origin: str | None = None
) -> Iterator[ClientConnection]:
    """A socket that said hello (with ``token``, or as a spectator), opened by a page of
    ``origin`` if one is given."""
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    page = None if origin is None else Origin(origin)
    with connect(url, proxy=None, open_timeout=10, max_size=None, origin=page) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(ws.recv(timeout=10))
        assert welcome["type"] == "welcome", welcome
        yield ws


def receive(
    ws: ClientConnection, wanted: Callable[[Message], bool], seen: list[Message]
) -> Message:
    while True:
        try:
            raw = ws.recv(timeout=WAIT)
        except TimeoutError:
            last = [
                (m["type"], m.get("state_id"), m.get("view", {}).get("legal_actions"))
                for m in seen[-3:]
            ]
            raise AssertionError(f"no wanted message; the last ones: {last}") from None
        message: Message = changes_client.read(ws, json.loads(raw))
        seen.append(message)
        assert message["type"] != "error", message
        if wanted(message):
            return message


def my_turn(after: int) -> Callable[[Message], bool]:
    return lambda m: (
        m["type"] == "state" and m["state_id"] > after and bool(m["view"]["legal_actions"])
    )


def play(ws: ClientConnection, turns: int, seen: list[Message], after: int = -1) -> list[int]:
    """Play ``turns`` actions (the first legal one each time) in states after ``after``,
    starting from the last state received when it is already this seat's turn; the state
    ids it acted in, each action acknowledged by the state it made."""
    acked: list[int] = []
    ready = my_turn(after)
    state = seen[-1] if seen and ready(seen[-1]) else receive(ws, ready, seen)
    for turn in range(turns):
        # the deal in sight, as the browser says once nothing covers the table
        ws.send(json.dumps({"type": "seen", "deal": state["view"]["deal_number"]}))
        action = state["view"]["legal_actions"][0]
        ws.send(json.dumps({"type": "action", "state_id": state["state_id"], "action": action}))
        acked.append(state["state_id"])
        if turn + 1 < turns:
            state = receive(ws, my_turn(state["state_id"]), seen)
    receive(ws, lambda m: m["type"] == "state" and m["state_id"] > acked[-1], seen)
    return acked


def stored_actions(site: Site, table_id: str) -> list[str]:
    store = Store(site.database)
    try:
        return store.actions(table_id)
    finally:
        store.close()


def replays(site: Site, table_id: str) -> int:
    """The table's stored log replayed by the engine (each action legal where it stands);
    how many actions it holds."""
    store = Store(site.database)
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None
    build_game(stored)  # deals the stored decks and applies every stored action, checked
    return len(stored.actions)


def lobby_ids(base: str) -> set[str]:
    with http(base) as client:
        return {t["id"] for t in client.get("/api/tables", params={"limit": 100}).json()["tables"]}


# -- one site ---------------------------------------------------------------------------


def test_a_table_made_on_one_process_is_played_through_another(site: Site) -> None:
    table_id = make_table(
        site.direct_url(0), [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    )
    assert owner_of(site, table_id) == 0
    # the lobby is the same from every process
    until(lambda: table_id in lobby_ids(site.direct_url(1)), "the other process's lobby")
    token = join(site.direct_url(1), table_id)  # forwarded to the owner
    direct: list[Message] = []
    forwarded: list[Message] = []
    with (
        sit(site.direct_url(0), table_id, token) as here,
        sit(site.direct_url(1), table_id, token, origin=site.direct_url(1)) as there,
    ):
        play(here, 6, direct)
        last = direct[-1]["state_id"]
        receive(there, lambda m: m["type"] == "state" and m["state_id"] >= last, forwarded)
    # the socket through the other process saw exactly what the owner's own socket saw
    by_id = {(m["state_id"], m["rev"]): m for m in direct if m["type"] == "state"}
    shared = [m for m in forwarded if (m["state_id"], m.get("rev")) in by_id]
    assert shared and all(m == by_id[m["state_id"], m["rev"]] for m in shared)
    # a page of another site is refused through any process, as by the owner itself
    for base in (site.direct_url(0), site.direct_url(1)):
        url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        with connect(url, proxy=None, origin=Origin("http://evil.example")) as ws:
            refused = json.loads(ws.recv(timeout=10))
            assert refused["code"] == "bad_origin", refused
    # a spectator through nginx, wherever it lands, sees the table and no hand
    with sit(site.url, table_id, None) as watcher:
        seen: list[Message] = []
        state = receive(watcher, lambda m: m["type"] == "state", seen)
        assert state["view"]["seat"] is None and state["view"]["hand"] == []
    # each action stored once: the log replays, and the bot played only on the owner
    assert replays(site, table_id) >= last
    assert "took table" not in site.log(1).read_text()


def test_killing_the_owner_mid_game_loses_no_acknowledged_action(site: Site) -> None:
    table_id = make_table(site.url, [{"kind": "person"}, {"kind": "bot", "level": "random"}])
    token = join(site.url, table_id)
    seen: list[Message] = []
    with sit(site.url, table_id, token) as ws:
        acked = play(ws, 5, seen)
    before = stored_actions(site, table_id)
    owner = owner_of(site, table_id)
    assert owner is not None
    site.kill(owner)
    killed = time.monotonic()

    def back() -> Message | None:  # a client reconnecting through nginx, as the browser does
        try:
            with sit(site.url, table_id, token) as ws:
                return receive(ws, lambda m: m["type"] == "state", [])
        except (OSError, InvalidStatus, ConnectionClosed, AssertionError, TimeoutError):
            return None

    state = until(back, "the table did not come back on the other process")
    took = time.monotonic() - killed
    assert owner_of(site, table_id) == 1 - owner
    assert took < LEASE + 10
    # nothing acknowledged is lost, nothing applied twice: the stored log goes on from it
    after = stored_actions(site, table_id)
    assert after[: len(before)] == before and state["state_id"] >= acked[-1] + 1
    with sit(site.url, table_id, token) as ws:
        play(ws, 3, seen, after=state["state_id"] - 1)
    assert replays(site, table_id) >= len(before) + 3


def test_an_owner_that_wakes_after_its_lease_cannot_write(site: Site) -> None:
    table_id = make_table(
        site.direct_url(0), [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    )
    until(lambda: len(stored_actions(site, table_id)) >= 4, "the bots did not play")
    stale = site.processes[0]
    assert stale is not None
    stale.send_signal(signal.SIGSTOP)  # frozen mid-game: its lease runs out
    try:
        until(lambda: owner_of(site, table_id) == 1, "the other process did not take over")
        taken = len(stored_actions(site, table_id))
        until(lambda: len(stored_actions(site, table_id)) > taken + 4, "the bots stopped")
    finally:
        stale.send_signal(signal.SIGCONT)
    # the stale owner wakes with bot moves under way: storage refuses them, it lets go
    until(
        lambda: (
            "is owned by another node now" in site.log(0).read_text()
            or "holds table" in site.log(0).read_text()
        ),
        "the stale owner never let go",
    )
    count = len(stored_actions(site, table_id))
    until(lambda: len(stored_actions(site, table_id)) > count + 4, "the game stopped")
    assert owner_of(site, table_id) == 1
    replays(site, table_id)  # one game, each action legal where it stands


def test_redis_restarting_mid_game_loses_nothing(site: Site) -> None:
    ctl = redis_ctl()
    table_id = make_table(
        site.direct_url(0), [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    )
    token = join(site.direct_url(1), table_id)
    seen: list[Message] = []
    with sit(site.direct_url(1), table_id, token) as ws:
        acked = play(ws, 2, seen)
        subprocess.run([ctl, "stop"], check=True)
        try:
            acked += play(ws, 3, seen, after=acked[-1])  # play goes on without it
            later = make_table(
                site.direct_url(1), [{"kind": "person"}, {"kind": "bot", "level": "random"}]
            )
        finally:
            subprocess.run([ctl, "start"], check=True)
        acked += play(ws, 2, seen, after=acked[-1])
    until(lambda: later in lobby_ids(site.direct_url(0)), "the lobby did not come back")
    assert replays(site, table_id) >= acked[-1] + 1
