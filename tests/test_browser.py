"""The browser client in a real browser: Playwright drives Debian's Chromium against
``remi serve`` started as a subprocess (a temporary SQLite database, fast bots).

A person plays through the UI by clicks only: a whole Three-Thirteen round and a whole
Remi 13 D game against bots; two people at one table each receive only their own cards
(every WebSocket frame is checked); a reload keeps the seat, the hand and its order; a
Rummy 500 deep pick-up and meld, with the Rummy! button enabled after every other
player's discard whether or not a call is possible; the lobby builds every variant's option
form from /api/variants. Screenshots go to tests/artifacts/.

Outside CI these tests skip when no Chromium is found; in CI (``CI`` set) they must run.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
from concurrent.futures import ThreadPoolExecutor
from decimal import ROUND_HALF_UP, Decimal
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from remikit.actions import Action, parse_action
from remikit.bots import LEVEL_NAMES
from remikit.i18n import t
from remikit.records import new_game, start_hand
from remikit.server.bots.workers import decide
from remikit.server.settings import Settings
from remikit.server.tables.build import next_deck
from remikit.server.tables.registry import Tables
from remikit.server.tables.seats import SeatConfig, make_bots
from remikit.variants.rummy500.state import Rummy500Phase
from remikit.views import PlayerView
from tests.browser import (
    ANSWERED_WINDOW,
    ARTIFACTS,
    PHONE,
    Browser,
    Page,
    Person,
    Served,
    browser,
    create_in_lobby,
    first_other_than,
    my_turn_ready,
    needs_chromium,
    open_person,
    playing,
    server,
    shot,
    take_simple_turn,
    wait,
    wait_text,
)

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser", "server"]  # the fixtures


# -- (a) a whole Three-Thirteen round ---------------------------------------------------------


def test_three_thirteen_round_by_clicks(server: Served, browser: Browser) -> None:
    person = open_person(browser)
    page = person.page
    code = create_in_lobby(person, server, "three-thirteen", name="Budi")
    assert len(code) == 8
    assert page.inner_text("#deal-label") == "Round 1 of 11"
    assert "3" in page.inner_text("#wild-rank")
    # the seats around the table run clockwise: the next player on the left, the previous
    # one (whose discard one may take) on the right (RULES.md §0)
    assert page.get_attribute('.seat-panel[data-pos="left"]', "data-seat") == "1"
    assert page.get_attribute('.seat-panel[data-pos="top"]', "data-seat") == "2"
    assert page.get_attribute('.seat-panel[data-pos="right"]', "data-seat") == "3"
    assert page.eval_on_selector(".piles", "p => p.className").endswith("discard-right")

    # Indonesian at a click, and the server's refusals come in it too
    page.click("#lang-toggle")
    wait_text(page, "#deal-label", "Ronde 1 dari 11")
    tried_refusal = False
    turns = 0
    deadline = time.monotonic() + 60
    while person.board().get("deals") == "0":
        assert time.monotonic() < deadline, "the round did not end within 60 s"
        if not my_turn_ready(person, past_results=False):
            page.wait_for_timeout(30)
            continue
        turns += 1
        board = person.board()
        can_take = page.is_visible("#discard .card.clickable")
        if not tried_refusal and board["phase"] == "draw" and can_take:
            # take the discard, then try to throw the same card back: refused (R3-5), with
            # the server's reason in Indonesian
            person.act_and_wait(lambda: page.click("#discard .card.clickable"))
            taken = page.get_attribute("#hand .card.fresh", "data-card")
            assert taken is not None, "the card taken from the discard pile is not marked"
            page.click("#hand .card.fresh")
            person.act_and_wait(lambda: page.click("#btn-discard"))
            assert page.is_visible("#error")
            refusal = page.inner_text("#error")
            assert "baru diambil dari buangan" in refusal, refusal
            shot(page, "three_thirteen_refused_discard")
            page.click("#hand .card.selected")  # unselect it
            tried_refusal = True
            take_simple_turn(person, pick=partial(first_other_than, taken))
            continue
        # the round's wild cards (threes, jokers) are marked (R3-3)
        assert person.shown_state()["view"]["wild_rank"] == "3"
        marks = page.eval_on_selector_all(
            "#hand .card", "cs => cs.map(c => [c.dataset.card, c.classList.contains('wild')])"
        )
        assert all(wild == (card[0] == "3" or card == "Jk") for card, wild in marks), marks
        if turns == 2:
            shot(page, "three_thirteen_round")
        take_simple_turn(person)
    assert turns >= 1
    page.wait_for_selector('#results .results-box[data-deal="1"]')
    rows = page.locator("#results .result-row")
    assert rows.count() == 4  # every seat's arrangement and points
    assert "Ronde 1 selesai" in page.inner_text("#results")
    shot(page, "three_thirteen_round_results")
    page.click("#results-close")
    wait_text(page, "#deal-label", "Ronde 2", start=True)
    assert page.locator("#score-table tbody tr").count() == 1
    # the chart of totals, a line per seat (a seat still at 0 has a flat, zero-height line)
    assert page.is_visible("#score-chart")
    assert page.locator("#score-chart polyline").count() == 4
    person.no_page_errors()
    page.context.close()


# -- (b) a whole Remi 13 D game -------------------------------------------------------------------


def test_remi13d_game_to_the_end(server: Served, browser: Browser) -> None:
    person = open_person(browser)
    page = person.page
    create_in_lobby(person, server, "remi13d", name="Sari", options={"games": "1"})
    assert page.inner_text("#deal-label") == "Game 1 of 1"
    # the seat draw put Sari somewhere (R13-2); the page lists who drew what
    page.wait_for_selector('#board[data-seat]:not([data-seat=""])')
    me = int(person.board()["seat"])
    assert page.locator("#seat-draw li").count() == 4
    # Remi 13 D plays to the right: the previous player, whose discard one may take,
    # sits on the left, and the discard lies there
    assert page.get_attribute('.seat-panel[data-pos="right"]', "data-seat") == str((me + 1) % 4)
    assert page.get_attribute('.seat-panel[data-pos="left"]', "data-seat") == str((me + 3) % 4)
    assert page.eval_on_selector(".piles", "p => p.className").endswith("discard-left")
    refused = False
    deadline = time.monotonic() + 90
    while person.board().get("gameOver") != "true":
        assert time.monotonic() < deadline, "the game did not end within 90 s"
        # one game: the only results shown are the end's, and they must stay open
        if not my_turn_ready(person, past_results=False):
            page.wait_for_timeout(30)
            continue
        if not refused and person.board()["phase"] == "draw":
            person.act_and_wait(lambda: page.click("#stock"))
            # a close the rules refuse: the server's reason is shown
            legal = person.shown_state()["view"]["legal_actions"]
            hand = person.hand()
            card = next(c for c in hand if f"close {c}" not in legal)
            page.click(f'#hand .card[data-card="{card}"] >> nth=0')
            person.act_and_wait(lambda: page.click("#btn-close"))
            message = page.inner_text("#error")
            assert message.strip(), "a refused close shows no reason"
            shot(page, "remi13d_refused_close")
            page.click("#btn-clear")
            refused = True
            if person.board()["stateId"] and person.board()["phase"] == "discard":
                take_simple_turn(person)
            continue
        if (
            person.board().get("stateId")
            and int(person.board()["stateId"]) > 30
            and not (ARTIFACTS / "remi13d_in_progress.png").exists()
        ):
            shot(page, "remi13d_in_progress")
        take_simple_turn(person)
    page.wait_for_selector('#results .results-box[data-game-over="true"]')
    assert page.is_visible("#game-over")
    assert page.locator("#results .result-row").count() == 4
    assert page.locator("#results #score-table tbody tr").count() == 1
    assert page.is_visible("#results #score-chart")
    final = person.states()[-1]["view"]
    assert final["game_over"] and len(final["finished_deals"]) == 1
    shot(page, "remi13d_game_over", full_page=True)
    # the finished game is in the lobby, with its replay and record
    page.goto(server.url + "/")
    code = person.states()[-1]["table_id"]
    page.wait_for_selector(f'.game-item[data-game="{code}"]')
    page.click(f'.game-item[data-game="{code}"] a[data-action="replay"]')
    page.wait_for_selector("#replay-step")
    page.click("#replay-next")
    wait_text(page, "#replay-step", "Step 1 ", start=True)
    page.select_option("#replay-seat", "0")
    page.wait_for_selector("#hand .card")
    shot(page, "remi13d_replay")
    with page.expect_download() as download:
        page.click("#replay-record")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["variant"] == "remi13d" and len(record["hands"]) == 1
    person.no_page_errors()
    page.context.close()


# -- (c) two people see only their own cards ------------------------------------------------------


def public_cards(view: dict[str, Any]) -> set[str]:
    """Cards any socket at the table may see in this view (piles, log, melds, results)."""
    seen: set[str] = set(view["discard_pile"])
    for line in view["log"]:
        seen.update(token.split("=")[0] for token in line.split()[2:])
    seen.update(card for _, card in view["taken_from_discard"])
    shown = view.get("shown_melds", [])  # Three-Thirteen only
    text = json.dumps([view["finished_deals"], view["table"], shown])
    seen.update(re.findall(r"\b(?:[A2-9TJQK][shdc]|Jk)\b", text))
    return seen


def assert_no_leak(receiver: Person, seat: int, other: Person, other_seat: int) -> int:
    """No frame to ``receiver`` carries a card of ``other``'s hand that was not public."""
    checked = 0
    hands = {f["state_id"]: f["view"]["hand"] for f in other.states()}
    for frame in receiver.frames:
        if frame.get("type") != "state":
            continue
        view = frame["view"]
        if view["seat"] is None or frame["table"]["status"] == "waiting":
            # watching before sitting down, or seated before the seat draw (R13-2): the
            # public view
            assert view["hand"] == [] and view["legal_actions"] == []
            continue
        assert view["seat"] == seat, f"a frame for seat {view['seat']} went to seat {seat}"
        other_hand = hands.get(frame["state_id"])
        if other_hand is None:
            continue
        assert view["hand"] != other_hand
        assert len(view["hand"]) == view["hand_sizes"][seat]
        public = public_cards(view) | {
            c for d in frame["table"]["seat_draw"] or () for c in d["cards"]
        }  # a deck of its own (R13-2)
        # a card this seat holds too may be named in its own legal actions ("discard Jk"):
        # identical cards cannot be told apart, so only cards it does not hold are secret
        secret = {c for c in other_hand if c not in public and c not in view["hand"]}
        rest = dict(view)
        rest.pop("hand")
        fairness = dict(frame["fairness"])
        fairness.pop("deck")  # the unshuffled deck: every card, in the order of no deal
        text = json.dumps({**frame, "view": rest, "fairness": fairness})
        for card in secret:
            assert not re.search(rf"\b{card}\b", text), (
                f"seat {seat} was sent {card} of seat {other_seat}'s hand"
                f" ({text[max(0, text.find(card) - 150) : text.find(card) + 20]})"
                f" at state {frame['state_id']}"
            )
        checked += 1
    return checked


