"""Absent players at the web table: a person's turn time and grace period hand their seat
to the stand-in bot until they come back, stored so a restart keeps it; a seat moves to
another device with a one-time link; the creator replaces an away seat from the next
deal; a rematch; presence updates; bounded spectators; a repeatable join; the call
window after every discard (R5-10) that a person's answer closes at once. Every timer
runs on a ManualClock."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from remikit.server.clock import ManualClock
from remikit.server.tables.timers import SHOW_MAX
from tests.test_server import (
    Message,
    create,
    hello,
    hub_of,
    join,
    my_turn,
    newer_state,
    receive_until,
    running,
)

PERSON_AND_BOT = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
TWO_PEOPLE = [{"kind": "person"}, {"kind": "person"}]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'remikit.db'}"


def next_turn(message: Message) -> bool:
    return message["type"] == "state" and bool(message["view"]["legal_actions"])


def table_info(client: TestClient, table_id: str) -> Message:
    info: Message = client.get(f"/api/tables/{table_id}").json()["table"]
    return info


def eventually(what: str, done: Callable[[], bool], seconds: float = 30) -> None:
    """Wait for the server's own threads (bots, the writer) to get there."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def three_thirteen(client: TestClient, settings: dict[str, Any], seats: list[Any]) -> str:
    return create(client, "three-thirteen", options={"players": 2}, seats=seats, settings=settings)


def test_a_person_out_of_time_is_played_by_the_stand_in_until_they_act(db_url: str) -> None:
    clock = ManualClock()
    with running(db_url, clock=clock) as client:
        table_id = three_thirteen(client, {"turn_time": 30, "stand_in": "random"}, TWO_PEOPLE)
        tokens = [join(client, table_id, name, seat=i)[1] for i, name in enumerate("AB")]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws0:
            hello(ws0, tokens[0])
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws1:
                hello(ws1, tokens[1])
                state = receive_until(ws0, lambda m: m["type"] == "state")
                first = state["view"]["to_play"]
                ws = (ws0, ws1)[first]
                assert state["table"]["timer"]["duration_ms"] == 45_000  # not yet in sight
                ws.send_json({"type": "seen", "deal": 1})
                state = receive_until(
                    ws,
                    lambda m: m["type"] == "state" and m["table"]["timer"]["duration_ms"] < 45_000,
                )
                timer = state["table"]["timer"]
                assert timer == {"seat": first, "duration_ms": 30_000, "ends_in_ms": 30_000}
                clock.advance(29.9)  # not yet
                ws.send_json({"type": "ping", "ref": 1})
                receive_until(ws, lambda m: m["type"] == "pong")
                assert not table_info(client, table_id)["seats"][first]["away"]
                clock.advance(0.1)
                notice = receive_until(ws, lambda m: m["type"] == "notice")
                other = receive_until((ws1, ws0)[first], lambda m: m["type"] == "notice")
                assert notice["code"] == other["code"] == "away_time"
                assert "plays for them" in notice["message"]
                moved = receive_until(ws, newer_state(0))  # the stand-in played the turn
                assert moved["table"]["seats"][first]["away"]
        with running(db_url, clock=ManualClock()) as again:  # a restart keeps it
            assert table_info(again, table_id)["seats"][first]["away"]
            with again.websocket_connect(f"/ws/tables/{table_id}") as ws:
                hello(ws, tokens[first])  # coming back to the table is coming back
                back = receive_until(ws, lambda m: m["type"] == "notice")
                assert back["code"] == "back"
            eventually(
                "the seat back", lambda: not hub_of(again).tables[table_id].seats[first].away
            )


def test_a_person_who_left_is_played_by_the_stand_in_after_the_grace(db_url: str) -> None:
    clock = ManualClock()
    with running(db_url, clock=clock) as client:
        table_id = three_thirteen(client, {"turn_time": None, "grace": 20}, TWO_PEOPLE)
        tokens = [join(client, table_id, name, seat=i)[1] for i, name in enumerate("AB")]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws0:
            hello(ws0, tokens[0])
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws1:
                hello(ws1, tokens[1])
                receive_until(ws0, lambda m: m["type"] == "presence")
            left = receive_until(ws0, lambda m: m["type"] == "presence")  # B's socket went
            assert not left["seats"][1]["connected"] and not left["seats"][1]["away"]
            clock.advance(19.9)
            ws0.send_json({"type": "ping", "ref": 1})
            receive_until(ws0, lambda m: m["type"] == "pong")
            assert not hub_of(client).tables[table_id].seats[1].away
            clock.advance(0.1)
            assert receive_until(ws0, lambda m: m["type"] == "notice")["code"] == "away_left"
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws1:
                hello(ws1, tokens[1])
                assert receive_until(ws0, lambda m: m["type"] == "notice")["code"] == "back"


