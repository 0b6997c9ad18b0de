"""The browser client behind nginx under ``/remi/`` (tests/proxy.py), in Debian's Chromium:
a table made in the lobby and played over the proxied WebSocket, every link under the
prefix, the share box's link and its warning that a loopback link opens only here, and
the QR code as a phone shows it, read back with zxing-cpp.

Outside CI these tests skip when Chromium or nginx is missing; in CI they must run.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import httpx
import pytest
import zxingcpp
from PIL import Image

from tests.browser import (
    PHONE,
    Browser,
    browser,
    create_in_lobby,
    my_turn_ready,
    needs_chromium,
    open_person,
    shot,
    take_simple_turn,
    wait,
)
from tests.proxy import PREFIX, ProxiedServed, needs_nginx

pytestmark = [needs_chromium, needs_nginx, pytest.mark.slow]
__all__ = ["browser"]  # the fixture


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProxiedServed]:
    served = ProxiedServed(tmp_path_factory.mktemp("browser-proxy"))
    try:
        yield served
    finally:
        served.stop()


def test_a_table_through_the_proxy(proxied: ProxiedServed, browser: Browser) -> None:
    person = open_person(browser)
    page = person.page
    code = create_in_lobby(person, proxied, "three-thirteen", name="Budi")
    assert page.url == f"{proxied.url}/table/{code}"
    assert page.get_attribute("#to-lobby", "href") == f"{PREFIX}/"

    # sharing first: once the turn is taken the bots may end the round, and its results
    # then lie over the table's controls
    share_url = f"{proxied.url}/table/{code}"
    page.click("#share-toggle")
    page.wait_for_selector("#share-box", state="visible")
    page.wait_for_function(
        "url => document.querySelector('#share-url').textContent === url", arg=share_url
    )
    assert page.is_visible("#share-local")  # 127.0.0.1 and no public URL: only here
    assert "only on this computer" in page.inner_text("#share-local")
    page.click("#copy-link")
    page.wait_for_selector("#notice.warn", state="visible")
    shot(page, "proxy_table_share")
    page.click("#share-toggle")
    page.wait_for_selector("#share-box", state="hidden")

    wait(person, lambda: my_turn_ready(person), 60, "Budi's turn")
    before = person.board()["stateId"]
    take_simple_turn(person)
    assert person.board()["stateId"] != before  # the proxied socket carried the turn
    person.no_page_errors()
    page.context.close()


def test_the_qr_code_reads_on_a_phone(proxied: ProxiedServed, browser: Browser) -> None:
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "random"}]
    body = {"variant": "rummy500", "seats": seats}
    with httpx.Client(trust_env=False, timeout=30) as http:
        created = http.post(proxied.url + "/api/tables", json=body).json()
    person = open_person(browser, viewport=PHONE, phone=True, locale="id-ID")
    page = person.page
    page.goto(proxied.url.removesuffix(PREFIX) + created["link"])
    page.wait_for_selector("#board[data-state-id]")
    page.click("#share-toggle")
    qr = page.locator("#share-qr")
    qr.wait_for(state="visible")
    page.wait_for_function("() => document.querySelector('#share-qr').complete")
    box = qr.bounding_box()
    assert box is not None and 200 <= box["width"] <= PHONE["width"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert "hanya bisa dibuka di komputer ini" in page.inner_text("#share-local")
    shot(page, "proxy_share_phone")
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(qr.screenshot())))
    assert [code.text for code in found] == [created["share_url"]]
    person.no_page_errors()
    page.context.close()