def test_two_people_see_only_their_own_cards(server: Served, browser: Browser) -> None:
    ana = open_person(browser)
    code = create_in_lobby(ana, server, "remi13d", name="Ana", seats={1: "person"})
    assert ana.page.is_visible("#notice")  # waiting for the second person
    ana.page.wait_for_selector('.seat-panel[data-seat="1"]')
    tags = ana.page.locator('.seat-panel[data-seat="1"] .tag').all_inner_texts()
    assert tags == ["free"]  # a seat nobody took yet is free, not away
    # the second person comes by the table's link and sits down there
    ben = open_person(browser, locale="id-ID")
    ben.page.goto(f"{server.url}/table/{code}")
    ben.page.fill("#join-name", "Ben")
    ben.page.click("#join-submit")
    # and someone watches
    watcher = open_person(browser)
    watcher.page.goto(f"{server.url}/table/{code}")
    for person in (ana, ben):  # the seat draw (R13-2) puts them where it puts them
        person.page.wait_for_selector('#board[data-seat]:not([data-seat=""])')
        wait(
            person,
            partial(playing, person),
            10,
            "the seat draw",
        )
    ana_seat, ben_seat = int(ana.board()["seat"]), int(ben.board()["seat"])
    assert ana_seat != ben_seat
    deadline = time.monotonic() + 60
    turns = 0
    while turns < 6:
        assert time.monotonic() < deadline, "two people did not get six turns in 60 s"
        moved = False
        for person in (ana, ben):
            if my_turn_ready(person):
                take_simple_turn(person)
                turns += 1
                moved = True
        if not moved:
            ana.page.wait_for_timeout(30)
    ana.page.wait_for_timeout(300)  # the last frames arrive
    shot(ana.page, "two_people_ana")
    shot(ben.page, "two_people_ben")
    assert assert_no_leak(ana, ana_seat, ben, ben_seat) > 10
    assert assert_no_leak(ben, ben_seat, ana, ana_seat) > 10
    # the page shows exactly the hand of its own seat
    for person in (ana, ben):
        assert sorted(person.hand()) == sorted(person.shown_state()["view"]["hand"])
        assert person.page.locator(".seat-panel .card:not(.back)").count() == 0
        person.no_page_errors()
    # the spectator got no hand at all, and its page shows none
    views = [f["view"] for f in watcher.states()]
    assert views and all(v["seat"] is None and v["hand"] == [] for v in views)
    assert all(v["legal_actions"] == [] for v in views)
    assert watcher.page.locator("#hand").count() == 0
    assert watcher.page.locator(".seat-panel .card:not(.back)").count() == 0
    shot(watcher.page, "two_people_spectator")
    watcher.no_page_errors()
    for person in (ana, ben, watcher):
        person.page.context.close()


