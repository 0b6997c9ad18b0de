"""Gin Rummy at the web table (RULES.md §4): a game against the random bot from the lobby
to its end, through the first upcard, knocks, the laying down and the end-of-hand panel;
then the record and the replay page. Screenshots go to tests/artifacts/gin_*.png."""

from __future__ import annotations

import re

import httpx
import pytest

from remikit.cards import parse_cards
from remikit.records import replay
from remikit.variants.gin.scoring import deadwood
from tests.browser import (
    Browser,
    Person,
    Served,
    browser,
    close_seat_draw,
    needs_chromium,
    open_person,
    server,
    shot,
    wait,
)

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser", "server"]  # the fixtures

GAME_SECONDS = 240


def create_gin(person: Person, server: Served, name: str, options: dict[str, str]) -> str:
    """A gin table made in the lobby, seat 1 the random bot; its code. The lobby offers
    gin's own options (G-5, G-7, G-10)."""
    page = person.page
    page.goto(server.url + "/")
    page.wait_for_selector("#create-form #variant")
    page.select_option("#variant", "gin")
    for option in ("knock", "oklahoma", "target", "gin_bonus", "undercut_bonus"):
        assert page.is_visible(f"#opt-{option}"), option
    for option, value in options.items():
        page.fill(f"#opt-{option}", value)
        page.dispatch_event(f"#opt-{option}", "change")
    page.select_option("#seat-1-kind", "bot")
    page.select_option("#seat-1-level", "random")
    page.fill("#create-name", name)
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"/table/[0-9A-Z]{8}$"))
    page.wait_for_selector("#board[data-state-id]")
    return page.url.rsplit("/", 1)[1]


def ready(person: Person) -> bool:
    """Seat 0 may act: its turn, nothing in the way (an end-of-hand panel is closed)."""
    close_seat_draw(person)
    page = person.page
    if (
        page.is_visible("#results-close")
        and page.get_attribute("#results .results-box", "data-game-over") == "false"
    ):
        page.click("#results-close")
    board = person.board()
    return board.get("myTurn") == "true" and board.get("busy") == "false"


def over(person: Person) -> bool:
    return person.board().get("gameOver") == "true"


def select(person: Person, cards: list[str]) -> None:
    for card in cards:
        person.page.click(f'#hand .card[data-card="{card}"] >> nth=0')


def play_turn(person: Person, seen: dict[str, int]) -> None:
    """One step of seat 0: pass the first upcard and the wall, draw from the stock, knock
    as soon as the best discard allows (G-5), else discard it, lay down with "Lay down
    best" and say Done (G-6)."""
    page = person.page
    state = person.shown_state()
    view = state["view"]
    phase = view["phase"]
    seen[phase] = seen.get(phase, 0) + 1
    if phase in ("offer", "wall"):
        person.act_and_wait(lambda: page.click("#btn-pass"))
    elif phase == "draw":
        person.act_and_wait(lambda: page.click("#stock"))
    elif phase == "discard":
        found = deadwood(parse_cards(" ".join(view["hand"])))
        assert found.discard is not None
        card = str(found.discard)
        select(person, [card])
        if found.points <= view["knock_limit"]:
            assert page.is_enabled("#btn-knock")
            if "knock" not in seen:
                shot(page, "gin_knock")
            person.act_and_wait(lambda: page.click("#btn-knock"))
        else:
            assert page.is_disabled("#btn-knock")  # a knock over the limit is not offered
            person.act_and_wait(lambda: page.click("#btn-discard"))
    else:  # lay_down, lay_off, defend
        if state.get("lay_down", {}).get("type") != "pass" or phase == "lay_off":
            page.click("#btn-lay-best")
            page.wait_for_function(
                "() => !window.remikit.autoLay"
                " && document.querySelector('#board').dataset.busy === 'false'"
            )
            shot(page, f"gin_{phase}")
        if person.board().get("myTurn") == "true" and person.board()["phase"] == phase:
            person.act_and_wait(lambda: page.click("#btn-pass"))


def test_G3_G5_G6_G7_G10_a_gin_game_at_the_web_table(browser: Browser, server: Served) -> None:
    person = open_person(browser)
    page = person.page
    code = create_gin(person, server, "Ana", {"target": "30"})
    assert "Knock limit 10" in page.inner_text("#knock-limit")
    seen: dict[str, int] = {}
    deadline_steps = 2000
    while not over(person) and deadline_steps:
        deadline_steps -= 1
        wait(person, lambda: ready(person) or over(person), GAME_SECONDS, "seat 0's turn")
        if over(person):
            break
        play_turn(person, seen)
    assert over(person), "the game does not end"
    page.wait_for_selector("#game-over")
    shot(page, "gin_game_over", full_page=True)
    results = page.inner_text("#results")
    assert "Deadwood (" in results  # G-7: each side's deadwood
    assert "lay_down" in seen  # seat 0 knocked and laid down at least once
    assert page.is_visible("#results #score-bonuses")  # G-10
    person.no_page_errors()
    record = httpx.get(f"{server.url}/api/games/{code}/record").json()
    result = replay(record)
    assert result.ok and result.finished
    page.goto(f"{server.url}/static/replay.html?game={code}")
    page.wait_for_selector("#replay-last")
    page.click("#replay-last")
    page.wait_for_function("() => document.querySelector('#replay-step')?.textContent.length > 0")
    shot(page, "gin_replay")
    person.no_page_errors()


@pytest.mark.parametrize("locale", ["id-ID"])
def test_the_gin_table_speaks_indonesian(browser: Browser, server: Served, locale: str) -> None:
    person = open_person(browser, locale=locale)
    page = person.page
    create_gin(person, server, "Budi", {})
    wait(person, lambda: ready(person), 30, "seat 0's turn")
    assert "Batas knock 10" in page.inner_text("#knock-limit")
    if person.board()["phase"] == "offer":
        assert page.inner_text("#btn-pass") == "Lewat"
        assert "Kartu buangan pertama" in page.inner_text("#prompt")
    shot(page, "gin_id_offer")
    person.no_page_errors()
