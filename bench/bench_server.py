"""Load on the web table: N concurrent tables over real WebSockets on loopback.

A ``remi serve`` subprocess (its own SQLite file in a temporary folder) gets
``--tables`` tables (default 200). At each table seat 0 is a person played by
this script over a WebSocket with a simple policy (close when possible, draw
from the stock, discard the first legal card), after a thinking pause; the
other seats are server bots (``--bot``, each move taking at least
``--bot-delay`` seconds); a spectator socket watches every table.

Measured:

* actions per second: every action the server applied (bots' and people's),
  counted from the spectators' state ids, over the wall time of the run;
* action latency: from sending a person's action to receiving the state it
  produced (state id + 1), p50/p90/p99/max. Bots think after that state is
  sent, so their thinking is not in it; the database commit is.

The run stops by itself: after ``--actions`` person actions per table, or
after ``--seconds``. Only loopback addresses are used.

With ``--lobby N`` the script measures a big lobby instead: the database is
filled with N tables waiting for players before the server starts, and it
reports how long the server takes to start (it rebuilds every table), the size
and latency of ``GET /api/tables``, and the latency of ``GET /healthz`` alone
and while ``--lobby-clients`` clients ask for the lobby over and over.

With ``--floor`` the same load runs against ``floor_server.py``, a server on the same
stack that plays no game (``--floor sockets``: nor commits the actions): the least CPU an
action can cost on that stack.

The server's per-client limits are lifted (every request comes from one
address); a server too old to have them is run as it is.

Run: ``python bench/bench_server.py [--tables 200] [--actions 20] [--seconds 120]``
or ``python bench/bench_server.py --lobby 10000``.
Target on a 2-core machine: 200 tables with p99 below 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import resource
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any

from websockets.asyncio.client import connect

from remikit.server.transport.changes import apply_change

URL_LINE = re.compile(r"^remikit: open (http://127\.0\.0\.1:\d+/)$")
SOCKET: dict[str, Any] = {"proxy": None, "max_size": None, "open_timeout": 120}
"""Thousands of sockets open at once: a busy machine may take a while to answer them."""
UNLIMITED = ("--create-rate", "--join-rate", "--max-client-tables", "--max-client-sockets")
"""The per-client limits lifted: the bench is one client making every table."""


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    bot_moves: list[float] = field(default_factory=list)  # seconds a bot's action took
    person_actions: int = 0
    errors: list[str] = field(default_factory=list)
    first_state: dict[str, int] = field(default_factory=dict)
    last_state: dict[str, int] = field(default_factory=dict)
    finished: int = 0


def serve_command(floor: bool = False) -> list[str]:
    """``remi serve``, or with ``floor`` the server that plays no game (floor_server.py)."""
    if floor:
        return [sys.executable, str(Path(__file__).with_name("floor_server.py"))]
    return [sys.executable, "-m", "remikit", "serve"]


def start_server(
    folder: str,
    args: argparse.Namespace,
    wait: float = 60,
    extra: list[str] | None = None,
    *,
    database: str | None = None,
    port: int = 0,
    log: IO[str] | None = None,
) -> tuple[subprocess.Popen[str], str]:
    """A ``remi serve`` process on ``port`` (0: any) over ``database`` (default: a SQLite
    file in ``folder``), its log in ``log`` (default: this one's), and its address, once
    it listens."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REMI_")}
    if getattr(args, "server_path", None):  # another checkout's server, for before/after
        env["PYTHONPATH"] = args.server_path
    cwd = getattr(args, "server_path", None)  # "python -m" reads the current folder first
    serve = serve_command(bool(getattr(args, "floor", None)))
    usage = subprocess.run([*serve, "--help"], capture_output=True, text=True, env=env, cwd=cwd)
    command = [
        *serve,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--database",
        database or f"sqlite:///{folder}/bench.db",
        "--bot-delay",
        str(args.bot_delay),
        "--call-window",
        str(args.call_window),
        "--bot-threads",
        str(args.bot_threads),
    ]
    command += [part for flag in UNLIMITED if flag in usage.stdout for part in (flag, "0")]
    if getattr(args, "bot_workers", None) is not None and "--bot-workers" in usage.stdout:
        command += ["--bot-workers", str(args.bot_workers)]
    if getattr(args, "floor", None) == "sockets":
        command.append("--no-writes")
    command += extra or []
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=log, text=True, env=env, cwd=cwd
    )
    assert server.stdout is not None
    ready, _, _ = select.select([server.stdout], [], [], wait)
    line = server.stdout.readline().strip() if ready else ""
    match = URL_LINE.match(line)
    if not match:
        server.kill()
        raise SystemExit(f"bench_server: the server did not start ({line!r})")
    return server, match.group(1)


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request, timeout=30) as response:
        data: dict[str, Any] = json.load(response)
        return data


