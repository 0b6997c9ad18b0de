"""The web table through its real app (Starlette's TestClient): HTTP, WebSockets, bots,
hidden information, bad input, Rummy calls, finished games, restarts."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from remikit.actions import parse_seat_action
from remikit.bots import LEVELS, Bot
from remikit.cards import Card
from remikit.engine import Game
from remikit.fairness import verify_record
from remikit.records import new_game, replay
from remikit.server.app import create_app
from remikit.server.clock import ManualClock
from remikit.server.serialize import view_json
from remikit.server.settings import Settings
from remikit.server.tables.build import build_game, next_deck
from remikit.server.tables.fair_deals import FairDeal
from remikit.server.tables.registry import Tables
from remikit.server.tables.seats import seat_rng
from remikit.storage import Store
from remikit.variants import find_variant, playable
from remikit.variants.remi13d.seating import SeatDraw, draw_seats
from remikit.variants.rummy500.actions import CallRummy
from remikit.variants.rummy500.game import Rummy500Game
from remikit.variants.rummy500.options import Rummy500Options
from remikit.views import PlayerView
from tests.hidden import check_no_early_secret

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Message = dict[str, Any]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'remikit.db'}"


@contextmanager
def running(
    db_url: str,
    *,
    bot_delay: float = 0.0,
    call_window: float = 0.3,
    clock: ManualClock | None = None,
    **settings: Any,
) -> Iterator[TestClient]:
    app = create_app(
        Settings(database_url=db_url, bot_delay=bot_delay, call_window=call_window, **settings),
        clock=clock,
    )
    with TestClient(app) as client:
        yield client


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with running(db_url) as client:
        yield client


def hub_of(client: TestClient) -> Tables:
    hub: Tables = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def create(client: TestClient, variant: str = "remi13d", **body: Any) -> str:
    response = client.post("/api/tables", json={"variant": variant, **body})
    assert response.status_code == 201, response.text
    table_id: str = response.json()["table"]["id"]
    return table_id


def create_seeded(
    client: TestClient,
    seed: int,
    variant: str,
    *,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
) -> str:
    hub = hub_of(client)

    async def make() -> str:
        table = await hub.create(
            variant=variant, options=options, seats=seats, title=None, seed=str(seed)
        )
        return table.id

    assert client.portal is not None
    return client.portal.call(make)


def seat_draw_of(seed: int) -> SeatDraw:
    """The seat draw (R13-2) of a Remi 13 D table made with ``seed``."""
    return draw_seats(seat_rng(str(seed)), 4)


def seed_seating(wanted: Callable[[tuple[int, ...]], bool]) -> int:
    """A seed whose Remi 13 D seat draw gives ``wanted`` seats (seats[player])."""
    return next(seed for seed in range(10_000) if wanted(seat_draw_of(seed).seats))


STILL = seed_seating(lambda seats: seats == (0, 1, 2, 3))
"""A seed whose seat draw leaves everyone in the seat taken."""


def join(client: TestClient, table_id: str, name: str = "Budi", **body: Any) -> tuple[int, str]:
    response = client.post(f"/api/tables/{table_id}/join", json={"name": name, **body})
    assert response.status_code == 200, response.text
    data = response.json()
    return data["seat"], data["token"]


def hello(ws: Any, token: str | None = None, lang: str = "en") -> Message:
    message: Message = {"type": "hello", "lang": lang}
    if token is not None:
        message["token"] = token
    ws.send_json(message)
    welcome: Message = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return welcome


def receive_until(
    ws: Any, wanted: Callable[[Message], bool], seen: list[Message] | None = None, limit: int = 5000
) -> Message:
    for _ in range(limit):
        message: Message = ws.receive_json()
        if seen is not None:
            seen.append(message)
        if wanted(message):
            return message
    raise AssertionError("the wanted message did not come")


def newer_state(after: int) -> Callable[[Message], bool]:
    """A state newer than ``after``."""
    return lambda m: m["type"] == "state" and m["state_id"] > after


def my_turn(after: int) -> Callable[[Message], bool]:
    """A state newer than ``after`` in which this seat has something to do."""
    return lambda m: (
        m["type"] == "state" and m["state_id"] > after and bool(m["view"]["legal_actions"])
    )


def simple_choice(view: Message) -> str:
    actions: list[str] = view["legal_actions"]
    for prefix in ("close", "draw stock", "discard"):
        for action in actions:
            if action.startswith(prefix):
                return action
    return actions[0]


def play_turns(ws: Any, turns: int, seen: list[Message] | None = None) -> Message:
    """Play ``turns`` of this seat's actions with a simple policy; the last state seen."""
    acted = -1
    state: Message = {}
    for _ in range(turns):
        state = receive_until(ws, my_turn(acted), seen)
        acted = state["state_id"]
        ws.send_json({"type": "action", "state_id": acted, "action": simple_choice(state["view"])})
    return receive_until(ws, lambda m: m["type"] == "state" and m["state_id"] > acted, seen)


def card_lists(data: Any) -> Iterator[list[str]]:
    if isinstance(data, list):
        if data and all(isinstance(x, str) and 2 <= len(x) <= 2 for x in data):
            yield data
        for item in data:
            yield from card_lists(item)
    elif isinstance(data, dict):
        for value in data.values():
            yield from card_lists(value)


def check_only_own_view(client: TestClient, table_id: str, messages: list[Message]) -> int:
    """Every state message is exactly its seat's engine view at its state id (legal actions:
        a subset), and holds no other seat's hand; no message holds a secret of a deal that
    was not over (docs/fairness.md). Returns how many states were checked."""
    stored = hub_of(client).store.load(table_id)
    assert stored is not None
    games: dict[int, Game] = {}
    checked = 0
    for message in messages:
        if message["type"] != "state":
            continue
        step = message["state_id"]
        game = games.get(step) or games.setdefault(step, build_game(stored, step))
        view = message["view"]
        seat = view["seat"]
        expected = view_json(game.view(seat))
        assert set(view["legal_actions"]) <= set(expected["legal_actions"])
        assert {k: v for k, v in view.items() if k != "legal_actions"} == {
            k: v for k, v in expected.items() if k != "legal_actions"
        }
        deal = game.deal
        assert deal is not None
        if seat is None:
            assert view["hand"] == []
        else:
            assert sorted(view["hand"]) == sorted(str(c) for c in deal.hands[seat])
        lists = [sorted(x) for x in card_lists(message)]
        for other, hand in enumerate(deal.hands):
            if other != seat and len(hand) >= 3:
                assert sorted(str(c) for c in hand) not in lists, f"seat {other}'s hand leaked"
        checked += 1
    check_no_early_secret({f.number: f.secret for f in stored.fair}, messages)
    return checked