def test_presence_changes_are_small_updates_and_spectators_are_bounded(db_url: str) -> None:
    with running(db_url, max_spectators=1) as client:
        table_id = create(client, "rummy500", seats=[*PERSON_AND_BOT, {"kind": "bot"}])
        _, token = join(client, table_id)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            receive_until(ws, lambda m: m["type"] == "state")
            with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
                hello(watcher)
                seen: list[Message] = []
                came = receive_until(ws, lambda m: m["type"] == "presence", seen)
                assert came["spectators"] == 1 and "view" not in came
                with client.websocket_connect(f"/ws/tables/{table_id}") as second:
                    second.send_json({"type": "hello"})
                    refused = second.receive_json()
                    assert refused["code"] == "too_many_spectators"
                    with pytest.raises(WebSocketDisconnect) as closed:
                        second.receive_json()
                    assert closed.value.code == 4429


def test_a_join_asked_again_with_the_same_token_gets_the_same_seat(client: TestClient) -> None:
    table_id = create(client, "three-thirteen", options={"players": 2}, seats=TWO_PEOPLE)
    mine = "A" * 43
    first = client.post(f"/api/tables/{table_id}/join", json={"name": "Budi", "token": mine})
    again = client.post(f"/api/tables/{table_id}/join", json={"name": "Budi", "token": mine})
    assert first.status_code == again.status_code == 200
    assert first.json()["seat"] == again.json()["seat"] == 0 and again.json()["token"] == mine
    other = client.post(f"/api/tables/{table_id}/join", json={"name": "Sari", "token": "B" * 43})
    assert other.json()["seat"] == 1
    short = client.post(f"/api/tables/{table_id}/join", json={"name": "X", "token": "short"})
    assert short.status_code == 422 and short.json()["error"]["code"] == "bad_request"


@pytest.fixture
def client(db_url: str) -> Any:
    with running(db_url) as client:
        yield client


