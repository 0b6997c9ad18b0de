"""Playing across a network: the shared link of a table (public URL, the request's host,
the machine's network address for a loopback request, the root path), its QR code, the
WebSocket origin check, ``remi serve``'s network options and what it prints."""

from __future__ import annotations

import os
import re
import select
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import segno
import uvicorn
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from remikit.cli.main import build_parser, main
from remikit.cli.serve import public_url, root_path
from remikit.i18n import default_lang, t
from remikit.server.app import create_app
from remikit.server.lan import lan_hosts, pick_hosts
from remikit.server.runner import Server
from remikit.server.settings import Settings
from remikit.server.share import is_loopback, parse_origin, qr_svg

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TWO_PEOPLE = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "random"}]


@contextmanager
def running(
    tmp_path: Path, *, base_url: str = "http://testserver", root: str = "", **settings: Any
) -> Iterator[TestClient]:
    host = urlsplit(base_url).hostname or ""  # the address the client names is trusted
    database = f"sqlite:///{tmp_path / 'remikit.db'}"
    app = create_app(Settings(database_url=database, allowed_hosts=(host,), **settings))
    with TestClient(app, base_url=base_url, root_path=root) as client:
        yield client


def create(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/tables", json={"variant": "rummy500", "seats": TWO_PEOPLE})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


# -- the shared link -------------------------------------------------------------------------


def test_the_link_is_the_request_host_s(tmp_path: Path) -> None:
    with running(tmp_path, base_url="http://192.0.2.9:8000") as client:
        created = create(client)
        code = created["table"]["id"]
        assert created["link"] == f"/table/{code}"
        assert created["share_url"] == f"http://192.0.2.9:8000/table/{code}"
        assert created["share_local"] is False
        got = client.get(f"/api/tables/{code}").json()
        joined = client.post(f"/api/tables/{code}/join", json={"name": "Budi"}).json()
        for answer in (got, joined):
            assert (answer["link"], answer["share_url"], answer["share_local"]) == (
                created["link"],
                created["share_url"],
                False,
            )


def test_a_loopback_link_says_it_opens_only_here(tmp_path: Path) -> None:
    with running(tmp_path, base_url="http://127.0.0.1:8000") as client:
        created = create(client)
        assert created["share_url"] == f"http://127.0.0.1:8000/table/{created['table']['id']}"
        assert created["share_local"] is True


def test_a_loopback_request_shares_the_network_address(tmp_path: Path) -> None:
    hosts = ("192.0.2.7", "2001:db8::7")
    with running(tmp_path, base_url="http://localhost:8123", lan_hosts=hosts) as client:
        created = create(client)
        assert created["share_url"] == f"http://192.0.2.7:8123/table/{created['table']['id']}"
        assert created["share_local"] is False


def test_the_public_url_wins(tmp_path: Path) -> None:
    public = "https://remi.example.org/meja"
    with running(tmp_path, base_url="http://127.0.0.1:8000", public_url=public) as client:
        created = create(client)
        assert created["share_url"] == f"{public}/table/{created['table']['id']}"
        assert created["share_local"] is False


def test_paths_carry_the_root_path(tmp_path: Path) -> None:
    with running(tmp_path, base_url="https://remi.example.org", root="/remi") as client:
        created = create(client)
        code = created["table"]["id"]
        assert created["link"] == f"/remi/table/{code}"
        assert created["share_url"] == f"https://remi.example.org/remi/table/{code}"
        page = client.get(f"/table/{code}")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]


def test_the_qr_code_is_the_share_url_s(tmp_path: Path) -> None:
    public = "https://remi.example.org/meja"
    with running(tmp_path, public_url=public) as client:
        code = create(client)["table"]["id"]
        response = client.get(f"/api/tables/{code}/qr.svg")
        assert response.status_code == 200
        assert response.headers["content-type"] == "image/svg+xml"
        assert response.content == qr_svg(f"{public}/table/{code}")
        assert response.content != qr_svg(f"{public}/table/{code}x")
        assert client.get("/api/tables/ZZZZZZZZ/qr.svg").status_code == 404


def test_the_qr_svg_is_segno_s_code_of_the_text() -> None:
    text = "http://192.0.2.7:8000/table/HTEAG5UY"
    svg = qr_svg(text).decode()
    assert svg.startswith("<svg") and 'viewBox="0 0 ' in svg
    qr = segno.make(text, error="m")
    size = qr.symbol_size(border=4)[0]
    assert f'viewBox="0 0 {size} {size}"' in svg


# -- the WebSocket origin check --------------------------------------------------------------


def greeting(client: TestClient, code: str, origin: str | None) -> dict[str, Any]:
    """The first message a socket with this Origin gets after its hello (the close code
    of a refusal as ``"closed"``)."""
    headers = {} if origin is None else {"origin": origin}
    with client.websocket_connect(f"/ws/tables/{code}", headers=headers) as ws:
        ws.send_json({"type": "hello", "lang": "en"})
        first: dict[str, Any] = ws.receive_json()
        if first["type"] == "error":
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            first["closed"] = closed.value.code
        return first


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        (None, True),  # a program, not a page
        ("http://testserver", True),
        ("HTTP://TestServer:80", True),
        ("https://remi.example.org", True),  # the public URL's
        ("http://evil.example", False),
        ("http://testserver:8080", False),
        ("https://testserver", False),
        ("http://remi.example.org", False),
        ("null", False),
    ],
)
def test_a_socket_from_another_origin_is_refused(
    tmp_path: Path, origin: str | None, allowed: bool
) -> None:
    with running(tmp_path, public_url="https://remi.example.org/meja") as client:
        code = create(client)["table"]["id"]
        first = greeting(client, code, origin)
        if allowed:
            assert first["type"] == "welcome", first
        else:
            assert (first["code"], first["closed"]) == ("bad_origin", 4403), first
            assert "may not play" in first["message"]


