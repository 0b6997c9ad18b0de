"""The lobby page's list of open tables in a browser: a page at a time with its range,
filtered by game, by the creator's language and by free seats, in both languages."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.browser import Browser, Served, browser, needs_chromium, open_person, shot

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser"]  # the fixture, used by name

ITEMS = "#table-list .table-item"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server whose lobby holds 27 tables, all from this one address: 22 of Remi 13 D
    made in Indonesian and 4 of Rummy 500 made in English waiting for a person, and one
    of Remi 13 D (in Indonesian) playing."""
    server = Served(
        tmp_path_factory.mktemp("lobby-serve"),
        extra=["--create-rate", "0", "--join-rate", "0", "--max-client-tables", "0"],
    )
    two = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]
    try:
        for variant, lang, count in (("remi13d", "id", 22), ("rummy500", "en", 4)):
            for _ in range(count):
                made = httpx.post(
                    f"{server.url}/api/tables", json={"variant": variant, "lang": lang}
                )
                assert made.status_code == 201, made.text
        playing = httpx.post(
            f"{server.url}/api/tables", json={"variant": "remi13d", "seats": two, "lang": "id"}
        )
        code = playing.json()["table"]["id"]
        for name in ("Ana", "Budi"):  # both seats taken: it plays (and waits for them)
            httpx.post(f"{server.url}/api/tables/{code}/join", json={"name": name})
        yield server
    finally:
        server.stop()


def test_the_lobby_pages_and_filters_its_tables(served: Served, browser: Browser) -> None:
    person = open_person(browser)
    page = person.page
    page.goto(served.url + "/")
    page.wait_for_selector(f"{ITEMS} >> nth=19")
    assert page.locator(ITEMS).count() == 20
    assert page.inner_text("#page-range") == "1–20 of 27"
    assert page.is_disabled("#page-prev")
    page.click("#page-next")
    page.wait_for_function(
        "() => document.querySelectorAll('#table-list .table-item').length === 7"
    )
    assert page.inner_text("#page-range") == "21–27 of 27" and page.is_disabled("#page-next")
    page.select_option("#filter-variant", "rummy500")  # a filter starts again at page one
    page.wait_for_function(
        "() => document.querySelectorAll('#table-list .table-item').length === 4"
    )
    assert page.locator("#table-pager").count() == 0
    page.select_option("#filter-variant", "")
    page.select_option("#filter-lang", "en")
    page.wait_for_function(
        "() => document.querySelectorAll('#table-list .table-item').length === 4"
    )
    page.check("#filter-open")
    page.select_option("#filter-lang", "")
    page.wait_for_selector("#page-range >> text=1–20 of 26")  # the playing table is gone
    page.click("#lang-toggle")
    page.wait_for_selector("#page-range >> text=1–20 dari 26")
    assert "Hanya meja dengan kursi kosong" in page.inner_text("#table-filters")
    shot(page, "lobby_pages", full_page=True)
    page.select_option("#filter-variant", "rummy500")
    page.select_option("#filter-lang", "id")
    page.wait_for_selector("#table-page >> text=Tidak ada meja terbuka yang cocok")
    assert (
        page.inner_text("#table-page") == "Tidak ada meja terbuka yang cocok dengan saringan ini."
    )
    missing = page.evaluate("import('/static/i18n.js').then(m => m.missingTranslations())")
    assert missing == []
    person.no_page_errors()
    page.context.close()