# -- (d) a reload keeps the seat, the hand and its order -------------------------------------------


def test_reload_keeps_seat_and_hand_on_a_phone(server: Served, browser: Browser) -> None:
    person = open_person(browser, viewport=PHONE, locale="id-ID", phone=True)
    page = person.page
    create_in_lobby(person, server, "remi13d", name="Dewi")
    wait(person, lambda: my_turn_ready(person), 20, "the first turn")
    take_simple_turn(person)
    wait(person, lambda: my_turn_ready(person), 20, "the second turn")
    take_simple_turn(person)
    # nothing is wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # drag the first card to the end of the hand (pointer events), on the person's turn:
    # the bots wait, so no state comes to redraw the hand under the pointer
    wait(person, lambda: my_turn_ready(person), 20, "the third turn")
    first = page.locator("#hand .card").first.bounding_box()
    last = page.locator("#hand .card").last.bounding_box()
    assert first and last
    before = person.hand()
    page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(
            first["x"] + (last["x"] + last["width"] - first["x"]) * step / 10,
            first["y"] + (last["y"] + last["height"] / 2 - first["y"]) * step / 10,
        )
    page.mouse.up()
    page.wait_for_function("document.querySelector('#hand .card.dragging') === null")
    after = person.hand()
    assert after[-1] == before[0] and sorted(after) == sorted(before), (before, after)
    shot(page, "phone_table")
    seat, name = person.board()["seat"], page.inner_text(".me .name")
    page.reload()
    page.wait_for_selector("#hand .card")
    wait(person, lambda: person.hand() != [] and person.board().get("seat") == seat, 10, "the seat")
    assert page.inner_text(".me .name") == name == "Dewi"
    assert person.hand() == after  # the same cards in the order the player gave them
    shot(page, "phone_after_reload")
    person.no_page_errors()
    page.context.close()


