"""A Remi 13 D competition in real browsers: an organiser creates it on its page, registers
13 players, checks them in and makes three rounds, each with table 1 online (its people
join through the API and leave their seats to the stand-in bots, its bot seats play as
bots; the server's clock is a test clock, moved on by ``POST /api/clock``) and the other
tables physical: a referee on a phone enters each seat draw (R13-2, with a redraw of a
tie) and each game's cards, sees the calculator's result before saving, and a second
referee confirms (once a player of the table does, with their own code after a wrong
one). Each referee logs in with the account the organiser made for them, and logs out.
A late entry plays from round 2, a player withdraws before round 3, one is disqualified
at the end. Checked: the seating
quality, the standings page against the entries, the games behind a player's numbers,
the audit log, the CSV exports, the print views and the table sheets' PDF, the projector's
timer. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import time
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import httpx
import pytest

from tests.browser import (
    PHONE,
    Browser,
    Page,
    Person,
    Served,
    browser,
    needs_chromium,
    open_person,
    shot,
    wait,
    wait_text,
)

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
    ("Indah", "Bandung"),
    ("Joko", "Medan"),
    ("Kartika", "Surabaya"),
    ("Lukman", "Bandung"),
    ("Maya", "Medan"),
]
LATE = ("Nanda", "Surabaya")
GAMES = 2
HANDS = [  # seat 0 closes with Ah: 135, 25, -100, 55 (R13-11, R13-12)
    "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk",
    "2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs",
    "Jk 9s 9d 2c 3c 4c Qh Qd Qs 5d 6d 8h 4s",
    "2d 3d 4d 5d 6d 8s 8h 8c Td Jd Qd 2s 4c",
]
DRAW = {"A": "Ks", "B": "7h", "C": "As", "D": "2c"}  # no tie: C plays first, D deals
Api = dict[str, Any]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = Served(tmp_path_factory.mktemp("browser-competition"), extra=["--manual-clock"])
    try:
        yield running
    finally:
        running.stop()


class Comp:
    """The competition under test: its id, the organiser's token and the API."""

    def __init__(self, served: Served, cid: str, token: str) -> None:
        self.served, self.cid, self.token = served, cid, token

    def get(self, path: str, *, public: bool = False) -> Any:
        headers = {} if public else {"Authorization": f"Bearer {self.token}"}
        response = httpx.get(
            f"{self.served.url}/api/competitions/{self.cid}{path}", headers=headers
        )
        assert response.status_code == 200, response.text
        return response.json() if "json" in response.headers["content-type"] else response.text

    def round(self, number: int) -> Api:
        answer: Api = self.get(f"/rounds/{number}")["round"]
        return answer

    def advance(self, seconds: float) -> None:
        response = httpx.post(f"{self.served.url}/api/clock", json={"seconds": seconds})
        assert response.status_code == 200, response.text


def stray_errors(person: Person) -> list[str]:
    """The page's errors but the refusals the test asks for (the browser logs each)."""
    return [e for e in person.errors if "Failed to load resource" not in e]


# -- the organiser ----------------------------------------------------------------------------


def create(page: Page, served: Served) -> Comp:
    page.goto(f"{served.url}/competitions/new")
    page.fill("#new-name", "Kejuaraan Remi Medan")
    page.fill("#new-venue", "Balai Kota")
    page.fill("#new-rounds", "3")
    page.fill("#new-games", str(GAMES))
    page.click('[data-tie="best_game"] button')  # best game counts before Joker closes
    page.uncheck('[data-tie="fewest_dead"] input')
    page.select_option("#new-bot-level", "random")
    page.fill("#new-organiser-password", "rahasia-org")
    page.fill("#new-referee-password", "rahasia-wasit")
    shot(page, "competition-new", full_page=True)
    page.click("#new-submit")
    page.wait_for_url("**/admin")
    page.wait_for_selector("#player-form")
    cid = page.url.rsplit("/", 2)[1]
    kept = page.evaluate(f"() => localStorage.getItem('remikit.competition.{cid}.organiser')")
    comp = Comp(served, cid, json.loads(kept)["token"])
    ties = comp.get("")["competition"]["tie_breaks"]
    assert ties == ["games_won", "ace_closes", "best_game", "joker_closes"]
    return comp


REFEREES = {"Rina": "rina-wasit-01", "Sari": "sari-wasit-02"}
"""The referees' own accounts, made by the organiser."""


