"""What the web table refuses, and how: bodies over the limit or too slow, JSON the
server will not read, fields out of range, bad WebSocket messages, table options out of
range; every refusal in the documented error shape (docs/protocol.md §1, §9)."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import signal
import threading
import time
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any
from unittest import mock

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from uvicorn.server import ServerState
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from remikit.engine import OptionError, OptionText
from remikit.server.app import create_app
from remikit.server.guard import HTTP_CODES, MAX_ACTION, MAX_DEPTH, MAX_MESSAGE, BodyGuard
from remikit.server.redact import scrub
from remikit.server.runner import HEADER_LIMIT, TimedHttp
from remikit.server.settings import Settings
from remikit.server.tables.registry import Tables
from remikit.variants import playable
from tests.browser import Served
from tests.test_server import (
    STILL,
    TWO_PEOPLE,
    create,
    create_seeded,
    hello,
    hub_of,
    join,
    receive_until,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Message = dict[str, Any]
JSON = {"content-type": "application/json"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'remikit.db'}", bot_delay=0.0)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        yield client


def error_of(response: httpx.Response, status: int, code: str) -> str:
    """The message of a documented error answer (``{"error": {"code", "message"}}``)."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    assert message
    return message


# -- HTTP bodies ------------------------------------------------------------------------


def test_a_body_announced_over_the_limit_is_refused_unread(client: TestClient) -> None:
    big = b"{" + b" " * (64 * 1024) + b"}"
    message = error_of(client.post("/api/tables", content=big, headers=JSON), 413, "too_large")
    assert "65536" in message
    streamed = iter([b'{"variant": "remi13d", "title": "', b"x" * (64 * 1024), b'"}'])
    error_of(client.post("/api/tables", content=streamed, headers=JSON), 413, "too_large")


def run_guard(receive_messages: list[Message], *, headers: list[tuple[bytes, bytes]]) -> Message:
    """One request through :class:`BodyGuard` alone (limit 100 bytes, no time to wait): the
    response start it sends, or a note that the application was called."""
    sent: list[Message] = []
    called: list[bool] = []
    queue = list(receive_messages)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        called.append(True)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        await asyncio.Event().wait()  # a client that announced more and sends nothing
        raise AssertionError("unreachable")

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    scope = {"type": "http", "path": "/api/tables", "headers": headers, "query_string": b""}
    asyncio.run(BodyGuard(app, limit=100, timeout=0)(scope, receive, send))
    return {"called": bool(called)} if called else sent[0] | {"body": sent[1]["body"]}


def test_a_body_that_does_not_come_in_time_gets_408() -> None:
    answer = run_guard(
        [{"type": "http.request", "body": b"{", "more_body": True}],
        headers=[(b"content-length", b"50")],
    )
    assert answer["status"] == 408
    assert json.loads(answer["body"])["error"]["code"] == "slow_body"
    too_long = run_guard([], headers=[(b"content-length", b"101")])
    assert too_long["status"] == 413  # refused before any byte is read
    not_a_number = run_guard([], headers=[(b"content-length", b"-1")])
    assert not_a_number["status"] == 400
    assert json.loads(not_a_number["body"])["error"]["code"] == "bad_request"
    assert run_guard([{"type": "http.request", "body": b"{}"}], headers=[]) == {"called": True}


@pytest.mark.parametrize(
    "body",
    [
        b'{"variant": "remi13d", "options": {"games": Infinity}}',
        b'{"variant": "remi13d", "options": {"games": NaN}}',
        b'{"variant": "remi13d", "options": {"games": -Infinity}}',
        b'{"variant": "remi13d", "options": {"games": 1e999}}',
        b'{"variant": "remi13d", "options": {"games": ' + b"1" * 5000 + b"}}",
        b'{"variant": "remi13d", "options": ' + b"[" * 10_000 + b"]" * 10_000 + b"}",
        b'{"variant": "remi13d", "options": ' + b"[" * MAX_DEPTH + b"]" * MAX_DEPTH + b"}",
        b'{"variant": "remi13d\xff\xfe"}',
        b'{"variant": "remi13d", "options": {"pure_run": "\\ud800"}}',
        b'{"variant": "remi13d", "options": {"\\udfff": 1}}',
        b"{nope",
    ],
)
def test_json_the_server_will_not_read_is_refused(client: TestClient, body: bytes) -> None:
    error_of(client.post("/api/tables", content=body, headers=JSON), 422, "bad_request")


