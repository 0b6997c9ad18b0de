"""The web table for keyboard, screen reader and phone, in a real browser (Chromium under
Playwright against ``remi serve``): a whole Remi 13 D game by keyboard alone after the
seat draw shown card by card; a 390 px phone at an 8-seat Rummy 500 table (compact seat
badges, the hand and the call buttons in sight during a call window) up to the hand's
results with their points breakdown; the settings (big cards, the four-colour deck) and
errors shown by the hand without moving the board; Rummy 500 by keyboard (a deep pick-up,
a meld or a lay-off onto a chosen meld, a Rummy! call on a chosen pile card). Screenshots
go to tests/artifacts/.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from tests.browser import (
    ANSWERED_WINDOW,
    PHONE,
    Browser,
    Page,
    Person,
    Served,
    browser,
    my_turn_ready,
    needs_chromium,
    open_person,
    server,
    shot,
    wait,
)
from tests.test_browser import early_call, seeded_table

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser", "server"]  # the fixtures

Box = dict[str, float]


def seated(
    person: Person,
    served: Served,
    variant: str,
    *,
    name: str,
    options: dict[str, Any] | None = None,
    seats: list[dict[str, str]] | None = None,
) -> str:
    """Make a table over the API, take seat 0 and open the table page (no clicks); its code."""
    body: dict[str, Any] = {"variant": variant, "options": options or {}}
    if seats is not None:
        body["seats"] = seats
    made = httpx.post(served.url + "/api/tables", json=body)
    assert made.status_code == 201, made.text
    code: str = made.json()["table"]["id"]
    sit(person, served, code, name)
    return code


def sit(person: Person, served: Served, code: str, name: str) -> None:
    """Take seat 0 of table ``code`` over the API and open its page (no clicks)."""
    joined = httpx.post(
        f"{served.url}/api/tables/{code}/join", json={"name": name, "seat": 0, "lang": "en"}
    )
    assert joined.status_code == 200, joined.text
    page = person.page
    page.goto(served.url + "/")  # the origin, for its localStorage
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"remikit.token.{code}", joined.json()["token"]]
    )
    page.goto(f"{served.url}/table/{code}")
    page.wait_for_selector('#board[data-seat]:not([data-seat=""])')


def box(page: Page, selector: str) -> Box:
    found: Box | None = page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; }",
    )
    assert found is not None
    return found


def overlap(a: Box, b: Box) -> bool:
    return (
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and a["y"] < b["y"] + b["height"] - 0.5
        and b["y"] < a["y"] + a["height"] - 0.5
    )


def focused(page: Page) -> dict[str, str]:
    info: dict[str, str] = page.evaluate(
        "() => { const e = document.activeElement; const s = getComputedStyle(e);"
        " return {id: e.id, card: e.dataset.card || '', depth: e.dataset.depth || '',"
        " inHand: String(Boolean(e.closest('#hand'))), selected: e.ariaPressed || '',"
        " outline: s.outlineStyle + ' ' + s.outlineWidth}; }"
    )
    return info


def press(page: Page, *keys: str) -> None:
    for key in keys:
        page.keyboard.press(key)


def ready(person: Person) -> bool:
    """Whether the person may act now (results left open: the test closes them itself)."""
    return my_turn_ready(person, past_results=False)


def focus_hand_card(page: Page, card: str, *, unselected: bool = False) -> None:
    """Walk the hand with the arrow keys to ``card`` (one not selected yet)."""
    press(page, "h", "Home")
    for _ in range(20):
        now = focused(page)
        if now["card"] == card and not (unselected and now["selected"] == "true"):
            return
        press(page, "ArrowRight")
    raise AssertionError(f"{card} not reached in the hand: {focused(page)}")


def tab_to(page: Page, selector: str) -> None:
    """Press Tab (from the hand: Shift + Tab, the piles and melds come before it) until
    the focus is on ``selector``."""
    for _ in range(60):
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
        press(page, "Shift+Tab")
    raise AssertionError(f"Tab never reached {selector}")


def select_cards(page: Page, cards: list[str]) -> None:
    """Select ``cards`` in the hand with the arrow keys and Space."""
    if page.locator("#hand .card.selected").count():
        press(page, "Escape")
    for card in cards:
        focus_hand_card(page, card, unselected=True)
        press(page, "Space")


def key_and_wait(person: Person, *keys: str) -> None:
    """Press the keys, then wait until the board shows another state or an error."""
    person.act_and_wait(lambda: press(person.page, *keys))


# -- a whole Remi 13 D game by keyboard, after the seat draw --------------------------------


def watch_the_seat_draw(person: Person) -> None:
    """The draw turns over one round of cards at a time, then tells the seating."""
    page = person.page
    page.wait_for_selector("#seat-draw-show .draw-row")
    draw = person.states()[-1]["table"]["seat_draw"]
    total = sum(len(d["cards"]) for d in draw)
    seen: set[int] = set()

    def done() -> bool:
        count, over = page.evaluate(
            "() => [document.querySelectorAll("
            "'#seat-draw-show .draw-cards .card:not(.back)').length,"
            " Boolean(document.querySelector('#seating'))]"
        )
        seen.add(count)
        return bool(over)

    wait(person, done, 20, "the seating after the draw")
    # polled, so a loaded machine may miss a frame: some cards, later all, never at once
    between = seen - {0, total}
    assert total in seen and len(between) >= 2, f"not turned one by one: {sorted(seen)}"
    shot(page, "ui_seat_draw")
    view = person.states()[-1]["view"]
    first = page.get_attribute("#seating li:has(#seat-first)", "data-seat")
    dealer = page.get_attribute("#seating li:has(#seat-dealer)", "data-seat")
    # R13-2: the highest card plays first (seat 0), the lowest deals (the last seat)
    assert (first, dealer) == ("0", "3") and view["dealer"] == 3
    assert page.locator("#seating li").count() == 4
    assert focused(page)["id"] == "seat-draw-done"
    press(page, "Enter")
    page.wait_for_selector("#seat-draw-show", state="hidden")


def test_remi13d_game_by_keyboard_alone(server: Served, browser: Browser) -> None:
    person = open_person(browser)
    page = person.page
    seated(person, server, "remi13d", name="Sari", options={"games": 1})
    watch_the_seat_draw(person)
    # shown once per table and device
    page.reload()
    page.wait_for_selector("#board[data-state-id]")
    assert not page.is_visible("#seat-draw-show")
    refused = tabbed = told = False
    deadline = time.monotonic() + 120
    while person.board().get("gameOver") != "true":
        assert time.monotonic() < deadline, "the game did not end within 120 s"
        if not ready(person):
            page.wait_for_timeout(30)
            continue
        if person.board()["phase"] == "draw":
            assert page.title().startswith("● Your turn — "), page.title()
            if tabbed and not told:
                # what the last player did was told, and that it is this player's turn
                last = page.inner_text("#log li:first-child")
                assert page.inner_text("#announce p:last-child") == last
                assert page.inner_text("#announce-urgent p:last-child") == "Your turn"
                told = True
            if not tabbed:  # Tab reaches the stock; Enter draws
                page.evaluate("() => document.activeElement.blur()")
                for _ in range(40):
                    press(page, "Tab")
                    if focused(page)["id"] == "stock":
                        break
                now = focused(page)
                assert now["id"] == "stock", now
                assert now["outline"] == "solid 4px", now  # a clear focus ring
                key_and_wait(person, "Enter")
                tabbed = True
            else:
                key_and_wait(person, "s")
            # the focus moves to the hand, ready to choose a discard
            assert focused(page)["inHand"] == "true", focused(page)
            continue
        legal = person.shown_state()["view"]["legal_actions"]
        if not refused:  # a close the rules refuse: the reason shows by the hand
            card = next(c for c in person.hand() if f"close {c}" not in legal)
            focus_hand_card(page, card)
            press(page, "Space")
            board_before = box(page, "#board")
            key_and_wait(person, "t")
            assert page.is_visible(".me > #error") and page.inner_text("#error").strip()
            assert box(page, "#board") == board_before, "the error moved the board"
            shot(page, "ui_error_by_the_hand")
            press(page, "Escape")  # clears the selection
            assert page.locator("#hand .card.selected").count() == 0
            refused = True
            continue
        closes = [a.split()[1] for a in legal if a.startswith("close ")]
        discards = [a.split()[1] for a in legal if a.startswith("discard ")]
        card, key = (closes[0], "t") if closes else (discards[0], "x")
        focus_hand_card(page, card)
        press(page, "Space")
        assert page.get_attribute(f'#hand .card[data-card="{card}"].selected', "aria-pressed")
        key_and_wait(person, key)
    page.wait_for_selector('#results .results-box[data-game-over="true"]')
    assert focused(page)["id"] == "results-close"  # the dialog takes the focus
    shot(page, "ui_keyboard_game_over")
    press(page, "Enter")
    page.wait_for_selector("#results", state="hidden")
    # the keys are listed in the help panel, in the page's language
    press(page, "?")
    assert page.is_visible("#keys-help")
    assert "draw from the stock" in page.inner_text("#keys-help")
    # every card is named for a screen reader; what happened was announced
    labels = page.eval_on_selector_all(
        ".card:not(.back):not(.slot)", "cs => cs.map(c => c.getAttribute('aria-label'))"
    )
    assert labels and all(" of " in label or "Joker" in label for label in labels), labels
    assert not page.title().startswith("●") and told
    person.no_page_errors()
    page.context.close()


# -- a phone at an 8-seat Rummy 500 table -----------------------------------------------------


def phone_layout_checks(page: Page) -> None:
    panels = page.eval_on_selector_all(
        ".seat-panel",
        "ps => ps.map(p => { const r = p.getBoundingClientRect();"
        " const n = p.querySelector('.name');"
        " return {x: r.x, y: r.y, width: r.width, height: r.height, name: n.textContent,"
        " cut: n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1}; })",
    )
    assert len(panels) == 7
    for i, a in enumerate(panels):
        assert a["x"] >= 0 and a["x"] + a["width"] <= PHONE["width"] + 0.5, a
        assert not a["cut"], f"name cut: {a}"
        for b in panels[i + 1 :]:
            assert not overlap(a, b), (a, b)


IN_SIGHT = (
    "selectors => selectors.every(s => {"
    " const r = document.querySelector(s).getBoundingClientRect();"
    " return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight + 0.5; })"
)
"""Whether every element is wholly inside the viewport."""


def test_phone_at_eight_seats_calls_and_the_results_breakdown(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    served = Served(tmp_path_factory.mktemp("browser-ui-phone"), call_window=ANSWERED_WINDOW)
    try:
        person = open_person(browser, viewport=PHONE, phone=True)
        page = person.page
        seated(person, served, "rummy500", name="Kurniawati", options={"players": 8})
        # the hints' warning before a discard that can be laid off asks first: not here
        page.evaluate("() => localStorage.setItem('remikit.warn_discard', 'off')")
        phone_layout_checks(page)
        shot(page, "ui_phone_8_seats")
        windows = 0
        breakdown = False
        deadline = time.monotonic() + 200
        # play until a call window was answered and a hand's results were seen
        while not (windows and breakdown):
            assert time.monotonic() < deadline, f"{windows} call windows, results {breakdown}"
            if page.is_visible("#results"):  # a hand's results, over the next hand's play
                if not breakdown and page.is_visible("#results .breakdown"):
                    check_breakdown(person)
                    shot(page, "ui_rummy500_results", full_page=True)
                    breakdown = True
                press(page, "Escape")  # on to the next hand
                page.wait_for_selector("#results", state="hidden")
                continue
            board = person.board()
            if board.get("callWindow") == "open" and board.get("discarder") != "0":
                if page.is_enabled("#btn-pass") and not page.is_visible("#results"):
                    page.wait_for_function(IN_SIGHT, arg=["#hand", "#btn-rummy"], timeout=2000)
                    if windows == 0:
                        shot(page, "ui_phone_call_window")
                    windows += 1
                    key_and_wait(person, "n")
                else:
                    page.wait_for_timeout(30)
                continue
            if not ready(person):
                page.wait_for_timeout(30)
                continue
            view = person.shown_state()["view"]
            legal = view["legal_actions"]
            if view["phase"] == "draw":
                key_and_wait(person, "s" if "draw stock" in legal else "n")
                continue
            discards = [a.split()[1] for a in legal if a.startswith("discard ")]
            if not discards:
                page.wait_for_timeout(30)
                continue
            focus_hand_card(page, discards[0])
            press(page, "Space")
            key_and_wait(person, "x")
        person.no_page_errors()
        page.context.close()
    finally:
        served.stop()


def check_breakdown(person: Person) -> None:
    """The results of the hand just over show every seat's points line by line (R5-12)."""
    page = person.page
    summary = person.shown_state()["view"]["finished_deals"][-1]
    for seat, result in enumerate(summary["results"]):
        assert result["held"] is not None
        assert sum(e["points"] for e in result["laid"]) - result["held"] == result["points"]
        row = f'#results .result-row[data-seat="{seat}"]'
        lines = page.locator(f"{row} .breakdown tbody tr").count()
        assert lines == max(1, len(result["laid"])) + 1
        layoffs = page.locator(f"{row} .breakdown tr.layoff").count()
        assert layoffs == sum(e["layoff"] for e in result["laid"])


