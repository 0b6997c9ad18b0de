"""Rules and hints in a real browser: the rules page in both languages with a table's
options marked, the option help in the lobby, the "you can close" note with the best
arrangement and the close announced to a spectator (Remi 13 D, R13-7), the "you can go
out" note and going out announced (Three-Thirteen, R3-6), and the warning before a
Rummy 500 discard that can be laid off or called (R5-5, R5-10).

The tables are dealt stacked decks: the hub makes them in a database whose first deck is
then replaced, before ``remi serve`` opens it.
"""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from remikit.cards import Card
from remikit.server.settings import Settings
from remikit.server.tables.registry import Tables
from remikit.server.tables.seats import seat_rng
from remikit.storage.models import DealRow
from remikit.variants.remi13d.seating import draw_seats
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
    wait_text,
)
from tests.stacked import stack_deck

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser", "server"]  # the fixtures

CLOSER = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk"  # docs/rules.md §5: closes with Ah for 135
FEEDER = "5h 6h 7h 8h Kc 2d 9s"  # melds 5h 6h 7h, and the 8h could be laid off on it
BOTS = {"kind": "bot", "level": "greedy"}


def stacked_table(
    folder: Path,
    variant: str,
    seats: list[dict[str, Any]],
    hand: str,
    *,
    options: dict[str, Any],
    seed: str = "1",
    others: dict[int, str] | None = None,
    **deck: str,
) -> str:
    """A table in the database of ``folder`` whose first deal gives seat 0 ``hand`` (and
    the seats of ``others`` theirs; the last seat deals), then the cards ``deck`` names
    (``up``, ``stock``); its code."""

    async def make() -> str:
        hub = Tables(Settings(database_url=f"sqlite:///{folder / 'remikit.db'}"))
        await hub.start()
        try:
            table = await hub.create(
                variant=variant, options=options, seats=seats, title=None, seed=seed
            )
            game = table.game
            size = len(hand.split())
            hands = {0: hand, **(others or {})}
            cards: list[Card] = stack_deck(
                game.full_deck(), hands, dealer=game.players - 1, players=game.players,
                size=size, **deck,
            )  # fmt: skip
            text = " ".join(str(c) for c in cards)
            code = table.id
            await hub.writer.run(
                lambda s: s.execute(
                    update(DealRow)
                    .where(DealRow.table_id == code, DealRow.number == 1)
                    .values(deck=text)
                )
            )
        finally:
            await hub.close()
        return code

    with ThreadPoolExecutor(1) as thread:  # Playwright's loop runs in this thread
        return thread.submit(asyncio.run, make()).result()


def click_cards(page: Page, cards: list[str]) -> None:
    for card in cards:
        page.click(f'#hand .card[data-card="{card}"]:not(.selected) >> nth=0')


def sit_down(person: Person, server: Served, code: str, name: str) -> None:
    page = person.page
    page.goto(f"{server.url}/table/{code}")
    page.wait_for_selector("#join-form")
    page.fill("#join-name", name)
    page.click("#join-submit")
    page.wait_for_function("() => window.remikit?.me === 0")
    page.wait_for_selector("#board[data-my-turn='true']")
    close_seat_draw(person)


STILL = next(str(s) for s in range(10_000) if draw_seats(seat_rng(str(s)), 4).seats == (0, 1, 2, 3))
"""A seed whose seat draw (R13-2) leaves everyone in the seat taken."""


# -- Remi 13 D: you can close ----------------------------------------------------------------