def action_log(client: TestClient, table_id: str) -> list[str]:
    return hub_of(client).store.actions(table_id)


# -- HTTP ----------------------------------------------------------------------------


def test_pages_run_only_their_own_scripts_and_cannot_be_framed(client: TestClient) -> None:
    for path in ("/", "/table/ABCDEFGH", "/static/table.js", "/api/variants", "/healthz"):
        headers = client.get(path).headers
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["x-frame-options"] == "DENY", path
        policy = headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
    assert "content-security-policy" not in client.get("/api/docs").headers  # CDN scripts


def test_health_pages_and_variants(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"ok": True}
    assert "<html" in client.get("/").text
    assert "<html" in client.get("/table/ABCDEFGH").text
    assert client.get("/static/table.js").status_code == 200
    variants = {v["name"]: v for v in client.get("/api/variants").json()["variants"]}
    assert set(variants) >= {"remi13d", "rummy500", "three-thirteen"}
    options = {o["name"]: o for o in variants["rummy500"]["options"]}
    assert options["target"] == {
        "name": "target",
        "type": "integer",
        "default": 500,
        "choices": None,
        "min": 1,
        "max": 10_000,
        "label": "opt.target",
        "choice_labels": None,
        "rule": "R5-13",
        "help": "opt.target.help",
    }
    assert options["scoring"]["choices"] == ["standard", "5-10-15"]
    assert options["scoring"]["choice_labels"] == ["optval.standard", "optval.5-10-15"]
    assert "random" in variants["rummy500"]["bots"]


def test_variants_and_tables_carry_the_client_info(client: TestClient) -> None:
    """Every playable variant tells a client how to draw its table and offer its options."""
    variants = {v["name"]: v for v in client.get("/api/variants").json()["variants"]}
    assert set(variants) == {spec.name for spec in playable()}
    for spec in playable():
        sent = variants[spec.name]
        assert sent["client"] == spec.client_json()
        assert spec.client is not None
        assert set(sent["client"]) >= {
            "deal",
            "length",
            "clockwise",
            "discard_first",
            "spread_discards",
            "table_melds",
            "closing",
            "calls_option",
            "wild_ranks",
            "hints",
            "lower_is_better",
            "options",
        }
        assert sent["client"]["lower_is_better"] == spec.game_class().lower_is_better
        names = [o["name"] for o in sent["options"]]
        assert names[: len(spec.client.options)] == list(spec.client.options)
        assert sorted(names) == sorted(o.name for o in spec.game_class().options_type.describe())
        for option in sent["options"]:
            assert set(option) == {
                "name",
                "type",
                "default",
                "choices",
                "min",
                "max",
                "label",
                "choice_labels",
                "rule",
                "help",
            }
        table = client.post("/api/tables", json={"variant": spec.name}).json()["table"]
        assert table["client"] == sent["client"]
        again = client.get(f"/api/tables/{table['id']}").json()["table"]
        assert again["client"] == sent["client"]
    rummy, remi, t13 = (variants[n]["client"] for n in ("rummy500", "remi13d", "three-thirteen"))
    assert rummy["table_melds"] and rummy["spread_discards"]
    assert rummy["calls_option"] == "rummy_calls" and rummy["length"] == "target"
    assert remi["closing"] and remi["discard_first"] and not remi["clockwise"]
    assert remi["length"] == "games" and remi["hints"]["discard"] == "table.hint_discard_close"
    assert t13["length"] == 11 and t13["wild_ranks"][0] == "3" and t13["wild_ranks"][-1] == "K"
    assert t13["lower_is_better"] and not rummy["lower_is_better"]


def test_create_tables_of_every_variant_with_options(client: TestClient) -> None:
    cases: dict[str, dict[str, Any]] = {
        "remi13d": {"games": 2},
        "rummy500": {
            "players": 4,
            "target": 300,
            "scoring": "5-10-15",
            "rummy_calls": False,
            "jokers": False,
        },
        "three-thirteen": {"players": 2, "jokers": 4, "ace": "high"},
    }
    ids = {}
    for variant, options in cases.items():
        response = client.post(
            "/api/tables",
            json={"variant": variant, "options": options, "title": f"  a {variant} table "},
        )
        assert response.status_code == 201, response.text
        table = response.json()["table"]
        ids[variant] = table["id"]
        assert table["status"] == "waiting" and table["free_seats"] == [0]
        assert table["title"] == f"a {variant} table"
        assert response.json()["link"] == f"/table/{table['id']}"
        for name, value in options.items():
            assert str(table["options"][name]).lower() == str(value).lower()
        assert len(table["seats"]) == table["players"]
        assert [s["kind"] for s in table["seats"]][1:] == ["bot"] * (table["players"] - 1)
        assert table["seat_draw"] is None  # R13-2: drawn when the last seat is taken
    lobby = client.get("/api/tables").json()["tables"]
    assert {t["id"] for t in lobby} == set(ids.values())
    alias = client.post("/api/tables", json={"variant": "500"})
    assert alias.json()["table"]["variant"] == "rummy500"
    assert (
        client.get(f"/api/tables/{ids['remi13d'].lower()}").json()["table"]["id"] == ids["remi13d"]
    )


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"variant": "poker"}, "bad_variant", "poker"),
        ({"variant": "rummy500", "options": {"colour": "red"}}, "bad_option", "colour"),
        ({"variant": "rummy500", "options": {"players": 9}}, "bad_option", "players"),
        ({"variant": "three-thirteen", "options": {"ace": "middle"}}, "bad_option", "ace"),
        # CONTRACT.md "Table options": values are exact, never coerced
        ({"variant": "rummy500", "options": {"rummy_calls": "false"}}, "bad_option", "rummy_calls"),
        ({"variant": "three-thirteen", "options": {"players": 3.7}}, "bad_option", "players"),
        (
            {"variant": "three-thirteen", "options": {"players": 8}},
            "bad_option",
            "2 to 7 players without jokers",
        ),  # R3-1
        ({"variant": "remi13d", "seats": [{"kind": "person"}]}, "bad_seats", "4 seats"),
        (
            {
                "variant": "remi13d",
                "seats": [{"kind": "person"}] + [{"kind": "bot", "level": "clever"}] * 3,
            },
            "bad_seats",
            "clever",
        ),
        (
            {
                "variant": "remi13d",
                "seats": [{"kind": "person"}] + [{"kind": "bot", "level": "strong@100000"}] * 3,
            },
            "bad_seats",
            "seat 2: strong@100000 thinks too long for this server; a bot here thinks at most 3.0",
        ),
        ({"variant": "remi13d", "seats": [{"kind": "alien"}] * 4}, "bad_request", "seats"),
        ({"options": {}}, "bad_request", "variant"),
    ],
)
def test_bad_table_requests_are_explained(
    client: TestClient, body: dict[str, Any], code: str, words: str
) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code in (400, 422)
    error = response.json()["error"]
    assert error["code"] == code and words in error["message"], error
    assert client.get("/api/tables").json()["tables"] == []


