"""A competition's paper and screens in a real browser: nine players play round 1 through
the API (one withdraws after it, with a reason), then the projector's timer stops with the
round done, the public standings are read on a 390 px phone (the key columns without
sideways scrolling, the rest on a tap, the withdrawal without its reason), the organiser
swaps two players of round 2 seeing the quality before and after, and round 2's table
sheets (a closing-card column, a signature line per player) and everyone's score card
are printed. Screenshots go to tests/artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.browser import PHONE, Browser, Served, browser, needs_chromium, open_person, shot

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser"]  # the fixture

PLAYERS = [
    ("Ayu", "Medan"),
    ("Budi", "Surabaya"),
    ("Citra", "Bandung"),
    ("Dewi", "Medan"),
    ("Eko", "Surabaya"),
    ("Fajar", "Bandung"),
    ("Gita", "Medan"),
    ("Hadi", "Surabaya"),
    ("Indah Permatasari Kusumawardhani", "Bandung"),  # a long name, on a phone
]
GAMES = 2
IN_ORDER = {"A": "As", "B": "Ks", "C": "Qs", "D": "Js"}  # positions A–D in game seats 0–3
REASON = "urusan keluarga"
Api = dict[str, Any]


class Event:
    """The competition, made and played through the API."""

    def __init__(self, served: Served) -> None:
        self.url = served.url
        body = {
            "name": "Piala Kertas",
            "date": "2026-12-05",
            "venue": "Balai Kota",
            "rounds": 3,
            "games": GAMES,
            "organiser_password": "rahasia-org",
            "referee_password": "rahasia-wasit",
        }
        made = self.call("post", "/api/competitions", body, status=201)
        self.cid, self.org = made["competition"]["id"], made["token"]
        for name in ("Rina", "Tono"):  # each referee their own account
            self.post(
                "/accounts", {"name": name, "password": f"wasit-{name.lower()}-01"}, status=201
            )
        self.ref = self.login("Rina")
        self.ref2 = self.login("Tono")

    def call(
        self, method: str, path: str, body: Any = None, token: str = "", status: int = 200
    ) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = httpx.request(method, f"{self.url}{path}", json=body, headers=headers)
        assert answer.status_code == status, answer.text
        return answer.json()

    def post(self, path: str, body: Any = None, token: str = "", status: int = 200) -> Any:
        return self.call(
            "post", f"/api/competitions/{self.cid}{path}", body, token or self.org, status
        )

    def get(self, path: str, token: str = "") -> Any:
        return self.call("get", f"/api/competitions/{self.cid}{path}", None, token)

    def login(self, name: str) -> str:
        body = {"name": name, "password": f"wasit-{name.lower()}-01"}
        token: str = self.post("/login", body, token="-")["token"]
        return token

    def play(self, number: int) -> None:
        """Every table's seat draw, then each game's scores entered and confirmed."""
        for table in self.get(f"/rounds/{number}", self.org)["round"]["tables"]:
            at = f"/rounds/{number}/tables/{table['number']}"
            self.post(f"{at}/seat-draw", {"cards": IN_ORDER}, self.ref)
            for game in range(1, GAMES + 1):
                points = [40 * table["number"] + game, 10, -20 - game, -30]
                body = {"points": points, "reason": "score sheet"}
                entry = self.post(f"{at}/games/{game}", body, self.ref, status=201)["entry"]
                self.post(f"/entries/{entry['id']}/confirm", None, self.ref2)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = Served(tmp_path_factory.mktemp("browser-paper"), extra=["--manual-clock"])
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def event(served: Served) -> Event:
    made = Event(served)
    ids = []
    for name, club in PLAYERS:
        pid = made.post("/players", {"name": name, "club": club}, status=201)["player"]["id"]
        made.post(f"/players/{pid}/check-in", {}, made.ref)
        ids.append(pid)
    made.post("/rounds", {"online_tables": []}, status=201)
    made.post("/rounds/1/timer", {"action": "start", "minutes": 90})
    made.call("post", "/api/clock", {"seconds": 600})
    made.play(1)
    withdrawn = next(p for p in ids if p not in made.get("/rounds/1")["round"]["byes"])
    made.post(f"/players/{withdrawn}/drop", {"reason": REASON}, made.ref)
    made.withdrawn = withdrawn  # type: ignore[attr-defined]
    return made


def test_the_projector_timer_stops_when_the_round_is_done(
    served: Served, browser: Browser, event: Event
) -> None:
    screen = open_person(browser, viewport={"width": 1920, "height": 1080}, locale="id-ID")
    page = screen.page
    page.goto(f"{served.url}/competitions/{event.cid}/projector")
    page.wait_for_selector('#timer-left[data-done="true"]')
    assert page.get_attribute("#timer-left", "data-running") == "false"
    shown = page.inner_text("#timer-left")
    assert shown != "--:--"  # where it stood when the last game was confirmed
    assert "selesai" in page.inner_text(".round-name")
    event.call("post", "/api/clock", {"seconds": 600})  # the hall's clock runs on: not the timer
    page.wait_for_timeout(1500)
    assert page.inner_text("#timer-left") == shown
    page.reload()
    page.wait_for_selector('#timer-left[data-done="true"]')
    assert page.inner_text("#timer-left") == shown
    shot(page, "competition-paper-projector-done")
    assert not screen.errors, screen.errors


def test_the_public_standings_fit_a_phone(served: Served, browser: Browser, event: Event) -> None:
    viewer = open_person(browser, viewport=PHONE, phone=True)
    page = viewer.page
    page.goto(f"{served.url}/competitions/{event.cid}")
    page.wait_for_selector("#standings tbody tr")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # no sideways scrolling on the page
    table = page.evaluate(
        "() => { const t = document.getElementById('standings');"
        " return [t.scrollWidth, t.parentElement.clientWidth]; }"
    )
    assert table[0] <= table[1]  # nor inside its box
    heads = page.eval_on_selector_all(
        "#standings thead th",
        "cells => cells.filter(c => c.offsetParent !== null).map(c => c.textContent)",
    )
    assert heads == ["Rank", "Name", "Points", "Games"]
    for cell in page.query_selector_all("#standings thead th"):
        box = cell.bounding_box()
        assert box is None or box["x"] + box["width"] <= PHONE["width"]
    # the withdrawal: shown, without its reason
    gone = page.locator(f'#standings tr[data-player="{event.withdrawn}"]')  # type: ignore[attr-defined]
    assert "withdrawn" in gone.inner_text() and gone.get_attribute("class") == "dropped"
    assert REASON not in page.content()
    shot(page, "competition-paper-public-phone", full_page=True)
    # the details on a tap, and gone on a second
    leader = page.locator("#standings tbody tr").first
    leader.locator(".link-button").tap()
    details = leader.locator(".row-details")
    details.wait_for()
    text = details.inner_text()
    for word in ("Club", "Won", "Ace closes", "Best game", "Dead points", "Byes"):
        assert word.lower() in text.lower(), text
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "competition-paper-public-phone-details")
    leader.locator(".link-button").tap()
    page.wait_for_selector("#standings .row-details", state="detached")
    # logins still see the reason
    logged = event.get("/standings", event.org)["rows"]
    assert any(r.get("reason") == REASON for r in logged)
    assert not viewer.errors, viewer.errors


def test_the_organiser_swaps_two_players_seeing_the_quality(
    served: Served, browser: Browser, event: Event
) -> None:
    event.post("/rounds", {"online_tables": []}, status=201)
    before = event.get("/rounds/2", event.org)["round"]
    organiser = open_person(browser)
    page = organiser.page
    page.goto(f"{served.url}/competitions/{event.cid}/admin")
    page.evaluate(
        "([cid, token]) => localStorage.setItem(`remikit.competition.${cid}.organiser`,"
        " JSON.stringify({token, name: 'organiser'}))",
        [event.cid, event.org],
    )
    page.reload()
    page.wait_for_selector("#seating-tools")
    first, second = before["tables"][0]["seats"][0], before["tables"][1]["seats"][0]
    page.select_option("#swap-a", first["player"])
    page.select_option("#swap-b", second["player"])
    page.click("#swap-preview")
    page.wait_for_selector("#swap-quality")
    shown = page.inner_text("#swap-quality")
    assert f"repeat meetings {before['quality']['repeat_meetings']}" in shown
    shot(page, "competition-paper-swap-preview", full_page=True)
    page.click("#swap-do")
    page.wait_for_selector("#changed-quality")
    after = event.get("/rounds/2", event.org)["round"]
    assert after["tables"][0]["seats"][0]["player"] == second["player"]
    assert after["tables"][1]["seats"][0]["player"] == first["player"]
    log = [e for e in event.get("/audit", event.org) if e["what"] == "round.swap"]
    assert len(log) == 1
    assert not organiser.errors, organiser.errors


def test_table_sheets_and_score_cards_print(served: Served, browser: Browser, event: Event) -> None:
    if event.get("")["competition"]["current_round"] < 2:
        event.post("/rounds", {"online_tables": []}, status=201)
    round2 = event.get("/rounds/2", event.org)["round"]
    person = open_person(browser)
    page = person.page
    base = f"{served.url}/competitions/{event.cid}/print"
    page.goto(f"{base}/sheets?round=2")
    page.wait_for_selector(".table-sheet")
    sheets = page.locator(".table-sheet")
    assert sheets.count() == len(round2["tables"]) == 2
    first = sheets.first
    assert first.locator(".score-table thead th.closing-card").inner_text() == "Closing card"
    assert first.locator(".score-table tbody td.closing-card").count() == GAMES
    signed = first.locator(".signatures .sign.player").all_inner_texts()
    names = [s["name"] for s in round2["tables"][0]["seats"]]
    assert len(signed) == 4 and all(n in line for n, line in zip(names, signed, strict=True))
    assert first.locator(".signatures .sign.referee").count() == 1
    shot(page, "competition-paper-sheets", full_page=True)
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4")
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 2  # one table a page
    page.emulate_media(media="screen")
    # the score cards: every player who played, their games and the total
    page.goto(f"{base}/cards")
    page.wait_for_selector(".score-card")
    standings = {r["player"]: r for r in event.get("/standings")["rows"]}
    assert page.locator(".score-card").count() == len(standings)
    games = {p: event.get(f"/players/{p}/games")["games"] for p in standings}
    for pid, row in standings.items():
        card = page.locator(f'.score-card[data-player="{pid}"]')
        assert f"Total {row['total']}" in card.locator(".card-total").inner_text()
        assert card.locator(".sign.player").count() == 1
        line = card.locator('tr[data-round="1"] td.score').all_inner_texts()
        assert line == [str(g["points"]) for g in games[pid] if not g.get("bye")]
        if any(g.get("bye") for g in games[pid]):
            assert card.locator("tr.bye").count() == 1
    shot(page, "competition-paper-score-cards", full_page=True)
    assert not person.errors, person.errors