def test_origins() -> None:
    assert parse_origin("http://Example.org/x?y") == ("http", "example.org", 80)
    assert parse_origin("wss://[::1]:8443/ws") == ("https", "::1", 8443)
    assert parse_origin("file:///tmp/x") is None
    assert parse_origin("http://host:port") is None
    assert is_loopback("127.0.0.2") and is_loopback("[::1]") and is_loopback("app.localhost")
    assert not is_loopback("192.0.2.1") and not is_loopback("example.org")


# -- the machine's network addresses ---------------------------------------------------------

INTERFACES = [
    (socket.AF_INET, "127.0.0.1"),
    (socket.AF_INET6, "::1"),
    (socket.AF_INET, "192.0.2.2"),
    (socket.AF_INET6, "fe80::fc:ff:fe00:1%eth0"),
    (socket.AF_INET6, "2001:db8::2"),
    (socket.AF_INET, "169.254.3.4"),
    (socket.AF_INET, "198.51.100.5"),
]


def test_network_addresses_of_a_wildcard_host() -> None:
    assert pick_hosts("0.0.0.0", INTERFACES) == ("192.0.2.2", "198.51.100.5")
    assert pick_hosts("::", INTERFACES) == ("192.0.2.2", "198.51.100.5", "2001:db8::2")
    assert pick_hosts("127.0.0.1", INTERFACES) == ()
    assert pick_hosts("192.0.2.2", INTERFACES) == ()
    assert lan_hosts("127.0.0.1") == ()
    assert all(not is_loopback(host) for host in lan_hosts("0.0.0.0"))


def test_the_banner_names_every_way_in() -> None:
    settings = Settings(lan_hosts=("192.0.2.2", "2001:db8::2"), public_url="https://x.example/r")
    server = Server(uvicorn.Config(create_app(settings)), settings)
    lang = default_lang()
    assert server.banner("0.0.0.0", 8000).splitlines() == [
        "remikit: open http://127.0.0.1:8000/",
        t("serve.lan_url", lang, url="http://192.0.2.2:8000/"),
        t("serve.lan_url", lang, url="http://[2001:db8::2]:8000/"),
        t("serve.public_url", lang, url="https://x.example/r/"),
    ]
    assert server.banner("::", 8000).splitlines()[0] == "remikit: open http://[::1]:8000/"
    plain = Server(uvicorn.Config(create_app(Settings())), Settings())
    assert plain.banner("127.0.0.1", 8000) == "remikit: open http://127.0.0.1:8000/"


# -- remi serve's options ----------------------------------------------------------------------


def test_public_url_and_root_path_are_checked() -> None:
    assert public_url("https://remi.example.org/meja/") == "https://remi.example.org/meja"
    assert public_url("http://192.0.2.2:8000") == "http://192.0.2.2:8000"
    for bad in (
        "ftp://x",
        "remi.example.org",
        "http://",
        "http://x:0",
        "http://x:y",
        "http://x/?a",
    ):
        with pytest.raises(ValueError):
            public_url(bad)
    assert root_path("/remi/") == "/remi" and root_path("") == "" and root_path("/") == ""
    for bad in ("remi", "/a?b", "//x"):
        with pytest.raises(ValueError):
            root_path(bad)


def test_the_public_url_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REMI_PUBLIC_URL", "https://remi.example.org/meja")
    assert build_parser().parse_args(["serve"]).public_url == "https://remi.example.org/meja"
    given = build_parser().parse_args(["serve", "--public-url", "http://192.0.2.2:8000"])
    assert given.public_url == "http://192.0.2.2:8000"


def test_remi_serve_refuses_a_bad_public_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--public-url", "ftp://remi.example.org"]) == 2
    assert "ftp://remi.example.org" in capsys.readouterr().err
    assert main(["serve", "--root-path", "remi"]) == 2


URL_LINE = re.compile(r"^remikit: open (http://127\.0\.0\.1:(\d+)/)$")


def test_remi_serve_on_every_interface(tmp_path: Path) -> None:
    """``--host 0.0.0.0`` prints the loopback address first, then the network ones, and a
    table made from this computer shares the first network address."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REMI_")} | {"LANG": "C.UTF-8"}
    database = f"sqlite:///{tmp_path / 'remikit.db'}"
    command = [sys.executable, "-m", "remikit", "serve", "--host", "0.0.0.0", "--port", "0"]
    with subprocess.Popen(
        [*command, "--database", database],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    ) as process:
        try:
            assert process.stdout is not None
            ready, _, _ = select.select([process.stdout], [], [], 60)
            assert ready, "remi serve printed no address within 60 s"
            match = URL_LINE.match(process.stdout.readline().strip())
            assert match, "the first line is not the loopback address"
            url, port = match.group(1), match.group(2)
            hosts = lan_hosts("0.0.0.0")
            for host in hosts:
                line = process.stdout.readline().strip()
                assert line == t("serve.lan_url", "en", url=f"http://{host}:{port}/")
            body = {"variant": "rummy500", "seats": TWO_PEOPLE}
            created = httpx.post(url + "api/tables", json=body, timeout=30).json()
            code = created["table"]["id"]
            shared_host = hosts[0] if hosts else "127.0.0.1"
            assert created["share_url"] == f"http://{shared_host}:{port}/table/{code}"
            assert created["share_local"] is (not hosts)
        finally:
            process.terminate()
            process.wait(15)