# -- settings; errors by the hand ---------------------------------------------------------------


def test_settings_big_cards_four_colours_and_not_your_turn(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    served = Served(tmp_path_factory.mktemp("browser-ui-slow"), extra=["--bot-delay", "0.6"])
    try:
        person = open_person(browser)
        page = person.page
        seated(person, served, "three-thirteen", name="Budi")
        width = box(page, "#hand .card")["width"]
        page.click("#prefs-toggle")
        page.check("#pref-bigCards")
        page.check("#pref-fourColour")
        page.check("#pref-sound")  # a beep to hear it (Web Audio)
        assert box(page, "#hand .card")["width"] > width * 1.2
        # the four suits, drawn by the page's own card module: four inks
        inks = page.evaluate(
            "async () => { const {cardElement} = await import('/static/cards.js');"
            " const probe = document.createElement('div'); probe.id = 'probe';"
            " probe.append(...['As', 'Ah', 'Ad', 'Ac'].map((c) => cardElement(c)));"
            " document.body.append(probe);"
            " const inks = [...probe.children].map((card) =>"
            " getComputedStyle(card.querySelector('g[class^=ink-]')).fill);"
            " probe.remove(); return inks; }"
        )
        assert inks == [
            "rgb(27, 27, 27)",
            "rgb(200, 16, 46)",
            "rgb(20, 86, 196)",
            "rgb(22, 128, 58)",
        ]
        page.click("#prefs-toggle")
        shot(page, "ui_big_four_colour")
        # remembered, and on the replay page too
        replay = page.context.new_page()
        replay.goto(served.url + "/static/replay.html?game=NONE")
        replay.wait_for_selector("#prefs-toggle")
        classes = replay.evaluate("document.documentElement.className").split()
        assert {"big-cards", "four-colour"} <= set(classes), classes
        replay.close()
        stored = page.evaluate("JSON.parse(localStorage.getItem('remikit.prefs'))")
        assert stored == {"bigCards": True, "fourColour": True, "sound": True}
        # a click on the stock out of turn says whose turn it is, by the hand
        wait(person, lambda: ready(person), 30, "my turn")
        person.act_and_wait(lambda: page.click("#stock"))
        legal = person.shown_state()["view"]["legal_actions"]
        card = next(a.split()[1] for a in legal if a.startswith("discard "))
        page.click(f'#hand .card[data-card="{card}"] >> nth=0')
        person.act_and_wait(lambda: page.click("#btn-discard"))
        assert person.board()["myTurn"] == "false"
        board_before = box(page, "#board")
        stock = box(page, "#stock")  # a plain click there (the board is redrawn as bots play)
        page.mouse.click(stock["x"] + stock["width"] / 2, stock["y"] + stock["height"] / 2)
        assert page.is_visible(".me > #error")
        assert page.inner_text("#error").startswith("Not your turn:")
        assert box(page, "#board") == board_before
        error, me = box(page, "#error"), box(page, ".me")
        assert overlap(error, me), (error, me)  # by the hand, over the player's seat
        shot(page, "ui_not_your_turn")
        person.no_page_errors()
        page.context.close()
    finally:
        served.stop()


# -- Rummy 500 by keyboard: a deep pick-up, a meld or lay-off, a call ----------------------------


def test_rummy500_by_keyboard(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> None:
    seed, call_state = early_call()
    folder = tmp_path_factory.mktemp("browser-ui-rummy500")
    code = seeded_table(folder, seed)
    served = Served(folder, call_window=ANSWERED_WINDOW)
    try:
        person = open_person(browser)
        sit(person, served, code, "Eka")
        play_rummy500_by_keys(person, call_state)
    finally:
        served.stop()


def play_rummy500_by_keys(person: Person, call_state: int) -> None:
    """The turns of test_browser's Rummy 500 test, by keys: the same choices, so the seed's
    call window comes at ``call_state``."""
    page = person.page
    deep = table = called = False
    deadline = time.monotonic() + 80
    while not (deep and table and called):
        assert time.monotonic() < deadline, f"deep {deep}, meld {table}, call {called}"
        board = person.board()
        if board.get("callWindow") == "open" and board.get("discarder") != "0":
            if not page.is_enabled("#btn-pass"):
                page.wait_for_timeout(25)
            elif int(board["stateId"]) == call_state:
                legal = person.shown_state()["view"]["legal_actions"]
                depth = next(a for a in legal if a.startswith("rummy ")).split()[1]
                press(page, "h")
                tab_to(page, f'#discard .card[data-depth="{depth}"]')
                press(page, "Enter")  # the card to call
                assert page.is_visible(f'#discard .card[data-depth="{depth}"].call-target')
                key_and_wait(person, "r")
                sent = [f for f in person.frames if f.get("type") == "call_pending"]
                assert sent, "the call was not sent"
                called = True
            else:
                key_and_wait(person, "n")
            continue
        if not ready(person):
            page.wait_for_timeout(25)
            continue
        view = person.shown_state()["view"]
        legal = view["legal_actions"]
        if view["phase"] == "draw":
            deeper = [a for a in legal if a.startswith("draw discard ")]
            if deeper and not deep:
                depth = deeper[-1].split()[-1]
                press(page, "h")
                tab_to(page, f'#discard .card[data-depth="{depth}"]')
                key_and_wait(person, "Enter")
                assert person.shown_state()["view"]["log"][-1] == f"p0 draw discard {depth}"
                deep = True
            else:
                key_and_wait(person, "s" if "draw stock" in legal else "n")
            continue
        owed = view["must_meld"]
        plays = [a for a in legal if a.startswith(("meld ", "layoff ")) and "Jk" not in a]
        if owed:
            mine = [a for a in plays if owed in [p.split("=")[0] for p in a.split()[1:]]]
            choice = (mine or plays or [None])[0]
        else:
            choice = plays[0] if plays and not table else None
        if choice:
            parts = choice.split()
            if parts[0] == "meld":
                select_cards(page, parts[1:])
                key_and_wait(person, "m")
            else:
                select_cards(page, [parts[1]])
                tab_to(page, f'.table-meld[data-meld="{parts[3]}"]')
                key_and_wait(person, "Enter")
            assert person.shown_state()["view"]["log"][-1] == f"p0 {choice}"
            table = True
            continue
        discards = [a.split()[1] for a in legal if a.startswith("discard ")]
        if discards:
            select_cards(page, [discards[0]])
            key_and_wait(person, "x")
        else:
            page.wait_for_timeout(25)
    shot(page, "ui_rummy500_keyboard")
    person.no_page_errors()
    page.context.close()
