"""Competition accounts through the real app (docs/competition.md §2, §5.2): a login per
account, made by the organiser; players confirming with their own code; every forged
confirmation refused with nothing stored; failed attempts slowed down, then locked until
the organiser unlocks; logins that expire or log out; the scrypt work off the event loop;
a competition stored before accounts upgraded to them."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from fastapi.testclient import TestClient

from remikit.server import passwords
from remikit.server.clock import ManualClock
from remikit.server.competition import auth
from remikit.server.competition.auth import CODE_ALPHABET
from remikit.server.passwords import hash_password
from remikit.storage import Store
from remikit.storage.migrations import config
from tests.test_competition_api import (
    HANDS,
    PASSWORDS,
    Event,
    bearer,
    error,
    running,
    stored_counts,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Json = dict[str, Any]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'remikit.db'}"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(db_url: str, clock: ManualClock) -> Iterator[TestClient]:
    with running(db_url, clock) as client:
        yield client


def entered(event: Event) -> tuple[Json, Json]:
    """Round 1 of eight players made, table 1 drawn, its game 1 entered by Rina: the
    entry and the round's tables."""
    event.players(8)
    tables = event.make_round()
    event.draw(1, 1)
    entry = event.enter(1, 1, 1, {"hands": HANDS, "closer": 0, "closing": "Ah"})
    return entry, tables


def login_answer(event: Event, name: str, password: str) -> httpx.Response:
    return event.post("/login", {"name": name, "password": password})


# -- confirmations nobody can fake -------------------------------------------------------------


def test_no_login_of_the_entering_account_confirms_its_entry(
    client: TestClient, db_url: str
) -> None:
    event = Event(client)
    entry, _ = entered(event)
    path = f"/entries/{entry['id']}/confirm"
    before = stored_counts(db_url)
    again = event.login("Rina")  # another token of the same account
    assert again != event.ref
    error(event.post(path, None, again), 400, "same_person")
    rina = login_answer(event, "rINA", PASSWORDS["Rina"])  # the name in another case
    assert rina.json()["name"] == "Rina"  # the account's own name, whatever was typed
    error(event.post(path, None, bearer(rina.json()["token"])), 400, "same_person")
    # the shared password under another name, as before accounts: no such account
    old = {"role": "referee", "password": PASSWORDS["Rina"], "name": "Budi"}
    error(event.post("/login", old), 403, "bad_password")
    after = stored_counts(db_url)
    assert after[0] == before[0] and event.round(1)["tables"][0]["games"][0]["status"] == "entered"
    assert event.confirm(entry["id"])["confirmed_by"] == "Tono"  # another account


def test_a_player_confirms_with_their_own_code_only(client: TestClient, db_url: str) -> None:
    event = Event(client)
    entry, tables = entered(event)
    path = f"/entries/{entry['id']}/confirm"
    seated = tables["tables"][0]["seats"][1]["player"]
    neighbour = tables["tables"][0]["seats"][2]["player"]
    before = stored_counts(db_url)
    error(event.post(path, {"player": seated}, event.ref), 400, "need_code")  # a name alone
    wrong = "".join("A" if c != "A" else "B" for c in event.code(seated))
    error(event.post(path, {"player": seated, "code": wrong}, event.ref), 403, "bad_code")
    other = {"player": seated, "code": event.code(neighbour)}  # another player's code
    error(event.post(path, other, event.ref), 403, "bad_code")
    assert stored_counts(db_url) == before
    right = {"player": seated, "code": f" {event.code(seated).lower()} "}
    assert event.confirm(entry["id"], event.ref, right)["confirmed_by"].endswith(f"({seated})")


def test_codes_are_shown_to_the_organiser_only(client: TestClient) -> None:
    event = Event(client)
    event.players(4)
    for who, shown in ((None, False), (event.ref, False), (event.org, True)):
        players = event.ok(event.get("/players", who))["players"]
        assert all(("code" in p) is shown for p in players)
    codes = [p["code"] for p in event.ok(event.get("/players", event.org))["players"]]
    assert all(len(c) == 6 and set(c) <= set(CODE_ALPHABET) for c in codes)
    added = event.ok(event.post("/players", {"name": "Baru"}, event.org))["player"]
    assert len(added["code"]) == 6
    checked = event.ok(event.post(f"/players/{added['id']}/check-in", None, event.ref))
    assert "code" not in checked["player"]


