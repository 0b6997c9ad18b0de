"""``remi arena --cluster``: on a Ray head started here on loopback a match gives the JSON
of a local run, and a game whose bot raises or whose worker is lost is reported while the
others count; without Ray, or without a cluster at the address, a message and exit status 2.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest

import remikit
from remikit.cli import arena
from remikit.cli.arena import make_arena
from remikit.cli.cluster import play_on_worker
from remikit.cli.games import GameOutcome, GameTask, play_task
from remikit.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
STARTED = "Ray runtime started"
PORTS = (
    "--ray-client-server-port",
    "--dashboard-port",
    "--dashboard-agent-listen-port",
    "--dashboard-agent-grpc-port",
    "--runtime-env-agent-port",
    "--metrics-export-port",
)
"""The head's ports that default to fixed numbers: free ones, so heads can run side by side."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def stop(process: subprocess.Popen[bytes]) -> None:
    """``ray start --block`` stops its node on SIGTERM; whatever is left of its process
    group is killed."""
    process.terminate()
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def head() -> Iterator[str]:
    """A Ray head with one CPU in a temporary directory (short: Ray's socket paths must
    fit in 107 bytes), its workers importing this checkout: its address."""
    ray = Path(sys.executable).with_name("ray")
    if importlib.util.find_spec("ray") is None or not ray.exists():
        pytest.skip("the cluster extra (Ray) is not installed")
    temp = Path(tempfile.mkdtemp(prefix="ray"))
    log = temp / "head.log"
    port = free_port()
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = os.environ | {"RAY_USAGE_STATS_ENABLED": "0", "PYTHONPATH": path}
    command = [
        str(ray),
        "start",
        "--head",
        "--block",
        "--node-ip-address=127.0.0.1",
        f"--port={port}",
        "--num-cpus=1",
        "--include-dashboard=false",
        "--disable-usage-stats",
        f"--temp-dir={temp}",
        "--object-store-memory=100000000",
        "--min-worker-port=0",
        *(f"{option}={free_port()}" for option in PORTS),
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 180
        while STARTED not in log.read_text(errors="replace"):
            assert process.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, "the Ray head did not start"
            time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        stop(process)
        shutil.rmtree(temp, ignore_errors=True)


def arena_json(
    capsys: pytest.CaptureFixture[str], *args: str, status: int = 0
) -> dict[str, object]:
    assert main(["arena", *args, "--json"]) == status
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


MATCHES = [
    ("gin", "--bots", "random,greedy", "--games", "4", "--seed", "3"),
    ("three-thirteen", "--bots", "greedy,random", "--games", "2", "--seed", "5"),
]


@pytest.mark.slow
def test_a_match_on_the_cluster_gives_the_json_of_a_local_run(
    head: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for match in MATCHES:
        local = arena_json(capsys, *match, "--jobs", "1")
        on_cluster = arena_json(capsys, *match, "--cluster", head)
        local.pop("seconds")
        on_cluster.pop("seconds")
        assert on_cluster == local


def test_games_that_fail_on_the_cluster_are_reported(
    head: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def play(task: GameTask) -> GameOutcome:
        if task.index == 1:
            raise RuntimeError("the bot gave up")
        if task.index == 2:
            os._exit(1)  # the worker is lost (Ray tries again, then gives up)
        return play_task(task)

    monkeypatch.setattr(arena, "play_task", play)  # sent to the workers by value
    data = arena_json(capsys, *MATCHES[0], "--cluster", head, status=1)
    failures = data["failures"]
    assert isinstance(failures, list) and len(failures) == 2
    assert failures[0] == {
        "game": 1,
        "seats": ["greedy", "random"],
        "error": "RuntimeError: the bot gave up",
    }
    assert failures[1]["game"] == 2 and failures[1]["seats"] == ["random", "greedy"]
    assert failures[1]["error"].startswith("WorkerCrashedError: ")
    bots = data["bots"]
    assert isinstance(bots, list) and [b["wins"] for b in bots] == [0, 2]  # games 0 and 3
    assert bots[1]["win_rate"] == 1.0


def test_a_worker_with_another_remikit_plays_nothing(
    head: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    workers = remikit.__version__
    monkeypatch.setattr(remikit, "__version__", "0.0.1")  # this machine's, as the tasks say
    data = arena_json(capsys, *MATCHES[1], "--cluster", head, status=1)
    error = f"this worker has remikit {workers}, not 0.0.1: install the same remikit on every node"
    assert data["failures"] == [
        {"game": 0, "seats": ["greedy", "random"], "error": error},
        {"game": 1, "seats": ["random", "greedy"], "error": error},
    ]
    bots = data["bots"]
    assert isinstance(bots, list) and [b["wins"] for b in bots] == [0, 0]


def test_a_worker_plays_only_for_its_own_version() -> None:
    task = make_arena("gin", "random,greedy", games=1, seed=3).tasks()[0]
    assert play_on_worker(play_task, task, remikit.__version__) == play_task(task)
    assert play_on_worker(play_task, task, "0.0.1") == remikit.__version__


@pytest.mark.parametrize(
    ("lang", "message"),
    [("en", "cannot reach the Ray cluster at"), ("id", "tidak bisa menghubungi klaster Ray di")],
)
@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_a_cluster_that_cannot_be_reached_is_named(
    capsys: pytest.CaptureFixture[str], lang: str, message: str, scheme: str
) -> None:
    pytest.importorskip("ray")
    address = f"{scheme}127.0.0.1:{free_port()}"
    assert main(["arena", *MATCHES[0], "--cluster", address, "--lang", lang]) == 2
    err = capsys.readouterr().err
    assert f"{message} {address}: " in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "--cluster needs Ray, which is not installed: pip install 'remikit[cluster]'"),
        ("id", "--cluster memerlukan Ray, yang belum terpasang: pip install 'remikit[cluster]'"),
    ],
)
def test_without_ray_cluster_names_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str, message: str
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # the import fails, as when not installed
    assert main(["arena", *MATCHES[0], "--cluster", "auto", "--lang", lang]) == 2
    assert capsys.readouterr().err == f"remi arena: {message}\n"
