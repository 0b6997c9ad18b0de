"""What one client may spend of a table server's sockets, and what one change costs: each
bound answered in the documented error shape (docs/protocol.md §9), and a seat's state
built once per change whatever the number of its sockets."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remikit.server.clock import ManualClock
from remikit.server.transport import messages, rooms
from tests.test_server import (
    Message,
    create,
    hello,
    join,
    receive_until,
    running,
)

TWO_PEOPLE = [{"kind": "person"}, {"kind": "person"}]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'remikit.db'}"


def three_thirteen(client: TestClient, settings: dict[str, Any]) -> str:
    return create(
        client, "three-thirteen", options={"players": 2}, seats=TWO_PEOPLE, settings=settings
    )


def test_a_seat_token_holds_a_few_sockets_a_new_one_replacing_the_oldest(db_url: str) -> None:
    with running(db_url, max_seat_sockets=2) as client:
        table_id = three_thirteen(client, {})
        _, token = join(client, table_id, "Ana", seat=0)
        with client.websocket_connect(f"/ws/tables/{table_id}") as first:
            hello(first, token)
            with client.websocket_connect(f"/ws/tables/{table_id}") as second:
                hello(second, token)
                with client.websocket_connect(f"/ws/tables/{table_id}") as third:
                    hello(third, token)
                    gone = receive_until(first, lambda m: m["type"] == "error")
                    assert gone["code"] == "replaced"
                    third.send_json({"type": "ping", "ref": 3})
                    assert receive_until(third, lambda m: m["type"] == "pong")["ref"] == 3
                    second.send_json({"type": "ping", "ref": 2})
                    assert receive_until(second, lambda m: m["type"] == "pong")["ref"] == 2


def test_one_client_opens_only_so_many_sockets(db_url: str) -> None:
    with running(db_url, max_client_sockets=3) as client:
        table_id = three_thirteen(client, {})
        sockets = [client.websocket_connect(f"/ws/tables/{table_id}") for _ in range(3)]
        opened = [s.__enter__() for s in sockets]
        try:
            for ws in opened:
                hello(ws)
            with client.websocket_connect(f"/ws/tables/{table_id}") as extra:
                refused = extra.receive_json()
                assert refused["type"] == "error" and refused["code"] == "too_many_sockets"
        finally:
            for s in sockets:
                s.__exit__(None, None, None)
        with client.websocket_connect(f"/ws/tables/{table_id}") as again:  # closed: room again
            assert hello(again)["seat"] is None


def test_advice_is_asked_for_only_so_often_per_seat(db_url: str) -> None:
    with running(db_url, advice_rate=2) as client:
        table_id = three_thirteen(client, {"hints": True})
        tokens = [join(client, table_id, name, seat=i)[1] for i, name in enumerate("AB")]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, tokens[0])
            answers = []
            for ref in range(3):
                ws.send_json({"type": "advice", "ref": ref})
                answers.append(receive_until(ws, partial(answers_ref, ref)))
            assert [a["type"] for a in answers[:2]] == ["advice", "advice"]
            assert answers[2]["type"] == "error" and answers[2]["code"] == "rate_limited"


def answers_ref(ref: int, message: Message) -> bool:
    return bool(message.get("ref") == ref)


def test_a_table_without_a_turn_time_that_nobody_moves_ends_as_abandoned(db_url: str) -> None:
    clock = ManualClock()
    with running(db_url, clock=clock, abandon_after=3600.0) as client:
        table_id = three_thirteen(client, {"turn_time": None})
        tokens = [join(client, table_id, name, seat=i)[1] for i, name in enumerate("AB")]
        url = f"/ws/tables/{table_id}"
        with client.websocket_connect(url) as ws, client.websocket_connect(url) as other:
            hello(ws, tokens[0])
            hello(other, tokens[1])  # both here: nobody's stand-in plays
            state = receive_until(ws, lambda m: m["type"] == "state")
            assert state["table"]["status"] == "playing"
            clock.advance(3599.0)
            ws.send_json({"type": "ping", "ref": 1})
            receive_until(ws, lambda m: m["type"] == "pong")
            assert client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "playing"
            clock.advance(1.0)
            notice = receive_until(ws, lambda m: m["type"] == "notice")
            assert notice["code"] == "abandoned"
            ended = receive_until(ws, lambda m: m["type"] == "state")
            assert ended["table"]["status"] == "finished" and ended["table"]["abandoned"]
            assert ended["view"]["legal_actions"] == []
            ws.send_json({"type": "action", "state_id": ended["state_id"], "action": "draw stock"})
            refused = receive_until(ws, lambda m: m["type"] == "error")
            assert (refused["code"], refused["reason"]) == ("illegal", "game_over")
        game = client.get(f"/api/games/{table_id}").json()
        assert game["game"]["result"]["abandoned"] is True


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The seats whose state a room builds, in order."""
    seats: list[int | None] = []
    state_json = messages.state_json

    def counted(table: Any, seat: int | None, *info: Any) -> dict[str, Any]:
        seats.append(seat)
        return state_json(table, seat, *info)

    monkeypatch.setattr(rooms, "state_json", counted)
    return seats