def test_remi13d_the_can_close_note_best_arrangement_and_the_close_announced(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("browser-close")
    seats = [{"kind": "person"}, BOTS, BOTS, BOTS]
    code = stacked_table(folder, "remi13d", seats, CLOSER, options={}, seed=STILL, stock="Ah")
    served = Served(folder)
    person, watcher = open_person(browser), open_person(browser)
    try:
        sit_down(person, served, code, "Budi")
        page = person.page
        watcher.page.goto(f"{served.url}/table/{code}")
        watcher.page.wait_for_selector("#board[data-state-id]")
        close_seat_draw(watcher)
        assert watcher.page.locator("#advice-counter").count() == 0  # a spectator: no hints
        assert (
            page.inner_text("#advice-counter")
            == "0 cards left to meld (0 dead points) · pure run of 4 held"
        )
        assert page.locator("#advice-note").count() == 0
        person.act_and_wait(lambda: page.click("#stock"))
        wait_text(page, "#advice-note", "You can close (tutup) now with A♥.")
        page.click("#advice-show")
        page.wait_for_selector("#advice-best")
        best = page.inner_text("#advice-best")
        assert "Close with A♥" in best and "Points: 135" in best
        assert page.locator("#advice-best li").count() == 4
        shot(page, "rules-can-close")
        click_cards(page, ["Ah"])
        page.click("#btn-close")
        wait_text(watcher.page, "#going-out-text", "Budi closed (tutup) with A♥!")
        wait_text(page, "#going-out-text", "You closed (tutup) with A♥!")
        for someone in (page, watcher.page):  # the results tell it too: then the line goes
            someone.click("#results-close")
            assert someone.is_hidden("#going-out")
        # the Rules button: this table's rules, its options listed and marked
        rules = page.get_attribute("#rules-button", "href")
        assert rules == f"/rules/remi13d?lang=en&table={code}"
        page.goto(served.url + rules)
        assert page.inner_text("h1") == "Rules of Remi 13 D"
        listed = page.locator(".table-options li").all_inner_texts()
        assert "Pure run: no joker R13-6" in listed
        assert page.get_attribute("#R13-6", "class") == "rule table-option"
        marked = page.eval_on_selector("#R13-6", "e => getComputedStyle(e).backgroundColor")
        assert marked not in ("rgba(0, 0, 0, 0)", "transparent")  # rules.css applies
        page.click(".lang-link")
        page.wait_for_url(re.compile(r"lang=id"))
        assert page.inner_text("h1") == "Aturan Remi 13 D"
        assert (
            "Kartu dasar murni: tanpa Joker R13-6"
            in page.locator(".table-options li").all_inner_texts()
        )
        assert "Tutup." in page.inner_text("#R13-7")
        shot(page, "rules-page-id", full_page=True)
        person.no_page_errors()
        watcher.no_page_errors()
    finally:
        person.page.context.close()
        watcher.page.context.close()
        served.stop()


# -- Three-Thirteen: going out is no longer silent --------------------------------------------


def test_three_thirteen_the_go_out_note_and_going_out_announced(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("browser-out")
    seats = [{"kind": "person"}, BOTS]
    code = stacked_table(
        folder, "three-thirteen", seats, "9c 9d Kd", options={"players": 2}, up="9h", stock="4d"
    )
    served = Served(folder)
    person, watcher = open_person(browser), open_person(browser)
    try:
        sit_down(person, served, code, "Wayan")
        page = person.page
        watcher.page.goto(f"{served.url}/table/{code}")
        watcher.page.wait_for_selector("#board[data-state-id]")
        close_seat_draw(watcher)
        assert page.inner_text("#advice-counter") == "Deadwood now: 28"  # R3-7
        person.act_and_wait(lambda: page.click('#discard .card[data-depth="1"]'))
        wait_text(page, "#advice-note", "You can go out: discard K♦.")  # R3-6
        assert page.inner_text("#advice-counter") == "Deadwood now: 0"
        click_cards(page, ["Kd"])
        person.act_and_wait(lambda: page.click("#btn-discard"))
        text = "Wayan went out: everyone else takes one last turn."
        wait_text(watcher.page, "#going-out-text", text)
        person.no_page_errors()
        watcher.no_page_errors()
    finally:
        person.page.context.close()
        watcher.page.context.close()
        served.stop()


# -- Rummy 500: the discard that feeds another player ----------------------------------------


def test_rummy500_warns_before_a_discard_that_can_be_laid_off(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("browser-warn")
    seats = [{"kind": "person"}, BOTS, BOTS]
    code = stacked_table(
        folder, "rummy500", seats, FEEDER, options={"players": 3}, up="Js", stock="Qd"
    )
    served = Served(folder)
    person = open_person(browser)
    try:
        sit_down(person, served, code, "Sari")
        page = person.page
        person.act_and_wait(lambda: page.click("#stock"))

        def meld() -> None:
            click_cards(page, ["5h", "6h", "7h"])
            page.click("#btn-meld")

        person.act_and_wait(meld)
        before = person.board()["stateId"]
        click_cards(page, ["8h"])
        page.click("#btn-discard")
        page.wait_for_selector("#discard-warning")
        warning = page.inner_text("#discard-warning-text")
        assert "8♥ can be laid off onto meld 1." in warning
        assert "Discarding 8♥ gives another player a Rummy! call." in warning
        # beside the Discard button, in the player's own area, and on the screen
        button = page.locator("#btn-discard").bounding_box()
        box = page.locator("#discard-warning").bounding_box()
        assert button is not None and box is not None
        assert page.locator("#board .me #discard-warning").count() == 1
        assert 0 <= box["y"] - (button["y"] + button["height"]) < 80
        assert box["y"] + box["height"] <= page.viewport_size["height"]  # type: ignore[index]
        shot(page, "rules-discard-warning")
        page.click("#discard-cancel")
        assert page.locator("#discard-warning").count() == 0
        assert person.board()["stateId"] == before  # nothing was sent
        page.uncheck("#warn-discard")  # warnings off: the discard goes at once
        person.act_and_wait(lambda: page.click("#btn-discard"))
        assert person.board()["stateId"] != before
        logs = [f["view"]["log"] for f in person.frames if f.get("type") == "state"]
        assert any("p0 discard 8h" in log for log in logs)
        person.no_page_errors()
    finally:
        person.page.context.close()
        served.stop()


# -- the lobby: help beside each option ------------------------------------------------------


def test_the_lobby_explains_every_option_and_links_the_rules(
    server: Served, browser: Browser
) -> None:
    person = open_person(browser)
    page = person.page
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#create-form #variant")
        page.select_option("#variant", "rummy500")
        page.wait_for_selector("#help-opt-floating")
        assert page.get_attribute("#opt-floating", "aria-describedby") == "help-opt-floating"
        assert page.inner_text("#help-opt-floating").startswith("Melding your whole hand")
        link = page.get_attribute("#help-opt-floating a", "href")
        assert link == "/rules/rummy500?lang=en#R5-14"
        assert page.get_attribute("#rules-link", "href") == "/rules/rummy500?lang=en"
        variants = httpx.get(server.url + "/api/variants").json()["variants"]
        for variant in variants:
            page.select_option("#variant", variant["name"])
            helps = page.locator("#create-form fieldset.options small.help").count()
            assert helps == len(variant["options"])
        page.click("#lang-toggle")
        page.select_option("#variant", "rummy500")
        wait_text(page, "#rules-link", "Aturan Remi 500")
        assert page.inner_text("#help-opt-floating").startswith("Menurunkan seluruh kartu")
        rules = httpx.get(server.url + "/rules/rummy500?lang=id")
        assert rules.status_code == 200 and 'id="R5-14"' in rules.text
        person.no_page_errors()
    finally:
        page.context.close()
