"""What the browser tests share: ``remi serve`` in a subprocess, Debian's Chromium
under Playwright, and a :class:`Person` who records every WebSocket frame the page
receives. Screenshots go to tests/artifacts/.

Outside CI the browser tests skip when no Chromium is found; in CI (``CI`` set) they
must run.
"""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pytest

from tests import changes_client

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
URL_LINE = re.compile(r"^remikit: open (http://127\.0\.0\.1:\d+/)$")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}
CALL_WINDOW = 0.8  # seconds: long enough to see the Rummy! button, short enough to play on
ANSWERED_WINDOW = 600.0  # seconds: a window that, in effect, waits for every answer


def find_chromium() -> str | None:
    for candidate in (
        os.environ.get("REMI_CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


CHROMIUM = find_chromium()
IN_CI = bool(os.environ.get("CI"))

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None and not IN_CI,
    reason="no Chromium at /usr/bin/chromium (make test installs Debian's chromium as root: "
    ".ci/install-chromium.sh); in CI these tests always run",
)
"""Every browser test module's ``pytestmark``."""

PlaywrightTimeout: type[Exception] = TimeoutError
"""What a page's wait raises when it runs out (Playwright's own, when it is there)."""
if CHROMIUM is not None or IN_CI:
    from playwright.sync_api import Browser as Browser
    from playwright.sync_api import Page as Page
    from playwright.sync_api import TimeoutError as _PageTimeout
    from playwright.sync_api import ViewportSize, WebSocket, sync_playwright

    PlaywrightTimeout = _PageTimeout
else:  # pragma: no cover - skipped above
    Browser = Page = ViewportSize = WebSocket = Any  # type: ignore[misc,assignment]


# -- the server and the browser -----------------------------------------------------------


class Served:
    """``remi serve`` on a free loopback port with its own SQLite database."""

    def __init__(
        self, folder: Path, *, call_window: float = CALL_WINDOW, extra: Sequence[str] = ()
    ) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("REMI_")}
        self.log = (folder / "serve.log").open("a")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "remikit",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--database",
                f"sqlite:///{folder / 'remikit.db'}",
                "--bot-delay",
                "0.03",
                "--call-window",
                str(call_window),
                *extra,
            ],
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=env,
        )
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], 60)
        assert ready, "remi serve printed no address within 60 s"
        line = self.process.stdout.readline().strip()
        match = URL_LINE.match(line)
        assert match, f"unexpected first line from remi serve: {line!r}"
        self.url = match.group(1).rstrip("/")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("browser-serve"))
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM is not None, "CI=true but no Chromium: run .ci/install-chromium.sh"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def shot(page: Page, name: str, *, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


@dataclass
class Person:
    """One browser context: its page, every WebSocket frame it received, page errors."""

    page: Page
    frames: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "state"]

    def state(self, state_id: int) -> dict[str, Any] | None:
        """The latest state frame with this state id (a state id may repeat)."""
        found = [f for f in self.states() if f["state_id"] == state_id]
        return found[-1] if found else None

    def board(self) -> dict[str, str]:
        data: dict[str, str] = self.page.eval_on_selector("#board", "b => ({...b.dataset})")
        return data

    def hand(self) -> list[str]:
        cards: list[str] = self.page.eval_on_selector_all(
            "#hand .card", "cards => cards.map(c => c.dataset.card)"
        )
        return cards

    def shown_state(self, timeout: float = 5.0) -> dict[str, Any]:
        """The state frame the board shows now."""
        deadline = time.monotonic() + timeout
        while True:
            state_id = self.board().get("stateId", "")
            if state_id:
                frame = self.state(int(state_id))
                if frame is not None:
                    return frame
            assert time.monotonic() < deadline, "the board shows a state no frame brought"
            self.page.wait_for_timeout(20)

    def act_and_wait(self, click: Callable[[], None], timeout: float = 10_000) -> None:
        """Click, then wait until the board shows another state, a call window closed (an
        answer to a window no call could take changes no state) or an error."""
        before = [self.board().get("stateId"), self.board().get("callWindow")]
        click()
        self.page.wait_for_function(
            "([state, window]) => { const b = document.querySelector('#board');"
            " return ((b.dataset.stateId !== state || b.dataset.callWindow !== window)"
            " && b.dataset.busy === 'false') || !document.querySelector('#error').hidden; }",
            arg=before,
            timeout=timeout,
        )

    def no_page_errors(self) -> None:
        assert not self.errors, f"errors in the page: {self.errors}"


