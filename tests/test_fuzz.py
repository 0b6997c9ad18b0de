"""Fuzzing the web table in-process: every operation of the HTTP API's OpenAPI schema
with valid and invalid input (schemathesis), and random and adversarial WebSocket
messages (Hypothesis). No answer is a 500, every error has the documented shape, and a
socket answers every message and is never dropped. Derandomized: the same cases on
every run."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from remikit.server.app import create_app
from remikit.server.guard import MAX_MESSAGE
from remikit.server.settings import Settings
from tests.test_server import create, hello, join

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HTTP_EXAMPLES = 120
"""Cases per operation of the schema: about 1,300 requests in all."""
WS_EXAMPLES = 500


def fuzz(examples: int) -> settings:
    """Hypothesis settings of a derandomized run of ``examples`` cases."""
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


schema = schemathesis.openapi.from_dict(create_app(Settings()).openapi())
schema.config.generation.update(
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], deterministic=True
)


@dataclass
class Server:
    client: TestClient
    live: str  # a table the HTTP fuzzing joins
    finished: str  # a finished game
    quiet: str  # a table waiting for its last people, which only the sockets see
    token: str  # a seat at ``quiet``


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("fuzz")
    settings = Settings(database_url=f"sqlite:///{folder / 'remikit.db'}", bot_delay=0.0)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        live = create(client, "rummy500", options={"players": 3})
        people = [{"kind": "person"}] * 3
        # Budi's seat stays his however long the fuzzing takes (no grace runs out)
        quiet = create(
            client, "rummy500", options={"players": 3}, seats=people, settings={"grace": 600}
        )
        _, token = join(client, quiet, "Budi")
        bots = [{"kind": "bot", "level": "random"}] * 2
        finished = create(client, "rummy500", options={"players": 2, "target": 1}, seats=bots)
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{finished}").json()["table"]["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish their game"
            time.sleep(0.02)
        yield Server(client, live, finished, quiet, token)


def documented(response: Any) -> None:
    """No server error; an error answer is ``{"error": {"code", "message"}}``."""
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        assert set(body["error"]) >= {"code", "message"}, body
        assert isinstance(body["error"]["code"], str) and body["error"]["message"], body


def real_table(server: Server, path: str, generated: str) -> str:
    """Half the generated table codes (chosen by their hash) become a real table's."""
    if hashlib.sha256(generated.encode("utf-8", "replace")).digest()[0] % 2:
        return generated
    return server.finished if path.startswith("/api/games") else server.live


@pytest.mark.slow
@schema.parametrize()
@fuzz(HTTP_EXAMPLES)
def test_the_http_api_answers_every_request_as_documented(case: Any, server: Server) -> None:
    if "table_id" in (case.path_parameters or {}):
        generated = str(case.path_parameters["table_id"])
        case.path_parameters["table_id"] = real_table(server, case.operation.path, generated)
    sent = case.as_transport_kwargs(base_url="http://testserver")
    body = {"json": sent["json"]} if "json" in sent else {"content": sent.get("data")}
    response = server.client.request(
        sent["method"],
        sent["url"],
        params=sent.get("params"),
        headers=sent.get("headers"),
        cookies=sent.get("cookies"),
        **body,
    )
    documented(response)


# -- WebSocket messages ---------------------------------------------------------------

FIELDS = ("type", "state_id", "action", "ref", "token", "lang")
numbers = st.one_of(
    st.integers(),
    st.integers(min_value=2**62, max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, -1, 2**31, 2**63, -(2**63), 1.0, 1e308]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=60))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
actions = st.one_of(
    st.sampled_from(["draw stock", "draw discard", "discard 7h", "meld 7h 8h 9h", "rummy 2"]),
    st.text(max_size=80),
    st.text(alphabet="0123456789 AKQJTshdc*=tomeldiscardrawpk", max_size=600),
)
messages = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["action", "ping", "hello"]) | values,
        "state_id": st.sampled_from([0]) | values,
        "action": actions | values,
        "ref": st.text(max_size=80) | numbers | values,
        "token": st.text(max_size=120) | values,
        "lang": st.sampled_from(["id", "en"]) | values,
    },
).map(lambda m: json.dumps(m))
adversarial = st.one_of(
    st.text(max_size=200),  # mostly not JSON
    st.integers(min_value=1, max_value=20_000).map(lambda n: "[" * n),
    st.integers(min_value=1, max_value=3000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.integers(min_value=1, max_value=6000).map(lambda n: '{"type":"ping","ref":' + "9" * n + "}"),
    st.sampled_from(["NaN", "Infinity", '{"type":"ping","ref":-Infinity}', '"ping"', "[]", "1"]),
    st.sampled_from(['{"type":"ping","ref":"\\ud800"}', '{"\\udfff":1}', '{"type":"\\udc00x"}']),
    st.integers(min_value=MAX_MESSAGE - 40, max_value=MAX_MESSAGE + 40).map(
        lambda n: json.dumps({"type": "ping", "pad": "x" * n})
    ),
)
frames = st.one_of(
    messages.map(lambda text: ("text", text)),
    adversarial.map(lambda text: ("text", text)),
    st.binary(max_size=200).map(lambda data: ("bytes", data)),
)


def answer_to(ws: Any, kind: str, data: str | bytes, serial: int) -> list[dict[str, Any]]:
    """Send one frame and then a ping; the messages that came before the ping's pong."""
    if kind == "text":
        assert isinstance(data, str)
        ws.send_text(data)
    else:
        assert isinstance(data, bytes)
        ws.send_bytes(data)
    ref = f"sentinel-{serial}"
    ws.send_text(json.dumps({"type": "ping", "ref": ref}))
    seen: list[dict[str, Any]] = []
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message == {"type": "pong", "ref": ref}:
            return seen
        if message["type"] != "state":
            seen.append(message)


@pytest.mark.parametrize("seated", [False, True], ids=["spectator", "seat"])
def test_every_websocket_message_is_answered_as_documented(server: Server, seated: bool) -> None:
    serial = iter(range(10**9))
    with server.client.websocket_connect(f"/ws/tables/{server.quiet}") as ws:
        hello(ws, server.token if seated else None)

        @fuzz(WS_EXAMPLES)
        @given(frames)
        def one(frame: tuple[str, str | bytes]) -> None:
            kind, data = frame
            replies = answer_to(ws, kind, data, next(serial))
            assert len(replies) == 1, (data[:80], replies)
            reply = replies[0]
            if reply["type"] == "pong":
                return
            assert reply["type"] == "error", reply
            assert set(reply) >= {"code", "message", "state_id", "ref"}, reply
            assert isinstance(reply["code"], str) and reply["message"], reply

        one()
        assert client_still_there(ws)


def client_still_there(ws: Any) -> bool:
    ws.send_text(json.dumps({"type": "ping", "ref": "last"}))
    while (message := ws.receive_json())["type"] != "pong":
        assert message["type"] in ("state", "error"), message
    return bool(message["ref"] == "last")


@fuzz(50)
@given(frames)
def test_a_bad_hello_is_refused_in_the_documented_way(server: Server, frame: Any) -> None:
    kind, data = frame
    with server.client.websocket_connect(f"/ws/tables/{server.quiet}") as ws:
        if kind == "text":
            ws.send_text(data)
        else:
            ws.send_bytes(data)
        first = ws.receive_json()
        if first["type"] == "welcome":  # a hello after all
            return
        assert first["type"] == "error" and {"code", "message"} <= set(first), first
        assert ws.receive()["code"] in (4400, 4401), first