def test_malformed_body_and_indonesian_errors(client: TestClient) -> None:
    response = client.post(
        "/api/tables", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422 and response.json()["error"]["code"] == "bad_request"
    response = client.get("/api/tables/ZZZZZZZZ?lang=id")
    assert response.status_code == 404
    assert response.json()["error"] == {
        "code": "unknown_table",
        "message": "tidak ada meja ZZZZZZZZ",
    }
    response = client.get("/api/tables/nope", headers={"accept-language": "en-GB"})
    assert response.json()["error"]["message"] == "there is no table nope"
    response = client.post(
        "/api/tables?lang=id", json={"variant": "three-thirteen", "options": {"players": 8}}
    )
    assert response.status_code == 400 and response.json()["error"]["message"].startswith(
        "pilihan meja tidak sah: Three-Thirteen dimainkan 2 sampai 7 pemain tanpa joker"
    )  # R3-1


@pytest.mark.parametrize("title", ["Meja\x07", "Budi\u202edraw", "a\x00b"])
def test_a_title_with_control_or_direction_characters_is_refused(
    client: TestClient, title: str
) -> None:
    response = client.post("/api/tables", json={"variant": "remi13d", "title": title})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_title"
    assert client.get("/api/tables").json()["tables"] == []
    made = client.post("/api/tables", json={"variant": "remi13d", "title": "  Meja   Budi "})
    assert made.json()["table"]["title"] == "Meja Budi"


def test_join_seats_and_tokens(client: TestClient) -> None:
    table_id = create(
        client,
        seats=[
            {"kind": "person"},
            {"kind": "bot", "level": "random"},
            {"kind": "person"},
            {"kind": "bot"},
        ],
    )
    seat, token = join(client, table_id, "Budi", seat=2)
    assert seat == 2 and len(token) >= 40
    bad = client.post(f"/api/tables/{table_id}/join", json={"name": "Sari", "seat": 2})
    assert bad.status_code == 409 and bad.json()["error"]["code"] == "seat_taken"
    bot = client.post(f"/api/tables/{table_id}/join", json={"name": "Sari", "seat": 1})
    assert bot.status_code == 409 and "bot" in bot.json()["error"]["message"]
    nowhere = client.post(f"/api/tables/{table_id}/join", json={"name": "Sari", "seat": 7})
    assert nowhere.status_code == 400 and nowhere.json()["error"]["code"] == "bad_seat"
    for wrong in (True, "1", 1.0, -1, 2**70):  # a seat is a number, not a truth or a text
        bad = client.post(f"/api/tables/{table_id}/join", json={"name": "Sari", "seat": wrong})
        error = bad.json()["error"]
        assert bad.status_code == 422 and error["code"] == "bad_request", wrong
        assert "seat" in error["message"], error
    for name in ("", "   ", "x" * 25, "a\x00b"):
        bad = client.post(f"/api/tables/{table_id}/join", json={"name": name})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_name", name
    seat2, token2 = join(client, table_id, "  Sari   Dewi ")  # seat 0, then the seat draw
    assert token2 != token
    info = client.get(f"/api/tables/{table_id}").json()["table"]
    assert info["status"] == "playing" and info["seats"][seat2]["name"] == "Sari Dewi"
    moved = {d["joined"]: d["seat"] for d in info["seat_draw"]}
    assert moved[0] == seat2 and info["seats"][moved[2]]["name"] == "Budi"
    full = client.post(f"/api/tables/{table_id}/join", json={"name": "Wayan"})
    assert full.status_code == 409 and full.json()["error"]["code"] == "table_full"
    missing = client.post("/api/tables/QQQQQQQQ/join", json={"name": "Wayan"})
    assert missing.status_code == 404
    # only hashes are stored
    stored = hub_of(client).store.load(table_id)
    assert stored is not None
    text = json.dumps(stored.seats)
    assert token not in text and token2 not in text
    assert hashlib.sha256(token.encode()).hexdigest() == stored.seats[moved[2]]["token_hash"]


# -- WebSockets ----------------------------------------------------------------------------


def test_person_plays_bots_and_every_socket_sees_only_its_seat(client: TestClient) -> None:
    table_id = create(client, seats=[{"kind": "person"}] + [{"kind": "bot", "level": "greedy"}] * 3)
    _, token = join(client, table_id, "Budi")
    seen: list[Message] = []
    watched: list[Message] = []
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws,
    ):
        assert hello(spectator)["seat"] is None
        welcome = hello(ws, token)
        seat = welcome["seat"]  # where the seat draw put Budi (R13-2)
        assert welcome["name"] == "Budi"
        last = play_turns(ws, 12, seen)
        final = last["state_id"]
        receive_until(spectator, lambda m: m["type"] == "state" and m["state_id"] >= final, watched)
    log = action_log(client, table_id)
    assert len(log) >= final >= 12
    mine = [parse_seat_action(a) for a in log if a.startswith(f"p{seat} ")]
    assert len(mine) >= 12
    assert any(not a.startswith(f"p{seat} ") for a in log)  # the bots played too
    assert check_only_own_view(client, table_id, seen) >= 12
    assert check_only_own_view(client, table_id, watched) >= 1
    assert all(
        m["view"]["hand"] == [] and m["view"]["legal_actions"] == []
        for m in watched
        if m["type"] == "state"
    )
    assert all(m["view"]["seat"] == seat for m in seen if m["type"] == "state")


