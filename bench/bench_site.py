"""A site of several ``remi serve`` processes: its load, and an owner's takeover.

Each case runs over a fresh database of one PostgreSQL server and, with ``--redis``, one
Redis server (found in ``REMI_BENCH_POSTGRES_URL`` / ``REMI_BENCH_REDIS_URL``, else
``REMI_TEST_POSTGRES_URL`` / ``REMI_TEST_REDIS_URL``), with Debian's nginx
(``/usr/sbin/nginx``) in front of a site of two, configured as deploy/nginx.conf with
its ports substituted.

Load (bench/bench_server.py's: ``--tables`` tables over real WebSockets, a scripted
person, a spectator and bots at each) against (i) one process without ``--redis`` over
PostgreSQL, the baseline, (ii) one process with ``--redis`` and (iii) two behind nginx.
Measured: actions per second, the person's action latency (p50, p99) and the CPU the
processes used per action (each with its bot workers; nginx's own beside it); for the
site of two, how many tables nginx routes to the process that does not own them (their
requests and sockets are forwarded to the owner).

Takeover (``--kills`` times): a site of two behind nginx, ``--bot-tables`` tables of bots
only and one table with a person. The process owning the person's table is killed
(SIGKILL); measured is the time from the kill until a client reconnecting through nginx
with the person's token gets the table's state back, until the database's
``table_owners`` names the other process, and until it names it for the killed process's
bots-only tables too (nobody asks for those: the sweep takes them). Then the killed
process starts again and the next kill is of the table's new owner. The lease
(``--lease``, as ``remi serve``'s default) is part of these times: each is also given
after the killed process's lease ran out (``nodes.expires_at``: it was last renewed up
to a quarter of a lease before the kill), which is the takeover's own cost.

Run: ``python bench/bench_site.py [--tables 200] [--kills 20] [--only load|takeover]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import (
    Load,
    add_load_arguments,
    cpu_seconds,
    make_tables,
    open_files,
    percentile,
    play_load,
    post,
    start_server,
)

from remikit.storage.testing import scratch_database

DEPLOY_CONFIG = Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf"
OWNERS = sqlalchemy.text(
    "SELECT table_owners.table_id, nodes.url FROM table_owners"
    " JOIN nodes ON nodes.id = table_owners.node WHERE nodes.expires_at > now()"
)
"""Each table's owner, by the node URL of the live process that holds it."""
LEASE_END = sqlalchemy.text(
    "SELECT extract(epoch FROM max(expires_at)) FROM nodes WHERE url = :url"
)
WAIT = 60.0
UPSTREAM = "X-Remi-Upstream $upstream_addr always"
"""A header naming the process nginx sent a request to (added to deploy/nginx.conf's)."""


def service(kind: str) -> str | None:
    return os.environ.get(f"REMI_BENCH_{kind}_URL") or os.environ.get(f"REMI_TEST_{kind}_URL")


def services() -> tuple[str, str, str]:
    """The PostgreSQL server's admin URL, the Redis URL and nginx; exits naming what is
    missing."""
    postgres, redis = service("POSTGRES"), service("REDIS")
    nginx = shutil.which("nginx", path="/usr/sbin:/usr/local/sbin:" + os.environ["PATH"])
    missing = [
        f"{what}: set REMI_BENCH_{kind}_URL (or REMI_TEST_{kind}_URL)"
        for what, kind, url in (("PostgreSQL", "POSTGRES", postgres), ("Redis", "REDIS", redis))
        if not url
    ]
    if nginx is None:
        missing.append("nginx: none at /usr/sbin/nginx nor on the PATH")
    if missing or postgres is None or redis is None or nginx is None:
        raise SystemExit("bench_site: missing " + "; ".join(missing))
    return postgres, redis, nginx


def tree_cpu(pid: int) -> float:
    """CPU seconds of process ``pid`` and of its live descendants (a server's bot workers)."""
    total = 0.0
    for process in [pid, *descendants(pid)]:
        with suppress(FileNotFoundError):  # ended meanwhile
            total += cpu_seconds(process)
    return total


