"""The competition API through the real app (TestClient): logins, players, rounds, seat
draws (R13-2), entries refused and stored, confirmations, corrections, the audit log,
standings, byes, bots, disqualification (R13-24), exports, online tables, restarts."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, func, select

from remikit.server.app import create_app
from remikit.server.clock import ManualClock
from remikit.server.competition.online import OnlineTables
from remikit.server.settings import Settings
from remikit.storage import Store
from remikit.storage.competition import AuditRow, EntryRow

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Json = dict[str, Any]


def cards(text: str) -> list[str]:
    return text.split()


# A table's four final hands, game seats 0–3: seat 0 closes with Ah (R13-11: 135), the
# others score by R13-12 (docs/rules.md §5 and `remi score`).
HANDS = [
    cards("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk"),
    cards("2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs"),
    cards("Jk 9s 9d 2c 3c 4c Qh Qd Qs 5d 6d 8h 4s"),
    cards("2d 3d 4d 5d 6d 8s 8h 8c Td Jd Qd 2s 4c"),
]
POINTS = [135, 25, -100, 55]
IN_ORDER = {"A": "As", "B": "Ks", "C": "Qs", "D": "Js"}
"""A seat draw that puts positions A–D in game seats 0–3."""


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'remikit.db'}"


@contextmanager
def running(db_url: str, clock: ManualClock | None = None, **settings: Any) -> Iterator[TestClient]:
    app = create_app(
        Settings(database_url=db_url, bot_delay=0.0, **settings), clock=clock or ManualClock()
    )
    with TestClient(app) as client:
        yield client


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with running(db_url) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


PASSWORDS = {"organiser": "panitia-medan", "Rina": "wasit-rina-01", "Tono": "wasit-tono-02"}
"""The organiser's account and the two referees' accounts the organiser makes."""


class Event:
    """A competition made through the API, with its organiser and two referees' accounts."""

    def __init__(self, client: TestClient, **options: Any) -> None:
        self.client = client
        body = {
            "name": "Piala Remi Medan",
            "date": "2026-12-05",
            "venue": "Balai Kota",
            "rounds": 2,
            "games": 2,
            "organiser_password": PASSWORDS["organiser"],
        } | options
        made = client.post("/api/competitions", json=body)
        assert made.status_code == 201, made.text
        self.cid: str = made.json()["competition"]["id"]
        self.org = bearer(made.json()["token"])
        for name in ("Rina", "Tono"):
            self.ok(self.post("/accounts", {"name": name, "password": PASSWORDS[name]}, self.org))
        self.ref = self.login("Rina")
        self.ref2 = self.login("Tono")

    def login(self, name: str, password: str | None = None) -> dict[str, str]:
        body = {"name": name, "password": password or PASSWORDS[name]}
        answer = self.post("/login", body, None)
        assert answer.status_code == 200, answer.text
        return bearer(answer.json()["token"])

    def code(self, pid: str) -> str:
        """A player's confirmation code, as the organiser sees it."""
        players = self.ok(self.get("/players", self.org))["players"]
        found: str = next(p["code"] for p in players if p["id"] == pid)
        return found

    def post(
        self, path: str, body: Any = None, who: dict[str, str] | None = None
    ) -> httpx.Response:
        answer: httpx.Response = self.client.post(
            f"/api/competitions/{self.cid}{path}", json=body, headers=who
        )
        return answer

    def get(self, path: str, who: dict[str, str] | None = None) -> httpx.Response:
        answer: httpx.Response = self.client.get(f"/api/competitions/{self.cid}{path}", headers=who)
        return answer

    def ok(self, answer: httpx.Response) -> Any:
        assert answer.status_code in (200, 201), answer.text
        return answer.json()

    def players(self, count: int, clubs: Sequence[str | None] = ()) -> list[str]:
        ids = []
        for index in range(count):
            club = clubs[index % len(clubs)] if clubs else None
            body = {"name": f"Pemain {index + 1}", "club": club, "contact": f"08{index:09d}"}
            pid: str = self.ok(self.post("/players", body, self.org))["player"]["id"]
            self.ok(self.post(f"/players/{pid}/check-in", None, self.ref))
            ids.append(pid)
        return ids

    def make_round(self, online: Sequence[int] = ()) -> Json:
        found: Json = self.ok(self.post("/rounds", {"online_tables": list(online)}, self.org))[
            "round"
        ]
        return found

    def round(self, number: int, who: dict[str, str] | None = None) -> Json:
        found: Json = self.ok(self.get(f"/rounds/{number}", who or self.org))["round"]
        return found

    def draw(self, number: int, table: int) -> Json:
        path = f"/rounds/{number}/tables/{table}/seat-draw"
        found: Json = self.ok(self.post(path, {"cards": IN_ORDER}, self.ref))["table"]
        return found

    def enter(self, number: int, table: int, game: int, body: Json, who: Any = None) -> Json:
        path = f"/rounds/{number}/tables/{table}/games/{game}"
        found: Json = self.ok(self.post(path, body, who or self.ref))["entry"]
        return found

    def confirm(self, entry: int, who: Any = None, body: Json | None = None) -> Json:
        path = f"/entries/{entry}/confirm"
        found: Json = self.ok(self.post(path, body, who or self.ref2))["entry"]
        return found

    def play_round(self, number: int, points: dict[tuple[int, int], list[int]]) -> None:
        """Every table's seat draw, then each game's points entered and confirmed."""
        for table in self.round(number)["tables"]:
            if table["kind"] == "physical":
                self.draw(number, table["number"])
                for game in (1, 2):
                    scores = points.get((table["number"], game), [10, 0, -5, -10])
                    body = {"points": scores, "reason": "score sheet"}
                    entry = self.enter(number, table["number"], game, body)
                    self.confirm(entry["id"])

    def standings(self, who: dict[str, str] | None = None, **query: int) -> Json:
        params = "&".join(f"{k}={v}" for k, v in query.items())
        found: Json = self.ok(self.get(f"/standings?{params}", who))
        return found