TWO_PEOPLE = [
    {"kind": "person"},
    {"kind": "person"},
    {"kind": "bot", "level": "random"},
    {"kind": "bot"},
]
"""A Remi 13 D table of two people and two bots."""


def test_bad_messages_get_clear_errors_and_change_nothing(client: TestClient) -> None:
    table_id = create_seeded(
        client,
        STILL,
        "remi13d",
        options={},
        seats=TWO_PEOPLE,
    )
    _, token0 = join(client, table_id, "Budi", seat=0)
    _, token1 = join(client, table_id, "Sari", seat=1)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
        client.websocket_connect(f"/ws/tables/{table_id}") as watcher,
    ):
        hello(ws0, token0)
        hello(ws1, token1, lang="id")
        hello(watcher)
        state = receive_until(ws0, my_turn(-1))
        assert state["state_id"] == 0 and state["view"]["to_play"] == 0
        hand = state["view"]["hand"]
        absent = next(c for c in ("As", "Ah", "Ad", "Ac", "2s", "2h") if c not in hand)

        def refused(ws: Any, raw: str, code: str, words: str = "") -> Message:
            ws.send_text(raw)
            reply = receive_until(ws, lambda m: m["type"] == "error")
            assert reply["code"] == code, reply
            assert words in reply["message"], reply
            assert reply["state_id"] == 0
            assert action_log(client, table_id) == []
            return reply

        refused(ws0, "{not json", "bad_json", "not valid JSON")
        refused(ws0, "[1, 2]", "bad_message", "JSON object")
        refused(ws0, json.dumps({"type": "dance"}), "bad_message", "dance")
        refused(
            ws0, json.dumps({"type": "action", "action": "draw stock"}), "bad_message", "state_id"
        )
        refused(
            ws0,
            json.dumps({"type": "action", "state_id": True, "action": "draw stock"}),
            "bad_message",
            "state_id",
        )
        refused(ws0, json.dumps({"type": "action", "state_id": 0}), "bad_message", "action")
        refused(
            ws0,
            json.dumps({"type": "action", "state_id": 0, "action": "fly away"}),
            "bad_action",
            "not an action",
        )
        refused(
            ws0,
            json.dumps({"type": "action", "state_id": 3, "action": "draw stock"}),
            "stale_state",
            "state 3",
        )
        illegal = refused(
            ws0,
            json.dumps({"type": "action", "state_id": 0, "action": f"discard {hand[0]}"}),
            "illegal",
            "draw a card first",
        )
        assert illegal["reason"] == "draw_first"
        out_of_turn = refused(
            ws1,
            json.dumps({"type": "action", "state_id": 0, "action": "draw stock", "ref": 7}),
            "illegal",
            "bukan giliran Anda",
        )
        assert out_of_turn["reason"] == "not_your_turn" and out_of_turn["ref"] == 7
        refused(
            watcher,
            json.dumps({"type": "action", "state_id": 0, "action": "draw stock"}),
            "spectator",
            "spectators cannot act",
        )
        refused(
            ws0,
            json.dumps({"type": "action", "state_id": 0, "action": "rummy 1"}),
            "illegal",
            "not an action of this game",
        )  # Remi 13 D has no Rummy calls
        ws0.send_json({"type": "ping", "ref": "x"})
        assert receive_until(ws0, lambda m: m["type"] == "pong")["ref"] == "x"
        # a legal action still goes through, then a discard of a card not held is refused
        ws0.send_json({"type": "action", "state_id": 0, "action": "draw stock"})
        state = receive_until(ws0, lambda m: m["type"] == "state" and m["state_id"] == 1)
        assert action_log(client, table_id) == ["p0 draw stock"]
        if absent not in state["view"]["hand"]:
            ws0.send_json({"type": "action", "state_id": 1, "action": f"discard {absent}"})
            reply = receive_until(ws0, lambda m: m["type"] == "error")
            shown = Card.parse(absent).symbol()  # the message shows the card as the table does
            assert reply["reason"] == "not_in_hand" and shown in reply["message"]
        assert action_log(client, table_id) == ["p0 draw stock"]
        assert hub_of(client).tables[table_id].state_id == 1


