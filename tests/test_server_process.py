"""``remi serve`` as a real process on a loopback port: play over a real WebSocket, kill it
with SIGKILL mid-game, restart it on the same database, and find every table, every action
and every seat token intact; SIGTERM ends it cleanly."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from remikit.storage import Store
from tests import changes_client

Message = dict[str, Any]
URL_LINE = re.compile(r"^remikit: open (http://127\.0\.0\.1:(\d+)/)$")


class Served:
    """A ``remi serve`` child process and its address."""

    def __init__(self, database: str, log: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("REMI_")}
        self.log = log.open("a")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "remikit",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--database",
                database,
                "--bot-delay",
                "0.02",
                "--call-window",
                "0.2",
            ],
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=env,
        )
        self.url = self._address()
        self.ws_url = self.url.replace("http://", "ws://")

    def _address(self) -> str:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], 60)
        assert ready, "remi serve printed no address within 60 s"
        line = self.process.stdout.readline().strip()
        match = URL_LINE.match(line)
        assert match, f"unexpected first line {line!r}"
        return match.group(1)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.log.close()

    def terminate(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(15)
        self.log.close()
        return status


@contextmanager
def serving(database: str, log: Path) -> Iterator[Served]:
    served = Served(database, log)
    try:
        yield served
    finally:
        if served.process.poll() is None:
            served.kill()


def receive_until(
    ws: ClientConnection, wanted: Callable[[Message], bool], seen: list[Message] | None = None
) -> Message:
    for _ in range(5000):
        message: Message = changes_client.read(ws, json.loads(ws.recv(timeout=30)))
        if seen is not None:
            seen.append(message)
        if wanted(message):
            return message
    raise AssertionError("the wanted message did not come")


def my_turn(after: int) -> Callable[[Message], bool]:
    return lambda m: (
        m["type"] == "state" and m["state_id"] > after and bool(m["view"]["legal_actions"])
    )


@contextmanager
def sit(served: Served, table_id: str, token: str) -> Iterator[ClientConnection]:
    """A real WebSocket that said hello with ``token`` (the seat the seat draw gave, R13-2)."""
    with connect(f"{served.ws_url}ws/tables/{table_id}", proxy=None, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(ws.recv(timeout=10))
        assert welcome["type"] == "welcome" and welcome["seat"] in range(4), welcome
        yield ws


def act(ws: ClientConnection, state: Message, action: str) -> None:
    ws.send(json.dumps({"type": "action", "state_id": state["state_id"], "action": action}))


def first(view: Message, prefix: str) -> str:
    actions: list[str] = view["legal_actions"]
    return next(a for a in actions if a.startswith(prefix))


@pytest.mark.slow
def test_sigkill_mid_game_then_restart_resumes_exactly(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'remikit.db'}"
    log = tmp_path / "server.log"
    seen: list[Message] = []
    with serving(database, log) as served:
        http = httpx.Client(base_url=served.url, timeout=10, trust_env=False)
        assert http.get("/healthz").json() == {"ok": True}
        created = http.post(
            "/api/tables",
            json={
                "variant": "remi13d",
                "seats": [{"kind": "person"}] + [{"kind": "bot", "level": "random"}] * 3,
            },
        )
        table_id = created.json()["table"]["id"]
        token = http.post(f"/api/tables/{table_id}/join", json={"name": "Budi"}).json()["token"]
        with sit(served, table_id, token) as ws:
            acted = -1
            for _ in range(3):  # three turns: draw, discard
                state = receive_until(ws, my_turn(acted), seen)
                act(ws, state, "draw stock")
                state = receive_until(ws, my_turn(state["state_id"]), seen)
                act(ws, state, first(state["view"], "discard"))
                acted = state["state_id"]
            state = receive_until(ws, my_turn(acted), seen)
            act(ws, state, "draw stock")  # mid-turn: the table waits for this seat's discard
            before = receive_until(ws, my_turn(state["state_id"]), seen)
            served.kill()
    store = Store(database)
    stored = store.load(table_id)
    store.close()
    assert stored is not None and stored.finished_at is None
    assert len(stored.actions) == before["state_id"]
    assert list(stored.actions[-len(before["view"]["log"]) :]) == before["view"]["log"]

    with serving(database, log) as served:
        http = httpx.Client(base_url=served.url, timeout=10, trust_env=False)
        table = http.get(f"/api/tables/{table_id}").json()["table"]
        assert table["state_id"] == before["state_id"] and table["status"] == "playing"
        with sit(served, table_id, token) as ws:
            again = receive_until(ws, lambda m: m["type"] == "state")
            assert again["view"] == before["view"]  # same hand, same log, same everything
            act(ws, again, first(again["view"], "discard"))
            # the bots play on; kill the server while they do, after some states
            told = [
                receive_until(
                    ws, lambda m: m["type"] == "state" and m["state_id"] > again["state_id"], seen
                )
            ]
            while told[-1]["state_id"] < again["state_id"] + 3:
                told.append(receive_until(ws, lambda m: m["type"] == "state", seen))
            served.kill()
    store = Store(database)
    stored = store.load(table_id)
    store.close()
    assert stored is not None
    for state in seen:  # nothing that anyone was told is lost
        if state["type"] == "state" and state["view"]["log"]:
            step = state["state_id"]
            assert len(stored.actions) >= step
            assert list(stored.actions[:step][-len(state["view"]["log"]) :]) == state["view"]["log"]

    with serving(database, log) as served:
        with sit(served, table_id, token) as ws:
            resumed = receive_until(ws, my_turn(-1))  # the bots finished their turns
            assert resumed["state_id"] >= len(stored.actions)
            act(ws, resumed, first(resumed["view"], "draw"))
            receive_until(
                ws, lambda m: m["type"] == "state" and m["state_id"] == resumed["state_id"] + 1
            )
        with connect(f"{served.ws_url}ws/tables/{table_id}", proxy=None) as spectator:
            spectator.send(json.dumps({"type": "hello", "token": "not-the-token"}))
            assert json.loads(spectator.recv(timeout=10))["code"] == "bad_token"
        assert served.terminate() == 0  # SIGTERM: a clean exit
    store = Store(database)
    assert len(store.actions(table_id)) == resumed["state_id"] + 1
    store.close()
    assert "Traceback" not in log.read_text()


@pytest.mark.slow
def test_serve_names_a_database_it_cannot_open() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "remikit", "serve", "--database", "nosuchdriver://nowhere"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "LANG": "C.UTF-8"},
    )
    assert done.returncode == 1
    assert done.stderr.startswith("cannot open the database:") and "nosuchdriver" in done.stderr


@pytest.mark.slow
def test_sigkill_mid_round_loses_no_confirmed_competition_entry(tmp_path: Path) -> None:
    """Kill the server while referees enter a physical table's games: every confirmed
    entry is there after the restart, with its audit lines; the one entered but not
    confirmed is there as entered."""
    database = f"sqlite:///{tmp_path / 'remikit.db'}"
    log = tmp_path / "serve.log"
    body = {
        "name": "Piala Remi",
        "date": "2026-12-05",
        "venue": "Balai",
        "rounds": 1,
        "games": 4,
        "organiser_password": "panitia-medan",
    }
    with serving(database, log) as served:
        api = f"{served.url}api/competitions"
        made = httpx.post(api, json=body).json()
        cid, organiser = made["competition"]["id"], {"Authorization": f"Bearer {made['token']}"}

        def referee(name: str) -> dict[str, str]:  # each referee their own account
            account = {"name": name, "password": f"wasit-{name.lower()}-01"}
            httpx.post(f"{api}/{cid}/accounts", json=account, headers=organiser)
            answer = httpx.post(f"{api}/{cid}/login", json=account)
            return {"Authorization": f"Bearer {answer.json()['token']}"}

        rina, tono = referee("Rina"), referee("Tono")
        for index in range(4):
            pid = httpx.post(
                f"{api}/{cid}/players", json={"name": f"Pemain {index}"}, headers=organiser
            ).json()["player"]["id"]
            httpx.post(f"{api}/{cid}/players/{pid}/check-in", headers=rina)
        httpx.post(f"{api}/{cid}/rounds", json={"online_tables": []}, headers=organiser)
        draw = {"cards": {"A": "As", "B": "Ks", "C": "Qs", "D": "Js"}}
        assert httpx.post(f"{api}/{cid}/rounds/1/tables/1/seat-draw", json=draw, headers=rina)
        confirmed = []
        for game, points in enumerate(([30, 0, -10, -20], [5, 15, -5, 0]), start=1):
            entry = httpx.post(
                f"{api}/{cid}/rounds/1/tables/1/games/{game}",
                json={"points": points, "reason": "score sheet"},
                headers=rina,
            ).json()["entry"]
            done = httpx.post(f"{api}/{cid}/entries/{entry['id']}/confirm", headers=tono)
            assert done.status_code == 200, done.text
            confirmed.append(points)
        httpx.post(
            f"{api}/{cid}/rounds/1/tables/1/games/3",
            json={"points": [0, 0, 0, 0], "reason": "score sheet"},
            headers=rina,
        )
        served.kill()  # mid-round, the third game entered, not confirmed
    with serving(database, log) as served:
        api = f"{served.url}api/competitions"
        games = httpx.get(f"{api}/{cid}/rounds/1", headers=organiser).json()["round"]
        games = games["tables"][0]["games"]
        assert [g["status"] for g in games] == ["confirmed", "confirmed", "entered", "missing"]
        assert [g["entry"]["points"] for g in games[:2]] == confirmed
        totals = {r["name"]: r["total"] for r in httpx.get(f"{api}/{cid}/standings").json()["rows"]}
        assert sorted(totals.values()) == sorted(a + b for a, b in zip(*confirmed, strict=True))
        audit = httpx.get(f"{api}/{cid}/audit", headers=organiser).json()
        assert sum(a["what"] == "entry.confirm" for a in audit) == 2
        assert served.terminate() == 0