def test_json_at_the_limits_is_read(client: TestClient) -> None:
    deep: Any = {"x": None}
    for _ in range(MAX_DEPTH - 3):  # the body, the options, MAX_DEPTH - 2 levels inside
        deep = {"x": deep}
    body: Message = {"variant": "remi13d", "options": {"games": 2**62}}
    error_of(client.post("/api/tables", json=body), 400, "bad_option")  # read, out of range
    body = {"variant": "remi13d", "options": {"deep": deep}}
    error_of(client.post("/api/tables", json=body), 400, "bad_option")  # read: no such option


@pytest.mark.parametrize("value", ["²", "٣", "१", "9" * 5000, str(2**63), "-1", "1.5"])
def test_numbers_in_queries_are_plain_and_in_range(client: TestClient, value: str) -> None:
    table_id = create(client)
    error_of(client.get("/api/games", params={"offset": value}), 422, "bad_request")
    error_of(client.get("/api/games", params={"limit": value}), 422, "bad_request")
    replay = client.get(f"/api/games/{table_id}/replay", params={"step": value})
    error_of(replay, 422, "bad_request")


@pytest.mark.parametrize("value", ["²", "٣", 2**63, 10**30, 1.0, True])
def test_numbers_in_bodies_are_plain_and_in_range(client: TestClient, value: Any) -> None:
    table_id = create(client)
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Budi", "seat": value})
    error_of(joined, 422, "bad_request")
    body = {"variant": "rummy500", "options": {"target": value}}
    error_of(client.post("/api/tables", json=body), 400, "bad_option")


def number_params(schema: Message) -> Iterator[tuple[str, str, list[Message]]]:
    """Each API address with a whole number in its path or query: (method, path, params)."""
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            params = operation.get("parameters", [])
            if any("integer" in json.dumps(p["schema"]) for p in params):
                yield method, path, params


@pytest.mark.parametrize("value", [2**63, -(2**63) - 1, 10**30])
def test_every_whole_number_of_a_path_or_query_is_bounded(client: TestClient, value: int) -> None:
    """At every address (a competition's round, table, game and entry numbers included) a
    number past a signed 64-bit column is refused, never given to the database."""
    error_of(client.get("/api/tables", params={"offset": str(value)}), 422, "bad_request")
    checked = list(number_params(client.get("/api/openapi.json").json()))
    assert {"/api/tables", "/api/competitions/{cid}/entries/{entry_id}/confirm"} <= {
        path for _, path, _ in checked
    }
    for method, path, params in checked:
        query = {}
        for param in params:
            number = "integer" in json.dumps(param["schema"])
            if param["in"] == "path":
                path = path.replace(f"{{{param['name']}}}", str(value) if number else "ZZZZZZZZ")
            elif param["in"] == "query" and number:
                query[param["name"]] = str(value)
        answer = client.request(method, path, params=query, json={} if method == "post" else None)
        error_of(answer, 422, "bad_request")


def test_whole_numbers_at_the_ends_of_their_range_are_answered(client: TestClient) -> None:
    for variant in ("remi13d", "rummy500"):  # two lists of the lobby: a merged page
        create(client, variant)
    for offset in (2**63 - 1, 2**62):
        page = client.get("/api/tables", params={"offset": offset})
        assert page.status_code == 200 and page.json()["tables"] == [], page.text
        assert page.json()["total"] == 2
    passwords = {"organiser_password": "panitia-medan", "referee_password": "wasit-bersama"}
    body = {"name": "Piala", "date": "2026-12-05", "rounds": 1, **passwords}
    made = client.post("/api/competitions", json=body).json()
    who = {"Authorization": f"Bearer {made['token']}"}
    for entry in (2**63 - 1, -(2**63)):
        confirm = f"/api/competitions/{made['competition']['id']}/entries/{entry}/confirm"
        assert client.post(confirm, headers=who).status_code == 404


