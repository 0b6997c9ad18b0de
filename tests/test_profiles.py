"""Players' profiles (docs/ratings.md, docs/protocol.md §3.14): made on a first visit,
renamed, signed in on another device with a password (slowed down and locked after failed
sign-ins, on an injected clock), deleted; the seats they take; their finished games with
the stand-in's share and the quit penalty; ratings updated once per game; the
leaderboard with the bot levels; blocks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from remikit.server.profiles.games import FinishedGame, SeatLine, record
from remikit.server.profiles.service import LOCK_AFTER, Profiles
from remikit.server.tables.seats import hash_token
from remikit.server.tables.service import Table
from remikit.storage import Store, StoredTable
from remikit.storage.profiles import (
    ProfileRow,
    ProfileTableRow,
    ProfileTokenRow,
    Rating,
    ratings_of,
)
from remikit.storage.store import now
from tests.test_absent import eventually, table_info
from tests.test_server import Message, create, hello, hub_of, receive_until, running, simple_choice

TWO_PEOPLE = [{"kind": "person"}, {"kind": "person"}]


@pytest.fixture
def client(database_url: str) -> Any:
    with running(database_url) as client:
        yield client


def make(client: TestClient, name: str | None = None) -> tuple[str, str]:
    body = {} if name is None else {"name": name}
    made = client.post("/api/profiles", json=body)
    assert made.status_code == 201, made.text
    return made.json()["profile"]["id"], made.json()["token"]


def me(client: TestClient, token: str) -> Any:
    return client.get("/api/profiles/me", headers={"X-Profile-Token": token})


def profiles_of(client: TestClient) -> Profiles:
    found: Profiles = client.app.state.profiles  # type: ignore[attr-defined]
    return found


def test_a_first_visit_makes_a_profile_that_keeps_only_its_tokens_hash(client: TestClient) -> None:
    profile, token = make(client)
    own = me(client, token).json()["profile"]
    assert own["id"] == profile and not own["named"] and not own["password"]
    assert own["name"].startswith("Player ")
    with hub_of(client).store.session() as session:
        stored = session.scalars(select(ProfileTokenRow)).one()
    assert stored.token_hash == hash_token(token) and token not in stored.token_hash
    renamed = client.put(
        "/api/profiles/me/name", json={"name": "  Sari   Dewi "}, headers={"X-Profile-Token": token}
    )
    assert renamed.json()["profile"]["name"] == "Sari Dewi" and renamed.json()["profile"]["named"]
    for bad in ("", "x" * 41, "a\u202eb"):
        refused = client.put(
            "/api/profiles/me/name", json={"name": bad}, headers={"X-Profile-Token": token}
        )
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_name"
    assert me(client, "Z" * 43).status_code == 401
    assert client.get(f"/api/profiles/{profile}").json()["profile"]["name"] == "Sari Dewi"
    indonesian = client.post("/api/profiles?lang=id", json={}).json()["profile"]["name"]
    assert indonesian.startswith("Pemain ")


def test_a_password_signs_in_elsewhere_and_failures_slow_down_then_lock(
    client: TestClient,
) -> None:
    profile, token = make(client, "Ana")
    header = {"X-Profile-Token": token}
    short = client.put("/api/profiles/me/password", json={"password": "short"}, headers=header)
    assert short.status_code == 400 and short.json()["error"]["code"] == "bad_password"
    done = client.put(
        "/api/profiles/me/password", json={"password": "kartu-remi-13"}, headers=header
    )
    assert done.json()["profile"]["password"] is True
    moment = [datetime(2027, 1, 1, tzinfo=UTC)]
    profiles_of(client).now = lambda: moment[0]
    url = "/api/profiles/sign-in"
    good = client.post(url, json={"id": profile.lower(), "password": "kartu-remi-13"})
    assert good.status_code == 200 and good.json()["token"] != token
    assert me(client, good.json()["token"]).json()["profile"]["id"] == profile
    unknown = client.post(url, json={"id": "NOSUCH", "password": "kartu-remi-13"})
    assert unknown.status_code == 403 and unknown.json()["error"]["code"] == "bad_sign_in"
    for failures in range(1, LOCK_AFTER + 1):
        wrong = client.post(url, json={"id": profile, "password": "wrong password"})
        assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad_sign_in"
        early = client.post(url, json={"id": profile, "password": "kartu-remi-13"})
        wait = 2 ** (failures - 1) if failures < LOCK_AFTER else 3600
        code = "sign_in_wait" if failures < LOCK_AFTER else "sign_in_locked"
        assert early.status_code == 429 and early.json()["error"]["code"] == code
        assert early.headers["Retry-After"] == str(wait)  # even the right password waits
        moment[0] += timedelta(seconds=wait)
    again = client.post(url, json={"id": profile, "password": "kartu-remi-13"})
    assert again.status_code == 200  # after the hour; and the count starts again
    client.post(url, json={"id": profile, "password": "wrong password"})
    moment[0] += timedelta(seconds=1)
    assert client.post(url, json={"id": profile, "password": "kartu-remi-13"}).status_code == 200


def play_out(ws: Any) -> None:
    """This seat's person plays with a simple policy until the game is over."""
    acted = -1
    for _ in range(20_000):
        state: Message = receive_until(ws, lambda m: m["type"] == "state")
        if state["table"]["status"] == "finished":
            return
        if state["state_id"] > acted and state["view"]["legal_actions"]:
            acted = state["state_id"]
            action = simple_choice(state["view"])
            ws.send_json({"type": "action", "state_id": acted, "action": action})
    raise AssertionError("the game did not end")


