"""Absent players in a real browser: the turn timer on a test clock (``remi serve
--manual-clock``, moved on by ``POST /api/clock``) runs out, the stand-in bot plays the
person's turn and the page says so, "I'm back" gives the seat back; a person who closes
their browser is played by the stand-in after the grace period, and the table's creator
replaces them by a bot from the next deal."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from remikit.server.tables.timers import SHOW_MAX
from tests.browser import (
    Browser,
    Person,
    Served,
    browser,
    needs_chromium,
    open_person,
    shot,
    wait_text,
)

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser"]  # the fixture


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("browser-absent")
    # each bot move waits a second of the test clock: bots move only when the test says
    running = Served(folder, extra=["--bot-delay", "1", "--manual-clock"])
    try:
        yield running
    finally:
        running.stop()


def new_table(served: Served, seats: list[dict[str, Any]], settings: dict[str, Any]) -> Any:
    body = {"variant": "three-thirteen", "options": {"players": 2}, "seats": seats}
    response = httpx.post(f"{served.url}/api/tables", json=body | {"settings": settings})
    assert response.status_code == 201, response.text
    return response.json()


def advance(served: Served, seconds: float) -> None:
    response = httpx.post(f"{served.url}/api/clock", json={"seconds": seconds})
    assert response.status_code == 200, response.text


def sit(person: Person, served: Served, code: str, name: str, seat: int) -> None:
    page = person.page
    page.goto(f"{served.url}/table/{code}")
    page.wait_for_selector("#join-form")
    page.fill("#join-name", name)
    page.select_option("#join-seat", str(seat))
    page.click("#join-submit")
    page.wait_for_selector(f'#board[data-seat="{seat}"]')


def test_the_turn_timer_runs_out_and_the_stand_in_plays(served: Served, browser: Browser) -> None:
    people = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
    code = new_table(served, people, {"turn_time": 10, "stand_in": "random"})["table"]["id"]
    person = open_person(browser)
    page = person.page
    sit(person, served, code, "Tono", 0)
    while person.board().get("myTurn") != "true":  # the bot first: a second for its move
        advance(served, 1)
        page.wait_for_timeout(100)
    wait_text(page, "#turn-timer", "Your time: 10 s")
    shot(page, "absent-timer")
    before = int(person.board()["stateId"])
    advance(served, 10)
    wait_text(page, "#notice", "Tono ran out of time", start=True)
    wait_text(page, ".away-me", "A bot is playing for you. I'm back")
    assert person.board()["myTurn"] == "true"  # the stand-in thinks: a second to its move
    advance(served, 1)
    page.wait_for_function(
        f"() => Number(document.querySelector('#board').dataset.stateId) > {before}"
    )
    shot(page, "absent-stand-in")
    page.click("#btn-back")
    page.wait_for_selector("#btn-back", state="detached")
    wait_text(page, "#notice", "Tono is back", start=True)
    advance(served, 1)  # the stand-in's next move, had it kept the seat: it did not
    page.wait_for_timeout(300)
    assert int(person.board()["stateId"]) == before + 1
    person.no_page_errors()


def test_a_person_who_leaves_is_replaced_by_the_creator(served: Served, browser: Browser) -> None:
    people = [{"kind": "person"}, {"kind": "person"}]
    created = new_table(served, people, {"turn_time": None, "grace": 0})
    code = created["table"]["id"]
    creator, friend = open_person(browser), open_person(browser)
    creator.page.goto(f"{served.url}/")
    creator.page.evaluate(
        "([key, token]) => localStorage.setItem(key, token)",
        [f"remikit.owner.{code}", created["owner_token"]],  # as the lobby keeps it
    )
    sit(creator, served, code, "Ayu", 0)
    sit(friend, served, code, "Budi", 1)
    creator.page.wait_for_selector('.seat-panel[data-seat="1"]')
    friend.page.context.close()  # Budi walks away: the grace period is 0
    page = creator.page
    page.wait_for_selector('.seat-panel[data-seat="1"] .tag.away-bot')
    wait_text(page, "#notice", "Budi left the table", start=True)
    page.click('#replace [data-seat="1"] button[data-kind="bot"]')
    wait_text(page, '#replace [data-seat="1"] .muted', "replaced from the next deal")
    shot(page, "absent-replaced")
    creator.no_page_errors()


def test_the_settings_chosen_in_the_lobby_are_shown_at_the_table(
    served: Served, browser: Browser
) -> None:
    person = open_person(browser)
    page = person.page
    page.goto(f"{served.url}/")
    page.wait_for_selector("#create-form #variant")
    page.select_option("#variant", "three-thirteen")
    page.select_option("#set-turn-time", label="off")
    page.select_option("#set-stand-in", label=page.inner_text("#set-stand-in option >> nth=0"))
    page.select_option("#set-bot-speed", label="fast")
    page.uncheck("#set-hints")
    assert "stand-in bot plays" in page.inner_text("#help-set-turn-time")
    page.fill("#create-name", "Sari")
    page.click("#create-submit")
    page.wait_for_selector("#table-settings")
    code = page.url.rsplit("/", 1)[1]
    settings = httpx.get(f"{served.url}/api/tables/{code}").json()["table"]["settings"]
    assert settings["turn_time"] is None and settings["bot_speed"] == "fast"
    assert settings["hints"] is False
    assert page.inner_text("#table-settings").startswith("Turn time off")
    assert page.evaluate(f"() => localStorage.getItem('remikit.owner.{code}')")
    shot(page, "absent-settings")
    person.no_page_errors()


def test_R13_2_no_turn_time_runs_behind_the_seat_draw_show(
    served: Served, browser: Browser
) -> None:
    """The person's turn time starts again, whole, once the seat draw show is closed; its
    Skip and Start buttons take an ordinary click while the cards turn over."""
    seats = [{"kind": "person"}] + [{"kind": "bot", "level": "random"}] * 3
    body = {"variant": "remi13d", "options": {"games": 1}, "seats": seats}
    response = httpx.post(f"{served.url}/api/tables", json=body | {"settings": {"turn_time": 30}})
    assert response.status_code == 201, response.text
    code = response.json()["table"]["id"]
    person = open_person(browser)
    page = person.page
    page.goto(f"{served.url}/table/{code}")
    page.wait_for_selector("#join-form")
    page.fill("#join-name", "Tono")
    page.click("#join-submit")  # the seat draw (R13-2) then says where Tono sits
    page.wait_for_selector("#seat-draw-show .draw-row")
    while person.board().get("myTurn") != "true":  # the bots before: a second a move
        advance(served, 1)
        page.wait_for_timeout(100)
    assert page.is_visible("#seat-draw-show")
    # the show covers the table: the turn has the show's time more, until the table is seen
    timer = page.evaluate("() => window.remikit.message.table.timer")
    assert timer["duration_ms"] == (30 + SHOW_MAX) * 1000
    page.click("#seat-draw-skip", timeout=5000)
    page.click("#seat-draw-done", timeout=5000)
    page.wait_for_selector("#seat-draw-show", state="hidden")
    wait_text(page, "#turn-timer", "Your time: 30 s")