def test_sockets_refused_at_hello(client: TestClient) -> None:
    table_id = create(client)
    other_id = create(client)
    _, other_token = join(client, other_id, "Sari")

    def refusal(path: str, first: str, code: str, close: int) -> None:
        with client.websocket_connect(path) as ws:
            ws.send_text(first)
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == code, error
            assert error["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == close

    refusal("/ws/tables/NOSUCHXX", json.dumps({"type": "hello"}), "unknown_table", 4404)
    refusal(
        f"/ws/tables/{table_id}",
        json.dumps({"type": "hello", "token": "forged-token"}),
        "bad_token",
        4401,
    )
    refusal(
        f"/ws/tables/{table_id}",
        json.dumps({"type": "hello", "token": other_token}),
        "bad_token",
        4401,
    )
    refusal(
        f"/ws/tables/{table_id}",
        json.dumps({"type": "action", "state_id": 0, "action": "draw stock"}),
        "need_hello",
        4400,
    )
    refusal(f"/ws/tables/{table_id}", "hello!", "bad_json", 4400)


def test_waiting_table_and_reconnect(client: TestClient) -> None:
    table_id = create_seeded(
        client,
        STILL,
        "remi13d",
        options={},
        seats=TWO_PEOPLE,
    )
    _, token = join(client, table_id, "Budi", seat=0)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        state = receive_until(ws, lambda m: m["type"] == "state")
        assert state["table"]["status"] == "waiting" and state["view"]["legal_actions"] == []
        ws.send_json({"type": "action", "state_id": 0, "action": "draw stock"})
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "waiting"
        join(client, table_id, "Sari")
        state = receive_until(ws, my_turn(-1))
        assert state["table"]["status"] == "playing"
        ws.send_json({"type": "action", "state_id": 0, "action": "draw stock"})
        before = receive_until(ws, lambda m: m["type"] == "state" and m["state_id"] == 1)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        welcome = hello(ws, token)  # a reload: the token gives the seat back
        assert welcome["seat"] == 0
        again = receive_until(ws, lambda m: m["type"] == "state")
        assert again["view"] == before["view"] and again["state_id"] == 1


# -- the seat draw (R13-2) ---------------------------------------------------------------------


def expected_draw(draw: SeatDraw, names: list[str]) -> list[Message]:
    return [
        {
            "seat": seat,
            "name": names[player],
            "joined": player,
            "cards": [str(c) for c in draw.draws[player]],
        }
        for seat, player in enumerate(draw.order)
    ]


def test_R13_2_the_seat_draw_seats_four_people_and_survives_a_restart(db_url: str) -> None:
    seed = seed_seating(lambda seats: all(s != p for p, s in enumerate(seats)))  # all move
    draw = seat_draw_of(seed)
    names = ["Ana", "Budi", "Cici", "Dewi"]
    with running(db_url) as client:
        table_id = create_seeded(
            client, seed, "remi13d", options={}, seats=[{"kind": "person"}] * 4
        )
        joined = [join(client, table_id, name, seat=i) for i, name in enumerate(names[:3])]
        assert [seat for seat, _ in joined] == [0, 1, 2]
        tokens = [token for _, token in joined]
        assert client.get(f"/api/tables/{table_id}").json()["table"]["seat_draw"] is None
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
            client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
            client.websocket_connect(f"/ws/tables/{table_id}") as ws2,
        ):
            sockets = [ws0, ws1, ws2]
            for player, ws in enumerate(sockets):
                assert hello(ws, tokens[player])["seat"] == player
                waiting = receive_until(ws, lambda m: m["type"] == "state")
                assert waiting["table"]["status"] == "waiting"
                assert waiting["view"]["seat"] == player
                assert waiting["view"]["hand"] == []  # whose cards they are is not known yet
            seat, token = join(client, table_id, "Dewi", seat=3)  # the last seat: the draw
            assert seat == draw.seats[3]
            tokens.append(token)
            stored = hub_of(client).store.load(table_id)
            assert stored is not None
            deal = build_game(stored).deal
            assert deal is not None
            for player, ws in enumerate(sockets):  # each socket follows its player
                welcome = receive_until(ws, lambda m: m["type"] == "welcome")
                assert (welcome["seat"], welcome["name"]) == (draw.seats[player], names[player])
                state = receive_until(ws, lambda m: m["type"] == "state")
                assert state["view"]["seat"] == draw.seats[player]
                assert state["table"]["status"] == "playing"
                assert state["table"]["seat_draw"] == expected_draw(draw, names)
                assert [s["name"] for s in state["table"]["seats"]] == [
                    names[p] for p in draw.order
                ]
                assert sorted(state["view"]["hand"]) == sorted(
                    str(c) for c in deal.hands[draw.seats[player]]
                )
        first = draw.order[0]  # the highest card plays first from seat 0
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            assert hello(ws, tokens[first])["seat"] == 0
            receive_until(ws, my_turn(-1))
            ws.send_json({"type": "action", "state_id": 0, "action": "draw stock"})
            receive_until(ws, lambda m: m["type"] == "state" and m["state_id"] == 1)
        assert action_log(client, table_id) == ["p0 draw stock"]
        stored = hub_of(client).store.load(table_id)
        assert stored is not None and stored.seat_draw is not None
        for player, token in enumerate(tokens):
            assert (
                stored.seats[draw.seats[player]]["token_hash"]
                == hashlib.sha256(token.encode()).hexdigest()
            )
        before = client.get(f"/api/tables/{table_id}").json()["table"]
    with running(db_url) as client:  # a restart rebuilds the same seats and draw
        after = client.get(f"/api/tables/{table_id}").json()["table"]
        assert after["seat_draw"] == before["seat_draw"] == expected_draw(draw, names)
        assert (
            [s["name"] for s in after["seats"]]
            == [s["name"] for s in before["seats"]]
            == [names[p] for p in draw.order]
        )
        for player, token in enumerate(tokens):
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                assert hello(ws, token)["seat"] == draw.seats[player]
                state = receive_until(ws, lambda m: m["type"] == "state")
                assert state["state_id"] == 1 and state["view"]["seat"] == draw.seats[player]


def test_R13_2_a_table_of_bots_is_seated_by_the_draw_when_created(client: TestClient) -> None:
    seed = seed_seating(lambda seats: seats[0] != 0)
    draw = seat_draw_of(seed)
    table_id = create_seeded(
        client,
        seed,
        "remi13d",
        options={"games": 1},
        seats=[{"kind": "bot", "level": "random"}] * 4,
    )
    table = client.get(f"/api/tables/{table_id}").json()["table"]
    assert table["seat_draw"] == expected_draw(draw, [f"Bot {i}" for i in range(4)])
    assert [s["name"] for s in table["seats"]] == [f"Bot {p}" for p in draw.order]
    wait_finished(client, table_id)


def test_R13_2_other_variants_keep_the_seats_taken(client: TestClient) -> None:
    table_id = create(
        client, "rummy500", options={"players": 2}, seats=[{"kind": "person"}, {"kind": "person"}]
    )
    assert [join(client, table_id, name)[0] for name in ("Ana", "Budi")] == [0, 1]
    table = client.get(f"/api/tables/{table_id}").json()["table"]
    assert table["status"] == "playing" and table["seat_draw"] is None
    assert [s["name"] for s in table["seats"]] == ["Ana", "Budi"]