def test_routes_methods_and_files_that_do_not_exist(client: TestClient) -> None:
    error_of(client.get("/api/nothing"), 404, "not_found")
    error_of(client.get("/static/nothing.js"), 404, "not_found")
    error_of(client.delete("/api/tables"), 405, "bad_method")
    message = error_of(client.put("/api/games?lang=id"), 405, "bad_method")
    assert message == "alamat ini tidak menerima metode itu"


def test_text_fields_are_bounded(client: TestClient) -> None:
    error_of(client.post("/api/tables", json={"variant": "x" * 41}), 422, "bad_request")
    options = {f"o{i}": 1 for i in range(33)}
    body = {"variant": "remi13d", "options": options}
    error_of(client.post("/api/tables", json=body), 422, "bad_request")
    body = {"variant": "remi13d", "options": {"x" * 41: 1}}
    error_of(client.post("/api/tables", json=body), 422, "bad_request")
    table_id = create(client)
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "B", "lang": "x" * 41})
    error_of(joined, 422, "bad_request")


def test_a_nul_never_reaches_the_database(database_url: str) -> None:
    with TestClient(create_app(Settings(database_url=database_url, bot_delay=0.0))) as client:
        body: Message = {"variant": "remi13d", "title": "Meja\x00"}
        error_of(client.post("/api/tables", json=body), 400, "bad_title")
        table_id = create(client)
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bu\x00di"})
        error_of(joined, 400, "bad_name")
        body = {"variant": "remi13d", "options": {"pure_run": "strict\x00"}}
        error_of(client.post("/api/tables", json=body), 400, "bad_option")
        body = {"variant": "remi13d", "seats": [{"kind": "bot", "level": "\x00"}] * 4}
        error_of(client.post("/api/tables", json=body), 400, "bad_seats")
        listed = client.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [table_id]


# -- options ------------------------------------------------------------------------------


def test_every_whole_number_option_has_a_range() -> None:
    for info in playable():
        for option in info.options():
            if option.kind == "integer" and option.choices is None:
                assert option.low is not None and option.high is not None, (info.name, option)
                assert option.high < 2**31


@pytest.mark.parametrize(
    ("variant", "name", "value"),
    [("rummy500", "target", 10**30), ("rummy500", "target", 10_001), ("remi13d", "games", 101)],
)
def test_options_out_of_range_are_refused(
    client: TestClient, variant: str, name: str, value: int
) -> None:
    options_type = next(i for i in playable() if i.name == variant).game_class().options_type
    for given in (value, OptionText(str(value)), OptionText(str(value * 10**300))):
        with pytest.raises(OptionError):  # as a record and --option give it
            options_type.from_mapping({name: given})
    body = {"variant": variant, "options": {name: value}}
    error_of(client.post("/api/tables", json=body), 400, "bad_option")


# -- the event loop ---------------------------------------------------------------------------


def test_a_finished_table_is_rebuilt_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = create(client)
    hub = hub_of(client)
    hub.tables.clear()  # as after a restart, for a table nobody has opened since
    threads: list[threading.Thread] = []
    rebuild = Tables._live

    def watched(self: Tables, stored: Any) -> Any:
        threads.append(threading.current_thread())
        return rebuild(self, stored)

    monkeypatch.setattr(Tables, "_live", watched)
    assert client.get(f"/api/tables/{table_id}").status_code == 200
    assert client.portal is not None
    loop_thread = client.portal.call(lambda: threading.current_thread())
    assert threads and all(t is not loop_thread for t in threads)


# -- WebSocket messages ---------------------------------------------------------------------


