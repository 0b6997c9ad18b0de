"""``remi serve --root-path /remi`` behind Debian's nginx (the config of docs/network.md)
on a loopback port: the lobby page and its files, the API, a table's links and QR code, a
game over the proxied WebSocket, the origin check, and which proxies' forwarded headers
are believed.

Outside CI these tests skip when no nginx is found; in CI (``CI`` set) they must run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from remikit.server.share import qr_svg
from tests import changes_client
from tests.browser import Served
from tests.proxy import PREFIX, ProxiedServed, needs_nginx

pytestmark = [needs_nginx, pytest.mark.slow]

Message = dict[str, Any]
ONE_PERSON = [
    {"kind": "person"},
    {"kind": "bot", "level": "random"},
    {"kind": "bot", "level": "random"},
]


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProxiedServed]:
    served = ProxiedServed(tmp_path_factory.mktemp("proxy"))
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture
def http(proxied: ProxiedServed) -> Iterator[httpx.Client]:
    with httpx.Client(trust_env=False, timeout=30) as client:
        yield client


def test_the_lobby_and_its_files_come_through_the_prefix(
    proxied: ProxiedServed, http: httpx.Client
) -> None:
    bare = http.get(proxied.url)  # nginx sends /remi to /remi/
    assert bare.status_code == 301 and bare.headers["location"].endswith(f"{PREFIX}/")
    page = http.get(proxied.url + "/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "base-uri 'none'" in page.headers["content-security-policy"]
    for name in ("static/lobby.js", "static/style.css"):
        assert f'"{name}"' in page.text  # relative: the page's own prefix
    for name in ("static/lobby.js", "static/style.css", "static/urls.js"):
        assert http.get(urljoin(str(page.url), name)).status_code == 200, name
    messages = http.get(proxied.url + "/api/messages?lang=id")
    assert messages.status_code == 200 and "plural" in messages.json()


def test_a_table_made_through_the_proxy(proxied: ProxiedServed, http: httpx.Client) -> None:
    variants = http.get(proxied.url + "/api/variants").json()["variants"]
    assert "rummy500" in {v["name"] for v in variants}
    response = http.post(
        proxied.url + "/api/tables", json={"variant": "rummy500", "seats": ONE_PERSON}
    )
    assert response.status_code == 201, response.text
    created = response.json()
    code = created["table"]["id"]
    assert created["link"] == f"{PREFIX}/table/{code}"
    assert created["share_url"] == f"{proxied.url}/table/{code}"  # the Host nginx passed on
    assert created["share_local"] is True  # a loopback address, no public URL
    table_page = http.get(urljoin(proxied.url, created["link"]))
    assert table_page.status_code == 200 and '"../static/table.js"' in table_page.text
    qr = http.get(f"{proxied.url}/api/tables/{code}/qr.svg")
    assert qr.status_code == 200 and qr.content == qr_svg(created["share_url"])


def socket_url(proxied: ProxiedServed, code: str) -> str:
    return f"{proxied.url.replace('http://', 'ws://')}/ws/tables/{code}"


def receive(ws: ClientConnection, wanted: Any) -> Message:
    for _ in range(5000):
        message: Message = changes_client.read(ws, json.loads(ws.recv(timeout=30)))
        if wanted(message):
            return message
    raise AssertionError("the wanted message did not come")


def test_a_game_over_the_proxied_websocket(proxied: ProxiedServed, http: httpx.Client) -> None:
    body = {"variant": "rummy500", "seats": ONE_PERSON}
    code = http.post(proxied.url + "/api/tables", json=body).json()["table"]["id"]
    joined = http.post(f"{proxied.url}/api/tables/{code}/join", json={"name": "Budi"}).json()
    origin = Origin(proxied.url.removesuffix(PREFIX))
    with connect(socket_url(proxied, code), origin=origin, proxy=None, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": joined["token"], "lang": "en"}))
        welcome = receive(ws, lambda m: m["type"] == "welcome")
        assert welcome["seat"] == joined["seat"]
        mine = receive(ws, lambda m: m["type"] == "state" and m["view"]["legal_actions"])
        ws.send(json.dumps({"type": "ping", "ref": 7}))
        assert receive(ws, lambda m: m["type"] == "pong")["ref"] == 7  # my turn waits for me
        action = mine["view"]["legal_actions"][0]
        ws.send(json.dumps({"type": "action", "state_id": mine["state_id"], "action": action}))
        after = receive(ws, lambda m: m["type"] in ("state", "error"))
        assert after["type"] == "state" and after["state_id"] > mine["state_id"], after


def test_a_socket_from_another_site_is_refused(proxied: ProxiedServed, http: httpx.Client) -> None:
    body = {"variant": "rummy500", "seats": ONE_PERSON}
    code = http.post(proxied.url + "/api/tables", json=body).json()["table"]["id"]
    origin = Origin("http://evil.example")
    with connect(socket_url(proxied, code), origin=origin, proxy=None, open_timeout=10) as ws:
        error = json.loads(ws.recv(timeout=10))  # at once, before any hello
        assert error["type"] == "error" and error["code"] == "bad_origin", error
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


def share_url_with_forwarded_https(served: Served) -> str:
    body = {"variant": "rummy500", "seats": ONE_PERSON}
    headers = {"X-Forwarded-Proto": "https", "Host": "remi.example.org"}
    response = httpx.post(
        served.url + "/api/tables", json=body, headers=headers, trust_env=False, timeout=30
    )
    share_url: str = response.json()["share_url"]
    return share_url.rsplit("/table/", 1)[0]


@pytest.mark.parametrize(
    ("extra", "base"),
    [
        ((), "https://remi.example.org"),  # uvicorn's default trusts 127.0.0.1: these requests
        (("--forwarded-allow-ips", "192.0.2.1"), "http://remi.example.org"),
    ],
)
def test_forwarded_headers_are_believed_from_trusted_proxies_only(
    tmp_path: Path, extra: tuple[str, ...], base: str
) -> None:
    served = Served(tmp_path, extra=("--allowed-host", "remi.example.org", *extra))
    try:
        assert share_url_with_forwarded_https(served) == base
    finally:
        served.stop()
