"""The hosts the server answers to (docs/protocol.md, top, and §9): a request or a socket
whose ``Host`` names another is refused (400 ``bad_host``) before anything reads it, so a
page whose name was pointed at this computer (DNS rebinding) reaches nothing; the
WebSocket origin check counts a request's own origin only on a trusted host; and
``remi serve --allowed-host``."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.requests import HTTPConnection
from starlette.testclient import WebSocketDenialResponse
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from remikit.cli.main import build_parser, main
from remikit.cli.serve import allowed_host
from remikit.server import runner
from remikit.server.app import create_app
from remikit.server.hosts import HostGuard, host_trusted, trusted_hosts
from remikit.server.lan import lan_hosts
from remikit.server.settings import Settings
from remikit.server.share import origin_allowed
from tests.browser import Served

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@contextmanager
def running(tmp_path: Path, **settings: Any) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'remikit.db'}", **settings))
    with TestClient(app) as client:
        yield client


def refused(response: httpx.Response) -> str:
    """The message of a ``bad_host`` refusal, in the documented shape."""
    assert response.status_code == 400, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == "bad_host", body
    message: str = body["error"]["message"]
    return message


def test_the_trusted_hosts_of_a_server() -> None:
    settings = Settings(
        public_url="https://Remi.Example.org/meja",
        lan_hosts=("192.0.2.2", "2001:db8::2"),
        allowed_hosts=("laptop.local", "*.example.net", "::5", "127.0.0.1"),
    )
    assert trusted_hosts(settings) == (
        "localhost",
        "127.0.0.1",
        "[::1]",
        "192.0.2.2",
        "[2001:db8::2]",
        "laptop.local",
        "*.example.net",
        "[::5]",
        "remi.example.org",
    )
    patterns = trusted_hosts(settings)
    assert host_trusted("A.Example.NET", patterns) and host_trusted("::5", patterns)
    assert not host_trusted("example.net", patterns)
    assert not host_trusted("remi.example.org.evil.example", patterns)
    assert host_trusted("anything.example", ("*",))


def test_a_request_naming_another_host_is_refused(tmp_path: Path) -> None:
    with running(tmp_path, allowed_hosts=()) as client:  # not even the test client's host
        message = refused(client.get("/healthz"))
        assert "address" in message
        answer = client.get("/api/variants?lang=id")
        assert refused(answer) != message  # in the language asked for
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        for host in ("localhost:8000", "127.0.0.1", "[::1]:8000", "LOCALHOST"):
            assert client.get("/healthz", headers={"Host": host}).status_code == 200, host
        big = b"{" + b" " * (64 * 1024) + b"}"  # refused for its host, not read
        refused(client.post("/api/tables", content=big, headers={"Host": "evil.example"}))
        refused(client.get("/", headers={"Host": "evil.example:8000"}))


@pytest.mark.parametrize(
    ("host", "trusted"),
    [
        ("remi.example.org", True),  # the public URL's
        ("192.0.2.2:8000", True),  # a network address of the machine
        ("[2001:db8::2]:8000", True),
        ("a.example.net", True),  # *.example.net
        ("testserver", True),  # the test settings' REMI_ALLOWED_HOSTS
        ("example.net", False),
        ("evil.example", False),
        ("192.0.2.3", False),
        ("remi.example.org.evil.example", False),
        ("remi.example.org:8000:1", False),
    ],
)
def test_the_hosts_a_server_answers_to(tmp_path: Path, host: str, trusted: bool) -> None:
    settings: dict[str, Any] = {
        "public_url": "https://remi.example.org/meja",
        "lan_hosts": ("192.0.2.2", "2001:db8::2"),
        "allowed_hosts": ("*.example.net", "testserver"),
    }
    with running(tmp_path, **settings) as client:
        answer = client.get("/api/variants", headers={"Host": host})
        if trusted:
            assert answer.status_code == 200, answer.text
        else:
            refused(answer)


def test_any_host_is_the_operator_s_choice(tmp_path: Path) -> None:
    with running(tmp_path, allowed_hosts=("*",)) as client:
        assert client.get("/healthz", headers={"Host": "evil.example"}).status_code == 200


def test_a_request_without_a_host_is_refused() -> None:
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("not for a request without a host")

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> Any:
        raise AssertionError("nothing is read")

    scope = {"type": "http", "method": "GET", "path": "/", "headers": [], "query_string": b""}
    asyncio.run(HostGuard(app, hosts=("localhost",))(scope, receive, send))
    assert sent[0]["status"] == 400 and b'"bad_host"' in sent[1]["body"]


def test_a_socket_naming_another_host_is_refused_before_it_opens(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        opening = client.websocket_connect("/ws/tables/ZZZZZZZZ", headers={"Host": "evil.example"})
        with pytest.raises(WebSocketDenialResponse) as denied, opening:
            pass
        refused(denied.value)


def connection(host: str, origin: str) -> HTTPConnection:
    headers = [(b"host", host.encode()), (b"origin", origin.encode())]
    scope = {"type": "websocket", "scheme": "ws", "path": "/ws", "headers": headers}
    return HTTPConnection(scope)


def test_the_origin_check_counts_the_request_s_own_origin_on_a_trusted_host_only() -> None:
    settings = Settings(public_url="https://remi.example.org", allowed_hosts=("laptop.local",))
    assert origin_allowed(connection("laptop.local:8000", "http://laptop.local:8000"), settings)
    assert origin_allowed(connection("evil.example", "https://remi.example.org"), settings)
    assert not origin_allowed(connection("evil.example", "http://evil.example"), settings)
    assert not origin_allowed(connection("laptop.local", "http://laptop.local:8000"), settings)
    anyone = Settings(allowed_hosts=("*",))
    assert origin_allowed(connection("evil.example", "http://evil.example"), anyone)
    assert not origin_allowed(connection("evil.example", "http://other.example"), anyone)


# -- remi serve --allowed-host -------------------------------------------------------------------


def test_allowed_hosts_are_checked() -> None:
    for good in ("remi.example.org", "*.example.org", "*", "192.0.2.1", "::1", "[::1]", "my_pc"):
        assert allowed_host(good) == good
    assert allowed_host(" Laptop.LOCAL ") == "laptop.local"
    for bad in ("", "remi.example.org:8000", "http://x", "*example.org", "a.*.org", "x/y", "a b"):
        with pytest.raises(ValueError):
            allowed_host(bad)


def test_allowed_hosts_come_from_the_options_else_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("REMI_ALLOWED_HOSTS", "a.example, b.example")
    assert Settings().allowed_hosts == ("a.example", "b.example")
    args = build_parser().parse_args(
        ["serve", "--allowed-host", "x.example", "--allowed-host", "y"]
    )
    assert args.allowed_host == ["x.example", "y"]


def serve_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *options: str) -> Settings:
    """The settings ``remi serve OPTIONS`` runs the server with."""
    ran: list[Settings] = []

    def serve(settings: Settings, **_: Any) -> int:
        ran.append(settings)
        return 0

    monkeypatch.setattr(runner, "serve", serve)
    database = f"sqlite:///{tmp_path / 'remikit.db'}"
    assert main(["serve", "--database", database, *options]) == 0
    return ran[0]


def test_remi_serve_trusts_its_host_and_the_allowed_ones(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("REMI_ALLOWED_HOSTS")
    settings = serve_settings(monkeypatch, tmp_path)
    assert settings.allowed_hosts == ("127.0.0.1",)
    given = ("--host", "192.0.2.5", "--allowed-host", "Remi.Example.org", "--allowed-host", "*.lan")
    settings = serve_settings(monkeypatch, tmp_path, *given)
    assert settings.allowed_hosts == ("remi.example.org", "*.lan", "192.0.2.5")
    settings = serve_settings(monkeypatch, tmp_path, "--host", "0.0.0.0")  # its addresses instead
    assert settings.allowed_hosts == () and settings.lan_hosts == lan_hosts("0.0.0.0")
    monkeypatch.setenv("REMI_ALLOWED_HOSTS", "laptop.local")
    assert serve_settings(monkeypatch, tmp_path).allowed_hosts == ("laptop.local", "127.0.0.1")


def test_remi_serve_refuses_a_bad_allowed_host(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--allowed-host", "remi.example.org:8000"]) == 2
    assert "remi.example.org:8000" in capsys.readouterr().err


def test_a_real_server_refuses_another_host(tmp_path: Path) -> None:
    served = Served(tmp_path)
    try:
        refused(httpx.get(f"{served.url}/healthz", headers={"Host": "evil.example"}))
        assert httpx.get(f"{served.url}/healthz").status_code == 200
        port = int(served.url.rsplit(":", 1)[1])
        url = f"ws://evil.example:{port}/ws/tables/ZZZZZZZZ"  # sent to this server
        with (
            socket.create_connection(("127.0.0.1", port)) as to_server,
            pytest.raises(InvalidStatus) as denied,
        ):
            connect(url, sock=to_server)
        assert denied.value.response.status_code == 400
        assert b'"bad_host"' in denied.value.response.body
    finally:
        served.stop()