def bad_messages(state_id: int) -> list[tuple[str, str]]:
    """Messages every seat must have refused (text, error code), none of them changing
    anything."""

    def action(**fields: Any) -> str:
        return json.dumps({"type": "action", "state_id": state_id, "action": "draw stock"} | fields)

    return [
        (action(state_id=True), "bad_message"),
        (action(state_id=1.0), "bad_message"),
        (action(state_id=-1), "bad_message"),
        (action(state_id=2**63), "bad_message"),
        (action(state_id=str(state_id)), "bad_message"),
        (action(state_id=[state_id]), "bad_message"),
        (action(action="draw stock" + " " * MAX_ACTION), "bad_action"),
        (action(action=["draw", "stock"]), "bad_message"),
        (action(ref="r" * 65), "bad_message"),
        (action(ref=2**40), "bad_message"),
        (action(ref={"a": 1}), "bad_message"),
        (action(ref=True), "bad_message"),
        (json.dumps({"type": "x" * 5000}), "bad_message"),
        ('{"type": "action", "state_id": ' + "9" * 5000 + "}", "bad_json"),
        ('{"type": "action", "state_id": NaN}', "bad_json"),
        ('{"type": "ping", "ref": Infinity}', "bad_json"),
        ('{"type": "ping", "ref": "\\ud800"}', "bad_json"),
        ("[" * 10_000, "bad_json"),
        ("{" * 3000, "bad_json"),
        (json.dumps({"type": "ping", "deep": [[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]}), "bad_json"),
        (json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE}), "too_large"),
    ]


def test_bad_messages_are_answered_and_the_socket_stays(client: TestClient) -> None:
    table_id = create_seeded(client, STILL, "remi13d", options={}, seats=TWO_PEOPLE)
    _, token = join(client, table_id, "Budi", seat=0)
    join(client, table_id, "Sari", seat=1)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        state = receive_until(ws, lambda m: m["type"] == "state")
        for text, code in bad_messages(state["state_id"]):
            ws.send_text(text)
            reply = receive_until(ws, lambda m: m["type"] in ("error", "pong"))
            assert reply["type"] == "error" and reply["code"] == code, (text[:80], reply)
            assert reply["ref"] is None and reply["state_id"] == state["state_id"]
        ws.send_bytes(b'{"type": "ping"}')
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "bad_message"
        ws.send_text(json.dumps({"type": "ping", "ref": "r" * 64}))
        assert receive_until(ws, lambda m: m["type"] == "pong")["ref"] == "r" * 64
        ws.send_text(json.dumps({"type": "ping", "ref": -(2**31) + 1}))
        assert receive_until(ws, lambda m: m["type"] == "pong")["ref"] == -(2**31) + 1


def test_a_hello_with_a_huge_token_is_refused(client: TestClient) -> None:
    table_id = create(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "t" * 10_000}))
        assert ws.receive_json()["code"] == "bad_token"


# -- a real server ---------------------------------------------------------------------------


