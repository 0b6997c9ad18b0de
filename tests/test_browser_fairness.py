"""Fair deals in a real browser: static/fairness.js in Chromium gives exactly what
remikit.fairness and remikit.shuffle give, from the unshuffled deck the server names, and
refuses one in another order; the record verifier page (/verify) says which deals of a
record of any variant verify and what differs in the others; at a table (Three-Thirteen,
Gin Rummy) the page shows the commitment before the deal, contributes to the next deal and
verifies an ended one, and a deck stacked in the database fails the browser's own check."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from sqlalchemy import create_engine, select, update

from remikit.bots import make_bot
from remikit.engine import Game
from remikit.fairness import DealFairness, commitment, deal_key, deck_seed, fair_deck, verify_record
from remikit.records import new_game
from remikit.server.settings import Settings
from remikit.server.tables.registry import Tables
from remikit.shuffle import ByteStream, shuffled
from remikit.storage.models import DealRow
from tests import test_browser_gin as gin_table
from tests.browser import (
    Browser,
    Person,
    PlaywrightTimeout,
    Served,
    browser,
    close_results,
    my_turn_ready,
    needs_chromium,
    open_person,
    server,
    shot,
    take_simple_turn,
    wait,
    wait_text,
)
from tests.stacked import stack_deck

if TYPE_CHECKING:
    from playwright.sync_api import FilePayload

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser", "server"]  # the fixtures

SECRET = bytes(range(32))
OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("remi13d", {}),
    ("rummy500", {"players": 2}),
    ("rummy500", {"players": 4, "jokers": False}),
    ("rummy500", {"players": 5}),
    ("three-thirteen", {"players": 2}),
    ("three-thirteen", {"players": 3, "jokers": 2}),
    ("three-thirteen", {"players": 8, "jokers": 4}),
    ("gin", {}),
]
TOKEN = "T" * 43
SEATS = [{"kind": "person"}, {"kind": "bot", "level": "greedy"}]
BELOW = [1, 2, 3, 129, 129, 129, 200, 256, 257, 1000, 65537, 2**40 + 3]


@pytest.fixture(scope="module")
def person(browser: Browser, server: Served) -> Iterator[Person]:
    someone = open_person(browser)
    someone.page.goto(server.url + "/verify")
    someone.page.wait_for_selector("#verify-file")
    yield someone
    someone.page.context.close()


def run(person: Person, body: str, arg: object = None) -> Any:
    """``body`` (a JavaScript function body with ``f``, the fairness module, and ``arg``)
    run in the page."""
    script = f"async (arg) => {{ const f = await import('/static/fairness.js'); {body} }}"
    return person.page.evaluate(script, arg)


def game_of(variant: str, options: dict[str, Any]) -> Game:
    return new_game({"variant": variant, "options": options, "hands": []})


def test_hashes_are_pythons(person: Person) -> None:
    contributions: list[bytes | None] = [bytes(32), None, b"\xff" * 32, None]
    cases = [("HTEAG5UY", 1), ("TESTTABL", 7), ("MEJA-É", 2**32 - 1)]
    expected = {
        "commitments": [commitment(table, deal, SECRET).hex() for table, deal in cases],
        "key": deal_key(SECRET, contributions).hex(),
        "none": deal_key(SECRET, [None]).hex(),
        "seed": deck_seed(deal_key(SECRET, contributions)).hex(),
    }
    found = run(
        person,
        """
        const secret = f.fromHex(arg.secret, 32);
        const parts = arg.contributions.map((c) => (c === null ? null : f.fromHex(c, 32)));
        const key = await f.dealKey(secret, parts);
        return {
          commitments: await Promise.all(arg.cases.map(async ([table, deal]) =>
            f.toHex(await f.commitment(table, deal, secret)))),
          key: f.toHex(key),
          none: f.toHex(await f.dealKey(secret, [null])),
          seed: f.toHex(await f.deckSeed(key)),
        };""",
        {
            "secret": SECRET.hex(),
            "cases": cases,
            "contributions": [c.hex() if c else None for c in contributions],
        },
    )
    assert found == expected


def test_the_byte_stream_is_pythons(person: Person) -> None:
    stream = ByteStream(b"remikit")
    reads = [stream.read(n).hex() for n in (0, 1, 31, 2, 40, 64)]
    stream = ByteStream(b"remikit")
    picks = []
    rejected = 0
    for n in BELOW:
        before = stream.block * 32 - len(stream._buffer)
        picks.append(stream.below(n))
        used = stream.block * 32 - len(stream._buffer) - before
        rejected += n > 1 and used > ((n - 1).bit_length() + 7) // 8
    assert rejected, "no rejection: the case does not test it"
    found = run(
        person,
        """
        const seed = new TextEncoder().encode("remikit");
        let stream = new f.ByteStream(seed);
        const reads = [];
        for (const n of [0, 1, 31, 2, 40, 64]) reads.push(f.toHex(await stream.read(n)));
        stream = new f.ByteStream(seed);
        const picks = [];
        for (const n of arg) picks.push(await stream.below(n));
        const huge = await new f.ByteStream(seed).below(2n ** 70n + 1n);
        const ten = await f.shuffled([...Array(10).keys()], seed);
        return {reads, picks, huge: huge.toString(), ten};
        """,
        BELOW,
    )
    assert found == {
        "reads": reads,
        "picks": picks,
        "huge": str(ByteStream(b"remikit").below(2**70 + 1)),
        "ten": shuffled(range(10), b"remikit"),
    }


def test_sha256_without_web_crypto_is_hashlibs(person: Person) -> None:
    """A page over plain http on a local network has no Web Crypto: fairness.js hashes
    by itself there (every padding case: one block, two, the length in the next)."""
    sizes = [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]
    messages = [bytes((7 * i + n) % 256 for i in range(n)) for n in sizes]
    found = run(
        person, "return arg.map((m) => f.toHex(f.sha256Here(f.fromHex(m, m.length / 2))));",
        [m.hex() for m in messages],
    )  # fmt: skip
    assert found == [hashlib.sha256(m).hexdigest() for m in messages]


@pytest.mark.parametrize(("variant", "options"), OPTION_SETS, ids=lambda o: json.dumps(o))
def test_decks_and_deals_are_pythons(person: Person, variant: str, options: dict[str, Any]) -> None:
    game = game_of(variant, options)
    contributions: list[bytes | None] = [
        random.Random(seat).randbytes(32) if seat % 2 else None for seat in range(game.players)
    ]
    full = game.full_deck()
    deck = fair_deck(full, SECRET, contributions)
    deal = game.start_deal(deck)
    expected = {
        "full": [str(c) for c in full],
        "deck": [str(c) for c in deck],
        "hands": [[str(c) for c in deal.hands[s]] for s in range(game.players)],
        "upcard": [str(c) for c in deal.discard_pile],
    }
    found = run(
        person,
        """
        const {full, players, dealer, secret, contributions, size, upcard} = arg;
        if (f.unshuffledProblem(full)) return f.unshuffledProblem(full);
        const deck = await f.fairDeck(full, secret, contributions);
        return {
          full, deck,
          hands: [...Array(players).keys()].map(
            (seat) => f.dealtHand(deck, {seat, dealer, players, size})),
          upcard: upcard ? [deck[size * players]] : [],
        };""",
        {
            "full": expected["full"],
            "size": deal.hand_size(),
            "upcard": deal.opens_pile,
            "players": game.players,
            "dealer": deal.dealer,
            "secret": SECRET.hex(),
            "contributions": [c.hex() if c else None for c in contributions],
        },
    )
    assert found == expected


def fair_record(variant: str, options: dict[str, Any], table: str = "HTEAG5UY") -> dict[str, Any]:
    """A game played to its end by greedy bots, every deck the fair deck of a secret and
    contributions, and every hand's fairness data as a web table records it."""
    game = game_of(variant, options)
    rng = random.Random(7)
    bots = [make_bot("greedy", seed=s) for s in range(game.players)]
    fairness: list[dict[str, Any]] = []
    while not game.over:
        if game.needs_deal:
            secret = rng.randbytes(32)
            given = [rng.randbytes(32) if rng.random() < 0.6 else None for _ in bots]
            game.start_deal(fair_deck(game.full_deck(), secret, given))
            fairness.append(DealFairness.drawn(table, len(fairness) + 1, secret, given).as_json())
        seat = game.to_play
        assert seat is not None
        game.apply(seat, bots[seat].choose(game.view(seat)))
    record = game.record()
    for hand, fair in zip(record["hands"], fairness, strict=True):
        hand["fairness"] = fair
    return record


