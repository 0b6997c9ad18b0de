"""Gin Rummy at the web table (RULES.md §4): a game against the random bot from the lobby
to its end, through the first upcard, knocks, the laying down and the end-of-hand panel;
then the record and the replay page; and the hints on stacked hands: the knock and the
best lay-down (G-5, G-6), the defender's lay-offs (G-6), the warning before a discard
that feeds the other player (G-4). Screenshots go to tests/artifacts/gin_*.png."""

from __future__ import annotations

import re

import httpx
import pytest

from remikit.cards import parse_cards
from remikit.records import replay
from remikit.variants.gin.scoring import deadwood
from tests.browser import (
    Browser,
    Page,
    Person,
    Served,
    browser,
    close_seat_draw,
    needs_chromium,
    open_person,
    server,
    shot,
    wait,
    wait_text,
)
from tests.test_browser_rules import click_cards, sit_down, stacked_table

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
        check_hand_results(page)
        page.click("#results-close")
    board = person.board()
    return board.get("myTurn") == "true" and board.get("busy") == "false"


def check_hand_results(page: Page) -> None:
    """G-6, G-7: a hand's results show each lay-off's cards under its label, as cards."""
    text = page.inner_text("#results")
    assert "[object" not in text, text
    groups = page.locator("#results .layoff-group")
    for i in range(groups.count()):
        assert groups.nth(i).locator(".card").count() > 0


def over(person: Person) -> bool:
    return person.board().get("gameOver") == "true"


def select(person: Person, cards: list[str]) -> None:
    for card in cards:
        person.page.click(f'#hand .card[data-card="{card}"] >> nth=0')


def discard(person: Person) -> None:
    """Discard the selected card, past the hints' warning where it feeds the other player
    (G-4)."""
    page = person.page
    page.click("#btn-discard")
    if page.locator("#discard-warning").count():
        page.click("#discard-anyway")


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
            person.act_and_wait(lambda: discard(person))
    else:  # lay_down, lay_off, defend
        if state.get("lay_down", {}).get("type") != "pass" or phase == "lay_off":
            page.click("#btn-lay-best")
            page.wait_for_function(
                "() => !window.remikit.autoLay"
                " && document.querySelector('#board').dataset.busy === 'false'"
            )
            shot(page, f"gin_{phase}")
        else:  # the melds are down: only Done is left, and the button that cannot act is off
            assert page.is_disabled("#btn-lay-best")
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
    check_hand_results(page)
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


# -- hints on stacked hands ------------------------------------------------------------------

KNOCKER = "2s 3s 4s 7h 8h 9h Ks Kh Kd 5c"  # 5 deadwood; with the Ac, knock with 5c for 1
DEFENDER = "5s 6s 6h Kc Qs Qh Qd 9c 8d 2d"  # lays off 5s 6s 6h Kc on the knocker's melds
HINTED = [{"kind": "person"}, {"kind": "bot", "level": "greedy"}]


def test_G5_G6_the_knock_and_the_best_lay_down_in_the_hints(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("browser-gin-knock")
    code = stacked_table(folder, "gin", HINTED, KNOCKER, options={}, up="Ac")
    served = Served(folder)
    person = open_person(browser)
    try:
        sit_down(person, served, code, "Ana")
        page = person.page
        assert page.inner_text("#advice-counter") == "Deadwood now: 5"
        assert page.locator("#advice-note").count() == 0
        person.act_and_wait(lambda: page.click('#discard .card[data-depth="1"]'))
        wait_text(page, "#advice-note", "You can knock now with 5♣ (1 deadwood).")
        assert page.inner_text("#advice-counter") == "Deadwood now: 1"
        page.click("#advice-show")
        page.wait_for_selector("#advice-best")
        best = page.inner_text("#advice-best")
        assert "Knock with 5♣" in best and "Left over: A♣" in best and "Points: 1" in best
        assert page.locator("#advice-best li").count() == 3  # the melds to lay down
        shot(page, "gin_hint_knock")
        click_cards(page, ["5c"])
        person.act_and_wait(lambda: page.click("#btn-knock"))
        assert person.board()["phase"] == "lay_down"
        assert page.locator("#advice-note").count() == 0
        assert page.inner_text("#advice-counter") == "Deadwood now: 1"
        person.no_page_errors()
    finally:
        person.page.context.close()
        served.stop()


def test_G6_the_defender_is_shown_its_lay_offs(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The bot takes the Ac, knocks with the 5c and lays down; seat 0 is shown the lay-offs
    that leave it 19 (the queens melded)."""
    folder = tmp_path_factory.mktemp("browser-gin-lay-off")
    code = stacked_table(folder, "gin", HINTED, DEFENDER, options={}, others={1: KNOCKER}, up="Ac")
    served = Served(folder)
    person = open_person(browser)
    try:
        sit_down(person, served, code, "Ana")
        page = person.page
        person.act_and_wait(lambda: page.click("#btn-pass"))
        page.wait_for_selector("#advice-lay-off")
        text = page.inner_text("#advice-lay-off")
        assert "Lay off these cards (19 deadwood after):" in text
        assert all(card in text for card in ("5♠", "6♠", "6♥", "K♣"))
        assert page.locator("#advice-lay-off li").count() == 4
        page.click("#advice-show")
        page.wait_for_selector("#advice-best")
        assert page.locator("#advice-best li").count() == 5  # the lay-offs, the queens
        assert "Points: 19" in page.inner_text("#advice-best")
        shot(page, "gin_hint_lay_off")
        person.no_page_errors()
    finally:
        person.page.context.close()
        served.stop()


def test_G4_the_warning_before_feeding_the_other_player_in_indonesian(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The bot takes the Ac from the pile; seat 0's 2c may meld with it (the 3c unseen)."""
    folder = tmp_path_factory.mktemp("browser-gin-warn")
    hand = "5s 6s 6h Kc Qs Qh Qd 9c 2c 2d"
    taker = {1: "2s 3s 4s 7h 8h 9h Ks Kh Jd Td"}  # takes the Ac for a K: 31 deadwood
    code = stacked_table(folder, "gin", HINTED, hand, options={}, others=taker, up="Ac", stock="5d")
    served = Served(folder)
    person = open_person(browser, locale="id-ID")
    try:
        sit_down(person, served, code, "Budi")
        page = person.page
        person.act_and_wait(lambda: page.click("#btn-pass"))
        page.wait_for_selector("#board[data-my-turn='true'][data-phase='draw']")
        person.act_and_wait(lambda: page.click("#stock"))
        before = person.board()["stateId"]
        click_cards(page, ["2c"])
        page.click("#btn-discard")
        page.wait_for_selector("#discard-warning")
        warning = page.inner_text("#discard-warning-text")
        assert warning == (
            "2♣ bisa menjadi kartu jadi dengan A♣ yang diambil lawan dari tumpukan buangan."
        )
        shot(page, "gin_hint_warning_id")
        page.click("#discard-cancel")
        assert person.board()["stateId"] == before  # nothing was sent
        person.no_page_errors()
    finally:
        person.page.context.close()
        served.stop()