def stored_counts(db_url: str) -> tuple[int, int]:
    """How many entries and audit rows the database holds."""
    store = Store(db_url)
    try:
        with store.session() as session:
            entries = session.scalar(select(func.count()).select_from(EntryRow))
            audits = session.scalar(select(func.count()).select_from(AuditRow))
            return int(entries or 0), int(audits or 0)
    finally:
        store.close()


def error(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()["error"]
    assert body["code"] == code
    message: str = body["message"]
    return message


# -- competitions, logins --------------------------------------------------------------------


def test_a_competition_is_public_without_its_passwords(client: TestClient) -> None:
    event = Event(client, tie_breaks=["games_won", "fewest_dead"], publish="round")
    shown = event.ok(event.get(""))["competition"]
    assert shown["name"] == "Piala Remi Medan" and shown["status"] == "registration"
    assert shown["tie_breaks"] == ["games_won", "fewest_dead"]
    assert shown["links"]["referee"] == f"/competitions/{event.cid}/referee"
    assert "panitia" not in event.get("").text and "password" not in event.get("").text
    error(client.get("/api/competitions/NOSUCH22"), 404, "unknown_competition")
    bad = {"name": "X", "date": "2026-12-05", "rounds": 21, "organiser_password": "abcd"}
    error(client.post("/api/competitions", json=bad), 422, "bad_request")


def test_logins_and_roles(client: TestClient) -> None:
    event = Event(client)
    error(event.post("/login", {"role": "referee", "password": "nope"}), 403, "bad_password")
    wrong = {"role": "organiser", "password": PASSWORDS["Rina"]}
    error(event.post("/login", wrong), 403, "bad_password")
    body = {"name": "Ani"}
    error(event.post("/players", body), 401, "need_login")
    error(event.post("/players", body, bearer("made-up-token")), 401, "need_login")
    error(event.post("/players", body, event.ref), 403, "organiser_only")
    other = Event(client)
    error(event.post("/players", body, other.org), 401, "need_login")  # another's token
    assert event.login("organiser") != event.org
    message = error(
        client.post(
            f"/api/competitions/{event.cid}/players",
            json=body,
            headers={"Accept-Language": "id"} | event.ref,
        ),
        403,
        "organiser_only",
    )
    assert message == "hanya penyelenggara yang boleh melakukan ini"


def test_login_attempts_count_against_the_clients_join_rate(db_url: str) -> None:
    with running(db_url, join_rate=3) as client:
        event = Event(client)  # two logins
        error(event.post("/login", {"role": "referee", "password": "x"}), 403, "bad_password")
        error(event.post("/login", {"role": "referee", "password": "wasit"}), 429, "rate_limited")


# -- players -----------------------------------------------------------------------------------


def test_players_contacts_are_shown_only_to_logins(client: TestClient) -> None:
    event = Event(client)
    event.players(2)
    public = event.ok(event.get("/players"))["players"]
    assert [p["name"] for p in public] == ["Pemain 1", "Pemain 2"]
    assert all("contact" not in p for p in public) and "080000" not in event.get("/players").text
    private = event.ok(event.get("/players", event.ref))["players"]
    assert private[0]["contact"] == "08000000000"
    error(event.post("/players", {"name": "\u202eevil"}, event.org), 400, "bad_name")
    error(event.post("/players", {"name": "x" * 41}, event.org), 400, "bad_name")


def test_a_late_entry_and_a_drop_are_kept_in_the_history(client: TestClient) -> None:
    event = Event(client)
    first = event.players(4)[0]
    event.make_round()
    late = event.ok(event.post("/players", {"name": "Terlambat"}, event.org))["player"]
    assert late["late"] is True and late["status"] == "registered"
    dropped = event.ok(event.post(f"/players/{first}/drop", {"reason": "sakit"}, event.ref))
    player = dropped["player"]
    assert player["status"] == "dropped" and player["reason"] == "sakit"
    assert [h["what"] for h in player["history"]] == [
        "player.register",
        "player.check_in",
        "player.drop",
    ]
    drop = player["history"][-1]
    assert (drop["who"], drop["role"], drop["reason"]) == ("Rina", "referee", "sakit")
    assert (drop["before"]["status"], drop["after"]["status"]) == ("checked_in", "dropped")
    error(event.post(f"/players/{first}/check-in", None, event.ref), 409, "bad_status")
    error(event.post("/players/P99/check-in", None, event.ref), 404, "unknown_player")
    error(event.post(f"/players/{first}/drop", {"reason": ""}, event.ref), 422, "bad_request")


# -- seat draws and entries ---------------------------------------------------------------------


def test_the_seat_draw_of_a_physical_table_asks_tied_players_to_draw_again(
    client: TestClient,
) -> None:
    event = Event(client)
    event.players(4)
    event.make_round()
    path = "/rounds/1/tables/1/seat-draw"
    joker = event.post(path, {"cards": {"A": "Ks", "B": "7h", "C": "Ks", "D": "Jk"}}, event.ref)
    error(joker, 409, "redraw")  # a joker is drawn again first
    assert joker.json()["error"]["positions"] == ["D"]
    assert joker.json()["table"]["redraw"] == ["D"]
    error(event.post(path, {"redraw": {"A": "9c"}}, event.ref), 400, "bad_seat_draw")
    tie = event.post(path, {"redraw": {"D": "8h"}}, event.ref)
    error(tie, 409, "redraw")  # then the identical cards
    assert tie.json()["error"]["positions"] == ["A", "C"]
    assert tie.json()["error"]["message"] == "a tie: A C draw again"
    table = event.ok(event.post(path, {"redraw": {"A": "2d", "C": "3d"}}, event.ref))["table"]
    assert {d["position"]: d["seat"] for d in table["seat_draw"]} == {
        "C": 0,
        "A": 1,
        "D": 2,
        "B": 3,
    }
    assert next(d for d in table["seat_draw"] if d["position"] == "D")["cards"] == ["Jk", "8h"]
    error(event.post(path, {"cards": IN_ORDER}, event.ref), 409, "seat_draw_done")


def test_an_entry_is_scored_and_shows_who_deals_next(client: TestClient) -> None:
    event = Event(client)
    event.players(4)
    event.make_round()
    table = event.draw(1, 1)
    body = {"hands": HANDS, "closer": 0, "closing": "Ah"}
    preview = event.ok(event.post("/rounds/1/tables/1/games/1/preview", body, event.ref))
    assert preview["entry"]["id"] is None and preview["entry"]["points"] == POINTS
    assert event.round(1)["tables"][0]["games"][0]["status"] == "missing"  # nothing stored
    entry = event.enter(1, 1, 1, body)
    assert entry["points"] == POINTS and entry["kind"] == "cards"
    assert entry["arrangements"] == preview["entry"]["arrangements"]
    assert entry["arrangements"][0]["dead"] == [] and entry["confirmed_by"] is None
    assert entry["players"] == [s["player"] for s in table["seats"]]
    games = event.round(1)["tables"][0]["games"]
    assert [g["status"] for g in games] == ["entered", "missing"]
    assert (games[0]["dealer"], games[0]["first"]) == (3, 0)
    assert (games[1]["dealer"], games[1]["first"]) == (2, 3)  # R13-3: seat 2 lost game 1
    assert event.ok(event.get("/rounds/1/missing")) == [
        {"table": 1, "game": 1},
        {"table": 1, "game": 2},
    ]
    assert event.standings()["rows"][0]["total"] == 0  # entered, not yet counted


REFUSED = [
    ({"hands": [["Xx", *HANDS[0][1:]], *HANDS[1:]], "closer": None}, "bad_card"),
    ({"hands": [HANDS[0][:12], *HANDS[1:]]}, "hand_size"),
    ({"hands": [[*HANDS[0], "As"], *HANDS[1:]]}, "hand_size"),
    ({"hands": [HANDS[0], HANDS[1], HANDS[1], HANDS[3]]}, "too_many_copies"),
    ({"hands": HANDS[::-1], "closer": 0, "closing": "Ah"}, "close_refused"),
    ({"hands": HANDS, "closer": 0, "closing": "7h"}, "close_refused"),
    ({"hands": HANDS, "closer": [0, 1], "closing": "Ah"}, "closed_twice"),
    ({"points": [1, 2, 3, 4]}, "bad_entry"),  # no reason
    ({"points": [1, 2, 3, 4], "hands": HANDS, "reason": "both"}, "bad_entry"),
]  # fmt: skip


def test_every_refused_entry_is_refused_with_its_code_and_nothing_stored(
    client: TestClient, db_url: str
) -> None:
    event = Event(client, games=2)
    event.players(4)
    event.make_round()
    path = "/rounds/1/tables/1/games/1"
    error(event.post(path, {"hands": HANDS}, event.ref), 409, "no_seat_draw")
    event.draw(1, 1)
    before = stored_counts(db_url)
    for body, code in REFUSED:
        error(event.post(f"{path}/preview", body, event.ref), 400, code)
        message = error(event.post(path, body, event.ref), 400, code)
        if code == "too_many_copies":
            assert "appears 3 times; two decks hold 2" in message
    closing = error(event.post(path, REFUSED[4][0], event.ref), 400, "close_refused")
    assert closing.startswith("Seat 1 (") and "cannot close (tutup)" in closing
    for where in (
        "/rounds/1/tables/2/games/1",
        "/rounds/1/tables/1/games/3",
        "/rounds/2/tables/1/games/1",
    ):
        error(event.post(where, {"hands": HANDS}, event.ref), 400, "unknown_game")  # fmt: skip
    assert stored_counts(db_url) == before
    entry = event.enter(1, 1, 1, {"hands": HANDS, "closer": 0, "closing": "Ah"})
    error(event.post(f"/entries/{entry['id']}/confirm", None, event.ref), 400, "same_person")
    event.confirm(entry["id"])
    after = stored_counts(db_url)
    error(event.post(path, {"hands": HANDS}, event.ref), 400, "confirmed")
    error(event.post(f"/entries/{entry['id']}/confirm", None, event.org), 400, "confirmed")
    assert stored_counts(db_url) == after


def test_an_entry_not_yet_confirmed_is_replaced_when_asked(client: TestClient) -> None:
    event = Event(client)
    event.players(4)
    event.make_round()
    event.draw(1, 1)
    first = event.enter(1, 1, 1, {"points": [1, 2, 3, 4], "reason": "sheet"})
    again = {"hands": HANDS, "closer": 0, "closing": "Ah", "replace": True}
    second = event.enter(1, 1, 1, again, event.ref2)
    assert second["replaces"] == first["id"]
    error(event.post(f"/entries/{first['id']}/confirm", None, event.ref2), 409, "not_current")
    assert event.confirm(second["id"], event.ref)["confirmed_by"] == "Rina"


def test_a_player_of_the_table_may_confirm_but_no_one_else(client: TestClient) -> None:
    event = Event(client)
    event.players(8)
    tables = event.make_round()["tables"]
    event.draw(1, 1)
    entry = event.enter(1, 1, 1, {"hands": HANDS, "closer": 0, "closing": "Ah"})
    stranger = tables[1]["seats"][0]["player"]
    path = f"/entries/{entry['id']}/confirm"
    error(event.post(path, {"player": stranger}, event.ref), 400, "not_at_table")
    error(event.post(path, {"player": "P1"}), 401, "need_login")
    seated = tables[0]["seats"][2]
    body = {"player": seated["player"], "code": event.code(seated["player"]).lower()}
    confirmed = event.confirm(entry["id"], event.ref, body)
    assert confirmed["confirmed_by"] == f"{seated['name']} ({seated['player']})"
    audit = event.ok(event.get("/audit", event.org))
    assert audit[-1]["what"] == "entry.confirm" and audit[-1]["who"] == "Rina"
    assert audit[-1]["after"]["confirmed_by"] == confirmed["confirmed_by"]
    error(event.get("/audit"), 401, "need_login")


def test_a_referee_corrects_a_confirmed_entry_with_before_and_after_in_the_audit(
    client: TestClient,
) -> None:
    event = Event(client)
    event.players(4)
    event.make_round()
    event.draw(1, 1)
    entry = event.enter(1, 1, 1, {"hands": HANDS, "closer": 0, "closing": "Ah"})
    path = f"/entries/{entry['id']}/correct"
    fix = {"points": [100, 25, -100, 55], "reason": "the closer's Ah was a 7h"}
    error(event.post(path, fix, event.ref), 409, "not_confirmed")
    event.confirm(entry["id"])
    error(event.post(path, fix), 401, "need_login")
    error(event.post(path, fix | {"reason": None}, event.ref), 400, "bad_entry")
    twice = {"hands": HANDS, "closer": [0, 2], "closing": "Ah", "reason": "two closers"}
    error(event.post(path, twice, event.ref), 400, "closed_twice")
    corrected = event.ok(event.post(path, fix, event.ref))["entry"]
    assert corrected["replaces"] == entry["id"] and corrected["confirmed_by"] == "Rina"
    assert corrected["points"] == fix["points"] and corrected["reason"] == fix["reason"]
    last = event.ok(event.get("/audit", event.ref))[-1]
    assert (last["what"], last["who"], last["reason"]) == ("entry.correct", "Rina", fix["reason"])
    assert last["before"]["points"] == POINTS and last["after"]["points"] == fix["points"]
    top = event.standings()["rows"][0]
    assert top["total"] == 100
    error(event.post(path, fix, event.ref), 409, "not_current")
    games = event.ok(event.get(f"/players/{top['player']}/games"))["games"]
    assert [(g["points"], g["entry"]) for g in games] == [(100, corrected["id"])]


# -- rounds, standings -------------------------------------------------------------------------


def test_an_event_of_eight_players_over_two_rounds(client: TestClient) -> None:
    event = Event(client, tie_breaks=["games_won"])
    event.players(8, clubs=["Medan", "Solo"])
    error(event.post("/rounds", {"online_tables": [3]}, event.org), 400, "bad_online_tables")
    first = event.make_round()
    assert [len(t["seats"]) for t in first["tables"]] == [4, 4] and first["byes"] == []
    error(event.post("/rounds", {}, event.org), 409, "round_not_done")
    event.play_round(1, {(1, 1): [135, 25, -100, 55], (2, 2): [60, 60, -20, -5]})
    assert event.round(1)["status"] == "done"
    second = event.make_round()
    # the fewest meetings again: each table of round 2 holds two pairs from round 1's tables
    assert second["quality"]["repeat_meetings"] == 4
    event.play_round(2, {})
    assert event.ok(event.get(""))["competition"]["status"] == "finished"
    error(event.post("/rounds", {}, event.org), 409, "no_more_rounds")
    rows = event.standings()["rows"]
    for row in rows:  # every number traced to the games behind it
        games = event.ok(event.get(f"/players/{row['player']}/games"))["games"]
        assert row["total"] == sum(g["points"] for g in games)
        assert row["games"] == len(games) == 4
        assert row["won"] == sum(g["won"] for g in games)
        assert all(g["entered_by"] == "Rina" and g["confirmed_by"] == "Tono" for g in games)
    ordered = [(r["total"], r["won"]) for r in rows]
    assert ordered == sorted(ordered, reverse=True)
    assert rows[0]["rank"] == 1
    after_one = event.standings(round=1)["rows"]
    assert sorted(r["total"] for r in after_one)[-1] == 135 + 10


def test_a_field_of_five_gets_a_bye_or_an_online_table_with_bots(client: TestClient) -> None:
    byes = Event(client, fill="byes", bye_points="zero")
    byes.players(5)
    made = byes.make_round()
    assert len(made["tables"]) == 1 and len(made["byes"]) == 1
    rows = {r["player"]: r for r in byes.standings()["rows"]}
    assert rows[made["byes"][0]]["byes"] == 1
    bots = Event(client, fill="bots", bot_level="random")
    bots.players(5)
    error(bots.post("/rounds", {"online_tables": []}, bots.org), 409, "need_online")
    error(bots.post("/rounds", {"online_tables": [3]}, bots.org), 400, "bad_online_tables")
    made = bots.make_round(online=[1])
    online = [t for t in made["tables"] if t["kind"] == "online"]
    assert len(online) == 1 and online[0]["web_table"]
    assert sum(s["player"] is None for s in online[0]["seats"]) == 3
    assert all(s["bot"] == "random" for s in online[0]["seats"] if s["player"] is None)
    web = client.get(f"/api/tables/{online[0]['web_table']}").json()["table"]
    assert web["variant"] == "remi13d" and web["title"] == "Kompetisi Piala Remi Medan R1 M1"
    physical = [t for t in made["tables"] if t["kind"] == "physical"]
    path = f"/rounds/1/tables/{online[0]['number']}/seat-draw"
    error(bots.post(path, {"cards": IN_ORDER}, bots.ref), 409, "online_table")
    assert all(s["player"] for s in physical[0]["seats"])


def test_a_disqualified_player_is_shown_last_with_the_reason(client: TestClient) -> None:
    event = Event(client)
    ids = event.players(4)
    event.make_round()
    event.play_round(1, {(1, 1): [135, 25, -100, 55]})
    table = event.round(1)["tables"][0]
    winner = next(d["player"] for d in table["seat_draw"] if d["seat"] == 0)
    answer = event.post(f"/players/{winner}/disqualify", {"reason": "kartu ditandai"}, event.ref)
    assert event.ok(answer)["player"]["status"] == "disqualified"
    rows = event.standings()["rows"]
    assert rows[-1]["player"] == winner and rows[-1]["rank"] is None
    assert rows[-1]["reason"] == "kartu ditandai" and rows[-1]["total"] == 145
    assert [r["rank"] for r in rows[:-1]] == [1, 2, 3] and set(ids) == {r["player"] for r in rows}


def test_round_publishing_hides_a_round_from_the_public_until_it_is_done(
    client: TestClient,
) -> None:
    event = Event(client, publish="round")
    event.players(4)
    event.make_round()
    event.draw(1, 1)
    entry = event.enter(1, 1, 1, {"hands": HANDS, "closer": 0, "closing": "Ah"})
    event.confirm(entry["id"])
    public = event.standings()
    assert (public["round"], public["published_round"]) == (0, 0)
    assert all(r["total"] == 0 for r in public["rows"])
    assert event.ok(event.get("/rounds/1"))["round"]["tables"][0]["games"][0]["entry"] is None
    assert event.standings(event.org)["rows"][0]["total"] == 135
    error(event.get("/rounds/1/scores.csv"), 409, "not_published")
    second = event.enter(1, 1, 2, {"points": [0, 0, 0, 0], "reason": "sheet"})
    event.confirm(second["id"])
    assert event.standings()["published_round"] == 1
    assert event.standings()["rows"][0]["total"] == 135


def test_the_exports_are_csv(client: TestClient) -> None:
    event = Event(client)
    event.players(4)
    event.make_round()
    event.play_round(1, {(1, 1): [135, 25, -100, 55]})
    answer = event.get("/standings.csv")
    assert answer.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert [r["total"] for r in rows] == ["145", "45", "25", "-105"]
    assert rows[0]["rank"] == "1" and rows[0]["name"].startswith("Pemain")
    scores = list(csv.DictReader(io.StringIO(event.get("/rounds/1/scores.csv").text)))
    assert len(scores) == 2 * 4
    assert [s["points"] for s in scores[:4]] == ["135", "25", "-100", "55"]
    assert all(s["status"] == "confirmed" for s in scores)
    error(event.get("/rounds/2/scores.csv"), 404, "unknown_round")


def test_the_round_timer_runs_on_the_servers_clock(db_url: str) -> None:
    clock = ManualClock()
    with running(db_url, clock) as client:
        event = Event(client)
        event.players(4)
        event.make_round()
        path = "/rounds/1/timer"
        error(event.post(path, {"action": "start"}, event.ref), 403, "organiser_only")
        started = event.ok(event.post(path, {"action": "start", "minutes": 90}, event.org))
        assert started["timer"] == {"minutes": 90, "running": True, "ends_in_ms": 5_400_000}
        clock.advance(60)
        assert event.round(1)["timer"]["ends_in_ms"] == 5_340_000
        assert event.round(1)["status"] == "playing"
        paused = event.ok(event.post(path, {"action": "pause"}, event.org))["timer"]
        assert paused == {"minutes": 90, "running": False, "left_ms": 5_340_000}
        clock.advance(600)
        resumed = event.ok(event.post(path, {"action": "start"}, event.org))["timer"]
        assert resumed["ends_in_ms"] == 5_340_000
        reset = event.ok(event.post(path, {"action": "reset"}, event.org))["timer"]
        assert reset == {"minutes": 90, "running": False, "left_ms": 5_400_000}
        error(event.post("/rounds/3/timer", {"action": "start"}, event.org), 404, "unknown_round")
        event.ok(event.post(path, {"action": "start"}, event.org))
    with running(db_url, ManualClock()) as client:  # a restart: it runs on, by the wall clock
        event.client = client
        timer = event.round(1)["timer"]
        assert timer["running"] and 5_300_000 < timer["ends_in_ms"] <= 5_400_000


# -- online tables, restarts -------------------------------------------------------------------


def test_an_online_tables_bot_game_feeds_the_standings(db_url: str) -> None:
    clock = ManualClock()
    with running(db_url, clock) as client:
        event = Event(client, fill="bots", bot_level="random", rounds=1, games=1)
        event.players(5)
        made = event.make_round(online=[2])
        online = next(t for t in made["tables"] if t["kind"] == "online")
        person = next(i for i, s in enumerate(online["seats"]) if s["player"])
        name = online["seats"][person]["name"]
        joined = client.post(
            f"/api/tables/{online['web_table']}/join", json={"name": name, "seat": person}
        )
        assert joined.status_code == 200, joined.text
        table = until_confirmed(event, clock, online["number"])
        entry = table["games"][0]["entry"]
        code = online["web_table"]
        assert entry["entered_by"] == entry["confirmed_by"] == f"web table {code}"
        seated = online["seats"][person]["player"]
        assert entry["players"].count(seated) == 1 and entry["players"].count(None) == 3
        assert len(entry["arrangements"]) == 4
        seat = entry["players"].index(seated)
        assert table["seat_draw"] is not None
        assert next(d for d in table["seat_draw"] if d["player"] == seated)["seat"] == seat
        row = next(r for r in event.standings()["rows"] if r["player"] == seated)
        assert (row["total"], row["games"]) == (entry["points"][seat], 1)
        audit = event.ok(event.get("/audit", event.org))
        assert audit[-1]["what"] == "entry.web" and audit[-1]["who"] == f"web table {code}"
    forget_entries(db_url)  # as if the server had stopped before it took them
    with running(db_url) as client:
        event.client = client
        again = next(t for t in event.round(1)["tables"] if t["number"] == online["number"])
        assert again["games"][0]["entry"]["points"] == entry["points"]


def forget_entries(db_url: str) -> None:
    store = Store(db_url)
    try:
        with store.transaction() as session:
            session.execute(delete(EntryRow))
    finally:
        store.close()


def until_confirmed(event: Event, clock: ManualClock, number: int) -> Json:
    """The online table once its first game is confirmed: the person's seat is played by
    its stand-in after the grace period, the bots play at once."""
    for _ in range(600):
        clock.advance(120)
        table: Json = next(t for t in event.round(1)["tables"] if t["number"] == number)
        if table["games"][0]["status"] == "confirmed":
            return table
        time.sleep(0.02)
    raise AssertionError("the online table did not finish")


def test_a_restart_keeps_every_confirmed_entry(database_url: str) -> None:
    """On SQLite and on PostgreSQL."""
    db_url = database_url
    with running(db_url) as client:
        event = Event(client)
        event.players(8)
        event.make_round()
        event.play_round(1, {(1, 1): [135, 25, -100, 55]})
        standings = event.standings()
        round_one = event.round(1)
        audit = event.ok(event.get("/audit", event.org))
        event.make_round()
        event.draw(2, 1)
        pending = event.enter(2, 1, 1, {"points": [1, 2, 3, 4], "reason": "sheet"})
    with running(db_url) as client:
        event.client = client  # a new server on the same database
        assert event.standings(round=1) == standings | {"published_round": 2}
        assert event.round(1) == round_one
        assert event.ok(event.get("/audit", event.org))[: len(audit)] == audit
        games = event.round(2)["tables"][0]["games"]
        assert games[0]["status"] == "entered" and games[0]["entry"]["id"] == pending["id"]
        assert event.confirm(pending["id"])["confirmed_by"] == "Tono"  # the logins still work


def test_an_online_table_waits_for_its_players_past_the_servers_expiry(db_url: str) -> None:
    clock = ManualClock()
    hour = 3600.0
    with running(db_url, clock, waiting_expiry=hour) as client:
        event = Event(client, fill="byes", bye_points="zero")
        event.players(8)
        made = event.make_round(online=[1])
        code = next(t["web_table"] for t in made["tables"] if t["kind"] == "online")
        other = client.post("/api/tables", json={"variant": "remi13d"}).json()["table"]["id"]
        hub: Any = client.app.state.hub  # type: ignore[attr-defined]
        clock.advance(hour + 1)
        assert client.portal is not None
        client.portal.call(hub.expiry.close_due)  # (its own task may have closed them first)
        assert client.get(f"/api/tables/{code}").json()["table"]["status"] == "waiting"
        assert client.get(f"/api/tables/{other}").status_code == 410


def test_an_online_table_feeds_each_game_as_it_ends(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    told: list[tuple[int, bool]] = []  # finished games, match over: each time it is told
    real = OnlineTables._finished

    def finished(self: OnlineTables, table: Any) -> None:
        told.append((sum(d.is_over for d in table.game.deals), table.game.over))
        real(self, table)

    monkeypatch.setattr(OnlineTables, "_finished", finished)
    clock = ManualClock()
    with running(db_url, clock) as client:
        event = Event(client, fill="bots", bot_level="random", rounds=1, games=2)
        event.players(5)
        made = event.make_round(online=[2])
        online = next(t for t in made["tables"] if t["kind"] == "online")
        person = next(i for i, s in enumerate(online["seats"]) if s["player"])
        name = online["seats"][person]["name"]
        client.post(f"/api/tables/{online['web_table']}/join", json={"name": name, "seat": person})
        for _ in range(600):
            table = next(t for t in event.round(1)["tables"] if t["number"] == online["number"])
            if all(g["status"] == "confirmed" for g in table["games"]):
                break
            clock.advance(120)
            time.sleep(0.02)
    assert told == [(1, False), (2, True)]  # the first game entered before the match ended