def test_a_token_after_logout_or_expiry_is_refused(
    client: TestClient, clock: ManualClock, db_url: str
) -> None:
    event = Event(client)
    entry, _ = entered(event)
    path = f"/entries/{entry['id']}/confirm"
    answer = event.ok(login_answer(event, "Tono", PASSWORDS["Tono"]))
    moment = datetime.fromisoformat(answer["expires_at"]) - datetime.now(UTC)
    assert timedelta(hours=23) < moment <= timedelta(hours=24)
    tono = bearer(answer["token"])
    assert event.post("/logout", None, tono).status_code == 204
    before = stored_counts(db_url)
    error(event.post(path, None, tono), 401, "need_login")
    error(event.post("/logout", None, tono), 401, "need_login")
    assert stored_counts(db_url) == before
    clock.advance(24 * 3600 + 1)  # a day on: every login made before has expired
    for who in (event.ref, event.ref2, event.org):
        error(event.post(path, None, who), 401, "need_login")
    assert stored_counts(db_url) == before
    assert event.confirm(entry["id"], event.login("Tono"))["confirmed_by"] == "Tono"
    log = event.ok(event.get("/audit", event.login("organiser")))
    assert [e["who"] for e in log if e["what"] == "logout"] == ["Tono"]


def test_a_competition_sets_how_long_its_logins_last(
    client: TestClient, clock: ManualClock
) -> None:
    event = Event(client, login_hours=2)
    assert event.ok(event.get(""))["competition"]["login_hours"] == 2
    clock.advance(2 * 3600 - 1)
    event.ok(event.get("/audit", event.ref))
    clock.advance(1)
    error(event.get("/audit", event.ref), 401, "need_login")
    error(event.get("/audit", event.org), 401, "need_login")


# -- failed attempts -----------------------------------------------------------------------------


def test_failed_logins_slow_down_then_lock_until_the_organiser_unlocks(
    client: TestClient, clock: ManualClock
) -> None:
    event = Event(client)
    for _ in range(3):
        error(login_answer(event, "Rina", "not-her-password"), 403, "bad_password")
    waits = []
    for _ in range(3, 10):
        slowed = login_answer(event, "Rina", PASSWORDS["Rina"])  # even the right one waits
        error(slowed, 429, "slow_down")
        waits.append(int(slowed.headers["Retry-After"]))
        clock.advance(waits[-1])
        error(login_answer(event, "Rina", "not-her-password"), 403, "bad_password")
    assert waits == [2, 4, 8, 16, 32, 64, 128]
    clock.advance(3600)
    message = error(login_answer(event, "Rina", PASSWORDS["Rina"]), 423, "locked")
    assert "organiser" in message
    rina = next(
        a for a in event.ok(event.get("/accounts", event.org))["accounts"] if a["name"] == "Rina"
    )
    assert rina == {"name": "Rina", "role": "referee", "failures": 10, "locked": True}
    event.ok(login_answer(event, "Tono", PASSWORDS["Tono"]))  # another account is open
    error(event.post("/accounts/Rina/unlock", None, event.ref2), 403, "organiser_only")
    unlocked = event.ok(event.post("/accounts/rina/unlock", None, event.org))["account"]
    assert unlocked["locked"] is False and unlocked["failures"] == 0
    event.ok(login_answer(event, "Rina", PASSWORDS["Rina"]))
    log = event.ok(event.get("/audit", event.org))
    lock = next(e for e in log if e["what"] == "account.lock")
    assert lock["target"] == "account:Rina" and lock["after"] == {"failures": 10, "locked": True}
    unlock = next(e for e in log if e["what"] == "account.unlock")
    assert unlock["who"] == "organiser" and unlock["before"]["locked"] is True
    error(event.post("/accounts/Nobody/unlock", None, event.org), 404, "unknown_account")


def test_a_right_password_starts_the_count_again(client: TestClient, clock: ManualClock) -> None:
    event = Event(client)
    for _ in range(2):
        error(login_answer(event, "Rina", "nope-nope-nope"), 403, "bad_password")
    event.ok(login_answer(event, "Rina", PASSWORDS["Rina"]))
    for _ in range(3):
        error(login_answer(event, "Rina", "nope-nope-nope"), 403, "bad_password")
    error(login_answer(event, "Rina", PASSWORDS["Rina"]), 429, "slow_down")


