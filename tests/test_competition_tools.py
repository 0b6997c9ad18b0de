"""The organiser's tools (docs/competition.md §8): players from CSV files good and bad,
bulk check-in, a whole event exported and imported (hashes equal), the archive
read-only, delete only with the competition's name repeated; and the kept snapshots
following every change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remikit.competition.player_csv import CsvRefused, read_players
from tests.test_competition_api import (
    PASSWORDS,
    POINTS,
    Event,
    bearer,
    error,
    running,
    stored_counts,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'remikit.db'}"


@pytest.fixture
def client(db_url: str) -> Any:
    with running(db_url) as client:
        yield client


def import_csv(event: Event, text: str, **options: Any) -> Any:
    return event.post("/players/import", {"csv": text} | options, event.org)


# -- CSV -----------------------------------------------------------------------------------


def test_a_csv_with_a_bom_and_semicolons_registers_every_line(client: TestClient) -> None:
    event = Event(client)
    text = (
        '\ufeffNama;Klub;Kontak\r\nAni;Medan;0812\r\n\r\nBudi Santoso;;\r\n"Citra; Dewi";Solo;x\r\n'
    )
    made = event.ok(import_csv(event, text))["players"]
    assert [(p["id"], p["name"], p["club"]) for p in made] == [
        ("P1", "Ani", "Medan"),
        ("P2", "Budi Santoso", None),
        ("P3", "Citra; Dewi", "Solo"),
    ]
    players = event.ok(event.get("/players", event.org))["players"]
    assert [p["contact"] for p in players] == ["0812", None, "x"]
    assert all(p["status"] == "registered" for p in players)
    assert players[0]["history"][0]["what"] == "player.register"


def test_a_csv_can_check_in_at_once_with_commas_in_any_column_order(client: TestClient) -> None:
    event = Event(client)
    made = event.ok(import_csv(event, "contact,name\n0812,Ani\n,Budi\n", check_in=True))
    assert [p["status"] for p in made["players"]] == ["checked_in", "checked_in"]
    history = event.ok(event.get("/players/P2/games"))
    assert history["name"] == "Budi"
    player = event.ok(event.get("/players", event.org))["players"][0]
    assert [h["what"] for h in player["history"]] == ["player.register", "player.check_in"]


def test_a_bad_csv_names_every_faulty_line_and_stores_nothing(
    client: TestClient, db_url: str
) -> None:
    event = Event(client)
    event.ok(import_csv(event, "name,club\nAni,Medan\n"))
    before = stored_counts(db_url)
    long = "x" * 41
    text = f"name,club\nBudi,Solo\n,Medan\n{long},\nAni,medan\nCitra,Solo,extra\nBudi,Solo\n"
    answer = import_csv(event, text, check_in=True)
    message = error(answer, 400, "bad_csv")
    assert "5" in message
    lines = answer.json()["error"]["lines"]
    assert [(f["line"], f["code"]) for f in lines] == [
        (3, "bad_name"),
        (4, "bad_name"),
        (5, "duplicate"),
        (6, "bad_line"),
        (7, "duplicate"),
    ]
    assert all(f["message"] for f in lines)
    assert stored_counts(db_url) == before
    assert len(event.ok(event.get("/players", event.org))["players"]) == 1


def test_a_bad_header_is_line_one_in_either_language(client: TestClient) -> None:
    event = Event(client)
    answer = client.post(
        f"/api/competitions/{event.cid}/players/import?lang=id",
        json={"csv": "nama,telepon\nAni,0812\n"},
        headers=event.org,
    )
    error(answer, 400, "bad_csv")
    (fault,) = answer.json()["error"]["lines"]
    assert (fault["line"], fault["code"]) == (1, "bad_header")
    assert "telepon" in fault["message"] and "tidak dikenal" in fault["message"]
    error(import_csv(event, "club\nMedan\n"), 400, "bad_csv")
    error(import_csv(event, "name\n"), 400, "bad_csv")
    error(import_csv(event, ""), 400, "bad_csv")
    error(event.post("/players/import", {"csv": "name\nAni\n"}, event.ref), 403, "organiser_only")


def test_the_csv_reader_counts_lines_across_quoted_line_breaks() -> None:
    with pytest.raises(CsvRefused) as refused:
        read_players('name,club\n"Ani\nputri",Medan\n,Solo\n')
    assert [(f.line, f.code) for f in refused.value.faults] == [(4, "bad_name")]
    assert read_players("name\nAni\n", [("ani", "Medan")])[0].name == "Ani"


# -- bulk check-in --------------------------------------------------------------------------


def test_bulk_check_in_of_named_players_or_everyone_registered(
    client: TestClient, db_url: str
) -> None:
    event = Event(client)
    event.ok(import_csv(event, "name\n" + "".join(f"Pemain {i}\n" for i in range(1, 7))))
    done = event.ok(event.post("/players/check-in", {"players": ["p1", "P2"]}, event.ref))
    assert done == {"checked_in": ["P1", "P2"]}
    before = stored_counts(db_url)
    error(event.post("/players/check-in", {"players": ["P3", "P1"]}, event.ref), 409, "bad_status")
    error(event.post("/players/check-in", {"players": ["P99"]}, event.ref), 404, "unknown_player")
    assert stored_counts(db_url) == before
    error(event.post("/players/check-in", {}, event.ref), 422, "bad_request")
    error(event.post("/players/check-in", {"all": True}, None), 401, "need_login")
    done = event.ok(event.post("/players/check-in", {"all": True}, event.org))
    assert done == {"checked_in": ["P3", "P4", "P5", "P6"]}
    players = event.ok(event.get("/players", event.org))["players"]
    assert {p["status"] for p in players} == {"checked_in"}
    assert players[3]["history"][-1]["what"] == "player.check_in"
    assert event.make_round()["tables"][0]["seats"]


# -- export and import ----------------------------------------------------------------------


def played_event(client: TestClient) -> Event:
    """Eight players, round 1 played with a correction, round 2 made."""
    event = Event(client, tie_breaks=["games_won"])
    event.players(8, clubs=["Medan", None])
    event.make_round()
    event.play_round(1, {(1, 1): POINTS})
    first = event.round(1)["tables"][0]["games"][0]["entry"]
    body = {"points": [100, 0, 0, -100], "reason": "sheet misread"}
    event.ok(event.post(f"/entries/{first['id']}/correct", body, event.ref))
    event.make_round()
    return event


def test_an_event_exported_and_imported_elsewhere_exports_the_same(
    tmp_path: Path, client: TestClient
) -> None:
    event = played_event(client)
    doc = event.ok(event.get("/export", event.org))
    assert doc["format"] == "remikit-competition" and doc["version"] == 1
    assert "competition_logins" not in doc["rows"]
    accounts = {a["name"]: a for a in doc["rows"]["competition_accounts"]}
    assert accounts["Rina"]["password"].startswith("scrypt$") and "token_hash" not in accounts
    assert all(p["code"] for p in doc["rows"]["competition_players"])
    assert len(doc["rows"]["competition_entries"]) == 5
    standings = event.standings(event.org)
    with running(f"sqlite:///{tmp_path / 'other.db'}") as other:
        other.post("/api/competitions", json={  # a competition first: ids are taken there
            "name": "Lain", "date": "2026-12-01", "rounds": 1,
            "organiser_password": "panitia-lain",
        })  # fmt: skip
        made = other.post("/api/competitions/import", json=doc)
        assert made.status_code == 201, made.text
        answer = made.json()
        assert answer["competition"]["id"] == event.cid and answer["new_id"] is False
        again = other.get(f"/api/competitions/{event.cid}/export", headers=bearer(answer["token"]))
        assert again.json()["hash"] == doc["hash"]
        copy = other.get(f"/api/competitions/{event.cid}/standings").json()
        assert copy["rows"] == standings["rows"]
        entry = other.get(f"/api/competitions/{event.cid}/rounds/1").json()["round"]
        assert entry["tables"][0]["games"][0]["entry"]["reason"] == "sheet misread"
        login = {"name": "Rina", "password": PASSWORDS["Rina"]}
        assert other.post(f"/api/competitions/{event.cid}/login", json=login).status_code == 200
        twice = other.post("/api/competitions/import", json=doc).json()
        assert twice["new_id"] is True and twice["competition"]["id"] != event.cid
        third = other.get(
            f"/api/competitions/{twice['competition']['id']}/export",
            headers=bearer(twice["token"]),
        ).json()
        assert third["hash"] == doc["hash"]
        assert (
            third["rows"]["competition_entries"][0]["id"]
            != doc["rows"]["competition_entries"][0]["id"]
        )


def test_a_changed_or_foreign_file_is_refused(client: TestClient) -> None:
    event = played_event(client)
    doc = event.ok(event.get("/export", event.org))
    error(event.get("/export", event.ref), 403, "organiser_only")
    doc["rows"]["competition_players"][0]["name"] = "Palsu"
    error(client.post("/api/competitions/import", json=doc), 400, "bad_file")
    error(client.post("/api/competitions/import", json={"format": "x"}), 400, "bad_file")
    doc["rows"]["unknown_table"] = []
    error(client.post("/api/competitions/import", json=doc), 400, "bad_file")


# -- archive and delete ---------------------------------------------------------------------


def test_an_archived_competition_is_read_only_and_listed_apart(
    client: TestClient, db_url: str
) -> None:
    event = played_event(client)
    listed = client.get("/api/competitions").json()["competitions"]
    assert [c["id"] for c in listed] == [event.cid]
    error(event.post("/archive", {"archived": True}, event.ref), 403, "organiser_only")
    shown = event.ok(event.post("/archive", {"archived": True}, event.org))["competition"]
    assert shown["status"] == "archived"
    assert client.get("/api/competitions").json()["competitions"] == []
    archived = client.get("/api/competitions?archived=true").json()["competitions"]
    assert [c["id"] for c in archived] == [event.cid] and archived[0]["archived"]
    before = stored_counts(db_url)
    body = {"points": [1, 2, 3, -6], "reason": "late sheet"}
    for path, who, payload in [
        ("/players", event.org, {"name": "Baru"}),
        ("/players/P1/drop", event.ref, {"reason": "sick"}),
        ("/players/check-in", event.ref, {"all": True}),
        ("/players/import", event.org, {"csv": "name\nBaru\n"}),
        ("/rounds/2/tables/1/seat-draw", event.ref, {"cards": {"A": "As"}}),
        ("/rounds/2/tables/1/games/1", event.ref, body),
        ("/rounds/2/timer", event.org, {"action": "start"}),
    ]:
        error(event.post(path, payload, who), 409, "archived")
    assert stored_counts(db_url) == before
    assert event.standings()["rows"] and event.ok(event.get("/audit", event.org))
    event.ok(event.get("/export", event.org))
    shown = event.ok(event.post("/archive", {"archived": False}, event.org))["competition"]
    assert shown["status"] == "running"
    whats = [row["what"] for row in event.ok(event.get("/audit", event.org))]
    assert whats[-2:] == ["competition.archive", "competition.unarchive"]
    event.ok(event.post("/players", {"name": "Baru"}, event.org))


def test_delete_needs_the_competitions_name(client: TestClient, db_url: str) -> None:
    event = played_event(client)
    before = stored_counts(db_url)
    error(event.post("/delete", {"confirm": "Piala"}, event.org), 400, "bad_confirmation")
    error(event.post("/delete", {"confirm": "Piala Remi Medan"}, event.ref), 403, "organiser_only")
    assert stored_counts(db_url) == before
    done = event.ok(event.post("/delete", {"confirm": "  piala remi  MEDAN "}, event.org))
    assert done == {"deleted": event.cid}
    error(event.get(""), 404, "unknown_competition")
    assert stored_counts(db_url) == (0, 0)


# -- kept snapshots -------------------------------------------------------------------------


def test_every_answer_follows_the_changes_made_since_the_last(client: TestClient) -> None:
    event = Event(client)
    ids = event.players(8)
    event.ok(event.post(f"/players/{ids[0]}/drop", {"reason": "sick"}, event.ref))
    event.ok(event.post(f"/players/{ids[0]}/disqualify", {"reason": "cheat"}, event.org))
    event.ok(event.post("/players", {"name": "Telat"}, event.org))
    event.ok(event.post("/players/P9/check-in", None, event.ref))
    players = event.ok(event.get("/players", event.org))["players"]
    assert (players[0]["status"], players[-1]["status"]) == ("disqualified", "checked_in")
    assert [h["what"] for h in players[0]["history"]] == [
        "player.register",
        "player.check_in",
        "player.drop",
        "player.disqualify",
    ]
    event.make_round()
    event.draw(1, 1)
    assert event.round(1)["tables"][0]["seat_draw"] is not None
    entry = event.enter(1, 1, 1, {"points": POINTS, "reason": "sheet"})
    assert event.round(1)["tables"][0]["games"][0]["status"] == "entered"
    event.confirm(entry["id"])
    game = event.round(1)["tables"][0]["games"][0]
    assert game["status"] == "confirmed" and game["entry"]["points"] == POINTS
    fixed = {"points": [0, 0, 0, 0], "reason": "void"}
    event.ok(event.post(f"/entries/{entry['id']}/correct", fixed, event.ref))
    assert event.round(1)["tables"][0]["games"][0]["entry"]["points"] == [0, 0, 0, 0]
    event.ok(event.post("/rounds/1/timer", {"action": "start", "minutes": 30}, event.org))
    assert event.round(1)["timer"]["running"] is True