# -- (e) Rummy 500: a deep pick-up, a meld, and the Rummy! button ----------------------------------

RUMMY_STATE = """() => {
  const b = document.querySelector('#board');
  const button = document.querySelector('#btn-rummy');
  return {stateId: b.dataset.stateId, open: b.dataset.callWindow === 'open',
          discarder: b.dataset.discarder, present: !!button,
          visible: !!button && button.offsetParent !== null,
          enabled: !!button && !button.disabled,
          html: button ? button.outerHTML : ''};
}"""


def click_cards(page: Page, cards: list[str]) -> None:
    for card in cards:
        page.click(f'#hand .card[data-card="{card}"]:not(.selected) >> nth=0')


def play_to_table(person: Person, action: str) -> None:
    """A meld or a lay-off through the UI: select its cards, then Meld or the table meld
    (and the joker's identity, when the page asks)."""
    page = person.page

    def clicks() -> None:
        if page.is_visible("#btn-clear"):
            page.click("#btn-clear")
        parts = action.split()
        if parts[0] == "meld":
            click_cards(page, [p.split("=")[0] for p in parts[1:]])
            page.click("#btn-meld")
        else:
            click_cards(page, [parts[1].split("=")[0]])
            page.click(f'.table-meld[data-meld="{parts[3]}"]')
        if page.is_visible("#choice"):
            page.click(f'#choice button[data-action="{action}"]')

    person.act_and_wait(clicks)