def make_tables(base: str, args: argparse.Namespace) -> list[tuple[str, str]]:
    info = json.load(
        urllib.request.build_opener(urllib.request.ProxyHandler({})).open(
            base + "api/variants", timeout=30
        )
    )
    variant = next(
        v for v in info["variants"] if v["name"] == args.variant or args.variant in v["aliases"]
    )
    players = next(o["default"] for o in variant["options"] if o["name"] == "players")
    seats = [{"kind": "person"}] + [{"kind": "bot", "level": args.bot}] * (players - 1)
    out = []
    for _ in range(args.tables):
        table = post(base + "api/tables", {"variant": args.variant, "seats": seats})["table"]
        joined = post(f"{base}api/tables/{table['id']}/join", {"name": "Bench"})
        out.append((table["id"], joined["token"]))
    return out


def choose(actions: list[str], rng: random.Random) -> str:
    for prefix in ("close", "draw stock"):
        for action in actions:
            if action.startswith(prefix):
                return action
    discards = [a for a in actions if a.startswith("discard")]
    return rng.choice(discards) if discards else actions[0]


async def person(
    ws_url: str,
    table_id: str,
    token: str,
    args: argparse.Namespace,
    tally: Tally,
    deadline: float,
    rng: random.Random,
) -> None:
    async with connect(f"{ws_url}ws/tables/{table_id}", **SOCKET) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        sent_id = -1
        done = 0
        message: dict[str, Any] = {}
        last: tuple[int, int | None, float] | None = None  # state id, who was to play, when
        while (done < args.actions or sent_at is not None) and time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            received = json.loads(raw)
            kind = received["type"]
            if kind == "error":
                tally.errors.append(received["message"])
                sent_at = None
                continue
            if kind == "change":  # applied to the last state, as the browser does
                if message.get("rev") != received["base"]:
                    await ws.send(json.dumps({"type": "sync"}))
                    continue
                message = apply_change(message, received)
            elif kind == "state":
                message = received
            else:
                continue
            state_id = message["state_id"]
            now = time.monotonic()
            if last is not None and state_id > last[0] and last[1] != message["view"]["seat"]:
                tally.bot_moves.append((now - last[2]) / (state_id - last[0]))
            last = (state_id, message["view"]["to_play"], now)
            if sent_at is not None and state_id > sent_id:
                tally.latencies.append(time.monotonic() - sent_at)
                sent_at = None
            view = message["view"]
            if view["game_over"]:
                break
            if (
                sent_at is None
                and state_id > sent_id
                and view["legal_actions"]
                and message["call_window"] is None
                and done < args.actions
            ):
                await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
                action = choose(view["legal_actions"], rng)
                sent_id, sent_at = state_id, time.monotonic()
                await ws.send(
                    json.dumps({"type": "action", "state_id": state_id, "action": action})
                )
                done += 1
                tally.person_actions += 1


async def spectator(ws_url: str, table_id: str, tally: Tally, stop: asyncio.Event) -> None:
    async with connect(f"{ws_url}ws/tables/{table_id}", **SOCKET) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            message = json.loads(raw)
            if message["type"] in ("state", "change"):
                tally.first_state.setdefault(table_id, message["state_id"])
                tally.last_state[table_id] = message["state_id"]


