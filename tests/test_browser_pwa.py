"""The installable app in a real browser: the pages register the service worker and
name the manifest, whose icons and start URL are there; a reload with the network cut
serves the client from the worker's cache; at a table, a dropped network shows the
last state and the offline banner, the page reconnects by itself when the network is
back, and an action sent as the network went is applied once (the server's stored
actions say so) and refused when sent again."""

from __future__ import annotations

import sqlite3
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import httpx
import pytest

from tests.browser import (
    DESKTOP,
    PHONE,
    Browser,
    Page,
    Person,
    Served,
    browser,
    needs_chromium,
    open_person,
    shot,
    take_simple_turn,
    wait,
)
from tests.proxy import PREFIX, ProxiedServed, needs_nginx

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser"]  # the fixture

OFFLINE_ERROR = "net::ERR_INTERNET_DISCONNECTED"
"""What Chromium logs for each request that finds no network: expected while offline."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = Served(tmp_path_factory.mktemp("browser-pwa"))
    try:
        yield running
    finally:
        running.stop()


def database(served: Served) -> Path:
    log_file = Path(served.log.name)
    return log_file.parent / "remikit.db"


def stored_actions(served: Served, code: str) -> list[tuple[int, str]]:
    """The table's applied actions as the server stored them: (seat, record text)."""
    with sqlite3.connect(database(served)) as db:
        rows = db.execute(
            'SELECT seat, action FROM actions WHERE table_id = ? ORDER BY "index"', (code,)
        ).fetchall()
    return [(int(seat), str(text)) for seat, text in rows]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def controlled(page: Page) -> None:
    """Wait until the page's worker is active and answers the page's requests."""
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def no_errors_but_offline(person: Person) -> None:
    errors = [e for e in person.errors if OFFLINE_ERROR not in e]
    assert not errors, f"errors in the page: {errors}"


MANIFEST = """async () => {
  const link = document.querySelector('link[rel="manifest"]');
  const response = await fetch(link.href);
  const type = response.headers.get('content-type');
  return {url: response.url, type, body: await response.json()};
}"""


def installs_and_opens_without_network(person: Person, root: str, name: str) -> None:
    """The lobby at ``root`` (the site's address, under its root path) registers its
    worker for the whole site, links the manifest, and opens again without network."""
    page = person.page
    page.goto(f"{root}/")
    page.wait_for_selector("#create-form #variant")
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == f"{root}/"
    manifest: dict[str, Any] = page.evaluate(MANIFEST)
    body = manifest["body"]
    assert manifest["type"].startswith("application/manifest+json")
    assert body["name"] == body["short_name"] == "remikit"
    assert body["display"] == "standalone"
    assert urljoin(manifest["url"], body["start_url"]) == f"{root}/"
    assert urljoin(manifest["url"], body["scope"]) == f"{root}/"
    sizes: dict[str, set[int]] = {}
    for icon in body["icons"]:
        response = httpx.get(urljoin(manifest["url"], icon["src"]))
        assert response.status_code == 200 and response.headers["content-type"] == "image/png"
        width, height = png_size(response.content)
        assert icon["sizes"] == f"{width}x{height}"
        sizes[icon["purpose"]] = sizes.get(icon["purpose"], set()) | {width}
    assert sizes == {"any": {192, 512}, "maskable": {512}}
    controlled(page)
    assert page.is_hidden("#offline")

    page.context.set_offline(True)
    page.wait_for_selector("#offline")  # the banner, before any reload
    page.reload()
    page.wait_for_selector("#create-form #variant")  # the page, its modules and texts: cached
    assert page.inner_text("#new-table h2") == "New table"
    assert page.is_visible("#offline")
    assert page.inner_text("#offline").startswith("Offline:")
    page.wait_for_selector("#error:has-text('no network')")  # the lists could not be fetched
    shot(page, name)
    page.goto(f"{root}/verify")  # another page of the shell, never opened online
    page.wait_for_selector("#verify-file")
    page.context.set_offline(False)
    page.wait_for_selector("#offline", state="hidden")
    no_errors_but_offline(person)