def gin_with_a_walkout(client: TestClient, tokens: list[str]) -> tuple[str, str]:
    """A Gin game to 1 point: seat 0's person sits down, connects and plays it out; seat
    1's joins and walks out at once (grace 0), so the stand-in plays every turn of theirs."""
    settings = {"grace": 0, "turn_time": None, "stand_in": "greedy"}
    table_id = create(client, "gin", options={"target": 1}, seats=TWO_PEOPLE, settings=settings)
    url = f"/api/tables/{table_id}/join"
    joined = client.post(url, json={"name": "A", "seat": 0, "profile_token": tokens[0]})
    assert joined.status_code == 200, joined.text
    seat_token = joined.json()["token"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, seat_token)
        eventually("A here", lambda: not table_info(client, table_id)["seats"][0]["away"])
        body = {"name": "B", "seat": 1, "profile_token": tokens[1]}
        assert client.post(url, json=body).status_code == 200
        play_out(ws)
    return table_id, seat_token


@pytest.mark.slow
def test_a_finished_game_marks_the_walkout_and_rates_once_with_the_quit_penalty(
    client: TestClient,
) -> None:
    (a, a_token), (b, b_token) = make(client, "Ana"), make(client, "Budi")
    table_id, a_seat = gin_with_a_walkout(client, [a_token, b_token])
    seats = table_info(client, table_id)["seats"]
    assert [s["profile"] for s in seats] == [a, b]  # the seats are the profiles'
    assert "token" not in str(seats).replace("token_hash", "")
    assert a_token not in str(seats) and hash_token(a_token) not in str(seats)
    store = hub_of(client).store
    eventually("the game taken", lambda: store.session().get(ProfileTableRow, table_id) is not None)
    ana = client.get(f"/api/profiles/{a}").json()["profile"]
    budi = client.get(f"/api/profiles/{b}").json()["profile"]
    (game_a,), (game_b,) = ana["games"], budi["games"]
    assert not game_a["stand_in"] and game_a["stand_in_turns"] == 0
    assert game_b["stand_in"] and game_b["stand_in_turns"] == game_b["turns"] > 0
    assert not game_b["won"]  # the stand-in's game is not the person's win
    listed = client.get(f"/api/games/{table_id}").json()["game"]["result"]  # the lobby's
    assert listed["stand_in_turns"] == [0, game_b["turns"]]
    assert listed["turns"] == [game_a["turns"], game_b["turns"]]
    assert game_a["replay"] == f"/static/replay.html?game={table_id}&seat=0"
    assert game_a["review"] == f"/api/games/{table_id}/reviews/0"
    (gin_a,), (gin_b,) = ana["variants"], budi["variants"]
    assert gin_a["games"] == 1 and gin_a["stand_in"] == 0 and gin_a["wins"] == int(game_a["won"])
    assert gin_b["games"] == 1 and gin_b["stand_in"] == 1 and gin_b["wins"] == 0
    assert gin_b["points_per_deal"] is None and gin_b["best"] is None
    assert gin_a["best"]["table"] == table_id and gin_a["points_per_deal"] is not None
    # the quit penalty: whoever scored more, the one who walked out lost
    assert gin_a["rating"]["mu"] > 25 > gin_b["rating"]["mu"]
    assert gin_a["rating"]["games"] == gin_b["rating"]["games"] == 1
    assert gin_a["rating"]["provisional"]
    # once per table: the same game taken again changes nothing
    line = FinishedGame(table_id, "gin", now(), 1, True, ())
    with store.transaction() as session:
        assert record(session, line, {}, {"": "x"}) is False
    with store.session() as session:
        after = ratings_of(session, [a, b], "gin")
        assert after[a].games == 1 and after[b].games == 1
        assert session.scalar(select(func.count()).select_from(ProfileTableRow)) == 1
    board = client.get("/api/leaderboard?variant=gin").json()
    people = [e for e in board["entries"] if not e["bot"]]
    bots = [e for e in board["entries"] if e["bot"]]
    assert {e["name"] for e in people} == {"Ana", "Budi"}
    assert all(e["provisional"] and e["rank"] is None for e in people)
    assert {e["name"] for e in bots} >= {"random", "greedy", "strong"}
    assert [e["rank"] for e in bots] == list(range(1, len(bots) + 1))
    ratings = [e["rating"] for e in board["entries"]]
    assert ratings == sorted(ratings, reverse=True)
    for entry in board["entries"]:
        assert set(entry) >= {"name", "rating", "mu", "sigma", "games", "provisional", "bot"}
        assert entry["rating"] == pytest.approx(entry["mu"] - 3 * entry["sigma"], abs=0.02)
    assert gin_a["rating"]["above"] == "random"  # a new player is rated above random only
    # a block keeps the two from a rematch, whoever asks
    client.post(f"/api/profiles/me/blocks/{a}", headers={"X-Profile-Token": b_token})
    rematch = client.post(f"/api/tables/{table_id}/rematch", json={"token": a_seat})
    assert rematch.status_code == 403 and rematch.json()["error"]["code"] == "blocked"
    assert "Budi" not in rematch.json()["error"]["message"]
    # deleting Budi keeps the game, under "a deleted player"
    gone = client.delete("/api/profiles/me", headers={"X-Profile-Token": b_token})
    assert gone.status_code == 200
    assert me(client, b_token).status_code == 401
    assert client.get(f"/api/profiles/{b}").status_code == 404
    names = [s["name"] for s in client.get(f"/api/games/{table_id}").json()["game"]["seats"]]
    assert names[0] == "A" and names[1] != "B"
    assert len(client.get(f"/api/profiles/{a}").json()["profile"]["games"]) == 1
    assert [
        e["name"]
        for e in client.get("/api/leaderboard?variant=gin").json()["entries"]
        if not e["bot"]
    ] == ["Ana"]