def test_bots_think_off_the_event_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    class Sleepy(Bot):
        name = "sleepy"

        def choose(self, view: PlayerView) -> Any:
            time.sleep(3)
            return view.legal_actions[0]

    monkeypatch.setitem(LEVELS, "sleepy", lambda name, seed, budget: Sleepy())
    create(client, seats=[{"kind": "bot", "level": "sleepy"}] * 4)  # thinks at once
    table_id = create(client)
    _, token = join(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        time.sleep(0.2)
        started = time.monotonic()
        ws.send_json({"type": "ping"})
        receive_until(ws, lambda m: m["type"] == "pong")
        assert time.monotonic() - started < 1.5  # not the 3 s the other table's bot thinks


# -- Rummy 500 calls ---------------------------------------------------------------------------


def find_call_deal() -> tuple[int, str, str]:
    """A seed and discards A (seat 0), B (seat 1), each after drawing from the stock, after
    which nothing and then ``rummy 3`` can be called."""

    def play(seed: int, actions: list[str]) -> Rummy500Game:
        game = Rummy500Game(Rummy500Options(players=3), auto_deal=False)
        game.start_deal(next_deck(game, str(seed)))  # the deck a table of this seed deals
        for text in actions:
            seat, action = parse_seat_action(text)
            game.apply(seat, action)
        return game

    for seed in range(500):
        first = play(seed, ["p0 draw stock"]).deal
        assert first is not None
        for a in dict.fromkeys(first.hands[0]):
            start = ["p0 draw stock", f"p0 discard {a}", "p1 draw stock"]
            middle = play(seed, start[:2]).deal
            if middle.callable_depths():  # type: ignore[union-attr]
                continue
            second = play(seed, start).deal
            assert second is not None
            for b in dict.fromkeys(second.hands[1]):
                deal = play(seed, [*start, f"p1 discard {b}"]).deal
                if 3 in deal.callable_depths():  # type: ignore[union-attr]
                    return seed, str(a), str(b)
    raise AssertionError("no deal found")


def test_rummy_calls_are_answered_at_once_and_priority_decides(db_url: str) -> None:
    with running(db_url, call_window=1.5, clock=ManualClock()) as client:
        check_rummy_calls(client)


def test_R5_10_a_call_window_closes_when_its_time_is_up(db_url: str) -> None:
    clock = ManualClock()
    with (
        running(db_url, call_window=1.5, clock=clock) as client,
        call_table(client) as (table_id, (ws0, ws1, _), first, second),
    ):
        open_window(ws0, ws1, first, second)
        ws0.send_json({"type": "action", "state_id": 4, "action": "rummy 3"})
        receive_until(ws0, lambda m: m["type"] == "call_pending")
        clock.advance(1.0)  # seat 2 has not answered: the window stays open
        ws0.send_json({"type": "ping", "ref": 1})
        receive_until(ws0, lambda m: m["type"] == "pong")
        assert hub_of(client).tables[table_id].window is not None
        clock.advance(0.5)  # time is up: seat 2 passed, seat 0's call stands
        after = window_state(ws0, 6, False)
        assert after["view"]["log"][-2:] == ["p2 pass", "p0 rummy 3"]


def test_R5_10_a_call_acknowledged_before_a_restart_is_kept(db_url: str) -> None:
    with (
        running(db_url, call_window=1.5, clock=ManualClock()) as client,
        call_table(client) as (table_id, (ws0, ws1, _), first, second),
    ):
        open_window(ws0, ws1, first, second)
        ws0.send_json({"type": "action", "state_id": 4, "action": "rummy 3"})
        receive_until(ws0, lambda m: m["type"] == "call_pending")  # told it was received
    clock = ManualClock()
    with running(db_url, call_window=1.5, clock=clock) as client:
        window = hub_of(client).tables[table_id].window
        assert window is not None and window.state_id == 4
        assert window.held == {0: CallRummy(3)}  # the window reopened with the call in it
        clock.advance(1.5)  # seat 2 never answers: its time is up
        deadline = time.monotonic() + 30
        while len(action_log(client, table_id)) < 6:
            assert time.monotonic() < deadline, "the window did not close"
            time.sleep(0.01)
        assert action_log(client, table_id)[4:] == ["p2 pass", "p0 rummy 3"]


def open_window(ws0: Any, ws1: Any, first: str, second: str) -> None:
    """At a :func:`call_table` table, seats 0 and 1 draw and discard: a window asks 2, 0."""
    for ws, step, action in (
        (ws0, 0, "draw stock"),
        (ws0, 1, f"discard {first}"),
        (ws1, 2, "draw stock"),
        (ws1, 3, f"discard {second}"),
    ):
        ws.send_json({"type": "action", "state_id": step, "action": action})
        receive_until(ws, newer_state(step))
    assert window_state(ws0, 4, True)["call_window"]["seats"] == [2, 0]


def window_state(ws: Any, step: int, window: bool) -> Message:
    """The state ``step``, with a call window open or not."""
    return receive_until(
        ws,
        lambda m: (
            m["type"] == "state"
            and m["state_id"] == step
            and (m["call_window"] is not None) == window
        ),
    )


@contextmanager
def call_table(client: TestClient) -> Iterator[tuple[str, list[Any], str, str]]:
    """A three-person Rummy 500 table of :func:`find_call_deal`, a socket open for each
    seat: its code, the sockets, and the discards A and B."""
    seed, first, second = find_call_deal()
    table_id = create_seeded(
        client, seed, "rummy500", options={"players": 3}, seats=[{"kind": "person"}] * 3
    )
    names = ("Budi", "Sari", "Wayan")
    tokens = [join(client, table_id, name, seat=i)[1] for i, name in enumerate(names)]
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}")) for _ in tokens
        ]
        for ws, token in zip(sockets, tokens, strict=True):
            hello(ws, token)
        yield table_id, sockets, first, second