def descendants(pid: int) -> list[int]:
    """The processes under ``pid``, its children's children too."""
    try:
        children = [
            int(child)
            for task in Path(f"/proc/{pid}/task").iterdir()
            for child in (task / "children").read_text().split()
        ]
    except FileNotFoundError:
        return []
    return children + [grand for child in children for grand in descendants(child)]


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def nginx_config(folder: Path, port: int, upstreams: list[int]) -> str:
    """deploy/nginx.conf listening on ``port`` in front of ``upstreams``, in the foreground,
    its files in ``folder``."""
    text = DEPLOY_CONFIG.read_text()
    servers = re.compile(r"^( *)server 127\.0\.0\.1:\d+( .*;)\n", re.MULTILINE)
    indent, options = servers.findall(text)[0]
    block = "".join(f"{indent}server 127.0.0.1:{p}{options}\n" for p in upstreams)
    first = text.index(f"{indent}server 127.0.0.1:")
    text = text[:first] + block + servers.sub("", text[first:])
    temp = "".join(
        f"\n{kind}_temp_path {folder}/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    for pattern, lines in (
        (r"pid .*;", f"pid {folder}/nginx.pid;\ndaemon off;"),
        (r"error_log .*;", f"error_log {folder}/error.log warn;"),
        (r"access_log .*;", f"access_log off;{temp}"),
        (r"listen 80;", f"listen 127.0.0.1:{port};"),
        (r"proxy_pass http://remikit;", f"proxy_pass http://remikit;\nadd_header {UPSTREAM};"),
    ):
        found = list(re.finditer(f"^( *)({pattern})$", text, re.MULTILINE))
        assert len(found) == 1, f"deploy/nginx.conf has no single line {pattern!r}"
        at = found[0]
        text = text[: at.start()] + textwrap.indent(lines, at[1]) + text[at.end() :]
    return f"user root;\n{text}" if os.geteuid() == 0 else text