RUMMY_SEATS = [
    {"kind": "person"},
    {"kind": "bot", "level": "greedy"},
    {"kind": "bot", "level": "greedy"},
]


def person_opening(view: PlayerView) -> Action | None:
    """What this test's person (seat 0) does on a turn of the first round, as the loop of
    :func:`test_rummy500_deep_pickup_meld_and_calls` plays it: draw from the stock, then
    discard the first card that may go; None where that loop would do something else."""
    legal = [str(a) for a in view.legal_actions]
    if any(
        re.fullmatch(r"draw discard \d+", a) or a.startswith(("meld ", "layoff ")) for a in legal
    ):
        return None
    choice = (
        "draw stock" if view.phase == "draw" else next(a for a in legal if a.startswith("discard "))
    )
    return parse_action(choice)


def early_call() -> tuple[str, int]:
    """A table seed of a Rummy 500 table of :data:`RUMMY_SEATS` whose first round, seat 0
    played by :func:`person_opening` and the bots as the server runs them, opens a call
    window that asks seat 0 (R5-10); the seed and the state id of that window."""
    configs = [SeatConfig(**seat) for seat in RUMMY_SEATS]  # type: ignore[arg-type]
    for number in range(5000):
        seed = str(number)
        game = new_game({"variant": "rummy500", "options": {"players": 3}})
        start_hand(game, {"deck": [str(c) for c in next_deck(game, seed)]}, 1)
        bots = make_bots(seed, configs)
        for state_id in range(12):
            deal = game.current() if not game.needs_deal else None
            if deal is None:  # the round is over before any window asked seat 0
                break
            if deal.phase is Rummy500Phase.CALL and 0 in deal.awaiting():
                return seed, state_id
            seat = game.to_play
            assert seat is not None
            view = game.view(seat)
            bot = bots.get(seat)
            if seat == 0 or bot is None:
                action = person_opening(view)
            else:  # as the server's bot driver decides
                action = decide(bot.level, bot.seed_at(state_id), view)
            if action is None:
                break
            game.apply(seat, action)
    raise AssertionError("no seed opens a call window for seat 0 in the first round")


def seeded_table(folder: Path, seed: str) -> str:
    """Make the Rummy 500 table of ``seed`` in the database of ``folder``; its code."""

    async def make() -> str:
        hub = Tables(Settings(database_url=f"sqlite:///{folder / 'remikit.db'}"))
        await hub.start()
        try:
            table = await hub.create(
                variant="rummy500", options={"players": 3}, seats=RUMMY_SEATS, title=None, seed=seed
            )
        finally:
            await hub.close()
        return table.id

    with ThreadPoolExecutor(1) as thread:  # Playwright's loop runs in this thread
        return thread.submit(asyncio.run, make()).result()


def join_by_code(person: Person, server: Served, code: str, name: str) -> None:
    page = person.page
    page.goto(server.url + "/")
    page.fill("#join-code-input", code)
    page.fill("#join-name", name)
    page.click("#join-submit")
    page.wait_for_url(re.compile(r"/table/[0-9A-Z]{8}$"))
    page.wait_for_selector("#board[data-state-id]")


def call(person: Person, state_id: int) -> list[str]:
    """Seat 0 is asked in the window of ``state_id``: choose the card in the pile, press
    Rummy!; the server's answers to it (``call_pending``, then ``call_lost`` or not)."""
    page = person.page
    legal = person.state(state_id)["view"]["legal_actions"]  # type: ignore[index]
    depth = int(next(a for a in legal if a.startswith("rummy ")).split()[1])
    page.click(f'#discard .card[data-depth="{depth}"]')
    page.click("#btn-rummy")
    page.wait_for_function(
        "() => !document.querySelector('#btn-pass') || document.querySelector('#btn-pass').disabled"
    )
    return [f["type"] for f in person.frames if f.get("type") in ("call_pending", "error")]