def make_account(page: Page, name: str) -> None:
    page.fill("#account-name", name)
    page.fill("#account-password", REFEREES[name])
    page.click("#account-add")
    page.wait_for_selector(f'#account-list tr[data-account="{name}"]')


def register(page: Page, name: str, club: str) -> None:
    page.fill("#player-name", name)
    page.fill("#player-club", club)
    page.fill("#player-contact", f"0812-{name.lower()}")
    page.click("#player-add")
    page.wait_for_selector(f'#player-list tr:has-text("{name}")')


def check_in(page: Page, name: str) -> None:
    row = f'#player-list tr:has(th:text-is("{name}"))'
    page.click(f'{row} [data-act="check-in"]')
    page.wait_for_selector(f'{row}[data-status="checked_in"]')


def with_reason(page: Page, name: str, action: str, reason: str) -> None:
    row = f'#player-list tr:has(th:text-is("{name}"))'
    page.click(f'{row} [data-act="{action}"]')
    page.fill(f"{row} .reason-form input", reason)
    page.click(f'{row} [data-confirm="{action}"]')
    status = "dropped" if action == "drop" else "disqualified"
    page.wait_for_selector(f'{row}[data-status="{status}"]')


def make_round(page: Page, comp: Comp, number: int) -> Api:
    page.reload()
    page.wait_for_selector("#round-form")
    page.check("#online-1")
    page.click("#round-make")
    page.wait_for_selector(f"#round-{number}")
    return comp.round(number)


# -- the online table ----------------------------------------------------------------------------


def play_online(comp: Comp, number: int) -> None:
    """Seat the people of table 1 at its web table and leave them to the stand-in bots:
    move the test clock on until the competition has the table's games, confirmed."""
    table = comp.round(number)["tables"][0]
    assert table["kind"] == "online" and table["web_table"]
    code = table["web_table"]
    for index, seat in enumerate(table["seats"]):
        if seat["player"] is not None:
            body = {"name": seat["name"], "seat": index}
            joined = httpx.post(f"{comp.served.url}/api/tables/{code}/join", json=body)
            assert joined.status_code == 200, joined.text
    for _ in range(20_000):
        state = httpx.get(f"{comp.served.url}/api/tables/{code}").json()["table"]["status"]
        if state == "finished":
            break
        comp.advance(5)  # past a person's turn time, then a bot's pause at a time
    for _ in range(500):
        games = comp.round(number)["tables"][0]["games"]
        if all(g["status"] == "confirmed" for g in games):
            return
        time.sleep(0.02)
    raise AssertionError(f"the games of the web table of round {number} did not come in")


# -- the referees --------------------------------------------------------------------------------


def referee(browser: Browser, served: Served, comp: Comp, name: str) -> Person:
    person = open_person(browser, viewport=PHONE, phone=True, locale="id-ID")
    page = person.page
    page.goto(f"{served.url}/competitions/{comp.cid}/referee")
    page.fill("#login-name", name)
    page.fill("#login-password", REFEREES[name])
    page.click("#login-submit")
    page.wait_for_selector("#logout")
    return person


def pick(page: Page, table: int) -> None:
    page.click(f"#pick-{table}")
    page.wait_for_selector(f'#table-panel[data-table="{table}"]')
    page.wait_for_selector(f'#pick-{table}[aria-pressed="true"]')


def seat_draw(page: Page, cards: dict[str, str]) -> None:
    for position, card in cards.items():
        page.fill(f"#draw-{position}", card)
    page.click("#draw-submit")


def game_hands(number: int, table: int, game: int) -> tuple[list[str], int | None]:
    """The hands of a game (the example's, turned so another seat gets each) and who closed:
    every third game the stock runs out instead (R13-13)."""
    turn = (number + table + game) % 4
    hands = [HANDS[(seat + turn) % 4] for seat in range(4)]
    closer = None if (number + table + game) % 3 == 0 else (-turn) % 4
    return hands, closer


