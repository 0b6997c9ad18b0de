"""Tujuh (tests/toy), a variant made up and defined entirely in tests/, plays wherever
remikit plays, with no change to remikit/: its rules (T-1 … T-5 in tests/toy/rules.py),
the arena with greedy and strong bots, the PettingZoo environment, a web table over a
real WebSocket (created, played to the end, replayed, downloaded, its fair deals
verified) and the terminal table. The random-play harness (tests/test_random_play.py)
checks its invariants with every other registered variant's, and tests/test_variants.py
its parts. tests/conftest.py registers it in every test process; other processes learn
of it from ``REMIKIT_VARIANTS`` (:data:`ENV`)."""

from __future__ import annotations

import io
import json
import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path
from typing import Any

import httpx
from pettingzoo.test import api_test
from rich.console import Console
from websockets.sync.client import ClientConnection, connect

from remikit.actions import parse_action
from remikit.cards import parse_cards
from remikit.cli import play
from remikit.cli.main import build_parser
from remikit.cli.tui.commands import parse_command
from remikit.envs import ENVIRONMENTS
from remikit.records import load_record, replay
from remikit.variants import ENV_VAR, find_playable
from tests import changes_client
from tests.stacked import Stacked
from tests.toy import SPEC
from tests.toy.rules import Show, TujuhEnding, TujuhGame, TujuhOptions
from tests.toy.tui import TujuhUI

ROOT = Path(__file__).resolve().parent.parent
ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith("REMI_")},
    ENV_VAR: "tests.toy",
    "PYTHONPATH": str(ROOT),
}
"""The environment of a process that knows Tujuh."""
Message = dict[str, Any]


def test_the_toy_is_registered_like_any_variant() -> None:
    assert find_playable("toy") is SPEC
    assert SPEC.title("id") == "Tujuh"


# -- the rules ------------------------------------------------------------------------


def tujuh(stacked: Stacked, hands: list[str], upcard: str, stock: str = "") -> TujuhGame:
    game = TujuhGame(TujuhOptions(deals=1), auto_deal=False)
    deck = stacked(game.full_deck(), hands, dealer=1, up=upcard, stock=stock)
    game.start_deal(deck, dealer=1, first=0)
    return game


def test_T4_a_show_lays_the_hand_down_and_ends_the_deal(stacked: Stacked) -> None:
    game = tujuh(stacked, ["2h 3h 4h 7c 7d 7s Kd", "9c 9d Jh Qs 5c 6d 8h"], "5h", stock="Ac")
    game.apply(0, parse_action("draw discard"))
    assert Show(parse_cards("Kd")[0]) in game.legal_actions(0)
    assert Show(parse_cards("7c")[0]) not in game.legal_actions(0)  # the rest is no melds
    game.apply(0, Show(parse_cards("Kd")[0]))
    summary = game.deals[-1].summary
    assert summary is not None and summary.ended_by is TujuhEnding.SHOW
    assert summary.points == (0, 9 + 9 + 10 + 10 + 5 + 6 + 8)  # T-5: the other's deadwood
    assert game.over and game.winner == 0


def test_T5_an_empty_stock_ends_the_deal(stacked: Stacked) -> None:
    game = tujuh(stacked, ["2h 5c 9d Jh Qs 3d 8c", "Ah 4s 6d Td Ks 7h 2c"], "9s")
    deal = game.deals[-1]
    while not game.over:
        seat = game.to_play
        assert seat is not None
        game.apply(seat, parse_action("draw stock"))
        game.apply(seat, game.legal_actions(seat)[-1])  # never a show: the last action
    assert deal.summary is not None and deal.summary.ended_by is TujuhEnding.STOCK
    assert deal.stock == []


def test_the_record_text_of_its_own_action_reads_back() -> None:
    action = parse_action("show 7h")
    assert isinstance(action, Show) and str(action) == "show 7h"


# -- the arena --------------------------------------------------------------------------