def test_rummy500_deep_pickup_meld_and_calls(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    seed, call_state = early_call()
    folder = tmp_path_factory.mktemp("browser-rummy500")
    code = seeded_table(folder, seed)
    server = Served(folder, call_window=ANSWERED_WINDOW)  # every window waits for the person
    try:
        play_rummy500(browser, server, code, call_state)
    finally:
        server.stop()


def play_rummy500(browser: Browser, server: Served, code: str, call_state: int) -> None:
    person = open_person(browser)
    page = person.page
    join_by_code(person, server, code, "Eka")
    assert page.get_attribute('.seat-panel[data-pos="left"]', "data-seat") == "1"
    assert page.get_attribute('.seat-panel[data-pos="right"]', "data-seat") == "2"
    deep_done = owed_melded = meld_done = False
    answers: list[str] = []
    checked: dict[int, dict[str, Any]] = {}  # state id of another's discard -> the button then

    def finished() -> bool:
        return deep_done and owed_melded and meld_done and bool(answers)

    deadline = time.monotonic() + 80
    while not finished():
        assert time.monotonic() < deadline, (
            f"no deep pick-up ({deep_done}), owed meld ({owed_melded}), meld ({meld_done})"
            f" and call ({answers}) within 80 s"
        )
        state = page.evaluate(RUMMY_STATE)
        if state["open"] and state["discarder"] != "0":
            assert state["visible"] and state["enabled"], state
            state_id = int(state["stateId"])
            if state_id not in checked:
                checked[state_id] = state
                if state_id == call_state:
                    answers = call(person, state_id)
                    shot(page, "rummy500_call")
                else:  # the window waits for this seat: answer it
                    person.act_and_wait(lambda: page.click("#btn-pass"))
            page.wait_for_timeout(25)
            continue
        if not my_turn_ready(person):
            page.wait_for_timeout(25)
            continue
        view = person.shown_state()["view"]
        legal = view["legal_actions"]
        if view["phase"] == "draw":
            deep = [a for a in legal if re.fullmatch(r"draw discard \d+", a)]
            if deep and not deep_done:
                depth = int(deep[-1].split()[-1])
                pile = view["discard_pile"]
                person.act_and_wait(partial(page.click, f'#discard .card[data-depth="{depth}"]'))
                now = person.shown_state()["view"]
                assert now["log"][-1] == f"p0 draw discard {depth}"
                assert now["must_meld"] == pile[-depth]
                assert page.is_visible("#prompt b")  # "you must meld …"
                shot(page, "rummy500_deep_pickup")
                deep_done = True
            elif "draw stock" in legal:
                person.act_and_wait(lambda: page.click("#stock"))
            elif "decline" in legal:
                person.act_and_wait(lambda: page.click("#btn-decline"))
            continue
        # the discard phase: meld an owed card first, else a meld when there is one
        owed = view["must_meld"]
        plays = [a for a in legal if a.startswith(("meld ", "layoff "))]
        if owed:
            with_owed = [a for a in plays if owed in [p.split("=")[0] for p in a.split()[1:]]]
            melds = [a for a in with_owed if a.startswith("meld ")]
            choice = (melds or with_owed or plays)[0]
        else:
            melds = [a for a in plays if a.startswith("meld ")]
            choice = melds[0] if melds and not meld_done else None
        if choice:
            tables_before = len(view["table"])
            play_to_table(person, choice)
            now = person.shown_state()["view"]
            assert now["log"][-1] == f"p0 {choice}", (now["log"][-1], choice)
            if owed and now["must_meld"] is None:
                owed_melded = True
            if choice.startswith("meld "):
                assert len(now["table"]) == tables_before + 1
                head = page.inner_text(f'.table-meld[data-meld="{tables_before + 1}"] .meld-head')
                assert "You" in head  # the meld's owner
                if not meld_done:
                    shot(page, "rummy500_meld")
                meld_done = True
            continue
        discards = [a.split()[1] for a in legal if a.startswith("discard ")]
        if discards:
            page.click(f'#hand .card[data-card="{discards[0]}"] >> nth=0')
            person.act_and_wait(lambda: page.click("#btn-discard"))
        else:
            page.wait_for_timeout(25)
    # The call was sent, acknowledged and decided: won (the turn followed) or lost to a
    # seat nearer after the discarder (R5-10).
    assert answers and answers[0] == "call_pending", answers
    # Every window after another player's discard was looked at, with the button visible,
    # enabled and the same each time.
    others = {
        f["state_id"]
        for f in person.states()
        if f["call_window"] and f["call_window"]["discarder"] != 0
    }
    missed = [s for s in others if s not in checked and s < max(checked)]
    assert not missed, f"call windows without a look at the button: {missed}"
    looks = {checked[s]["html"] for s in checked}
    assert len(looks) == 1, looks
    shot(page, "rummy500_table")
    person.no_page_errors()
    page.context.close()


def test_lobby_on_a_phone_join_by_code_both_languages(server: Served, browser: Browser) -> None:
    person = open_person(browser, viewport=PHONE, phone=True)
    page = person.page
    page.goto(server.url + "/")
    page.wait_for_selector("#create-form")
    missing = page.evaluate("import('/static/i18n.js').then(m => m.missingTranslations())")
    assert missing == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone_lobby", full_page=True)
    page.click("#lang-toggle")
    wait_text(page, "#new-table h2", "Meja baru")
    # an unknown code: the server's answer, in Indonesian
    page.fill("#join-code-input", "ZZZZZZZZ")
    page.fill("#join-name", "Rina")
    page.click("#join-submit")
    page.wait_for_selector("#error:not([hidden])")
    assert "ZZZZZZZZ" in page.inner_text("#error")
    person.errors.remove(
        "Failed to load resource: the server responded with a status of 404 (Not Found)"
    )  # that answer, as the browser logs it
    # a table made elsewhere, joined by its code typed in lower case
    made = httpx.post(
        server.url + "/api/tables",
        json={
            "variant": "three-thirteen",
            "options": {"players": 2},
            "seats": [{"kind": "bot"}, {"kind": "person"}],
        },
    )
    code = made.json()["table"]["id"]
    page.fill("#join-code-input", code.lower())
    page.click("#join-submit")
    page.wait_for_url(re.compile(f"/table/{code}$"))
    page.wait_for_selector('#board[data-seat="1"]')
    assert page.get_attribute('.seat-panel[data-pos="top"]', "data-seat") == "0"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    person.no_page_errors()
    page.context.close()


# -- (f) the lobby's option form comes from /api/variants --------------------------------------

FORM_FIELDS = """els => els.map(e => ({id: e.id, tag: e.tagName.toLowerCase(), type: e.type,
  min: e.getAttribute('min'), max: e.getAttribute('max'), disabled: e.disabled,
  checked: e.checked, value: e.value,
  choices: e.tagName === 'SELECT' ? [...e.options].map(o => o.value) : null,
  label: e.closest('label').textContent.trim()}))"""


def level_label(variant: dict[str, Any], level: str, lang: str) -> str:
    """What the lobby's level picker says of ``level`` (util.js ``levelStrength``): its name,
    and its measured strength with numbers as the browser writes them in ``lang``."""
    name = t(LEVEL_NAMES[level], lang)
    strength = variant["strength"].get(level)
    if strength is None:
        return name

    def number(value: Decimal) -> str:
        return str(value).replace(".", ",") if lang == "id" else str(value)

    rating = Decimal(strength["rating"]).quantize(Decimal("0.1"), ROUND_HALF_UP)
    rate = f"{math.floor(strength['win_rate'] * 100 + 0.5)}%"
    fields = {"level": name, "rate": rate, "rating": number(rating)}
    if strength["budget"] is None:
        return t("lobby.level_strength", lang, **fields)
    seconds = number(Decimal(str(strength["budget"])))
    return t("lobby.level_strength_budget", lang, seconds=seconds, **fields)


def test_lobby_builds_every_option_form_from_the_metadata(server: Served, browser: Browser) -> None:
    person = open_person(browser)
    page = person.page
    page.goto(server.url + "/")
    page.wait_for_selector("#create-form #variant")
    variants = httpx.get(server.url + "/api/variants").json()["variants"]
    assert {v["name"] for v in variants} >= {"remi13d", "rummy500", "three-thirteen"}
    for variant in variants:
        page.select_option("#variant", variant["name"])
        page.wait_for_function(
            "n => document.querySelector('#variant').value === n", arg=variant["name"]
        )
        fields = page.eval_on_selector_all(
            "#create-form fieldset.options [id^='opt-']", FORM_FIELDS
        )
        assert [f["id"] for f in fields] == [f"opt-{o['name']}" for o in variant["options"]]
        for option, shown in zip(variant["options"], fields, strict=True):
            assert shown["label"] and not shown["label"].startswith("opt."), shown
            if option["type"] == "boolean":
                assert shown["type"] == "checkbox" and shown["checked"] == option["default"]
            elif option["choices"] is not None:
                assert shown["tag"] == "select", shown
                assert shown["choices"] == [str(c) for c in option["choices"]]
                assert shown["value"] == str(option["default"])
            elif option["type"] == "integer":
                assert shown["type"] == "number", shown
                bounds = [None if b is None else str(b) for b in (option["min"], option["max"])]
                assert [shown["min"], shown["max"]] == bounds
                assert shown["disabled"] == (
                    option["min"] is not None and option["min"] == option["max"]
                )
                assert shown["value"] == str(option["default"])
    # the seat's level picker says how strong the ladder measured each level (docs/strength.md)
    gin = next(v for v in variants if v["name"] == "gin")
    assert gin["strength"]
    page.select_option("#variant", "gin")
    for lang in ("en", "id"):
        if lang == "id":
            page.click("#lang-toggle")
            page.wait_for_function("() => document.documentElement.lang === 'id'")
        shown = page.eval_on_selector_all(
            "#seat-1-level option", "os => os.map(o => [o.value, o.textContent])"
        )
        assert shown == [[level, level_label(gin, level, lang)] for level in gin["bots"]]
    page.click("#lang-toggle")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    # Rummy 500: scoring is a select of its two choices, the target a number box 1 … 10000
    page.select_option("#variant", "rummy500")
    choices = page.eval_on_selector_all(
        "#opt-scoring option", "os => os.map(o => [o.value, o.textContent])"
    )
    assert choices == [["standard", "standard (card values)"], ["5-10-15", "5-10-15"]]
    assert [page.get_attribute("#opt-target", a) for a in ("min", "max")] == ["1", "10000"]
    assert page.inner_text("label[for='opt-target'] span") == "Target score"
    assert page.is_disabled("#opt-players") is False
    page.select_option("#variant", "remi13d")
    assert page.is_disabled("#opt-players")  # always 4
    page.click("#lang-toggle")
    page.select_option("#variant", "rummy500")
    wait_text(page, "label[for='opt-target'] span", "Target poin")
    assert page.inner_text("#opt-scoring option[value='standard']") == "standar (nilai kartu)"
    page.click("#lang-toggle")
    # the values chosen in the form are the table's: a choice of numbers stays a number
    page.select_option("#variant", "three-thirteen")
    page.select_option("#opt-jokers", "2")
    page.select_option("#opt-ace", "high")
    page.fill("#opt-players", "3")
    page.dispatch_event("#opt-players", "change")
    assert page.locator("#create-form .seat-row").count() == 3
    page.fill("#create-name", "Tono")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"/table/[0-9A-Z]{8}$"))
    code = page.url.rsplit("/", 1)[1]
    table = httpx.get(f"{server.url}/api/tables/{code}").json()["table"]
    assert {k: table["options"][k] for k in ("jokers", "ace", "players")} == {
        "jokers": 2,
        "ace": "high",
        "players": 3,
    }
    assert table["client"] == next(v["client"] for v in variants if v["name"] == "three-thirteen")
    page.wait_for_selector("#board[data-state-id]")
    assert page.inner_text("#deal-label") == "Round 1 of 11"
    person.no_page_errors()
    page.context.close()