async def run_load(
    ws_url: str, tables: list[tuple[str, str]], args: argparse.Namespace, tally: Tally
) -> float:
    stop = asyncio.Event()
    watchers = [asyncio.create_task(spectator(ws_url, t, tally, stop)) for t, _ in tables]
    await asyncio.sleep(0.5)  # the spectators are in before play starts
    started = time.monotonic()
    deadline = started + args.seconds
    players = [
        person(ws_url, t, token, args, tally, deadline, random.Random(i))
        for i, (t, token) in enumerate(tables)
    ]
    results = await asyncio.gather(*players, return_exceptions=True)
    elapsed = time.monotonic() - started
    await asyncio.sleep(0.3)  # the last states reach the spectators
    stop.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    tally.errors += [repr(r) for r in results if isinstance(r, BaseException)]
    return elapsed


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop (installed with uvicorn[standard]) when there is one: a lighter client."""
    try:
        import uvloop
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def workers_cpu(pid: int) -> float:
    """CPU seconds of the processes ``pid`` started, and theirs (the bots' workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    spent: dict[int, float] = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as stat:  # gone meanwhile
            fields = stat.read().rsplit(")", 1)[1].split()
            parent[int(entry)] = int(fields[1])
            spent[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    found, todo = [], [pid]
    while todo:
        of = todo.pop()
        children = [child for child, p in parent.items() if p == of]
        found += children
        todo += children
    return sum(spent[child] for child in found)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def fill_lobby(folder: str, count: int, variant: str) -> None:
    """Store ``count`` tables of ``variant`` waiting for a person, as a server makes them
    (seat 0 free, bots in the others, the first deal's deck), made in the last minutes."""
    from sqlalchemy import insert

    from remikit.server.tables.build import next_deck
    from remikit.storage import DealRow, Store, TableRow
    from remikit.variants import find_playable

    info = find_playable(variant)
    store = Store(f"sqlite:///{folder}/bench.db")
    game = info.game_class()(info.game_class().options_type.from_mapping({}), auto_deal=False)
    seats = [{"kind": "person", "name": None, "level": None, "lang": "id", "token_hash": None}]
    seats += [
        {"kind": "bot", "name": f"Bot {i}", "level": "random", "lang": "id", "token_hash": None}
        for i in range(1, game.players)
    ]
    start = datetime.now(UTC) - timedelta(minutes=10)
    tables, deals = [], []
    for number in range(count):
        code = f"B{number:07d}".translate(str.maketrans("01", "XY"))
        seed = str(random.Random(number).getrandbits(256))
        moment = start + timedelta(milliseconds=number)
        tables.append(
            {
                "id": code,
                "variant": info.name,
                "options": game.options.as_dict(),
                "seed": seed,
                "seats": seats,
                "title": f"Meja {number}",
                "created_at": moment,
                "settings": {},
                "lang": "id" if number % 3 else "en",
            }
        )
        deck = " ".join(str(c) for c in next_deck(game, seed))
        deals.append({"table_id": code, "number": 1, "deck": deck, "created_at": moment})
    with store.transaction() as session:
        session.execute(insert(TableRow), tables)
        session.execute(insert(DealRow), deals)
    store.close()


def get(url: str) -> tuple[float, int]:
    """Seconds to fetch ``url`` whole, and its size in bytes."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    began = time.perf_counter()
    with opener.open(url, timeout=120) as response:
        size = len(response.read())
    return time.perf_counter() - began, size


def quantiles(seconds: list[float]) -> str:
    ms = [x * 1000 for x in seconds]
    return (
        f"p50 {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
        f"max {max(ms):.1f} ms over {len(ms)}"
    )


def lobby_bench(args: argparse.Namespace) -> int:
    """Start-up, the lobby's size and latency, and /healthz while the lobby is busy."""
    with tempfile.TemporaryDirectory(prefix="remikit-bench-") as folder:
        began = time.monotonic()
        fill_lobby(folder, args.lobby, args.variant)
        filled = time.monotonic() - began
        began = time.monotonic()
        server, base = start_server(folder, args, wait=600)
        started = time.monotonic() - began
        try:
            alone = [get(base + "healthz")[0] for _ in range(50)]
            lobby = [get(base + "api/tables") for _ in range(5)]
            stop = threading.Event()
            busy: list[float] = []

            def ask_lobby() -> None:
                while not stop.is_set():
                    busy.append(get(base + "api/tables")[0])

            health: list[float] = []
            with ThreadPoolExecutor(args.lobby_clients) as pool:
                askers = [pool.submit(ask_lobby) for _ in range(args.lobby_clients)]
                time.sleep(0.5)
                deadline = time.monotonic() + args.lobby_seconds
                while time.monotonic() < deadline:
                    health.append(get(base + "healthz")[0])
                    time.sleep(0.05)
                stop.set()
                for asker in askers:
                    asker.result()
        finally:
            server.send_signal(signal.SIGTERM)
            status = server.wait(60)
    print(
        f"bench_server --lobby: {args.lobby} waiting {args.variant} tables stored "
        f"(in {filled:.1f} s); the server started in {started:.1f} s"
    )
    print(f"  GET /api/tables: {lobby[0][1]} bytes, {quantiles([t for t, _ in lobby])}")
    print(f"  GET /healthz alone: {quantiles(alone)}")
    print(
        f"  GET /healthz while {args.lobby_clients} clients ask for the lobby: "
        f"{quantiles(health)}; lobby answers {quantiles(busy)}"
    )
    return 0 if status == 0 else 1


@dataclass
class Load:
    """One run of the load: its wall time, the actions applied and the CPU it cost."""

    tally: Tally
    elapsed: float
    applied: int
    cpu: float
    """CPU seconds of the server's processes during the run, their bot workers apart."""
    client_cpu: float
    workers_cpu: float
    """CPU seconds of the processes it started (its bots' workers) during the run."""


def open_files(tables: int) -> None:
    """Raise this process's open-file limit for ``tables`` tables' sockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 8 * tables + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def play_load(
    base: str,
    server_cpu: Callable[[], float],
    args: argparse.Namespace,
    workers: Callable[[], float] = lambda: 0.0,
) -> Load:
    """Make ``args.tables`` tables at ``base`` and play them (people, spectators, bots);
    ``server_cpu()`` gives the server's CPU seconds so far, ``workers()`` its workers'."""
    tables = make_tables(base, args)
    cpu_before = server_cpu()
    workers_before = workers()
    client_before = time.process_time()
    tally = Tally()
    gc.disable()  # the client's own collections would pause every socket it times
    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            elapsed = runner.run(run_load(base.replace("http://", "ws://"), tables, args, tally))
    finally:
        gc.enable()
    cpu = server_cpu() - cpu_before
    client_cpu = time.process_time() - client_before
    workers_spent = workers() - workers_before
    applied = sum(tally.last_state[t] - tally.first_state.get(t, 0) for t in tally.last_state)
    return Load(tally, elapsed, applied, cpu, client_cpu, workers_spent)


def add_load_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the load: its size, the variant, the bots and the person's pace."""
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20, help="person actions per table")
    parser.add_argument("--seconds", type=float, default=120, help="stop after this long")
    parser.add_argument("--variant", default="remi13d")
    parser.add_argument("--bot", default="random", help="the bots' level")
    parser.add_argument(
        "--bot-delay", type=float, default=0.25, help="seconds a bot's move takes at least"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.25,
        help="mean seconds the person thinks before each action",
    )
    parser.add_argument("--call-window", type=float, default=1.0)
    parser.add_argument("--bot-threads", type=int, default=4)
    parser.add_argument(
        "--bot-workers", default=None, help="worker processes for the bots (0: threads)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_load_arguments(parser)
    parser.add_argument(
        "--server-path", default=None, help="run the server of this checkout (PYTHONPATH)"
    )
    parser.add_argument(
        "--floor",
        nargs="?",
        const="writes",
        choices=("writes", "sockets"),
        help="run floor_server.py, which plays no game, instead of remi serve "
        "(sockets: without committing the actions either)",
    )
    parser.add_argument(
        "--lobby", type=int, default=0, metavar="N", help="measure a lobby of N stored tables"
    )
    parser.add_argument("--lobby-clients", type=int, default=20)
    parser.add_argument("--lobby-seconds", type=float, default=10)
    args = parser.parse_args()
    if args.lobby:
        return lobby_bench(args)
    open_files(args.tables)
    with tempfile.TemporaryDirectory(prefix="remikit-bench-") as folder:
        server, base = start_server(folder, args)
        try:
            load = play_load(
                base, lambda: cpu_seconds(server.pid), args, lambda: workers_cpu(server.pid)
            )
        finally:
            server.send_signal(signal.SIGTERM)
            status = server.wait(30)
    tally, elapsed, applied, cpu = load.tally, load.elapsed, load.applied, load.cpu
    client_cpu = load.client_cpu
    lat = [x * 1000 for x in tally.latencies]
    played = f"the floor server ({args.floor})" if args.floor else args.variant
    print(
        f"bench_server: {args.tables} tables of {played} (seat 0 over a WebSocket, "
        f"{args.bot} bots with {args.bot_delay} s moves, {args.think} s thinking), "
        f"{elapsed:.1f} s"
    )
    print(
        f"  actions applied: {applied} ({applied / elapsed:.0f} per second; server CPU "
        f"{cpu:.1f} s, {100 * cpu / elapsed:.0f}% of one core, "
        f"{1000 * cpu / max(1, applied):.2f} ms per action; this client "
        f"{100 * client_cpu / elapsed:.0f}%, "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB)"
    )
    if load.workers_cpu:
        print(
            f"  bot workers' CPU: {load.workers_cpu:.1f} s, "
            f"{1000 * load.workers_cpu / max(1, applied):.2f} ms per action"
        )
    if lat:
        print(
            f"  person action latency over {len(lat)} actions: p50 {statistics.median(lat):.1f} "
            f"ms, p90 {percentile(lat, 0.9):.1f} ms, p99 {percentile(lat, 0.99):.1f} ms, "
            f"max {max(lat):.1f} ms"
        )
    if tally.bot_moves:
        moves = tally.bot_moves
        print(
            f"  bots' moves (seconds an action while a bot was to play): median "
            f"{statistics.median(moves):.2f}, p90 {percentile(moves, 0.9):.2f} "
            f"(their delay {args.bot_delay} s)"
        )
    if tally.errors:
        print(f"  {len(tally.errors)} errors, e.g. {tally.errors[0]}")
    ok = bool(lat) and not tally.errors and status == 0
    if lat and args.tables >= 200 and percentile(lat, 0.99) >= 100:
        print("  p99 is above the 100 ms target")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
