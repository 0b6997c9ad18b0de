"""A referee enters a Remi 13 D game on a phone by taps only (docs/competition.md §2): the
card grid's cells count down as cards are used, a full hand passes the grid to the next
seat, the closer and the closing card (R13-7) are two taps, and a whole game of four hands
is at most 70 taps. A problem shows beside the hand it concerns, naming the seat; a second
referee entering the same game is asked before replacing it, and the audit log keeps both.
Screenshots go to tests/artifacts/."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.browser import Browser, Page, Served, browser, needs_chromium, open_person, shot
from tests.test_browser_competition import (
    DRAW,
    HANDS,
    REFEREES,
    Comp,
    check_in,
    create,
    make_account,
    pick,
    referee,
    register,
    seat_draw,
    stray_errors,
)

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser"]  # the fixture

PLAYERS = [("Ayu", "Medan"), ("Budi", "Surabaya"), ("Citra", "Bandung"), ("Dewi", "Medan")]
CELL = '#card-grid .cell[data-card="{}"]'


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = Served(tmp_path_factory.mktemp("browser-competition-grid"))
    try:
        yield running
    finally:
        running.stop()


class Taps:
    """Clicks on the referee's page, counted: the only way the game is entered."""

    def __init__(self, page: Page) -> None:
        self.page, self.count = page, 0

    def __call__(self, selector: str) -> None:
        self.page.click(selector)
        self.count += 1

    def cards(self, cards: list[str]) -> None:
        for card in cards:
            self(CELL.format(card))


def left(page: Page, card: str) -> int:
    return int(page.get_attribute(CELL.format(card), "data-left") or "-1")


def event(page: Page, served: Served) -> Comp:
    """A competition of four players, its first round made with one physical table."""
    comp = create(page, served)
    for name, club in PLAYERS:
        register(page, name, club)
        check_in(page, name)
    for name in REFEREES:  # each referee their own account
        make_account(page, name)
    made = httpx.post(
        f"{served.url}/api/competitions/{comp.cid}/rounds",
        json={"online_tables": []},
        headers={"Authorization": f"Bearer {comp.token}"},
    )
    assert made.status_code == 201, made.text
    return comp


def enter_by_taps(comp: Comp, page: Page) -> None:
    """Game 1 entered by taps, counted; the grid's counts drop as the cards are used."""
    tap = Taps(page)
    tap("#enter-1")
    page.wait_for_selector("#card-grid")
    assert page.evaluate("() => document.documentElement.scrollWidth") == 390  # no sideways
    assert (left(page, "3s"), left(page, "Jk"), left(page, "Ah")) == (2, 4, 2)
    tap.cards(HANDS[0].split()[:4])
    assert left(page, "3s") == 1 and page.inner_text("#count-0") == "4/13 kartu"
    shot(page, "competition-referee-grid")
    tap.cards(HANDS[0].split()[4:])
    assert left(page, "Jk") == 3
    assert page.get_attribute("#seat-tab-1", "aria-pressed") == "true"  # passed on at 13
    for seat in (1, 2, 3):
        tap.cards(HANDS[seat].split())
    assert (left(page, "Jk"), left(page, "Ah"), left(page, "7d")) == (1, 1, 0)
    assert page.is_disabled(CELL.format("7d"))
    hint = page.inner_text("#grid-hint")
    assert hint == "Keempat tangan sudah lengkap."
    tap("#closer-0")  # seat 0 closes with the Ace of hearts (R13-7): only aces and jokers
    assert page.is_disabled(CELL.format("Kh")) and not page.is_disabled(CELL.format("As"))
    tap(CELL.format("Ah"))
    assert left(page, "Ah") == 0 and page.get_attribute("#closing-card", "data-card") == "Ah"
    tap("#entry-check")
    page.wait_for_selector("#preview")
    closed = page.locator('#preview .result-row[data-seat="0"]')
    assert closed.get_attribute("data-points") == "135"  # 50 for the Ace + 85 (R13-11)
    shot(page, "competition-referee-grid-preview", full_page=True)
    tap("#entry-save")
    page.wait_for_selector('.game-box[data-game="1"][data-status="entered"]')
    assert tap.count <= 70, tap.count
    assert tap.count == 1 + 4 * 13 + 2 + 2
    entry = comp.round(1)["tables"][0]["games"][0]["entry"]
    assert entry["hands"] == [h.split() for h in HANDS] and entry["points"] == [135, 25, -100, 55]
    assert entry["closer"] == 0 and entry["closing"] == "Ah"