def test_a_seat_moves_to_another_device_with_a_one_time_link(client: TestClient) -> None:
    table_id = create(client, "three-thirteen", options={"players": 2}, seats=PERSON_AND_BOT)
    _, token = join(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as old:
        hello(old, token)
        offer = client.post(f"/api/tables/{table_id}/move", json={"token": token}).json()
        assert offer["link"].endswith(f"/table/{table_id}#move={offer['code']}")
        claimed = client.post(f"/api/tables/{table_id}/claim", json={"code": offer["code"]})
        assert claimed.status_code == 200 and claimed.json()["seat"] == 0
        moved = receive_until(old, lambda m: m["type"] == "error")
        assert moved["code"] == "moved"
    spent = client.post(f"/api/tables/{table_id}/claim", json={"code": offer["code"]})
    assert spent.status_code == 403 and spent.json()["error"]["code"] == "bad_move_code"
    with client.websocket_connect(f"/ws/tables/{table_id}") as stale:
        stale.send_json({"type": "hello", "token": token})
        assert stale.receive_json()["code"] == "bad_token"  # the old token no longer works
    with client.websocket_connect(f"/ws/tables/{table_id}") as new:
        assert hello(new, claimed.json()["token"])["seat"] == 0
    foreign = client.post(f"/api/tables/{table_id}/move", json={"token": "C" * 43})
    assert foreign.status_code == 403


def away_table(
    client: TestClient, variant: str = "three-thirteen", **options: object
) -> tuple[str, str]:
    """A two-seat table whose person joined and never connected (the grace is 0, so their
    seat is away at once): its code and the creator's owner token."""
    body = {
        "variant": variant,
        "options": {"players": 2, **options},
        "seats": PERSON_AND_BOT,
        "settings": {"grace": 0, "stand_in": "random"},
    }
    created = client.post("/api/tables", json=body).json()
    table_id, owner = created["table"]["id"], created["owner_token"]
    join(client, table_id)
    eventually("the seat away", lambda: table_info(client, table_id)["seats"][0]["away"])
    return table_id, owner


def test_the_creator_replaces_an_away_seat_by_a_bot_from_the_next_deal(db_url: str) -> None:
    clock = ManualClock()
    with running(db_url, clock=clock) as client:
        table_id, owner = away_table(client)
        url = f"/api/tables/{table_id}/seats/0"
        wrong = client.post(url, json={"owner_token": "D" * 43, "kind": "bot"})
        assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "not_owner"
        replaced = client.post(url, json={"owner_token": owner, "kind": "bot", "level": "greedy"})
        assert replaced.status_code == 200, replaced.text
        live = hub_of(client).tables[table_id]
        eventually("the bot in the seat", lambda: live.seats[0].kind == "bot", 120)
        assert live.game.deals[0].is_over  # as the next deal starts, not before
        assert live.seats[0].level == "greedy"
        not_away = client.post(
            f"/api/tables/{table_id}/seats/1", json={"owner_token": owner, "kind": "bot"}
        )
        assert not_away.status_code == 409


@pytest.mark.slow
def test_a_rematch_keeps_the_seats_and_every_token(db_url: str) -> None:
    with running(db_url, clock=ManualClock()) as client:
        settings = {"grace": 0, "stand_in": "random"}
        table_id = three_thirteen(client, settings, PERSON_AND_BOT)
        _, token = join(client, table_id)  # away at once: the game plays itself out
        eventually("the end", lambda: table_info(client, table_id)["status"] == "finished", 300)
        url = f"/api/tables/{table_id}/rematch"
        made = client.post(url, json={"token": token})
        assert made.status_code == 200, made.text
        new = made.json()["table"]
        assert client.post(url, json={"token": token}).json()["table"]["id"] == new["id"]
        assert table_info(client, table_id)["rematch"] == new["id"]
        assert new["options"] == table_info(client, table_id)["options"]
        assert new["settings"]["stand_in"] == "random"
        with client.websocket_connect(f"/ws/tables/{new['id']}") as ws:
            assert hello(ws, token)["seat"] == 0
        assert client.post(url, json={"token": "E" * 43}).status_code == 403


def test_R5_10_a_person_asked_after_every_discard_answers_and_play_goes_on(db_url: str) -> None:
    clock = ManualClock()  # the window would wait for ever: only the answer closes it
    with running(db_url, clock=clock, call_window=600) as client:
        table_id = create(client, "rummy500", options={"players": 2}, seats=PERSON_AND_BOT)
        _, token = join(client, table_id)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            state = receive_until(ws, my_turn(-1))
            for _ in range(6):  # a few turns each: draw, discard; answer the bot's discard
                legal = state["view"]["legal_actions"]
                if state["call_window"] is not None:
                    answer = "pass"
                elif "draw stock" in legal:
                    answer = "draw stock"
                else:
                    answer = next(a for a in legal if a.startswith("discard"))
                ws.send_json({"type": "action", "state_id": state["state_id"], "action": answer})
                if answer == "pass":  # held; the window closes at once: everyone answered
                    receive_until(ws, lambda m: m["type"] == "call_pending")
                    state = receive_until(ws, next_turn)
                    assert (
                        state["call_window"] is None
                        and "draw stock" in state["view"]["legal_actions"]
                    )
                else:
                    state = receive_until(ws, newer_state(state["state_id"]))
                    if not state["view"]["legal_actions"]:
                        state = receive_until(ws, next_turn)
                if state["call_window"] is not None:
                    assert state["call_window"]["seats"] == [0]
                    assert "pass" in state["view"]["legal_actions"]


def test_a_seat_opened_for_someone_new_is_listed_as_free_in_the_lobby(db_url: str) -> None:
    with running(db_url, clock=ManualClock()) as client:
        table_id, owner = away_table(client, "rummy500", target=10_000)  # it lasts
        assert client.get("/api/tables?open=true").json()["tables"] == []
        url = f"/api/tables/{table_id}/seats/0"
        assert client.post(url, json={"owner_token": owner, "kind": "person"}).status_code == 200
        live = hub_of(client).tables[table_id]
        eventually("the next deal", lambda: len(live.game.deals) >= 2, 120)
        listed = client.get("/api/tables?open=true").json()["tables"]
        assert [t["id"] for t in listed] == [table_id] and listed[0]["free_seats"] == [0]
        assert listed[0]["status"] == "playing"  # the stand-in plays the free seat
        _, token = join(client, table_id, "Sari", seat=0)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            assert hello(ws, token)["seat"] == 0


def test_a_turn_has_more_time_until_the_deal_is_in_sight(db_url: str) -> None:
    """Until the page says the deal is in sight (``seen``: the seat draw show or the last
    deal's results closed), a turn has SHOW_MAX seconds more; once it does, the turn time
    starts again, whole. A seen of a deal not dealt yet or from a spectator changes nothing."""
    clock = ManualClock()
    with running(db_url, clock=clock) as client:
        table_id = three_thirteen(client, {"turn_time": 30}, TWO_PEOPLE)
        tokens = [join(client, table_id, name, seat=i)[1] for i, name in enumerate("AB")]
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
            client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
            client.websocket_connect(f"/ws/tables/{table_id}") as watcher,
        ):
            hello(ws0, tokens[0])
            hello(ws1, tokens[1])
            hello(watcher, None)
            state = receive_until(ws0, lambda m: m["type"] == "state")
            first = state["view"]["to_play"]
            ws = (ws0, ws1)[first]
            whole = 30_000 + round(SHOW_MAX * 1000)
            assert state["table"]["timer"]["duration_ms"] == whole
            watcher.send_json({"type": "seen", "deal": 1, "ref": 1})
            assert receive_until(watcher, lambda m: m["type"] == "error")["code"] == "spectator"
            ws.send_json({"type": "seen", "deal": 2, "ref": 2})  # not dealt yet: ignored
            ws.send_json({"type": "seen", "deal": True, "ref": 3})
            assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "bad_message"
            clock.advance(10)
            timer = hub_of(client).tables[table_id].turn_timer
            assert timer is not None and timer[1].duration == 30 + SHOW_MAX
            ws.send_json({"type": "seen", "deal": 1, "ref": 4})  # in sight: 30 s from now
            state = receive_until(
                ws, lambda m: m["type"] == "state" and m["table"]["timer"]["duration_ms"] == 30_000
            )
            assert state["table"]["timer"]["ends_in_ms"] == 30_000
