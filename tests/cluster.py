"""What the cluster tests share: a :class:`Site` of several ``remi serve`` processes over one
PostgreSQL database, with Debian's nginx in front routing as deploy/nginx.conf does (by
table code), and the Redis server of ``make test`` (.ci/with-redis.sh) at hand.

Outside CI these tests skip without a PostgreSQL server, a Redis server or nginx; in CI
(``CI`` set) they must run (``make test`` has all three).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from remikit.storage.testing import ENV_VAR as POSTGRES_ENV
from remikit.storage.testing import scratch_database
from tests.conftest import postgres_admin_url
from tests.proxy import IN_CI, NGINX, free_port

REDIS_ENV = "REMI_TEST_REDIS_URL"
REDIS_CTL_ENV = "REMI_TEST_REDIS_CTL"
DEPLOY_CONFIG = Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf"
UPSTREAM = "X-Remi-Upstream"
"""The header the site's nginx adds to every response: the address of the process that
answered, after those it tried first (``127.0.0.1:P1, 127.0.0.1:P2``)."""

needs_postgres = pytest.mark.skipif(
    not os.environ.get(POSTGRES_ENV) and not IN_CI,
    reason=f"no PostgreSQL server ({POSTGRES_ENV} unset; make test starts one with "
    ".ci/with-postgres.sh); in CI these tests always run",
)
needs_redis = pytest.mark.skipif(
    not os.environ.get(REDIS_ENV) and not IN_CI,
    reason=f"no Redis server ({REDIS_ENV} unset; make test starts one with "
    ".ci/with-redis.sh); in CI these tests always run",
)


def redis_url() -> str:
    """The Redis server of ``make test``; its tests skip without one, except in CI."""
    url = os.environ.get(REDIS_ENV, "")
    if not url:
        if IN_CI:
            pytest.fail(f"{REDIS_ENV} is not set: in CI the Redis tests must run")
        pytest.skip(f"no Redis server ({REDIS_ENV} unset; make test starts one)")
    return url


def redis_ctl() -> str:
    """The script that stops (``stop``) and starts (``start``) that Redis server."""
    redis_url()
    ctl = os.environ.get(REDIS_CTL_ENV, "")
    if not ctl:
        pytest.skip("the Redis server was not started by .ci/with-redis.sh")
    return ctl


Extra = Callable[["Site", int], Sequence[str]]
"""The further ``remi serve`` arguments of a site's process ``index``."""


def no_extra(site: Site, index: int) -> Sequence[str]:
    return ()