def check_rummy_calls(client: TestClient) -> None:
    with call_table(client) as (table_id, (ws0, ws1, ws2), first, second):

        def act(ws: Any, step: int, action: str) -> None:
            ws.send_json({"type": "action", "state_id": step, "action": action})

        act(ws0, 0, "draw stock")
        act(ws0, 1, f"discard {first}")
        # Nothing on the pile can be called, but the people after the discarder are asked
        # all the same (a window gives nothing away); the next player may also play on.
        drawing = window_state(ws1, 2, True)
        assert drawing["call_window"]["seats"] == [1, 2]
        assert {"pass", "draw stock"} <= set(drawing["view"]["legal_actions"])
        assert not any(a.startswith("rummy") for a in drawing["view"]["legal_actions"])
        assert window_state(ws2, 2, True)["view"]["legal_actions"] == ["pass"]
        act(ws2, 2, "rummy 1")
        assert receive_until(ws2, lambda m: m["type"] == "error")["reason"] == "rummy_not_playable"
        act(ws1, 2, "draw stock")  # closes the window: nobody could call
        act(ws1, 3, f"discard {second}")
        opened = window_state(ws0, 4, True)
        window = opened["call_window"]
        assert window["discarder"] == 1 and window["seats"] == [2, 0]
        assert window["duration_ms"] == 1500
        assert (
            "rummy 3" in opened["view"]["legal_actions"]
            and "pass" in opened["view"]["legal_actions"]
        )
        assert window_state(ws1, 4, True)["view"]["legal_actions"] == []  # the discarder
        act(ws1, 4, "draw stock")
        assert receive_until(ws1, lambda m: m["type"] == "error")["code"] == "call_window"
        act(ws0, 4, "rummy 3")  # seat 0 calls first ...
        assert receive_until(ws0, lambda m: m["type"] == "call_pending")["action"] == "rummy 3"
        assert window_state(ws0, 4, True)["call_window"]["my_call"]["text"] == "rummy 3"
        act(ws2, 4, "rummy 3")  # ... but seat 2 comes first after the discarder (seat 1)
        assert receive_until(ws2, lambda m: m["type"] == "call_pending")["action"] == "rummy 3"
        lost = receive_until(ws0, lambda m: m["type"] == "call_lost")
        assert lost["winner"] == 2 and lost["action"] == "rummy 3"
        after = window_state(ws2, 5, False)  # everyone answered: the window closed at once
        assert after["view"]["log"][-1] == "p2 rummy 3"
        assert after["view"]["to_play"] == 2 and after["view"]["phase"] == "discard"
    assert action_log(client, table_id)[-1] == "p2 rummy 3"


# -- finished games and restarts -------------------------------------------------------------