@pytest.mark.slow
def test_no_seat_token_reaches_the_log_at_debug(tmp_path: Path) -> None:
    served = Served(tmp_path, extra=["--log-level", "debug"])
    try:
        table = httpx.post(f"{served.url}/api/tables", json={"variant": "remi13d"}).json()
        table_id = table["table"]["id"]
        token = httpx.post(
            f"{served.url}/api/tables/{table_id}/join", json={"name": "Budi"}
        ).json()["token"]
        ws_url = served.url.replace("http://", "ws://")
        with connect(f"{ws_url}/ws/tables/{table_id}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            assert json.loads(ws.recv())["type"] == "welcome"
            ws.send(json.dumps({"type": "hello", "token": token, "pad": "x" * 200}))
            assert json.loads(ws.recv())["type"] in ("state", "error")
    finally:
        served.stop()
    log = (tmp_path / "serve.log").read_text()
    assert "< TEXT" in log  # the frames are logged at debug, by size only
    assert token not in log and token[:16] not in log and token[-16:] not in log


def test_redaction_hides_tokens_written_as_json() -> None:
    record = logging.LogRecord("x", logging.INFO, "f", 1, "got %s", ('{"token": "abc"}',), None)
    scrub(record)
    assert record.getMessage() == 'got {"token": "…"}'


@pytest.mark.slow
def test_sigterm_ends_the_server_while_strong_bots_think(tmp_path: Path) -> None:
    served = Served(tmp_path)
    try:
        for variant, players in (("rummy500", 3), ("three-thirteen", 4), ("remi13d", 4)):
            body = {
                "variant": variant,
                "options": {"players": 3} if variant == "rummy500" else {},
                "seats": [{"kind": "bot", "level": "strong@3"}] * players,
            }
            assert httpx.post(f"{served.url}/api/tables", json=body).status_code == 201
        deadline = time.monotonic() + 60
        while not any(
            t["state_id"] for t in httpx.get(f"{served.url}/api/tables").json()["tables"]
        ):
            assert time.monotonic() < deadline, "the bots did not start"
            time.sleep(0.05)
        served.process.send_signal(signal.SIGTERM)
        assert served.process.wait(15) == 0  # a strong bot's search is not waited for
    finally:
        served.stop()


def timed_http() -> tuple[TimedHttp, mock.Mock]:
    """A :class:`TimedHttp` connection on a fake transport that gives no time to headers."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    config = uvicorn.Config(app, http=TimedHttp, lifespan="off", log_level="critical")
    config.load()
    transport = mock.Mock()
    transport.get_extra_info.return_value = None
    transport.is_closing.return_value = False
    protocol = TimedHttp(config=config, server_state=ServerState(), app_state={})
    protocol.header_timeout = 0
    protocol.connection_made(transport)
    return protocol, transport


def test_slow_or_huge_request_headers_close_the_connection() -> None:
    async def turns() -> None:
        for _ in range(5):
            await asyncio.sleep(0)

    async def run() -> None:
        slow, transport = timed_http()
        slow.data_received(b"GET / HTTP/1.1\r\nhost: x\r\n")  # and nothing more
        await turns()
        assert transport.close.called
        huge, transport = timed_http()
        huge.data_received(b"GET / HTTP/1.1\r\nx-a: " + b"a" * HEADER_LIMIT)
        assert transport.close.called
        quick, transport = timed_http()
        quick.data_received(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")  # all at once: answered
        await turns()
        assert transport.write.call_args_list[0].args[0].startswith(b"HTTP/1.1 200 OK")
        assert transport.close.called  # then idle with no time for the next headers

    asyncio.run(run())


def test_every_error_code_of_the_server_is_documented() -> None:
    root = Path(__file__).resolve().parent.parent
    source = "".join(p.read_text() for p in (root / "remikit" / "server").rglob("*.py"))
    codes = set(re.findall(r'Problem\(\s*"(\w+)"', source))
    codes |= {code for code, _ in HTTP_CODES.values()} | {"http_error"}
    docs = "".join((root / "docs" / name).read_text() for name in ("protocol.md", "competition.md"))
    assert codes and not {c for c in codes if f"`{c}`" not in docs}


@pytest.mark.slow
def test_a_real_server_closes_a_socket_on_a_frame_over_64_kib(tmp_path: Path) -> None:
    served = Served(tmp_path)
    try:
        table_id = httpx.post(f"{served.url}/api/tables", json={"variant": "remi13d"}).json()
        ws_url = served.url.replace("http://", "ws://")
        with connect(f"{ws_url}/ws/tables/{table_id['table']['id']}", max_size=None) as ws:
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv())["type"] == "welcome"
            ws.send(json.dumps({"type": "ping", "pad": "x" * (MAX_MESSAGE + 1)}))
            while (reply := json.loads(ws.recv()))["type"] in ("state", "presence"):
                pass
            assert reply["code"] == "too_large"  # answered: the socket stays
            ws.send(json.dumps({"type": "ping", "pad": "x" * 70_000}))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    finally:
        served.stop()