def test_a_game_over_before_the_server_marked_it_is_taken_into_profiles_at_restart(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server stopped between a game's last action and its mark: rebuilt, the table
    is marked finished and its game reaches the profiles, as if it had not stopped."""

    async def stopped_first(table: Table, **extra: Any) -> None:
        pass

    with running(database_url) as client:
        (a, a_token), (b, b_token) = make(client, "Ana"), make(client, "Budi")
        monkeypatch.setattr(Table, "finish", stopped_first)
        table_id, _ = gin_with_a_walkout(client, [a_token, b_token])
    monkeypatch.undo()
    store = Store(database_url)
    try:
        assert table_id in [t.id for t in store.unfinished()]
        with store.session() as session:
            assert session.get(ProfileTableRow, table_id) is None
    finally:
        store.close()
    with running(database_url) as client:
        live = hub_of(client).store

        def taken() -> bool:
            with live.session() as session:
                return session.get(ProfileTableRow, table_id) is not None

        eventually("the game taken", taken)
        assert table_id not in [t.id for t in live.unfinished()]
        assert table_info(client, table_id)["status"] == "finished"
        (game,) = client.get(f"/api/profiles/{a}").json()["profile"]["games"]
        assert game["table"] == table_id
        assert client.get(f"/api/profiles/{b}").json()["profile"]["variants"][0]["games"] == 1


def stored_table(store: Store, code: str) -> None:
    store.create_table(
        StoredTable(
            id=code, variant="gin", options={}, seed="1", seats=[], title="", created_at=now()
        )
    )


def test_ratings_rank_people_among_fixed_bot_levels_and_count_a_table_once(
    database_url: str, tmp_path: Path
) -> None:
    store = Store(database_url)
    try:
        with store.transaction() as session:
            for code in ("P1", "P2"):
                session.add(
                    ProfileRow(id=code, name=code, named=True, failures=0, created_at=now())
                )
        stored_table(store, "T1")
        lines = (
            SeatLine(0, "P1", None, 40, True, 10, 0, False, {"ended.knock": 1}),
            SeatLine(1, None, "greedy", 30, False, 10, 0, False, {}),
            SeatLine(2, "P2", None, 50, False, 10, 6, True, {}),  # scored most, walked out
        )
        game = FinishedGame("T1", "gin", now(), 1, False, lines)
        assert game.places(quits=True) == [1, 2, 3] and game.places(quits=False) == [2, 3, 1]
        bots = {"greedy": Rating(32.0, 1.6, 300)}
        with store.transaction() as session:
            assert record(session, game, bots, {"": "x"})
            assert not record(session, game, bots, {"": "x"})  # in the same transaction too
        with store.session() as session:
            after = ratings_of(session, ["P1", "P2"], "gin")
        assert after["P1"].mu > 25 > after["P2"].mu
        assert after["P1"].games == after["P2"].games == 1
    finally:
        store.close()


def test_a_seat_taken_signed_in_is_the_profiles_and_a_block_keeps_them_apart(
    client: TestClient,
) -> None:
    (a, a_token), (b, b_token) = make(client, "Ana"), make(client, "Budi")
    table_id = create(client, "rummy500", options={"players": 3}, seats=[{"kind": "person"}] * 3)
    url = f"/api/tables/{table_id}/join"
    bad = client.post(url, json={"name": "A", "profile_token": "Q" * 43})
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "bad_profile"
    assert client.post(url, json={"name": "A", "profile_token": a_token}).status_code == 200
    twice = client.post(url, json={"name": "A2", "profile_token": a_token})
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "profile_seated"
    assert table_info(client, table_id)["seats"][0]["profile"] == a
    header = {"X-Profile-Token": a_token}
    blocked = client.post(f"/api/profiles/me/blocks/{b}", headers=header)
    assert blocked.json()["profile"]["blocks"] == [{"id": b, "name": "Budi"}]
    self_block = client.post(f"/api/profiles/me/blocks/{a}", headers=header)
    assert self_block.status_code == 400
    refused = client.post(url, json={"name": "B", "profile_token": b_token})
    assert refused.status_code == 403
    error = refused.json()["error"]
    assert (
        error["code"] == "blocked" and "Ana" not in error["message"] and a not in error["message"]
    )
    assert error["message"] == "you cannot join this table"
    assert (
        client.post(f"{url}?lang=id", json={"name": "B", "profile_token": b_token}).json()["error"][
            "message"
        ]
        == "Anda tidak dapat bergabung ke meja ini"
    )
    assert client.post(url, json={"name": "C"}).status_code == 200  # anyone without a profile
    assert client.delete(f"/api/profiles/me/blocks/{b}", headers=header).status_code == 200
    assert client.post(url, json={"name": "B", "profile_token": b_token}).status_code == 200