def pick_file(person: Person, name: str, payload: bytes) -> None:
    """Choose a file of ``payload`` on the verify page."""
    file: FilePayload = {"name": name, "mimeType": "application/json", "buffer": payload}
    person.page.set_input_files("#verify-file", files=[file])


def verify_in_page(person: Person, record: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """Pick ``record`` as a file on the verify page; what the page found, per deal."""
    page = person.page
    pick_file(person, name, json.dumps(record).encode())
    page.wait_for_function(
        "(name) => document.querySelector('#verify-results h2')?.textContent === name", arg=name
    )
    page.wait_for_selector("#verify-verdict")
    results: list[dict[str, Any]] = page.evaluate("window.remikit.results")
    return results


def python_checks(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [check.as_json() for check in verify_record(record)]


def test_the_verify_page_verifies_every_deal(person: Person) -> None:
    record = fair_record("three-thirteen", {"players": 2, "jokers": 2})
    assert all(check.verified for check in verify_record(record))
    found = verify_in_page(person, record, "fair.json")
    assert found == python_checks(record)
    deals = person.page.eval_on_selector_all(
        "#verify-deals > li", "items => items.map(i => i.dataset.verified)"
    )
    assert deals == ["true"] * len(record["hands"])
    assert person.page.get_attribute("#verify-verdict", "data-failed") == "0"
    shot(person.page, "fairness-verify-page")
    person.page.click("#lang-toggle")
    wait_text(person.page, "#verify-verdict", "Semua", start=True)
    shot(person.page, "fairness-verify-page-id")
    person.page.click("#lang-toggle")
    wait_text(person.page, "#verify-verdict", str(len(record["hands"])), start=True)
    person.no_page_errors()


def test_the_verify_page_verifies_without_web_crypto(browser: Browser, server: Served) -> None:
    plain = open_person(browser)
    try:
        plain.page.add_init_script(
            "Object.defineProperty(globalThis.crypto, 'subtle', {value: undefined})"
        )
        plain.page.goto(server.url + "/verify")
        assert plain.page.evaluate("globalThis.crypto.subtle") is None
        record = fair_record("remi13d", {"games": 1})
        assert verify_in_page(plain, record, "plain.json") == python_checks(record)
        assert plain.page.get_attribute("#verify-verdict", "data-failed") == "0"
        plain.no_page_errors()
    finally:
        plain.page.context.close()


def test_the_verify_page_names_what_differs(person: Person) -> None:
    record = fair_record("rummy500", {"players": 3, "target": 300})
    assert len(record["hands"]) >= 4, "too few deals to tamper with"
    hands = record["hands"]
    deck = hands[1]["deck"]
    deck[4], deck[9] = deck[9], deck[4]  # a card moved: deal 2
    hands[2]["fairness"]["secret"] = "00" * 32  # another secret: deal 3
    hands[3]["fairness"]["contributions"][0] = "11" * 32  # another contribution: deal 4
    del hands[-1]["fairness"]  # an older record's hand
    expected = python_checks(record)
    assert [c["deal"] for c in expected if not c["verified"]] == [2, 3, 4, len(hands)]
    assert found_codes(expected) == {2: ["deck"], 3: ["commitment", "deck"], 4: ["deck"]} | {
        len(hands): ["no_fairness"]
    }
    found = verify_in_page(person, record, "tampered.json")
    assert found == expected
    page = person.page
    assert page.get_attribute("#verify-verdict", "data-failed") == "4"
    moved = page.text_content('#verify-deals > li[data-deal="2"] li[data-code="deck"]') or ""
    assert "card 5 from the top" in moved and "2 cards differ" in moved  # as remi verify says
    assert page.is_visible('#verify-deals > li[data-deal="3"] li[data-code="commitment"]')
    assert page.get_attribute('#verify-deals > li[data-deal="1"]', "data-verified") == "true"
    shot(page, "fairness-verify-tampered", full_page=True)
    person.no_page_errors()


def found_codes(checks: list[dict[str, Any]]) -> dict[int, list[str]]:
    return {c["deal"]: [p["code"] for p in c["problems"]] for c in checks if not c["verified"]}


def test_the_verify_page_verifies_a_gin_record(person: Person) -> None:
    """The page knows no variant: Gin Rummy's deck comes from the server (POST /api/deck)."""
    record = fair_record("gin", {"target": 40})
    assert len(record["hands"]) >= 2
    record["hands"][1]["deck"][0], record["hands"][1]["deck"][51] = (
        record["hands"][1]["deck"][51],
        record["hands"][1]["deck"][0],
    )
    expected = python_checks(record)
    assert found_codes(expected) == {2: ["deck"]}
    assert verify_in_page(person, record, "gin.json") == expected
    assert person.page.get_attribute("#verify-verdict", "data-failed") == "1"
    shot(person.page, "fairness-verify-gin")
    person.no_page_errors()


def test_the_verify_page_refuses_what_is_no_record(person: Person) -> None:
    pick_file(person, "x.json", b'{"variant": "x", "options": {}, "hands": []}')
    person.page.wait_for_selector("#verify-error")
    assert "unknown variant 'x'" in (person.page.text_content("#verify-error") or "")
    pick_file(person, "y.json", b'{"variant": "gin", "options": {"players": 3}, "hands": []}')
    person.page.wait_for_function(
        "() => document.querySelector('#verify-error')?.textContent.includes('players')"
    )
    assert all("400 (Bad Request)" in error for error in person.errors)
    person.errors.clear()  # the server's two refusals, as the page asked for them


def test_an_unshuffled_deck_in_another_order_is_refused(person: Person) -> None:
    """A server free to order the unshuffled deck could make the key's shuffle give any deck
    it liked: fairness.js takes the deck's cards from the server, never its order."""
    game = game_of("rummy500", {"players": 2})
    full = [str(c) for c in game.full_deck()]
    record = fair_record("rummy500", {"players": 2, "target": 50})
    entry = record["hands"][0]["fairness"]
    found = run(
        person,
        """
        const {full, record, entry} = arg;
        const orders = {
          given: full, reversed: [...full].reverse(), sorted: [...full].sort(),
          twoJokersFirst: ["Jk", ...full.slice(0, -1)], notCards: [...full.slice(1), "1x"],
        };
        const problems = Object.fromEntries(
          Object.entries(orders).map(([k, d]) => [k, f.unshuffledProblem(d)]));
        let refused = null;
        try {
          await f.verifyRecord(record, async () => ({deck: orders.reversed, players: 2}));
        } catch (error) {
          refused = error.message;
        }
        const deal = await f.verifyDeal(entry, {deck: orders.sorted, players: 2});
        const fine = await f.verifyRecord(record, async () => ({deck: full, players: 2}));
        return {problems, refused, deal, fine: fine.every((r) => r.verified)};
        """,
        {"full": full, "record": record, "entry": entry},
    )
    assert found["problems"]["given"] is None
    assert all(found["problems"][k] for k in ("reversed", "sorted", "twoJokersFirst", "notCards"))
    assert "order" in found["refused"]
    assert found["deal"] == [
        {"ok": False, "key": "malformed", "fields": {"reason": found["problems"]["sorted"]}}
    ]
    assert found["fine"]


# -- at the table -----------------------------------------------------------------------------


def table_in_db(
    folder: Path, hand: str | None = None, *, variant: str = "three-thirteen", **deck: str
) -> str:
    """A two-seat table (seat 0 a person, seat 1 a greedy bot) of Three-Thirteen, or of
    ``variant``, in the database of ``folder``. With ``hand`` (Three-Thirteen), the person
    of :data:`TOKEN` sits down (which deals the first deal) and that deal's deck is
    rewritten to deal seat 0 ``hand``, then the cards ``deck`` names (``up``, ``stock``): a
    deck the deal's key does not give. Its code."""

    async def make() -> str:
        hub = Tables(Settings(database_url=f"sqlite:///{folder / 'remikit.db'}"))
        await hub.start()
        try:
            table = await hub.create(
                variant=variant, options={"players": 2}, seats=SEATS, title=None
            )
            if hand is not None:
                await hub.join(table.id, name="Wayan", seat=0, lang="en", token=TOKEN)
                cards = stack_deck(
                    table.game.full_deck(), {0: hand}, dealer=1, players=2, size=3, **deck
                )
                text = " ".join(str(c) for c in cards)
                await hub.writer.run(
                    lambda s: s.execute(
                        update(DealRow)
                        .where(DealRow.table_id == table.id, DealRow.number == 1)
                        .values(deck=text)
                    )
                )
            return table.id
        finally:
            await hub.close()

    with ThreadPoolExecutor(1) as thread:  # Playwright's loop runs in this thread
        return thread.submit(asyncio.run, make()).result()


def sit_down(person: Person, server: Served, code: str) -> None:
    """Watch the waiting table (its first deal's commitment shown, no card dealt), then
    take seat 0, which deals the first deal."""
    page = person.page
    page.goto(f"{server.url}/table/{code}")
    page.wait_for_selector("#join-form")
    page.wait_for_selector("#fair-commitment")
    shot(page, "fairness-commitment-waiting")
    page.fill("#join-name", "Wayan")
    page.click("#join-submit")
    page.wait_for_function("() => window.remikit?.me === 0")


def stored_contributions(folder: Path, code: str) -> dict[int, list[str | None]]:
    """Each deal's contributions as the table's database holds them (its record's)."""
    engine = create_engine(f"sqlite:///{folder / 'remikit.db'}")
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(DealRow.number, DealRow.contributions).where(DealRow.table_id == code)
            )
            return {number: list(given or []) for number, given in rows}
    finally:
        engine.dispose()


def play_deal(person: Person, deal: int, pick: Callable[[list[str]], str] | None = None) -> None:
    """Take simple turns (``pick`` choosing the discard) until the results of deal
    ``deal`` are shown."""
    results = f'#results .results-box[data-deal="{deal}"]'
    deadline = time.monotonic() + 120
    while not person.page.is_visible(results):
        assert time.monotonic() < deadline, f"deal {deal} did not end"
        if my_turn_ready(person, past_results=False):
            take_simple_turn(person, pick=pick)
        else:
            person.page.wait_for_timeout(30)


def verify_from_results(person: Person, deal: int) -> dict[str, bool]:
    """Open the verify view of ``deal`` from its results: each check's verdict."""
    page = person.page
    page.click("#fair-verify-button")
    page.wait_for_selector(f'#fair-verify .results-box[data-deal="{deal}"] #fair-verdict')
    checks: dict[str, bool] = page.eval_on_selector_all(
        "#fair-checks li",
        "items => Object.fromEntries(items.map(i => [i.dataset.check, i.dataset.ok === 'true']))",
    )
    return checks


def seen(person: Person, code: str, deal: int) -> dict[str, Any]:
    found: dict[str, Any] = person.page.evaluate(
        "(key) => JSON.parse(sessionStorage.getItem(key))", f"remikit.fair.{code}.{deal}"
    )
    return found


def ended(person: Person, deal: int) -> dict[str, Any]:
    """The fairness data of ``deal`` as the state that ended it gave it."""
    for frame in reversed(person.states()):
        data = (frame.get("fairness") or {}).get("ended")
        if data and data["deal"] == deal:
            return dict(data)
    raise AssertionError(f"no state ended deal {deal}")


def test_a_deal_at_the_table_verifies_in_the_browser(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("browser-fair")
    code = table_in_db(folder)
    served = Served(folder)
    person = open_person(browser)
    try:
        page = person.page
        sit_down(person, served, code)
        before = page.get_attribute("#fair-commitment", "data-full")
        waiting = person.states()[0]["fairness"]  # a spectator's, before any card was dealt
        assert waiting["deal"] is None and waiting["next"]["commitment"] == before
        play_deal(person, 1)
        first = ended(person, 1)
        joined = seen(person, code, 1)
        assert before == first["commitment"] == joined["commitment"]
        assert first["contributions"][0] == joined["contribution"]  # sent with the join
        checks = verify_from_results(person, 1)
        assert set(checks) == {"secret", "commitment_seen", "contribution", "hand", "upcard"}
        assert all(checks.values()), checks
        page.keyboard.press("Escape")  # closes the verify view, not the results under it
        page.wait_for_selector("#fair-verify", state="hidden")
        assert page.is_visible('#results .results-box[data-deal="1"]')
        close_results(person)
        page.wait_for_selector('#fair-line [data-deal="2"]')
        page.wait_for_function(  # the contribution to deal 3, sent during deal 2, taken
            "(key) => JSON.parse(sessionStorage.getItem(key) || '{}').contribution",
            arg=f"remikit.fair.{code}.3",
        )
        offered = seen(person, code, 3)["contribution"]
        page.reload()  # keeps what it sent, and sends nothing new
        page.wait_for_selector('#fair-line [data-deal="2"]')
        assert seen(person, code, 3)["contribution"] == offered
        assert person.states()[-1]["fairness"]["next"]["mine"] == offered
        page.click("#fair-help")
        assert "commitment" in (page.text_content("#fair-help-text") or "")
        shot(page, "fairness-commitment-line")
        play_deal(person, 2)
        sent = seen(person, code, 2)["contribution"]  # sent over the socket during deal 1
        assert ended(person, 2)["contributions"][0] == sent and len(sent) == 64
        checks = verify_from_results(person, 2)
        assert set(checks) == {"secret", "commitment_seen", "contribution", "hand", "upcard"}
        assert all(checks.values()), checks
        assert page.get_attribute("#fair-verdict", "data-ok") == "true"
        assert sent in (page.text_content('#fair-contributions li[data-seat="0"]') or "")
        shot(page, "fairness-verify-view", full_page=True)
        stored = stored_contributions(folder, code)
        assert stored[1][0] == joined["contribution"] and stored[2][0] == sent
        person.no_page_errors()
    finally:
        person.page.context.close()
        served.stop()


def test_a_gin_deal_at_the_table_verifies_in_the_browser(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """fairness.js names no variant: a Gin Rummy table's first hand verifies with the
    unshuffled deck its states carry, kept with the commitment before the hand."""
    folder = tmp_path_factory.mktemp("browser-fair-gin")
    code = table_in_db(folder, variant="gin")
    served = Served(folder)
    person = open_person(browser)
    try:
        page = person.page
        sit_down(person, served, code)
        unshuffled = person.states()[0]["fairness"]["deck"]
        assert unshuffled == [str(c) for c in game_of("gin", {}).full_deck()]
        results = '#results .results-box[data-deal="1"]'
        moves: dict[str, int] = {}
        deadline = time.monotonic() + 180
        while not page.is_visible(results):
            assert time.monotonic() < deadline, "the first hand did not end"
            board = person.board()
            if board.get("myTurn") == "true" and board.get("busy") == "false":
                try:
                    gin_table.play_turn(person, moves)
                except PlaywrightTimeout:  # the hand's results came up over the table
                    if not page.is_visible(results):
                        raise
            else:
                page.wait_for_timeout(30)
        assert seen(person, code, 1)["deck"] == unshuffled
        checks = verify_from_results(person, 1)
        assert set(checks) == {"secret", "commitment_seen", "contribution", "hand", "upcard"}
        assert all(checks.values()), checks
        dealt = page.eval_on_selector_all("#fair-deck .card.owned", "cards => cards.length")
        assert dealt == 10
        shot(page, "fairness-verify-gin-table", full_page=True)
        person.no_page_errors()
    finally:
        person.page.context.close()
        served.stop()


def test_a_stacked_deck_fails_the_browsers_check(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("browser-unfair")
    code = table_in_db(folder, "4h 5h 6h", up="Kd", stock="9c")
    served = Served(folder)
    person = open_person(browser)
    try:
        page = person.page
        page.goto(served.url + "/")
        page.evaluate(
            "([key, token]) => localStorage.setItem(key, token)", [f"remikit.token.{code}", TOKEN]
        )
        page.goto(f"{served.url}/table/{code}")
        page.wait_for_function("() => window.remikit?.me === 0")
        play_deal(person, 1, pick=lambda cards: "9c" if "9c" in cards else cards[0])  # out at once
        checks = verify_from_results(person, 1)
        assert checks["secret"] and not checks["hand"], checks
        assert page.get_attribute("#fair-verdict", "data-ok") == "false"
        shot(page, "fairness-verify-stacked", full_page=True)
        person.no_page_errors()
    finally:
        person.page.context.close()
        served.stop()


def test_the_replay_links_the_verifier_of_its_game(person: Person, server: Served) -> None:
    bot = {"kind": "bot", "level": "greedy"}
    body = {"variant": "three-thirteen", "options": {"players": 2}, "seats": [bot, bot]}
    code = httpx.post(server.url + "/api/tables", json=body).json()["table"]["id"]
    record_url = f"{server.url}/api/games/{code}/record"
    wait(person, lambda: httpx.get(record_url).status_code == 200, 120, "the bots' game to end")
    record = httpx.get(record_url).json()
    expected = python_checks(record)
    assert len(expected) == 11 and all(c["verified"] for c in expected)
    page = person.page
    page.goto(f"{server.url}/static/replay.html?game={code}")
    page.click("#replay-verify")
    page.wait_for_url(f"**/verify?game={code}")
    page.wait_for_selector("#verify-verdict")
    assert page.evaluate("window.remikit.results") == expected
    assert page.get_attribute("#verify-verdict", "data-failed") == "0"
    person.no_page_errors()


def test_a_join_from_the_lobby_sees_the_commitment_of_the_deal_it_starts(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("browser-fair-lobby")
    code = table_in_db(folder)
    served = Served(folder)
    person = open_person(browser)
    try:
        page = person.page
        page.goto(f"{served.url}/")
        seen_there = page.evaluate(
            """async (code) => {
                const util = await import("./static/util.js");
                await util.joinTable(code, {name: "Wayan", seat: 0, lang: "en"});
                return JSON.parse(sessionStorage.getItem(`remikit.fair.${code}.1`));
            }""",
            code,
        )
        rows = stored_fairness(folder, code)
        assert seen_there["commitment"] == rows[1]  # seen before the join dealt deal 1
        person.no_page_errors()
    finally:
        person.page.context.close()
        served.stop()


def stored_fairness(folder: Path, code: str) -> dict[int, str]:
    """Each deal's commitment as the table's database holds it."""
    engine = create_engine(f"sqlite:///{folder / 'remikit.db'}")
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(DealRow.number, DealRow.commitment).where(DealRow.table_id == code)
            )
            return {number: str(value) for number, value in rows}
    finally:
        engine.dispose()