def errors_beside_hands(comp: Comp, page: Page, names: list[str]) -> None:
    """Game 2: a hand one card short, then a seat that cannot close, each shown beside its
    hand and naming the seat; mended by taps."""
    tap = Taps(page)
    tap("#enter-2")
    page.wait_for_selector("#card-grid")
    short = HANDS[1].split()[:12]
    tap.cards(HANDS[0].split())
    tap.cards(short)
    tap("#seat-tab-2")
    for seat in (2, 3):
        tap.cards(HANDS[seat].split())
    tap("#closer-2")
    tap(CELL.format("Ah"))
    tap("#entry-check")
    page.wait_for_selector("#hand-error-1")
    said = page.inner_text("#hand-error-1")
    assert said == f"Kursi 2 ({names[1]}): 12 kartu, satu tangan perlu 13 kartu"
    assert page.locator('.grid-hand[data-seat="1"] #hand-error-1').count() == 1  # beside it
    assert page.locator("#preview").count() == 0 and page.locator(".hand-error").count() == 1
    shot(page, "competition-referee-grid-error", full_page=True)
    tap("#seat-tab-1")
    tap(CELL.format(HANDS[1].split()[12]))
    assert page.locator("#hand-error-1").count() == 0
    tap("#entry-check")  # seat 2 cannot close with these cards: the server says so
    page.wait_for_selector("#hand-error-2")
    said = page.inner_text("#hand-error-2")
    assert said.startswith(f"Kursi 3 ({names[2]}): tidak bisa tutup"), said
    assert page.locator('.grid-hand[data-seat="2"] #hand-error-2').count() == 1
    tap("#closer-none")
    tap("#entry-check")
    page.wait_for_selector("#preview")
    assert page.inner_text("#preview .ending") == "Kartu tumpukan habis: tidak ada yang tutup."
    tap("#entry-save")
    page.wait_for_selector('.game-box[data-game="2"][data-status="entered"]')


def replace_asked(comp: Comp, page: Page) -> None:
    """Another referee enters game 1 again (typed, the alternative): asked who entered it
    and whether to replace it; replaced, the audit log keeps both entries."""
    first = comp.round(1)["tables"][0]["games"][0]["entry"]
    pick(page, 1)
    page.click("#reenter-1")
    page.click("#entry-typing")
    for seat, hand in enumerate(HANDS):
        page.fill(f"#hand-{seat}", hand)
    assert page.inner_text("#count-3") == "13/13 kartu"
    page.click("#entry-check")
    page.wait_for_selector("#preview")
    page.click("#entry-save")
    page.wait_for_selector("#replace-ask")
    assert page.inner_text("#replace-ask p").startswith("Rina sudah mencatat game ini")
    page.locator("#replace-ask").scroll_into_view_if_needed()
    shot(page, "competition-referee-replace")
    assert comp.round(1)["tables"][0]["games"][0]["entry"]["id"] == first["id"]  # not yet
    page.click("#entry-replace")
    page.wait_for_selector('.game-box[data-game="1"] .who:has-text("Sari")')
    entry = comp.round(1)["tables"][0]["games"][0]["entry"]
    assert entry["replaces"] == first["id"] and entry["entered_by"] == "Sari"
    assert entry["closer"] is None  # typed without a closer: the stock ran out
    entered = [e for e in comp.get("/audit") if e["what"] == "entry.enter"]
    game_1 = [e for e in entered if e["target"].endswith("game:1")]
    assert [(e["who"], e["after"]["entry"]) for e in game_1] == [
        ("Rina", first["id"]),
        ("Sari", entry["id"]),
    ]
    assert game_1[1]["before"]["entry"] == first["id"]


def test_a_referee_enters_a_game_by_taps_on_a_phone(served: Served, browser: Browser) -> None:
    organiser = open_person(browser)
    comp = event(organiser.page, served)
    first = referee(browser, served, comp, "Rina")
    page = first.page
    page.reload()
    page.wait_for_selector(".table-pick")
    pick(page, 1)
    seat_draw(page, DRAW)
    page.wait_for_selector(".game-seats")
    names = page.eval_on_selector_all(".game-seats b", "bs => bs.map(b => b.textContent)")
    enter_by_taps(comp, page)
    errors_beside_hands(comp, page, names)
    second = referee(browser, served, comp, "Sari")
    replace_asked(comp, second.page)
    for person in (organiser, first, second):
        assert not stray_errors(person), person.errors