def arena(jobs: int) -> Message:
    command = [sys.executable, "-m", "remikit", "arena", "tujuh", "--bots", "greedy,strong@0.02"]
    command += ["--games", "4", "--seed", "3", "--json", "--jobs", str(jobs)]
    done = subprocess.run(command, env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result: Message = json.loads(done.stdout)
    result.pop("seconds")
    return result


def test_the_arena_plays_it_with_greedy_and_strong_bots_in_another_process() -> None:
    one = arena(1)
    assert one["variant"] == "tujuh" and one["games"] == 4
    assert [b["bot"] for b in one["bots"]] == ["greedy", "strong@0.02"]
    assert arena(2) == one  # reproducible whatever the number of processes


# -- the PettingZoo environment ---------------------------------------------------------


def test_its_pettingzoo_environment_passes_the_api_test() -> None:
    module = import_module(ENVIRONMENTS["tujuh"])
    api_test(module.env(deals=1), num_cycles=200)


# -- a web table over a real WebSocket --------------------------------------------------

URL_LINE = re.compile(r"^remikit: open (http://127\.0\.0\.1:\d+/)$")


@contextmanager
def serving(tmp_path: Path) -> Iterator[str]:
    """``remi serve`` in a process of its own that knows Tujuh; its address."""
    command = [sys.executable, "-m", "remikit", "serve", "--host", "127.0.0.1", "--port", "0"]
    command += ["--database", f"sqlite:///{tmp_path / 'remikit.db'}", "--bot-delay", "0.01"]
    with (tmp_path / "server.log").open("w") as log:
        process = subprocess.Popen(
            command, env=ENV, cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True
        )
        try:
            assert process.stdout is not None
            ready, _, _ = select.select([process.stdout], [], [], 60)
            assert ready, "remi serve printed no address"
            match = URL_LINE.match(process.stdout.readline().strip())
            assert match, (tmp_path / "server.log").read_text()
            yield match.group(1)
        finally:
            process.terminate()
            process.wait(15)


def next_state(ws: ClientConnection) -> Message:
    for _ in range(10_000):
        message: Message = changes_client.read(ws, json.loads(ws.recv(timeout=30)))
        assert message["type"] != "error", message
        if message["type"] == "state":
            return message
    raise AssertionError("no state came")


def finished(http: httpx.Client, code: str) -> Message:
    """The finished game's summary, once the server has stored its end."""
    for _ in range(100):
        answer = http.get(f"/api/games/{code}")
        if answer.status_code == 200:
            game: Message = answer.json()
            return game
        assert answer.json()["error"]["code"] == "not_finished"
        time.sleep(0.1)
    raise AssertionError("the game was not stored as finished")


def choose(legal: list[str]) -> str:
    """A show when one is legal, else the stock, else the first discard."""
    for prefix in ("show", "draw stock", "discard"):
        for action in legal:
            if action.startswith(prefix):
                return action
    return legal[0]


def test_a_web_table_plays_to_the_end_over_a_real_websocket(tmp_path: Path) -> None:
    with serving(tmp_path) as url:
        http = httpx.Client(base_url=url, timeout=30, trust_env=False)
        variants = http.get("/api/variants").json()["variants"]
        assert "tujuh" in [v["name"] for v in variants]
        created = http.post(
            "/api/tables",
            json={
                "variant": "toy",
                "options": {"deals": 2},
                "seats": [{"kind": "person"}, {"kind": "bot", "level": "greedy"}],
            },
        )
        assert created.status_code == 201, created.text
        code = created.json()["table"]["id"]
        token = http.post(f"/api/tables/{code}/join", json={"name": "Ana"}).json()["token"]
        ws_url = url.replace("http://", "ws://") + f"ws/tables/{code}"
        with connect(ws_url, proxy=None, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": token, "lang": "id"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            state = next_state(ws)
            hinted = 0
            while not state["view"]["game_over"]:
                legal = state["view"]["legal_actions"]
                if state.get("advice"):  # its own hints part, from the seat's view
                    hinted += "deadwood" in state["advice"]["counter"]
                assert len(state["view"]["hand"]) in (0, 7, 8)  # T-2, T-3
                if legal:
                    action = choose(legal)
                    ws.send(
                        json.dumps(
                            {"type": "action", "state_id": state["state_id"], "action": action}
                        )
                    )
                state = next_state(ws)
        assert hinted > 0
        game = finished(http, code)
        record = http.get(f"/api/games/{code}/record").json()
        assert record["variant"] == "tujuh" and len(record["hands"]) == 2
        result = replay(record)
        assert result.ok and result.finished
        assert result.game is not None
        assert list(result.game.totals) == game["game"]["result"]["totals"]
        steps = sum(len(h["actions"]) for h in record["hands"])
        replayed = http.get(f"/api/games/{code}/replay", params={"step": steps}).json()
        assert replayed["view"]["game_over"]
    path = tmp_path / "tujuh.json"
    path.write_text(json.dumps(record))
    verified = subprocess.run(
        [sys.executable, "-m", "remikit", "verify", str(path), "--json"],
        env=ENV,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    checked = json.loads(verified.stdout)
    assert checked["ok"] and len(checked["deals"]) == 2


# -- the terminal table -----------------------------------------------------------------


def test_the_terminal_table_reads_its_own_action_as_any_other(stacked: Stacked) -> None:
    game = tujuh(stacked, ["2h 3h 4h 7c 7d 7s Kd", "9c 9d Jh Qs 5c 6d 8h"], "5h")
    game.apply(0, parse_action("draw discard"))
    command = parse_command("show kd", game.view(0), "en", TujuhUI())
    assert command.kind == "action" and command.action == Show(parse_cards("Kd")[0])


def test_the_terminal_table_plays_a_whole_game(tmp_path: Path) -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=120, color_system=None, force_terminal=False)
    asked = 0

    def person(prompt: str) -> str:
        nonlocal asked
        asked += 1
        assert asked < 2_000, "the game does not end"
        last = buffer.getvalue().rsplit("\n", 1)[-1]
        if "Draw:" in last:
            return "s"
        if "Discard:" in last:
            return "b 1"
        return ""

    record = tmp_path / "tujuh.json"
    args = build_parser().parse_args(
        [
            "play",
            "toy",
            "--seed",
            "4",
            "--lang",
            "en",
            "--record",
            str(record),
            "--option",
            "deals=2",
        ]
    )
    assert play.run(args, console=console, input_fn=person) == 0
    out = buffer.getvalue()
    assert "Tujuh, deal 1 of 2" in out and "Tujuh, deal 2 of 2" in out
    result = replay(load_record(record))
    assert result.ok and result.finished