def test_failures_at_a_competition_slow_down_every_account_there(
    client: TestClient, clock: ManualClock
) -> None:
    event = Event(client)
    for number in range(10):  # names that are no account: only the competition counts them
        error(login_answer(event, f"tebak{number}", "whatever-123"), 403, "bad_password")
    slowed = login_answer(event, "Tono", PASSWORDS["Tono"])
    error(slowed, 429, "slow_down")
    assert slowed.headers["Retry-After"] == "2"
    other = Event(client)  # another competition is not slowed down
    other.ok(login_answer(other, "Tono", PASSWORDS["Tono"]))
    clock.advance(2)
    event.ok(login_answer(event, "Tono", PASSWORDS["Tono"]))


def test_wrong_codes_slow_down_then_lock_the_players_code(
    client: TestClient, clock: ManualClock, db_url: str
) -> None:
    event = Event(client)
    entry, tables = entered(event)
    path = f"/entries/{entry['id']}/confirm"
    seated = tables["tables"][0]["seats"][0]["player"]
    code = event.code(seated)
    wrong = {"player": seated, "code": "222222" if code != "222222" else "333333"}
    before = stored_counts(db_url)
    for _ in range(3):
        error(event.post(path, wrong, event.ref), 403, "bad_code")
    error(event.post(path, {"player": seated, "code": code}, event.ref), 429, "slow_down")
    for _ in range(3, 10):
        clock.advance(200)  # more than the competition's and the code's wait
        error(event.post(path, wrong, event.ref), 403, "bad_code")
    clock.advance(3600)
    error(event.post(path, {"player": seated, "code": code}, event.ref), 423, "locked")
    assert stored_counts(db_url)[0] == before[0]
    error(event.post(f"/players/{seated}/unlock", None, event.ref), 403, "organiser_only")
    assert (
        event.ok(event.post(f"/players/{seated}/unlock", None, event.org))["player"]["id"] == seated
    )
    confirmed = event.confirm(entry["id"], event.ref, {"player": seated, "code": code})
    assert confirmed["confirmed_by"].endswith(f"({seated})")
    whats = [e["what"] for e in event.ok(event.get("/audit", event.org))]
    assert whats.count("player.lock") == 1 and whats.count("player.unlock") == 1


# -- accounts and passwords ----------------------------------------------------------------------


def test_only_the_organiser_makes_accounts(client: TestClient) -> None:
    event = Event(client)
    body = {"name": "Sari", "password": "wasit-sari-03"}
    error(event.post("/accounts", body, event.ref), 403, "organiser_only")
    error(event.post("/accounts", body), 401, "need_login")
    error(
        event.post("/accounts", {"name": "TONO", "password": "x" * 10}, event.org),
        409,
        "account_exists",
    )
    made = event.ok(event.post("/accounts", body, event.org))["account"]
    assert made == {"name": "Sari", "role": "referee", "failures": 0, "locked": False}
    listed = event.ok(event.get("/accounts", event.org))["accounts"]
    assert [a["name"] for a in listed] == ["organiser", "Rina", "Tono", "Sari"]
    error(event.get("/accounts", event.ref), 403, "organiser_only")
    log = event.ok(event.get("/audit", event.org))
    assert [e["target"] for e in log if e["what"] == "account.create"] == [
        "account:organiser",
        "account:Rina",
        "account:Tono",
        "account:Sari",
    ]


def test_passwords_have_at_least_ten_characters(client: TestClient) -> None:
    body = {"name": "Piala", "date": "2026-12-05", "rounds": 1}
    for short in (
        {"organiser_password": "123456789"},
        {"organiser_password": "1234567890", "referee_password": "abc"},
    ):
        message = error(
            client.post("/api/competitions?lang=en", json=body | short), 400, "short_password"
        )
        assert "10" in message
    event = Event(client)
    short = {"name": "Sari", "password": "123456789"}
    error(event.post("/accounts", short, event.org), 400, "short_password")
    event.ok(event.post("/accounts", {"name": "Sari", "password": "1234567890"}, event.org))