def enter_game(comp: Comp, page: Page, number: int, table: int, game: int) -> None:
    """Enter a game's cards, check the calculator's result and save it: the entry is
    what the calculator showed."""
    hands, closer = game_hands(number, table, game)
    page.click(f"#enter-{game}")
    page.click("#entry-typing")  # the typed alternative to the card grid
    for seat, hand in enumerate(hands):
        page.fill(f"#hand-{seat}", hand)
    page.select_option("#entry-closer", "" if closer is None else str(closer))
    if closer is not None:
        page.fill("#entry-closing", "Ah")
    page.click("#entry-check")
    page.wait_for_selector("#preview")
    if closer is not None:
        closed = page.locator(f'#preview .result-row[data-seat="{closer}"]')
        assert closed.get_attribute("data-points") == "135"  # 50 for the Ace + 85 (R13-11)
    else:  # R13-13: nobody closed, every seat scored by R13-12
        assert page.locator("#preview .tag.out").count() == 0
        assert page.inner_text("#preview .ending") == "Kartu tumpukan habis: tidak ada yang tutup."
    shown = page.eval_on_selector_all(
        "#preview .result-row", "rows => rows.map(r => Number(r.dataset.points))"
    )
    page.click("#entry-save")
    page.wait_for_selector(f'.game-box[data-game="{game}"][data-status="entered"]')
    stored = comp.round(number)["tables"][table - 1]["games"][game - 1]["entry"]
    assert stored["points"] == shown and stored["closer"] == closer


def confirm_all(page: Page, table: int) -> None:
    """Confirm, as a referee, every game of the table entered by another."""
    pick(page, table)
    entered = page.eval_on_selector_all(
        '.game-box[data-status="entered"]', "boxes => boxes.map(b => b.dataset.game)"
    )
    for game in entered:
        page.click(f"#confirm-{game}")
        page.wait_for_selector(f'.game-box[data-game="{game}"][data-status="confirmed"]')


def physical_round(comp: Comp, number: int, first: Person, second: Person) -> None:
    """Every physical table of the round: its seat draw and games by the first referee,
    confirmed by the second."""
    tables = [t for t in comp.round(number)["tables"] if t["kind"] == "physical"]
    for table in tables:
        page = first.page
        pick(page, table["number"])
        if number == 1 and table["number"] == 2:  # A and B drew the same card: they draw again
            seat_draw(page, {**DRAW, "B": "Ks"})
            wait_text(page, "#draw-submit", "Simpan tarik ulang")
            assert page.is_visible("#draw-A") and not page.is_visible("#draw-C")
            shot(page, "competition-referee-redraw")
            seat_draw(page, {"A": "9c", "B": "Ah"})
        else:
            seat_draw(page, DRAW)
        page.wait_for_selector(".game-seats")
        for game in range(1, GAMES + 1):
            enter_game(comp, page, number, table["number"], game)
        dealt = comp.round(number)["tables"][table["number"] - 1]["games"]
        loser = dealt[0]["entry"]["points"].index(min(dealt[0]["entry"]["points"]))
        assert dealt[1]["dealer"] == loser  # R13-3 (the example's scores do not tie)
        names = page.eval_on_selector_all(".game-seats b", "bs => bs.map(b => b.textContent)")
        deals = page.inner_text('.game-box[data-game="2"] .deals')
        assert deals.startswith(f"{names[loser]} membagi, {names[(loser + 1) % 4]} main pertama")
        if number == 1 and table["number"] == 2:
            shot(page, "competition-referee", full_page=True)
            page.click("#confirm-1")  # the referee who entered it: refused (same_person)
            page.wait_for_selector("#error:not([hidden])")
            assert "Rina" in page.inner_text("#error")
            assert comp.round(1)["tables"][1]["games"][0]["status"] == "entered"
            page.select_option("#confirm-player-2", index=1)  # a player of the table
            pid = page.eval_on_selector("#confirm-player-2", "s => s.value")
            code = next(p["code"] for p in comp.get("/players")["players"] if p["id"] == pid)
            page.fill("#confirm-code-2", "222222" if code != "222222" else "333333")
            page.click("#confirm-as-2")  # a wrong code: refused (bad_code)
            wait_text(page, "#error", "kode ", start=True)
            assert comp.round(1)["tables"][1]["games"][1]["status"] == "entered"
            page.fill("#confirm-code-2", code.lower())  # their own code
            page.click("#confirm-as-2")
            page.wait_for_selector('.game-box[data-game="2"][data-status="confirmed"]')
        confirm_all(second.page, table["number"])


# -- what the pages show -----------------------------------------------------------------------