class Site:
    """``count`` ``remi serve`` processes on loopback ports over ``database`` (each one's
    output in :meth:`log`), behind nginx at :attr:`url`. ``extra(site, index)`` gives each
    process its further arguments (say ``--redis``, with :attr:`redis_url`)."""

    def __init__(
        self, folder: Path, database: str, *, count: int = 2, extra: Extra = no_extra
    ) -> None:
        assert NGINX is not None, "CI=true but no nginx: run .ci/install-nginx.sh"
        self.folder = folder
        self.database = database
        self.redis_url = redis_url()
        self.extra = extra
        self.ports = [free_port() for _ in range(count)]
        self.processes: list[subprocess.Popen[bytes] | None] = [None] * count
        self.nginx: subprocess.Popen[bytes] | None = None
        self.nginx_port = free_port()
        self.url = f"http://127.0.0.1:{self.nginx_port}"
        try:
            for index in range(count):  # one after another: the first makes the schema
                self.start(index)
            self._start_nginx()
        except BaseException:
            self.terminate()
            raise

    def direct_url(self, index: int) -> str:
        """Process ``index``'s own address, past nginx."""
        return f"http://127.0.0.1:{self.ports[index]}"

    def log(self, index: int) -> Path:
        return self.folder / f"serve-{index}.log"

    def index_of(self, response: httpx.Response) -> int:
        """The process that answered a response that came through nginx."""
        address = response.headers[UPSTREAM].split(",")[-1].strip()
        return self.ports.index(int(address.rsplit(":", 1)[1]))

    def start(self, index: int) -> None:
        """Start process ``index`` (again) on its port; returns once it is ready."""
        running = self.processes[index]
        assert running is None or running.poll() is not None, f"process {index} runs"
        env = {k: v for k, v in os.environ.items() if not k.startswith("REMI_")}
        command = [
            *(sys.executable, "-m", "remikit", "serve", "--host", "127.0.0.1"),
            *("--port", str(self.ports[index]), "--database", self.database),
            *self.extra(self, index),
        ]
        with self.log(index).open("a") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        self.processes[index] = process
        wait_ready(f"{self.direct_url(index)}/healthz", process, self.log(index))

    def kill(self, index: int) -> None:
        """End process ``index`` at once (SIGKILL), as a crash does."""
        process = self.processes[index]
        assert process is not None
        process.kill()
        process.wait(10)

    def terminate(self) -> None:
        """Stop nginx and every process that still runs (SIGTERM, else SIGKILL)."""
        if self.nginx is not None:
            stop(self.nginx, signal.SIGQUIT)  # nginx's graceful stop
        for process in self.processes:
            if process is not None:
                stop(process, signal.SIGTERM)

    def _start_nginx(self) -> None:
        assert NGINX is not None
        folder = self.folder / "nginx"
        folder.mkdir(exist_ok=True)
        config = folder / "nginx.conf"
        config.write_text(nginx_config(folder, self.nginx_port, self.ports))
        with (folder / "nginx.out").open("a") as out:
            self.nginx = subprocess.Popen(
                [NGINX, "-p", str(folder), "-c", str(config), "-e", str(folder / "error.log")],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_ready(f"{self.url}/healthz", self.nginx, folder / "error.log")


@contextmanager
def running_site(folder: Path, *, count: int = 2, extra: Extra = no_extra) -> Iterator[Site]:
    """A :class:`Site` over a fresh PostgreSQL database, stopped (and the database
    dropped) when the block ends."""
    with scratch_database(postgres_admin_url()) as database:
        site = Site(folder, database, count=count, extra=extra)
        try:
            yield site
        finally:
            site.terminate()


def nginx_config(folder: Path, port: int, upstreams: Sequence[int]) -> str:
    """deploy/nginx.conf with its routing as it is, for a test: listening on ``port``,
    the ``upstreams`` ports as its servers, its files in ``folder``, in the foreground,
    and the :data:`UPSTREAM` header on every response."""
    text = DEPLOY_CONFIG.read_text()
    options = re.search(r"^ *server 127\.0\.0\.1:\d+( .*;)$", text, re.MULTILINE)
    assert options, "deploy/nginx.conf has no server line in its upstream"
    # every server line but the last goes; the last becomes one for each of ``upstreams``
    text = re.sub(r"^ *server 127\.0\.0\.1:\d+ .*;\n(?= *server 127)", "", text, flags=re.M)
    temp = "".join(
        f"\n{kind}_temp_path {folder}/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    for pattern, lines in (
        (r"pid .*;", f"pid {folder}/nginx.pid;\ndaemon off;"),
        (r"error_log .*;", f"error_log {folder}/error.log warn;"),
        (r"access_log .*;", f"access_log off;{temp}"),
        (
            r"server 127\.0\.0\.1:\d+ .*;",
            "\n".join(f"server 127.0.0.1:{p}{options[1]}" for p in upstreams),
        ),
        (r"listen 80;", f"listen 127.0.0.1:{port};"),
        (
            r"proxy_pass http://remikit;",
            f"proxy_pass http://remikit;\nadd_header {UPSTREAM} $upstream_addr always;",
        ),
    ):
        text = replace_line(text, pattern, lines)
    if os.geteuid() == 0:
        text = f"user root;\n{text}"  # the workers read the test's folder
    return text


def replace_line(text: str, pattern: str, lines: str) -> str:
    """``text`` with its one line that is ``pattern`` made ``lines``, indented as it was."""
    line = re.compile(f"^( *)({pattern})$", re.MULTILINE)
    assert len(line.findall(text)) == 1, f"deploy/nginx.conf has no single line {pattern!r}"
    return line.sub(lambda match: textwrap.indent(lines, match[1]), text)


def wait_ready(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Wait until ``url`` answers 200; fail with the end of ``log`` if ``process`` ends
    or 60 s pass first."""
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
            raise AssertionError(f"{process.args!r} ended ({process.returncode}):\n{tail}")
        try:
            if httpx.get(url, timeout=5, trust_env=False).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, f"{url} did not answer within 60 s"
        time.sleep(0.05)


def stop(process: subprocess.Popen[bytes], how: signal.Signals) -> None:
    if process.poll() is None:
        process.send_signal(how)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