def test_a_referee_password_at_creation_makes_one_shared_account(
    client: TestClient, db_url: str
) -> None:
    event = Event(client, referee_password="wasit-bersama", organiser_name="Panitia Medan")
    first = event.ok(event.post("/login", {"role": "referee", "password": "wasit-bersama"}))
    assert first["name"] == "referee" and first["role"] == "referee"
    org = event.ok(
        event.post("/login", {"name": "panitia medan", "password": PASSWORDS["organiser"]})
    )
    assert org["role"] == "organiser" and org["name"] == "Panitia Medan"
    error(
        event.post(
            "/login",
            {"role": "referee", "name": "Panitia Medan", "password": PASSWORDS["organiser"]},
        ),
        403,
        "bad_password",
    )
    entry, _ = entered(event)
    second = event.ok(event.post("/login", {"role": "referee", "password": "wasit-bersama"}))
    entry2 = event.enter(
        1, 1, 2, {"points": [1, 2, 3, -6], "reason": "sheet"}, bearer(first["token"])
    )
    before = stored_counts(db_url)
    error(
        event.post(f"/entries/{entry2['id']}/confirm", None, bearer(second["token"])),
        400,
        "same_person",
    )
    assert stored_counts(db_url) == before
    event.confirm(entry["id"], bearer(second["token"]))  # Rina's entry, another account


def test_the_password_work_runs_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = Event(client)
    loops: list[bool] = []
    checked = passwords.password_matches

    def watched(password: str, stored: str) -> bool:
        try:
            asyncio.get_running_loop()
            loops.append(True)
        except RuntimeError:
            loops.append(False)
        return checked(password, stored)

    monkeypatch.setattr(auth, "password_matches", watched)
    event.login("Rina")
    error(login_answer(event, "Rina", "not-her-password"), 403, "bad_password")
    error(login_answer(event, "Nobody", "not-a-password"), 403, "bad_password")
    assert loops == [False, False, False]


# -- a competition stored before accounts --------------------------------------------------------


def test_a_competition_stored_before_accounts_gets_them(db_url: str) -> None:
    command.upgrade(config(url=db_url), "0008")
    engine = sa.create_engine(db_url)
    made = datetime.now(UTC) - timedelta(days=1, seconds=1)
    old_token = "an-old-referee-token"
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO competitions (id, name, date, venue, rounds, games, tie_breaks, fill,"
                " bot_level, bye_points, clubs_apart, publish, organiser_password,"
                " referee_password, created_at) VALUES ('OLDCOMP2', 'Lama', '2026-12-05', '', 1,"
                " 1, '[]', 'byes', 'greedy', 'average', 0, 'live', :org, :ref, :at)"
            ),
            {"org": hash_password("panitia"), "ref": hash_password("wasit"), "at": made},
        )
        conn.execute(
            sa.text(
                "INSERT INTO competition_players (competition_id, id, number, name, status, late,"
                " created_at) VALUES ('OLDCOMP2', 'P1', 1, 'Ani', 'registered', 0, :at)"
            ),
            {"at": made},
        )
        conn.execute(
            sa.text(
                "INSERT INTO competition_logins (token_hash, competition_id, role, name,"
                " created_at) VALUES (:digest, 'OLDCOMP2', 'referee', 'Rina', :at)"
            ),
            {"digest": hashlib.sha256(old_token.encode()).hexdigest(), "at": made},
        )
    engine.dispose()
    Store(db_url).close()  # upgraded to head
    with running(db_url) as client:
        base = "/api/competitions/OLDCOMP2"
        org = client.post(f"{base}/login", json={"role": "organiser", "password": "panitia"})
        assert org.status_code == 200 and org.json()["name"] == "organiser", org.text
        referee = client.post(f"{base}/login", json={"role": "referee", "password": "wasit"})
        assert referee.status_code == 200 and referee.json()["name"] == "referee"
        who = bearer(org.json()["token"])
        players = client.get(f"{base}/players", headers=who).json()["players"]
        assert len(players[0]["code"]) == 6
        # a login made before accounts expired a day after it was made
        gone = client.get(f"{base}/audit", headers=bearer(old_token))
        assert gone.status_code == 401