def expected_rows(comp: Comp) -> dict[str, tuple[int, int, int]]:
    """Each player's total, games and games won, worked out here from the entries; a
    round a player missed (the late entry's first, the withdrawal's last) scores the
    form's default rule: that round's mean of the non-closing scores × its games."""
    total: Counter[str] = Counter()
    games: Counter[str] = Counter()
    won: Counter[str] = Counter()
    seated: dict[int, set[str]] = {}
    missed: dict[int, int] = {}
    for number in range(1, 4):
        open_scores = []
        for table in comp.round(number)["tables"]:
            seated.setdefault(number, set()).update(s["player"] for s in table["seats"])
            for game in table["games"]:
                entry = game["entry"]
                assert game["status"] == "confirmed", (number, table["number"], game)
                for seat, (pid, points) in enumerate(
                    zip(entry["players"], entry["points"], strict=True)
                ):
                    if pid is None:
                        continue  # a bot seat: not in the standings
                    total[pid] += points
                    games[pid] += 1
                    won[pid] += points == max(entry["points"])
                    open_scores += [points] if seat != entry["closer"] else []
        missed[number] = math.floor(Fraction(sum(open_scores) * GAMES, len(open_scores)) + 0.5)
    for pid in games:
        total[pid] += sum(missed[n] for n in missed if pid not in seated[n])
    return {pid: (total[pid], games[pid], won[pid]) for pid in games}


def shown_rows(page: Page) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = page.eval_on_selector_all(
        "#standings tbody tr",
        "rows => rows.map(r => ({player: r.dataset.player, status: r.className,"
        " rank: r.cells[0].textContent, name: r.cells[1].textContent,"
        " total: r.cells[3].textContent, games: r.cells[4].textContent,"
        " won: r.cells[5].textContent}))",
    )
    return rows


def people_at(table: Api) -> list[str]:
    return [s["player"] for s in table["seats"] if s["player"]]


def met(rounds: list[Api]) -> set[frozenset[str]]:
    """The pairs of people who sat at one table in these rounds."""
    return {
        frozenset(pair)
        for round_ in rounds
        for table in round_["tables"]
        for pair in itertools.combinations(people_at(table), 2)
    }


def met_before(rounds: list[Api]) -> int:
    """Pairs of people at one table of the last round who sat at one table before."""
    return len(met(rounds[-1:]) & met(rounds[:-1]))


def fewest_repeats(rounds: list[Api]) -> int:
    """The fewest pairs who met before that any seating of the last round's people at
    tables of its sizes has (a search of every seating, cut where it cannot do better)."""
    seen = met(rounds[:-1])
    tables = [people_at(t) for t in rounds[-1]["tables"]]
    sizes = sorted((len(t) for t in tables), reverse=True)
    people = sorted(p for t in tables for p in t)
    best = len(people) ** 2

    def search(left: list[str], groups: list[list[str]], repeats: int) -> None:
        nonlocal best
        if repeats >= best:
            return
        if not left:
            best = repeats
            return
        person, rest = left[0], left[1:]
        for i, group in enumerate(groups):
            if len(group) == sizes[i]:
                continue
            if not group and any(not groups[j] and sizes[j] == sizes[i] for j in range(i)):
                continue  # an empty table like one before it: the same seatings
            extra = sum(frozenset((person, other)) in seen for other in group)
            group.append(person)
            search(rest, groups, repeats + extra)
            group.pop()

    search(people, [[] for _ in sizes], 0)
    return best