def wait_finished(client: TestClient, table_id: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while client.get(f"/api/tables/{table_id}").json()["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.05)


def test_finished_game_is_listed_downloadable_and_replayable(database_url: str) -> None:
    with running(database_url) as client:
        table_id = create(
            client, options={"games": 1}, seats=[{"kind": "bot", "level": "random"}] * 4
        )
        wait_finished(client, table_id)
        games = client.get("/api/games").json()["games"]
        assert [g["id"] for g in games] == [table_id]
        summary = games[0]
        assert summary["finished_at"] and summary["action_count"] > 0
        download = client.get(summary["record"])
        assert download.status_code == 200
        assert "attachment" in download.headers["content-disposition"]
        record = download.json()
        result = replay(record)
        assert result.ok and result.finished
        assert result.game is not None and list(result.game.totals) == summary["result"]["totals"]
        detail = client.get(f"/api/games/{table_id}").json()["game"]
        assert len(detail["actions"]) == summary["action_count"]
        assert detail["client"] == find_variant("remi13d").client_json()
        assert detail["actions"] == [a for hand in record["hands"] for a in hand["actions"]]
        start = client.get(f"{summary['replay']}?step=0").json()
        assert start["step"] == 0 and start["action"] is None and start["play"] is None
        assert start["view"]["hand"] == []
        assert start["view"]["stock_size"] > 0 and start["view"]["log"] == []
        steps = start["steps"]
        middle = client.get(f"{summary['replay']}?step=5").json()
        assert middle["action"] == detail["actions"][4] and len(middle["view"]["log"]) == 5
        assert middle["play"] == middle["view"]["plays"][4]
        seat_view = client.get(f"{summary['replay']}?step=5&seat=2").json()["view"]
        assert seat_view["seat"] == 2 and len(seat_view["hand"]) in (13, 14)
        assert client.get(f"{summary['replay']}?seat=4").json()["error"]["code"] == "bad_seat"
        end = client.get(f"{summary['replay']}?step={steps}").json()
        assert end["view"]["game_over"] is True
        assert (
            client.get(f"{summary['replay']}?step={steps + 1}").json()["error"]["code"]
            == "bad_step"
        )
        assert client.get("/api/tables").json()["tables"] == []  # not in the lobby any more


def test_an_action_the_engine_fails_on_is_kept_and_applied_on_rebuild(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = create(client, seats=[{"kind": "person"}] + [{"kind": "bot", "level": "greedy"}] * 3)
    _, token = join(client, table_id)
    hub = hub_of(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        seat = hello(ws, token)["seat"]
        state = receive_until(ws, my_turn(-1))
        live = hub.tables[table_id]

        def fail(*args: object) -> None:
            raise RuntimeError("an engine bug")

        monkeypatch.setattr(live.game, "apply", fail)
        ws.send_json({"type": "action", "state_id": state["state_id"], "action": "draw stock"})
        error = receive_until(ws, lambda m: m["type"] == "error")
        assert error["code"] == "broken_table" and error["state_id"] == state["state_id"]
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    assert table_id not in hub.tables
    assert action_log(client, table_id)[-1] == f"p{seat} draw stock"  # kept
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert hello(ws, token)["seat"] == seat
        again = receive_until(ws, lambda m: m["type"] == "state")
        assert again["state_id"] == state["state_id"] + 1  # rebuilt with the draw applied
        assert len(again["view"]["hand"]) == 14
        assert any(a.startswith("discard") for a in again["view"]["legal_actions"])


def stored_decks(url: str, table_id: str) -> tuple[list[list[str]], list[list[str]]]:
    """A table's stored decks, and the decks its stored secrets and contributions give
    (docs/fairness.md; one more: the next deal's secret is drawn when a deal starts),
    read with a store of its own."""
    store = Store(url)
    try:
        stored = store.load(table_id)
        assert stored is not None
        full = new_game({"variant": stored.variant, "options": stored.options}).full_deck()
        fair = [FairDeal.from_stored(f).deck(full) for f in stored.fair]
        return [list(deck) for deck in stored.decks], [[str(c) for c in d] for d in fair]
    finally:
        store.close()


def test_each_deal_is_stored_when_it_starts_and_the_record_carries_those_decks(
    database_url: str,
) -> None:
    with running(database_url) as client:
        table_id = create(
            client, options={"games": 2}, seats=[{"kind": "bot", "level": "random"}] * 4
        )
        decks, fair = stored_decks(database_url, table_id)
        assert decks[0] == fair[0]  # dealt at once: the table is full
        record = finished_record(client, table_id)
    decks, fair = stored_decks(database_url, table_id)
    assert len(decks) == 2 == len(record["hands"]) == len(fair) - 1
    assert [hand["deck"] for hand in record["hands"]] == decks == fair[:2]
    assert all(check.verified for check in verify_record(record))
    replayed = replay(record)
    assert replayed.ok and replayed.players == tuple(record["players"])
    assert len(record["players"]) == 4 and all(record["players"])  # the seats' names


def test_a_deal_whose_deck_cannot_be_stored_is_not_dealt_until_it_is(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Store.add_deal

    def refuse_deal_2(session: Session, table_id: str, number: int, deck: Sequence[str]) -> None:
        if number == 2:
            raise RuntimeError("the disk is full")
        real(session, table_id, number, deck)

    monkeypatch.setattr(Store, "add_deal", staticmethod(refuse_deal_2))
    with running(database_url) as client:
        hub = hub_of(client)
        table_id = create(
            client, options={"games": 2}, seats=[{"kind": "bot", "level": "random"}] * 4
        )
        live = hub.tables[table_id]
        deadline = time.monotonic() + 60
        while table_id in hub.tables:  # the first deal ends; its next deck is refused
            assert time.monotonic() < deadline, "the first deal did not end"
            time.sleep(0.05)
        assert live.broken and len(live.game.deals) == 1 and live.game.needs_deal
        log = action_log(client, table_id)  # the action that ended the deal is kept
        assert len(stored_decks(database_url, table_id)[0]) == 1
        # rebuilt on the next connection, the table tries again: refused again, still broken
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "lang": "en"})
            with pytest.raises(WebSocketDisconnect):
                for _ in range(10):
                    ws.receive_json()
        assert action_log(client, table_id) == log
    monkeypatch.setattr(Store, "add_deal", staticmethod(real))
    with running(database_url) as client:  # a restart deals it: stored, then played on
        record = finished_record(client, table_id)
    assert action_log_of(record)[: len(log)] == log
    decks, fair = stored_decks(database_url, table_id)
    assert [hand["deck"] for hand in record["hands"]] == decks == fair[:2]


def finished_record(client: TestClient, table_id: str, seconds: float = 60) -> Message:
    """The record of a table of bots, once they have finished and it is marked so."""
    deadline = time.monotonic() + seconds
    while (response := client.get(f"/api/games/{table_id}/record")).status_code != 200:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.05)
    record: Message = response.json()
    return record


def action_log_of(record: Message) -> list[str]:
    return [a for hand in record["hands"] for a in hand["actions"]]


def test_not_finished_game_has_no_record(client: TestClient) -> None:
    table_id = create(client)
    response = client.get(f"/api/games/{table_id}/record")
    assert response.status_code == 409 and response.json()["error"]["code"] == "not_finished"
    assert client.get("/api/games/NOSUCHXX/record").status_code == 404


def test_restart_rebuilds_every_table_exactly(database_url: str) -> None:
    with running(database_url) as client:
        table_id = create(
            client, seats=[{"kind": "person"}] + [{"kind": "bot", "level": "greedy"}] * 3
        )
        waiting_id = create(client, "three-thirteen", options={"players": 3})
        _, token = join(client, table_id)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            seat = hello(ws, token)["seat"]
            last = play_turns(ws, 6)  # three draws and three discards
            state = receive_until(ws, my_turn(last["state_id"] - 1))
            ws.send_json({"type": "action", "state_id": state["state_id"], "action": "draw stock"})
            before = receive_until(
                ws, lambda m: m["type"] == "state" and m["state_id"] == state["state_id"] + 1
            )
        log = action_log(client, table_id)
    with running(database_url) as client:
        lobby = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert set(lobby) == {table_id, waiting_id}
        assert lobby[table_id]["state_id"] == before["state_id"] == len(log)
        assert action_log(client, table_id) == log
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            assert hello(ws, token)["seat"] == seat
            after = receive_until(ws, lambda m: m["type"] == "state")
            assert after["view"] == before["view"]
            discard = next(a for a in after["view"]["legal_actions"] if a.startswith("discard"))
            ws.send_json({"type": "action", "state_id": after["state_id"], "action": discard})
            receive_until(
                ws, lambda m: m["type"] == "state" and m["state_id"] == after["state_id"] + 1
            )
        assert action_log(client, table_id)[: len(log)] == log


def test_bots_call_rummy_in_the_window_by_priority(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Caller(Bot):
        name = "caller"

        def choose(self, view: PlayerView) -> Any:
            return view.legal_actions[0]

        def call(self, view: PlayerView) -> CallRummy | None:
            return next((a for a in view.legal_actions if isinstance(a, CallRummy)), None)

    monkeypatch.setitem(LEVELS, "caller", lambda name, seed, budget: Caller())
    seed, first, second = find_call_deal()
    with running(db_url, call_window=1.0) as client:
        table_id = create_seeded(
            client,
            seed,
            "rummy500",
            options={"players": 3},
            seats=[{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "caller"}],
        )
        tokens = [join(client, table_id, name, seat=i)[1] for i, name in enumerate(("A", "B"))]
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
            client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
        ):
            hello(ws0, tokens[0])
            hello(ws1, tokens[1])
            for ws, step, action in (
                (ws0, 0, "draw stock"),
                (ws0, 1, f"discard {first}"),
                (ws1, 2, "draw stock"),
                (ws1, 3, f"discard {second}"),
                (ws0, 4, "rummy 3"),
            ):
                receive_until(ws, my_turn(step - 1))
                ws.send_json({"type": "action", "state_id": step, "action": action})
            lost = receive_until(ws0, lambda m: m["type"] == "call_lost")
            assert lost["winner"] == 2
            after = receive_until(ws1, lambda m: m["type"] == "state" and m["state_id"] == 5)
            assert after["view"]["log"][-1] == "p2 rummy 3"