class Site:
    """``count`` ``remi serve`` processes over ``database`` (one site with ``--redis`` when
    ``redis`` is given) and, with ``nginx``, nginx in front of them at :attr:`url`."""

    def __init__(
        self,
        folder: str,
        database: str,
        args: argparse.Namespace,
        *,
        count: int,
        redis: str | None,
        nginx: str | None,
    ) -> None:
        self.folder, self.database, self.args, self.redis = folder, database, args, redis
        self.ports = [free_port() for _ in range(count)]
        self.processes: list[subprocess.Popen[str]] = []
        self.nginx: subprocess.Popen[bytes] | None = None
        self.nginx_cpu: list[float] = []
        """nginx's CPU seconds at each :meth:`cpu` call."""
        try:
            for index in range(count):  # one after another: the first makes the schema
                self.processes.append(self.start(index))
            self.url = self.direct_url(0)
            if nginx is not None:
                self._start_nginx(nginx)
        except BaseException:
            self.stop()
            raise

    def direct_url(self, index: int) -> str:
        return f"http://127.0.0.1:{self.ports[index]}/"

    def start(self, index: int) -> subprocess.Popen[str]:
        extra = [part for flag in ("--max-client-bot-tables",) for part in (flag, "0")]
        if self.redis is not None:
            extra += ["--redis", self.redis, "--node-url", self.direct_url(index).rstrip("/")]
            extra += ["--lease", str(self.args.lease)]
        with (Path(self.folder) / f"serve-{index}.log").open("a") as log:
            process, _ = start_server(
                self.folder,
                self.args,
                extra=extra,
                database=self.database,
                port=self.ports[index],
                log=log,
            )
        return process

    def restart(self, index: int) -> None:
        self.processes[index] = self.start(index)

    def cpu(self) -> float:
        """CPU seconds of the processes (with their bot workers); notes nginx's."""
        if self.nginx is not None:
            self.nginx_cpu.append(tree_cpu(self.nginx.pid))
        return sum(tree_cpu(p.pid) for p in self.processes)

    def lease_end(self, index: int) -> float:
        """When process ``index``'s last lease runs out (Unix time, by the database)."""
        return float(self._rows(LEASE_END, url=self.direct_url(index).rstrip("/"))[0][0])

    def owners(self) -> dict[str, int]:
        """Each table's owning process, by the database's live leases."""
        urls = [self.direct_url(i).rstrip("/") for i in range(len(self.ports))]
        return {table: urls.index(url) for table, url in self._rows(OWNERS) if url in urls}

    def routed(self, table_id: str) -> int:
        """The process nginx sends the table's requests and sockets to."""
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(f"{self.url}api/tables/{table_id}", timeout=30) as response:
            address = response.headers[UPSTREAM.split()[0]].split(",")[-1]
        return self.ports.index(int(address.rsplit(":", 1)[1]))

    def _rows(self, query: sqlalchemy.TextClause, **values: str) -> list[Any]:
        engine = sqlalchemy.create_engine(self.database, poolclass=sqlalchemy.NullPool)
        try:
            with engine.connect() as connection:
                return list(connection.execute(query, values).all())
        finally:
            engine.dispose()

    def _start_nginx(self, nginx: str) -> None:
        folder = Path(self.folder) / "nginx"
        folder.mkdir()
        port = free_port()
        config = folder / "nginx.conf"
        config.write_text(nginx_config(folder, port, self.ports))
        self.nginx = subprocess.Popen(
            [nginx, "-p", str(folder), "-c", str(config), "-e", str(folder / "error.log")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.url = f"http://127.0.0.1:{port}/"
        until(lambda: healthy(self.url), "nginx did not answer")

    def stop(self) -> None:
        """Stop nginx and the processes (SIGTERM, else SIGKILL)."""
        every: list[subprocess.Popen[Any]] = [
            *([self.nginx] if self.nginx else []),
            *self.processes,
        ]
        for process in every:
            with suppress(subprocess.TimeoutExpired):
                process.terminate()
                process.wait(30)
            process.kill()
            process.wait(10)


def healthy(base: str) -> bool:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(base + "healthz", timeout=5) as response:
            return bool(response.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def until(what: Callable[[], Any], why: str) -> Any:
    """The first ``what()`` that is neither None nor False, asked every 20 ms."""
    deadline = time.monotonic() + WAIT
    while (found := what()) is None or found is False:
        if time.monotonic() > deadline:
            raise SystemExit(f"bench_site: {why} within {WAIT:.0f} s")
        time.sleep(0.02)
    return found


@contextmanager
def site(args: argparse.Namespace, count: int, redis: bool) -> Iterator[Site]:
    """A :class:`Site` over a fresh database, stopped and dropped afterwards."""
    postgres, redis_url, nginx = services()
    with (
        tempfile.TemporaryDirectory(prefix="remikit-bench-site-") as folder,
        scratch_database(postgres) as database,
    ):
        running = Site(
            folder,
            database,
            args,
            count=count,
            redis=redis_url if redis else None,
            nginx=nginx if count > 1 else None,
        )
        try:
            yield running
        finally:
            running.stop()


def load_case(args: argparse.Namespace, title: str, count: int, redis: bool) -> Load:
    with site(args, count, redis) as running:
        load = play_load(running.url, running.cpu, args)
        nginx = running.nginx_cpu[-1] - running.nginx_cpu[0] if running.nginx_cpu else 0.0
        owners = running.owners()
        owned, forwarded = list(owners.values()), 0
        if running.nginx is not None:
            forwarded = sum(running.routed(t) != owners.get(t) for t in load.tally.last_state)
    lat = [x * 1000 for x in load.tally.latencies]
    per_action = 1000 * load.cpu / max(1, load.applied)
    line = (
        f"  {title}: {load.applied / load.elapsed:.0f} actions/s ({load.applied} in "
        f"{load.elapsed:.1f} s), p50 {statistics.median(lat):.1f} ms, "
        f"p99 {percentile(lat, 0.99):.1f} ms, CPU {per_action:.2f} ms per action "
        f"({100 * load.cpu / load.elapsed:.0f}% of one core; this client "
        f"{100 * load.client_cpu / load.elapsed:.0f}%)"
    )
    if running.nginx is not None:
        line += f"; nginx {1000 * nginx / max(1, load.applied):.2f} ms per action"
        line += "; tables owned " + " / ".join(str(owned.count(i)) for i in range(count))
        line += f", {forwarded} of them routed by nginx to the other (forwarded)"
    if load.tally.errors:
        line += f"; {len(load.tally.errors)} errors, e.g. {load.tally.errors[0]}"
    print(line, flush=True)
    return load


def load_bench(args: argparse.Namespace) -> bool:
    open_files(args.tables)
    print(
        f"bench_site load: {args.tables} tables of {args.variant} ({args.bot} bots with "
        f"{args.bot_delay} s moves, {args.think} s thinking); load average {load_average()}",
        flush=True,
    )
    alone = load_case(args, "one process, no Redis (baseline)", 1, redis=False)
    one = load_case(args, "one process, --redis", 1, redis=True)
    two = load_case(args, "two processes, --redis, behind nginx", 2, redis=True)
    ratio = (two.applied / two.elapsed) / max(1e-9, one.applied / one.elapsed)
    cost = (two.cpu / max(1, two.applied)) / max(1e-9, one.cpu / max(1, one.applied))
    base = (one.cpu / max(1, one.applied)) / max(1e-9, alone.cpu / max(1, alone.applied))
    print(
        f"  two / one: actions/s x{ratio:.2f}, CPU per action x{cost:.2f}; "
        f"one with --redis / baseline: CPU per action x{base:.2f}; load average now "
        f"{load_average()}",
        flush=True,
    )
    return not (alone.tally.errors or one.tally.errors or two.tally.errors)


def state_back(base: str, table_id: str, token: str) -> int | None:
    """The state id a client reconnecting with ``token`` through ``base`` gets, if any."""
    url = base.replace("http://", "ws://") + f"ws/tables/{table_id}"
    try:
        with connect(url, proxy=None, open_timeout=5, max_size=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            while True:
                message = json.loads(ws.recv(timeout=5))
                if message["type"] == "state":
                    return int(message["state_id"])
                if message["type"] == "error":
                    return None
    except (OSError, InvalidStatus, ConnectionClosed, TimeoutError):
        return None


@dataclass
class Kill:
    """One takeover: seconds from the kill until the lease ran out, until the table's
    state came back through nginx and until the database named the other process."""

    owner: int
    lease: float
    back: float
    taken: float | None
    swept: float | None
    """When the other held the killed process's bots-only tables (None: none, or not
    all within :data:`WAIT`): nobody asks for them, the sweep takes them."""


def kill_owner(running: Site, table_id: str, token: str) -> Kill:
    """Kill the process owning the table, and start it again once the other took over."""
    before = until(lambda: state_back(running.url, table_id, token), "no state")
    owner: int = until(lambda: running.owners().get(table_id), "no owner")
    orphans = {t for t, o in running.owners().items() if o == owner} - {table_id}
    left = descendants(running.processes[owner].pid)
    running.processes[owner].kill()
    killed, killed_at = time.monotonic(), time.time()
    running.processes[owner].wait(10)
    lease = running.lease_end(owner) - killed_at
    taken: list[float] = []
    swept: list[float] = []

    def watch() -> None:
        until(lambda: running.owners().get(table_id) == 1 - owner, "no takeover")
        taken.append(time.monotonic() - killed)
        while orphans and time.monotonic() < killed + WAIT:
            owners = running.owners()
            if all(owners.get(t) == 1 - owner for t in orphans):
                swept.append(time.monotonic() - killed)
                return
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    state = until(lambda: state_back(running.url, table_id, token), "no state back")
    back = time.monotonic() - killed
    watcher.join(2 * WAIT)
    assert state >= before, f"the table went back from state {before} to {state}"
    for pid in left:  # bot workers the killed process left, if any
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    running.restart(owner)
    until(lambda: healthy(running.direct_url(owner)), "the process did not restart")
    return Kill(owner, lease, back, taken[0] if taken else None, swept[0] if swept else None)


def summary(what: str, times: list[tuple[float, float]]) -> str:
    """The median and max of ``times`` (each from the kill, and the lease's end then)."""
    kill = [t for t, _ in times]
    after = [t - lease for t, lease in times]
    return (
        f"  {what}: median {statistics.median(kill):.2f} s, max {max(kill):.2f} s after the "
        f"kill; after the lease ran out: median {statistics.median(after):.2f} s, "
        f"max {max(after):.2f} s"
    )


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def takeover_bench(args: argparse.Namespace) -> bool:
    with site(args, 2, redis=True) as running:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        variants = json.load(opener.open(running.url + "api/variants", timeout=30))
        info = next(v for v in variants["variants"] if v["name"] == args.variant)
        players = next(o["default"] for o in info["options"] if o["name"] == "players")
        bots = [{"kind": "bot", "level": args.bot}] * players
        for _ in range(args.bot_tables):
            post(running.url + "api/tables", {"variant": args.variant, "seats": bots})
        one = argparse.Namespace(**{**vars(args), "tables": 1})
        [(table_id, token)] = make_tables(running.url, one)
        kills: list[Kill] = []
        for number in range(args.kills):
            kill = kill_owner(running, table_id, token)
            kills.append(kill)
            taken = "never" if kill.taken is None else f"{kill.taken:.2f} s"
            swept = "-" if kill.swept is None else f"{kill.swept:.2f} s"
            print(
                f"  kill {number + 1}: process {kill.owner}, its lease ran out "
                f"{kill.lease:.2f} s later; state back after {kill.back:.2f} s, "
                f"owned by the other after {taken}, its bots-only tables after {swept}",
                flush=True,
            )
    print(
        f"bench_site takeover: {args.kills} kills, lease {args.lease} s (renewed every "
        f"{args.lease / 4:.2f} s), {args.bot_tables} bot tables + 1 person table; load "
        f"average {load_average()}"
    )
    for what, times in (
        ("the state back through nginx", [(k.back, k.lease) for k in kills]),
        ("table_owners names the other", [(k.taken, k.lease) for k in kills if k.taken]),
        ("the other owns the bots-only tables", [(k.swept, k.lease) for k in kills if k.swept]),
    ):
        if times:
            print(summary(f"{what} ({len(times)} kills)", times))
    return all(k.taken is not None for k in kills)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_load_arguments(parser)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--lease", type=float, default=5.0, help="each process's lease")
    parser.add_argument("--bot-tables", type=int, default=3, help="bots-only tables")
    parser.add_argument("--only", choices=("load", "takeover"), default=None)
    args = parser.parse_args()
    services()
    ok = True
    if args.only in (None, "load"):
        ok = load_bench(args) and ok
    if args.only in (None, "takeover"):
        ok = takeover_bench(args) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
