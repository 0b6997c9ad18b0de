"""What the reverse-proxy tests share: Debian's nginx as a child process (never the
system's service) with a config made for the test, proxying ``/remi/`` on a free loopback
port to ``remi serve --root-path /remi``, as docs/network.md shows.

Outside CI these tests skip when no nginx is found; in CI (``CI`` set) they must run
(``make test`` installs it: .ci/install-nginx.sh).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.browser import Served

PREFIX = "/remi"
IN_CI = bool(os.environ.get("CI"))


def find_nginx() -> str | None:
    for candidate in ("/usr/sbin/nginx", shutil.which("nginx")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


NGINX = find_nginx()

needs_nginx = pytest.mark.skipif(
    NGINX is None and not IN_CI,
    reason="no nginx at /usr/sbin/nginx (make test installs Debian's nginx as root: "
    ".ci/install-nginx.sh); in CI these tests always run",
)
"""Every reverse-proxy test module's ``pytestmark``."""

CONFIG = """\
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log warn;
daemon off;
{user}
events {{ worker_connections 128; }}

http {{
    access_log off;
    client_body_temp_path {folder}/client-body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;

    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}

    server {{
        listen 127.0.0.1:{port};

        location {prefix}/ {{
            proxy_pass http://127.0.0.1:{upstream}/;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""
"""The test's nginx.conf: the location block is the one docs/network.md gives."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Nginx:
    """nginx in the foreground on a free loopback port, proxying ``/remi/`` to ``upstream``
    (an ``http://127.0.0.1:PORT`` address); ``url`` is the proxied root, without a slash."""

    def __init__(self, folder: Path, upstream: str) -> None:
        assert NGINX is not None, "CI=true but no nginx: run .ci/install-nginx.sh"
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}{PREFIX}"
        config = folder / "nginx.conf"
        config.write_text(
            CONFIG.format(
                folder=folder,
                port=self.port,
                prefix=PREFIX,
                upstream=upstream.rsplit(":", 1)[1].rstrip("/"),
                user="user root;" if os.geteuid() == 0 else "",  # the workers read the folder
            )
        )
        self.log = (folder / "nginx.out").open("a")
        self.process = subprocess.Popen(
            [NGINX, "-p", str(folder), "-c", str(config), "-e", str(folder / "nginx-error.log")],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self._wait_ready(folder)

    def _wait_ready(self, folder: Path) -> None:
        deadline = time.monotonic() + 30
        while True:
            assert self.process.poll() is None, (folder / "nginx-error.log").read_text()
            try:
                if httpx.get(f"{self.url}/healthz", timeout=5, trust_env=False).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "nginx did not answer within 30 s"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # nginx's graceful stop
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.close()


class ProxiedServed(Served):
    """``remi serve --root-path /remi`` behind nginx: ``url`` is the proxied address (the
    one people open) and ``direct`` the server's own."""

    def __init__(self, folder: Path, *, extra: tuple[str, ...] = ()) -> None:
        super().__init__(folder, extra=("--root-path", PREFIX, *extra))
        self.direct = self.url
        try:
            self.nginx = Nginx(folder / "nginx", self.direct)
        except BaseException:
            super().stop()
            raise
        self.url = self.nginx.url

    def stop(self) -> None:
        self.nginx.stop()
        super().stop()