def test_an_organiser_runs_a_competition_of_13_players(served: Served, browser: Browser) -> None:
    organiser = open_person(browser)
    page = organiser.page
    comp = create(page, served)
    for name, club in PLAYERS:
        register(page, name, club)
    for name, _ in PLAYERS:
        check_in(page, name)
    assert page.inner_text("#players h2").endswith("13 registered, 13 checked in")
    ids = {p["name"]: p["id"] for p in comp.get("/players")["players"]}
    for name in REFEREES:
        make_account(page, name)

    first = referee(browser, served, comp, "Rina")
    second = referee(browser, served, comp, "Sari")
    rounds: list[Api] = []
    for number in range(1, 4):
        if number == 2:  # a late entry plays from round 2
            register(page, *LATE)
            check_in(page, LATE[0])
            late = page.locator(f'#player-list tr:has(th:text-is("{LATE[0]}")) .tag.late')
            assert late.is_visible()
            ids[LATE[0]] = next(
                p["id"] for p in comp.get("/players")["players"] if p["name"] == LATE[0]
            )
        if number == 3:
            with_reason(page, "Lukman", "drop", "sakit")
        made = make_round(page, comp, number)
        people = sum(1 for t in made["tables"] for s in t["seats"] if s["player"])
        bots = [s for t in made["tables"] for s in t["seats"] if s["bot"]]
        assert people == (13, 14, 13)[number - 1] and len(bots) == 16 - people
        assert all(s in made["tables"][0]["seats"] for s in bots)  # bots at the online table only
        assert [t["kind"] for t in made["tables"]] == ["online", "physical", "physical", "physical"]
        rounds.append(made)
        repeats = made["quality"]["repeat_meetings"]
        assert repeats == met_before(rounds)  # the quality the API reports is the seating's
        assert repeats == fewest_repeats(rounds), "the seating left an avoidable repeat meeting"
        shot(page, f"competition-admin-round-{number}", full_page=True)
        play_online(comp, number)
        for person in (first, second):
            person.page.reload()
            person.page.wait_for_selector(".table-pick")
        physical_round(comp, number, first, second)
        assert comp.get(f"/rounds/{number}/missing") == []
        if number == 1:  # a correction: a referee, with a reason; the audit log keeps both
            correct(second.page)

    with_reason(page, "Joko", "disqualify", "kartu ditandai")
    check_standings(browser, served, comp, ids)
    check_audit(page, comp)
    check_exports(comp)
    check_prints(browser, served, comp)
    check_projector(browser, served, comp, page)
    token = json.loads(
        first.page.evaluate(f"() => localStorage.getItem('remikit.competition.{comp.cid}.referee')")
    )["token"]
    first.page.click("#logout")  # the server ends the login, not only this browser
    first.page.wait_for_selector("#login-form")
    gone = httpx.get(
        f"{served.url}/api/competitions/{comp.cid}/audit",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert gone.status_code == 401
    for person in (organiser, first, second):
        assert not stray_errors(person), person.errors


def correct(page: Page) -> None:
    pick(page, 3)
    page.click("#correct-1")
    page.check('input[name="entry-kind"][value="points"]')
    for seat, points in enumerate((10, 20, -30, 40)):
        page.fill(f"#points-{seat}", str(points))
    page.fill("#entry-reason", "salah hitung")
    page.click("#entry-check")
    page.wait_for_selector('.game-box[data-game="1"] .who:has-text("salah hitung")')


def check_standings(browser: Browser, served: Served, comp: Comp, ids: dict[str, str]) -> None:
    viewer = open_person(browser)
    page = viewer.page
    page.goto(f"{served.url}/competitions/{comp.cid}")
    page.wait_for_selector("#standings tbody tr")
    shot(page, "competition-public", full_page=True)
    assert page.get_attribute("#qr", "src", timeout=5000)
    qr = httpx.get(f"{served.url}/api/competitions/{comp.cid}/qr.svg")
    assert qr.status_code == 200 and qr.text.startswith("<svg")
    rule = page.inner_text("#absence-rule")
    assert rule and "{" not in rule  # the declared absence rule, its fields filled in
    expected = expected_rows(comp)
    rows = shown_rows(page)
    assert {r["player"] for r in rows} == set(ids.values())
    for row in rows:
        total, games, won = expected[row["player"]]
        assert (int(row["total"]), int(row["games"]), int(row["won"])) == (total, games, won)
    assert rows[-1]["player"] == ids["Joko"] and "disqualified" in rows[-1]["status"]
    assert "kartu ditandai" in rows[-1]["name"]
    lukman = next(r for r in rows if r["player"] == ids["Lukman"])
    assert "dropped" in lukman["status"] and expected[ids["Lukman"]][1] == 2 * GAMES
    ranked = [r for r in rows if r["status"] not in ("disqualified",)]
    totals = [int(r["total"]) for r in ranked]
    assert totals == sorted(totals, reverse=True)
    # the games behind the leader's numbers
    leader = rows[0]
    page.click(f'#standings tr[data-player="{leader["player"]}"] .link-button')
    page.wait_for_selector("#player-games tbody tr")
    traced = page.eval_on_selector_all(
        "#player-games tbody tr[data-entry]",
        "rows => rows.map(r => Number(r.cells[3].textContent))",
    )
    absent = page.eval_on_selector_all(  # a bye or an absence: the points it scored
        "#player-games tbody tr.bye td.total",
        "cells => cells.map(c => Number(c.textContent || 0))",
    )
    assert len(traced) == int(leader["games"])
    assert sum(traced) + sum(absent) == int(leader["total"])
    # a player's table link for the online table
    assert page.locator("#schedule a.table-link").count() >= 3
    page.set_viewport_size(PHONE)
    shot(page, "competition-public-phone", full_page=True)
    assert not stray_errors(viewer), viewer.errors


def check_audit(page: Page, comp: Comp) -> None:
    log = comp.get("/audit")
    corrections = [e for e in log if e["reason"] == "salah hitung"]
    assert len(corrections) == 1
    assert corrections[0]["before"] and corrections[0]["after"]
    assert corrections[0]["before"] != corrections[0]["after"]
    web = [e for e in log if e["what"] == "entry.web"]
    codes = {comp.round(n)["tables"][0]["web_table"] for n in range(1, 4)}
    assert sorted(e["who"] for e in web) == sorted(
        f"web table {c}" for c in codes for _ in range(GAMES)
    )
    made = [e["target"] for e in log if e["what"] == "account.create"]
    assert made == ["account:organiser", "account:referee", "account:Rina", "account:Sari"]
    confirmed = Counter(e["who"] for e in log if e["what"] == "entry.confirm")
    assert confirmed["Sari"] == 3 * 3 * GAMES - 1  # every physical game but the one a player did
    assert confirmed["Rina"] == 1  # a player of the table, with the referee in hand
    page.reload()
    page.wait_for_selector("#audit-all")
    page.click("#audit-all")
    assert page.locator("#audit tbody tr").count() == len(log)
    corrected = page.locator('#audit tr:has([data-what="entry.correct"])')
    assert corrected.count() == 1 and "salah hitung" in corrected.inner_text()
    assert "points: 10 20 -30 40" in corrected.inner_text()  # after, beside what it was


def check_exports(comp: Comp) -> None:
    standings = list(csv.reader(io.StringIO(comp.get("/standings.csv", public=True))))
    shown = comp.get("/standings", public=True)["rows"]
    assert len(standings) == len(shown) + 1  # a header, then a row per player
    by_name = {row["name"]: row for row in shown}
    header = standings[0]
    name_at, total_at = header.index("name"), header.index("total")
    for line in standings[1:]:
        assert int(line[total_at]) == by_name[line[name_at]]["total"]
    scores = list(csv.reader(io.StringIO(comp.get("/rounds/1/scores.csv", public=True))))
    assert len(scores) == 1 + 4 * GAMES * 4  # per table, per game, per seat


def check_prints(browser: Browser, served: Served, comp: Comp) -> None:
    person = open_person(browser)
    page = person.page
    base = f"{served.url}/competitions/{comp.cid}/print"
    page.goto(f"{base}/pairings?round=3")
    page.wait_for_selector("#pairings tbody tr")
    assert page.locator("#pairings tbody tr").count() == 4
    shot(page, "competition-print-pairings", full_page=True)
    page.goto(f"{base}/schedule")
    page.wait_for_selector(".schedule-card")
    assert page.locator(".schedule-card").count() == 13  # 14 people, Joko disqualified
    shot(page, "competition-print-schedule", full_page=True)
    page.goto(f"{base}/sheets?round=3")
    page.wait_for_selector(".table-sheet")
    assert page.locator(".table-sheet").count() == 3  # the physical tables
    assert page.locator(".table-sheet").first.locator(".score-table tbody tr").count() == GAMES
    shot(page, "competition-print-sheets", full_page=True)
    page.emulate_media(media="print")
    assert not page.is_visible("#print") and not page.is_visible("#topbar")
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF")
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 3  # one table a page
    assert not stray_errors(person), person.errors


def check_projector(browser: Browser, served: Served, comp: Comp, admin: Page) -> None:
    admin.reload()
    admin.wait_for_selector("#timer-start")
    admin.click("#timer-start")
    admin.wait_for_selector('#timer-left[data-running="true"]')
    comp.advance(60)
    screen = open_person(browser, viewport={"width": 1920, "height": 1080}, locale="id-ID")
    page = screen.page
    page.goto(f"{served.url}/competitions/{comp.cid}/projector")
    page.wait_for_selector("#standings tbody tr")
    page.wait_for_selector('#timer-left[data-running="true"]')
    assert page.inner_text("#timer-left")[:3] in ("89:", "88:")  # 90 minutes, one gone
    shot(page, "competition-projector")
    admin.click("#timer-pause")
    admin.wait_for_selector('#timer-left[data-running="false"]')
    wait(
        screen, lambda: page.get_attribute("#timer-left", "data-running") == "false", 15, "a pause"
    )
    assert page.inner_text("#timer-left") == "89:00"
    assert not stray_errors(screen), screen.errors