def test_a_seats_state_is_built_once_per_change_and_sent_as_a_change(
    db_url: str, built: list[int | None]
) -> None:
    with running(db_url) as client:
        table_id = three_thirteen(client, {})
        tokens = [join(client, table_id, name, seat=i)[1] for i, name in enumerate("AB")]
        url = f"/ws/tables/{table_id}"
        with (
            client.websocket_connect(url) as a1,
            client.websocket_connect(url) as a2,
            client.websocket_connect(url) as a3,
            client.websocket_connect(url) as watch1,
            client.websocket_connect(url) as watch2,
        ):
            seats = (a1, a2, a3)
            for ws in seats:
                hello(ws, tokens[0])
            for ws in (watch1, watch2):
                hello(ws)
            states = [receive_until(ws, lambda m: m["type"] == "state") for ws in seats]
            for ws in (watch1, watch2):
                receive_until(ws, lambda m: m["type"] == "state")
            first = states[0]
            to_play = first["view"]["to_play"]
            acting = seats[0] if to_play == 0 else None
            if acting is None:
                pytest.skip("the other seat plays first in this deal")
            built.clear()
            for ws in (*seats, watch1, watch2):
                ws.raw = True  # type: ignore[attr-defined]
            acting.send_json(
                {"type": "action", "state_id": first["state_id"], "action": "draw stock"}
            )
            got: list[Message] = []
            for ws in (*seats, watch1, watch2):
                got.append(receive_until(ws, lambda m: m["type"] in ("state", "change")))
            assert sorted(built, key=str) == [0, None]  # once for the seat, once to watch
            assert all(m["type"] == "change" for m in got)
            for change in got:
                paths = [op[1] for op in change["ops"]]
                assert ["view", "log"] not in [
                    p for op, p in zip(change["ops"], paths, strict=True) if op[0] == "set"
                ]
                assert any(op[0] == "append" and op[1] == ["view", "log"] for op in change["ops"])


def test_sockets_that_come_to_watch_share_one_state_and_are_told_in_small_messages(
    db_url: str, built: list[int | None]
) -> None:
    with running(db_url) as client:
        table_id = three_thirteen(client, {})
        url = f"/ws/tables/{table_id}"
        with client.websocket_connect(url) as first:
            hello(first)
            receive_until(first, lambda m: m["type"] == "state")
            watchers = [client.websocket_connect(url) for _ in range(5)]
            try:
                for ws in watchers:
                    hello(ws.__enter__())
                for ws in watchers:
                    assert receive_until(ws, lambda m: m["type"] == "state")["state_id"] == 0
                told = receive_until(first, lambda m: m["type"] == "presence")
                assert told["spectators"] >= 2 and "view" not in told
            finally:
                for ws in watchers:
                    ws.__exit__(None, None, None)
    assert built == [None]  # one state for all six, nothing having changed
