"""Fair deals in a real browser: static/fairness.js in Chromium gives exactly what
remikit.fairness and remikit.shuffle give, and the record verifier page (/verify) says
which deals of a record verify and what differs in the others."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from remikit.engine import Game
from remikit.fairness import commitment, deal_key, deck_seed, fair_deck
from remikit.records import new_game
from remikit.shuffle import ByteStream, shuffled
from tests.browser import (
    Browser,
    Person,
    Served,
    browser,
    needs_chromium,
    open_person,
    server,
)

pytestmark = [needs_chromium]
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
]
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
        const {variant, options, players, dealer, secret, contributions} = arg;
        const full = f.unshuffledDeck(variant, options);
        const deck = await f.fairDeck(full, secret, contributions);
        const {size, upcard} = f.dealing(variant, options, 1);
        return {
          full, deck,
          hands: [...Array(players).keys()].map(
            (seat) => f.dealtHand(deck, {seat, dealer, players, size})),
          upcard: upcard ? [deck[size * players]] : [],
        };""",
        {
            "variant": variant,
            "options": game.options.as_dict(),
            "players": game.players,
            "dealer": deal.dealer,
            "secret": SECRET.hex(),
            "contributions": [c.hex() if c else None for c in contributions],
        },
    )
    assert found == expected
