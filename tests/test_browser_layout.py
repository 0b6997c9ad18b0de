"""The table's layout in a real browser: a Rummy 500 table of eight (the person and seven
bots), played until its discard pile is long, is taller than the window, yet keeps the
person's hand and buttons on the screen, at 1280×860 and on a 390×844 phone."""

from __future__ import annotations

import pytest

from tests.browser import (
    PHONE,
    Browser,
    Person,
    Served,
    browser,
    create_in_lobby,
    my_turn_ready,
    needs_chromium,
    open_person,
    server,
    shot,
    take_simple_turn,
    wait,
)

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser", "server"]  # the fixtures


def in_sight(person: Person, selector: str) -> bool:
    """Whether the element is wholly inside the window as it is scrolled now."""
    box = person.page.locator(selector).first.bounding_box()
    height = person.page.viewport_size["height"]  # type: ignore[index]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_the_hand_stays_in_sight_with_eight_seats_and_a_long_pile(
    server: Served, browser: Browser
) -> None:
    person = open_person(browser, viewport={"width": 1280, "height": 860})
    page = person.page
    seats = {seat: "bot" for seat in range(1, 8)}
    create_in_lobby(person, server, "rummy500", name="Sari", options={"players": "8"}, seats=seats)
    page.wait_for_selector("#warn-discard")
    page.uncheck("#warn-discard")  # any card goes: no warning before a discard

    def long_pile() -> bool:
        if not my_turn_ready(person):
            return False
        view = person.shown_state()["view"]
        if len(view["discard_pile"]) >= 8:
            return True
        take_simple_turn(person)  # stock and a discard: the pile grows by the round
        return False

    wait(person, long_pile, 240, "a discard pile of 8 cards at the person's turn")
    page.evaluate("() => window.scrollTo(0, 0)")  # the top of the page: the felt in view
    taller = "() => document.documentElement.scrollHeight > window.innerHeight"
    assert page.evaluate(taller)  # the seats, melds and pile do not fit the window
    assert in_sight(person, "#hand") and in_sight(person, "#actions")
    assert not page.is_visible("#going-out")  # a going out told: gone once its results close
    shot(page, "layout-rummy500-8-seats")
    page.set_viewport_size(PHONE)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(200)
    assert in_sight(person, "#hand") and in_sight(person, "#actions")
    shot(page, "layout-rummy500-8-seats-phone")