def test_the_app_installs_and_opens_without_network(served: Served, browser: Browser) -> None:
    for path in ("/", "/verify", "/table/ABCDEFGH", "/static/replay.html", "/rules/remi13d"):
        page_html = httpx.get(f"{served.url}{path}").text
        assert '<link rel="manifest"' in page_html, path
    installs_and_opens_without_network(open_person(browser), served.url, "pwa-lobby-offline")


@needs_nginx
def test_the_app_under_a_path_prefix(
    tmp_path_factory: pytest.TempPathFactory, browser: Browser
) -> None:
    proxied = ProxiedServed(tmp_path_factory.mktemp("browser-pwa-proxy"))
    try:
        assert proxied.url.endswith(PREFIX)
        installs_and_opens_without_network(open_person(browser), proxied.url, "pwa-proxy-offline")
    finally:
        proxied.stop()


def new_table(served: Served) -> str:
    body = {
        "variant": "three-thirteen",
        "options": {"players": 2},
        "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}],
        "settings": {"turn_time": None},
    }
    response = httpx.post(f"{served.url}/api/tables", json=body)
    assert response.status_code == 201, response.text
    code: str = response.json()["table"]["id"]
    return code


def my_draw(person: Person) -> None:
    """Wait until the person is to draw (the bot moves first or not)."""
    person.page.wait_for_function(
        "() => { const b = document.querySelector('#board').dataset;"
        " return b.myTurn === 'true' && b.phase === 'draw' && b.busy === 'false'; }"
    )


def test_a_dropped_network_at_the_table(served: Served, browser: Browser) -> None:
    code = new_table(served)
    person = open_person(browser)
    page = person.page
    page.goto(f"{served.url}/table/{code}")
    page.fill("#join-name", "Wati")
    page.click("#join-submit")
    page.wait_for_selector('#board[data-seat="0"]')
    controlled(page)
    my_draw(person)
    state_id = int(person.board()["stateId"])
    hand = person.hand()
    before = stored_actions(served, code)
    legal = person.shown_state()["view"]["legal_actions"]
    draw = next(a for a in legal if a.startswith("draw") and "discard" not in a)

    # the draw goes out as the network goes: the page closes its socket on `offline`
    page.click("#stock")
    page.context.set_offline(True)
    page.wait_for_selector("#offline")
    assert person.board()["busy"] == "true"  # no action can go while offline
    assert len(person.hand()) in (len(hand), len(hand) + 1)  # the last state stays
    shot(page, "pwa-table-dropped")

    page.reload()  # without network: the page from the cache, the last state from the tab
    page.wait_for_selector("#board[data-state-id] #hand .card")
    assert page.is_visible("#offline")
    assert person.board()["busy"] == "true"
    shot(page, "pwa-table-offline-reload")
    page.set_viewport_size(PHONE)
    shot(page, "pwa-table-offline-phone")
    page.set_viewport_size(DESKTOP)

    sockets_before = len([f for f in person.frames if f.get("type") == "welcome"])
    page.context.set_offline(False)
    page.wait_for_selector("#offline", state="hidden")
    page.wait_for_function(
        f"() => (window.remikit.live && window.remikit.message.state_id > {state_id})"
    )
    assert len([f for f in person.frames if f.get("type") == "welcome"]) == sockets_before + 1
    after = stored_actions(served, code)
    assert after[: len(before)] == before
    assert [seat for seat, _ in after[len(before) :]] == [0]  # the draw, once
    assert after[len(before)][1].endswith(draw)
    board = person.board()
    assert board["phase"] == "discard" and board["myTurn"] == "true"
    assert len(person.hand()) == len(hand) + 1

    # the same action again, as a blind resend would: the state id it carries is gone
    page.evaluate(
        "([id, action]) => window.remikit.socket.send(JSON.stringify("
        "{type: 'action', state_id: id, action, ref: 'again'}))",
        [state_id, draw],
    )

    def refused() -> list[dict[str, Any]]:
        return [f for f in person.frames if f.get("type") == "error" and f.get("ref") == "again"]

    wait(person, lambda: bool(refused()), 10, "the answer to the action sent again")
    assert refused()[0]["code"] == "stale_state"
    assert stored_actions(served, code) == after

    # play goes on: discard, the bot answers, the person's turn comes again
    take_simple_turn(person)
    my_draw(person)
    assert len(stored_actions(served, code)) >= len(after) + 2
    shot(page, "pwa-table-back")
    no_errors_but_offline(person)
