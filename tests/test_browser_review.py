"""The review of a finished game on its replay page: a seat's review started, its progress,
then each decision's mark and the chart, clickable, and the end of the deal, in English and
Indonesian.
Screenshots go to tests/artifacts/review_*.png."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.browser import Browser, Served, browser, needs_chromium, open_person, shot

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser"]  # the fixture


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = Served(tmp_path_factory.mktemp("review-serve"), extra=["--review-budget", "0.001"])
    try:
        yield server
    finally:
        server.stop()


def finished_gin(served: Served) -> str:
    """A game of Gin Rummy to 1 point between two greedy bots, once it is over."""
    seats = [{"kind": "bot", "level": "greedy"}] * 2
    body = {"variant": "gin", "options": {"target": 1}, "seats": seats}
    code: str = httpx.post(f"{served.url}/api/tables", json=body).json()["table"]["id"]
    for _ in range(1500):
        if httpx.get(f"{served.url}/api/games/{code}").status_code == 200:
            return code
        time.sleep(0.02)
    raise AssertionError("the bots did not finish the game")


@pytest.mark.parametrize("locale", ["en-US", "id-ID"])
def test_a_seat_is_reviewed_on_the_replay_page(
    browser: Browser, served: Served, locale: str
) -> None:
    code = finished_gin(served)
    person = open_person(browser, locale=locale)
    page = person.page
    page.goto(f"{served.url}/static/replay.html?game={code}")
    page.click("#review-seat-1")
    page.wait_for_selector("#review-chart .point")
    assert page.get_attribute("#review", "data-status") == "done"
    assert page.input_value("#replay-seat") == "1"  # the reviewed seat's view
    summary = page.inner_text("#review-summary")
    assert ("decisions" if locale == "en-US" else "keputusan") in summary
    points = page.locator("#review-chart .point")
    assert points.count() > 0
    # a click on the chart goes to that decision's step, which shows its mark
    last = points.nth(points.count() - 1)
    step = last.get_attribute("data-step")
    last.click()
    page.wait_for_function(
        "(step) => new URL(location.href).searchParams.get('step') === step", arg=step
    )
    verdict = page.get_attribute("#review-decision", "data-verdict")
    assert verdict in ("best", "good", "inaccuracy", "mistake", "blunder")
    assert page.inner_text("#review-verdict")
    assert "±" in page.inner_text("#review-cost")
    marked = page.locator("#review-chart .point:not(.verdict-best)")
    if marked.count():  # a decision the bot would have made otherwise: its choice and reasons
        marked.first.click()
        page.wait_for_selector("#review-reasons li")
        assert page.inner_text("#review-best")
    shot(page, f"review_{locale}", full_page=True)
    # the end of the deal: its review, and every hand's melds and dead cards
    page.click("#replay-last")
    page.wait_for_selector("#review-deal")
    assert page.locator("#side .deal-results .result-row").count() == 2
    assert page.locator("#side .deal-results .melds-group").count() == 2
    page.click("#replay-first")
    none = "No decision" if locale == "en-US" else "Tidak ada keputusan"
    assert none in page.inner_text("#review-decision")
    person.no_page_errors()