def open_person(
    browser: Browser,
    *,
    viewport: ViewportSize = DESKTOP,
    locale: str = "en-US",
    phone: bool = False,
) -> Person:
    context = browser.new_context(
        viewport=viewport, locale=locale, has_touch=phone, is_mobile=phone, device_scale_factor=1
    )
    page = context.new_page()
    page.set_default_timeout(60_000)
    person = Person(page)

    def on_socket(socket: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            text = payload.decode() if isinstance(payload, bytes) else payload
            person.frames.append(changes_client.read(socket, json.loads(text)))

        socket.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    page.on("pageerror", lambda error: person.errors.append(str(error)))
    page.on(
        "console",
        lambda message: person.errors.append(message.text) if message.type == "error" else None,
    )
    return person


class Reachable(Protocol):
    """A server the browser opens: one ``remi serve``, or a site behind nginx."""

    @property
    def url(self) -> str: ...


def create_in_lobby(
    person: Person,
    server: Reachable,
    variant: str,
    *,
    name: str,
    options: dict[str, str] | None = None,
    seats: dict[int, str] | None = None,
) -> str:
    """Make a table through the lobby form and sit down; the table code."""
    page = person.page
    page.goto(server.url + "/")
    page.wait_for_selector("#create-form #variant")
    page.select_option("#variant", variant)
    for option, value in (options or {}).items():
        page.fill(f"#opt-{option}", value)
        page.dispatch_event(f"#opt-{option}", "change")
    for seat, kind in (seats or {}).items():
        page.select_option(f"#seat-{seat}-kind", kind)
    page.fill("#create-name", name)
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"/table/[0-9A-Z]{8}$"))
    page.wait_for_selector("#board[data-state-id]")
    return page.url.rsplit("/", 1)[1]


def close_results(person: Person) -> None:
    if person.page.is_visible("#results-close"):
        person.page.click("#results-close")


def first_other_than(card: str, cards: list[str]) -> str:
    return next(c for c in cards if c != card)


def take_simple_turn(person: Person, *, pick: Callable[[list[str]], str] | None = None) -> None:
    """Draw from the stock and discard (by default the first card that may go)."""
    page = person.page
    if person.board()["phase"] == "draw":
        person.act_and_wait(lambda: page.click("#stock"))
    if person.board().get("myTurn") != "true" or person.board()["phase"] != "discard":
        return
    legal = person.shown_state()["view"]["legal_actions"]
    discards = [a.split(" ", 1)[1] for a in legal if a.startswith("discard ")]
    if not discards:
        return
    card = pick(discards) if pick else discards[0]
    page.click(f'#hand .card[data-card="{card}"] >> nth=0')
    person.act_and_wait(lambda: page.click("#btn-discard"))


def close_seat_draw(person: Person) -> None:
    """Skip the seat draw (R13-2) the table shows before its first game, and close it."""
    for button in ("#seat-draw-skip", "#seat-draw-done"):
        if person.page.is_visible(button):  # clicked where it is now: the show repaints
            person.page.evaluate("(s) => document.querySelector(s)?.click()", button)


def my_turn_ready(person: Person, *, past_results: bool = True) -> bool:
    """Whether the person may act now (the seat draw, and an end-of-deal table unless
    ``past_results`` is false, in the way are closed first)."""
    close_seat_draw(person)
    if past_results:
        close_results(person)
    board = person.board()
    return (
        board.get("myTurn") == "true"
        and board.get("busy") == "false"
        and board.get("callWindow") == "closed"
        and not person.page.is_visible("#results-close")
    )


def wait_text(page: Page, selector: str, text: str, *, start: bool = False) -> None:
    """Wait until the element's text is ``text`` (or starts with it)."""
    check = "startsWith(t)" if start else "trim() === t"
    page.wait_for_function(
        f"([s, t]) => (document.querySelector(s)?.textContent || '').{check}", arg=[selector, text]
    )


def playing(person: Person) -> bool:
    """The last state this person received shows the table playing."""
    states = person.states()
    return states != [] and states[-1]["table"]["status"] == "playing"


def wait(person: Person, until: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        person.page.wait_for_timeout(30)
