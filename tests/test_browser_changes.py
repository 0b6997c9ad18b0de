"""State changes in a real browser: a person's states recorded at a real table (a
WebSocket client playing a simple policy against bots) are played to two table pages
over a socket the test stands in for (Playwright's ``route_web_socket``): one gets every
state whole, the other the first whole and then ``change`` messages
(:func:`remikit.server.transport.changes.change_message`). After every message both
pages show exactly the same thing, through a gap (a change from a rev the page does not
hold: it asks ``sync`` and gets the whole state) and a presence update the next change
does not mention (what the page shows comes from the state, not from the presence)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from remikit.server.transport.changes import State, change_message
from tests import changes_client
from tests.browser import Browser, Page, Served, browser, needs_chromium, open_person, server

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser", "server"]  # the fixtures

STATES = 90
"""The person's states recorded (several deals of Three-Thirteen's first rounds)."""
FIRSTS = ("close", "knock", "draw stock", "discard", "pass")
WATCHED = 12
"""The message after which a spectator comes and goes (two presence updates)."""
SHOWN = """() => {
  const body = document.body.cloneNode(true);
  body.querySelectorAll("[data-ends-at]").forEach((e) => e.removeAttribute("data-ends-at"));
  return document.title + "\\n" + body.innerHTML;
}"""


def choice(legal: list[str]) -> str:
    return next((a for first in FIRSTS for a in legal if a.startswith(first)), legal[0])


def record(served: Served, variant: str) -> tuple[int, list[dict[str, Any]]]:
    """A person's seat at a table of ``variant`` against bots: its seat and the state and
    presence messages it received, playing a simple policy, up to :data:`STATES` states
    or the game's end."""
    seats = [{"kind": "person"}, {"kind": "bot", "level": "greedy"}]
    body = {"variant": variant, "options": {"players": 2}, "seats": seats}
    settings = {"turn_time": None, "hints": True}
    made = httpx.post(f"{served.url}/api/tables", json=body | {"settings": settings})
    assert made.status_code == 201, made.text
    code = made.json()["table"]["id"]
    joined = httpx.post(f"{served.url}/api/tables/{code}/join", json={"name": "Budi"}).json()
    socket_url = served.url.replace("http", "ws", 1) + f"/ws/tables/{code}"
    messages: list[dict[str, Any]] = []
    with connect(socket_url) as ws:
        ws.send(json.dumps({"type": "hello", "token": joined["token"], "lang": "en"}))
        seat = json.loads(ws.recv(10))["seat"]
        acted = -1
        over = False
        while not over and sum(m["type"] == "state" for m in messages) < STATES:
            message = changes_client.read(ws, json.loads(ws.recv(10)))  # changes: states
            if message["type"] not in ("state", "presence"):
                continue
            messages.append(message)
            over = message.get("view", {}).get("game_over", False)
            legal = message.get("view", {}).get("legal_actions")
            if legal and message["state_id"] > acted:
                acted = message["state_id"]
                answer = {"type": "action", "state_id": acted, "action": choice(legal)}
                ws.send(json.dumps(answer))
            if len(messages) == WATCHED:  # someone comes to watch: a presence update
                with connect(socket_url) as watcher:
                    watcher.send(json.dumps({"type": "hello", "lang": "en"}))
                    watcher.recv(10)
    return seat, messages


class Stand:
    """The socket a page opens, stood in for by the test: it welcomes the page to
    ``seat`` and keeps what the page sends."""

    def __init__(self, page: Page, seat: int) -> None:
        self.sent: list[dict[str, Any]] = []
        self.route: Any = None
        self.last: State | None = None

        def handler(route: Any) -> None:
            self.route = route

            def on_message(text: str | bytes) -> None:
                message = json.loads(text)
                self.sent.append(message)
                if message["type"] == "hello":
                    welcome = {"type": "welcome", "protocol": 4, "seat": seat, "name": "Budi"}
                    route.send(json.dumps(welcome | {"table_id": "", "lang": "en"}))
                elif message["type"] == "sync" and self.last is not None:
                    route.send(json.dumps(self.last))

            route.on_message(on_message)

        page.route_web_socket(re.compile(r"/ws/tables/"), handler)

    def send(self, message: dict[str, Any]) -> None:
        self.route.send(json.dumps(message))


def with_rev(state: State, rev: int) -> State:
    """The state with its ``rev`` (after ``state_id``, where a server puts it)."""
    state = {k: v for k, v in state.items() if k != "rev"}
    keys = list(state)
    at = keys.index("state_id") + 1
    return {k: state[k] for k in keys[:at]} | {"rev": rev} | {k: state[k] for k in keys[at:]}


def shown(page: Page, rev: int) -> str:
    page.wait_for_function("(rev) => window.remikit.message?.rev === rev", arg=rev)
    text: str = page.evaluate(SHOWN)
    return text


@pytest.mark.parametrize("variant", ["three-thirteen", "rummy500", "gin"])
def test_a_page_fed_changes_shows_what_a_page_fed_states_shows(
    server: Served, browser: Browser, variant: str
) -> None:
    seat, messages = record(server, variant)
    code = messages[0]["table"]["id"]
    whole, changed = open_person(browser), open_person(browser)
    stands = {}
    for person in (whole, changed):
        stands[id(person)] = Stand(person.page, seat)
        person.page.goto(f"{server.url}/table/{code}")
        person.page.wait_for_function("() => window.remikit && window.remikit.me !== null")
    full, part = stands[id(whole)], stands[id(changed)]
    states = sum(m["type"] == "state" for m in messages)
    assert states > WATCHED
    rev = -1
    gap = presence = False
    for message in messages:
        if message["type"] == "presence":
            presence = True
            full.send(message)
            part.send(message)
            continue
        rev += 1
        state = with_rev(message, rev)
        full.send(state)
        if part.last is None:
            part.send(state)
        else:
            change = change_message(part.last, state)
            if not gap and rev > states // 3:  # a change from a rev the page does not hold
                gap = True
                part.send(change | {"base": rev - 7})
                for _ in range(500):  # the page asks for the whole state: it gets it
                    if {"type": "sync"} in part.sent:
                        break
                    changed.page.wait_for_timeout(20)
                assert {"type": "sync"} in part.sent
                changed.page.wait_for_function("() => !window.remikit.syncing")
            part.send(change)
        part.last = state
        assert shown(changed.page, rev) == shown(whole.page, rev), f"rev {rev}"
        if rev == states // 4:  # every seat shown away and thinking: the next state says not
            seats = [
                {"seat": s["seat"], "connected": False, "away": True, "thinking": True}
                for s in state["table"]["seats"]
            ]
            fake = {"type": "presence", "table_id": code, "state_id": state["state_id"]}
            for stand, person in ((full, whole), (part, changed)):
                stand.send(fake | {"seats": seats, "spectators": 0})
                person.page.wait_for_selector("#board .tag.away-bot")
    assert gap and presence
    assert sum(m["type"] == "sync" for m in part.sent) == 1
    assert not any(m["type"] == "sync" for m in full.sent)
    whole.no_page_errors()
    changed.no_page_errors()
    for person in (whole, changed):
        person.page.context.close()
