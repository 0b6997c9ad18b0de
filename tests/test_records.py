"""Game records (CONTRACT.md "Game records and remi replay"): every malformed record is
refused with a reason naming what is wrong, and a malformed hand starts no deal."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from remikit.records import RecordError, load_record, replay
from remikit.variants.rummy500.game import Rummy500Game
from remikit.variants.rummy500.options import Rummy500Options

Record = dict[str, Any]


def fresh_record() -> Record:
    """A Rummy 500 record of one dealt hand with no action yet (dealer 2, first 0)."""
    game = Rummy500Game(Rummy500Options(players=3), rng=random.Random(7))
    return game.record()


def hand(record: Record) -> dict[str, Any]:
    first: dict[str, Any] = record["hands"][0]
    return first


def test_the_fresh_record_replays() -> None:
    record = fresh_record()
    assert (hand(record)["dealer"], hand(record)["first"]) == (2, 0)
    result = replay(record)
    assert result.ok and not result.finished and result.game is not None
    assert len(result.game.deals) == 1


def test_first_may_be_left_out_or_be_the_seat_after_the_dealer() -> None:
    """CONTRACT.md: ``first`` defaults to the seat after the dealer."""
    record = fresh_record()
    del hand(record)["first"]
    assert replay(record).ok
    hand(record)["dealer"], hand(record)["first"] = 0, 1
    assert replay(record).ok


def _set(key: str, value: object) -> Callable[[Record], None]:
    return lambda record: hand(record).__setitem__(key, value)


def _deck_card(position: int, value: object) -> Callable[[Record], None]:
    return lambda record: hand(record)["deck"].__setitem__(position, value)


def _option(name: str, value: object) -> Callable[[Record], None]:
    return lambda record: record["options"].__setitem__(name, value)


MALFORMED: list[tuple[str, Callable[[Record], None], str]] = [
    ("hands an object", lambda r: r.__setitem__("hands", {}), "hands must be a list"),
    ("hand a list", lambda r: r["hands"].__setitem__(0, []), "hand 1 is not an object"),
    ("deck a string", _set("deck", "As Ks Qs"), "hand 1: deck must be a list of card strings"),
    ("deck an object", _set("deck", {"As": 1}), "hand 1: deck must be a list of card strings"),
    ("deck left out", lambda r: hand(r).pop("deck"), "hand 1: deck must be a list"),
    ("deck with a number", _deck_card(3, 7), "hand 1: deck must be a list of card strings"),
    ("deck with a list", _deck_card(0, ["As"]), "hand 1: deck must be a list of card strings"),
    ("deck with no card", _deck_card(5, "Qx"), 'hand 1: deck card 5 is not a card: "Qx"'),
    ("deck with two in one", _deck_card(5, "As Ks"), "hand 1: deck card 5 is not a card"),
    ("deck missing a card", lambda r: hand(r)["deck"].pop(), "missing: 1 ×"),
    ("dealer true", _set("dealer", True), "hand 1: dealer must be a seat from 0 to 2, not true"),
    ("dealer 1.0", _set("dealer", 1.0), "hand 1: dealer must be a seat from 0 to 2, not 1.0"),
    ("dealer text", _set("dealer", "1"), 'hand 1: dealer must be a seat from 0 to 2, not "1"'),
    ("dealer 3", _set("dealer", 3), "hand 1: dealer must be a seat from 0 to 2, not 3"),
    ("dealer huge", _set("dealer", 10**4000), "not 10000000000000000000…"),
    ("first false", _set("first", False), "hand 1: first must be a seat from 0 to 2, not false"),
    ("first 0.5", _set("first", 0.5), "hand 1: first must be a seat from 0 to 2, not 0.5"),
    # RULES.md §0 "Who plays first": always the seat after the dealer
    (
        "first not after the dealer",
        _set("first", 1),
        "hand 1: first must be seat 0, the seat after the dealer, not 1",
    ),
    ("actions a string", _set("actions", "p0 draw stock"), "hand 1: actions must be a list"),
    (
        "actions with a number",
        _set("actions", ["p0 draw stock", 5]),
        "hand 1: actions must be a list of strings",
    ),
    ("actions null", _set("actions", None), "hand 1: actions must be a list of strings"),
    # CONTRACT.md "Table options": values are exact, never rounded or coerced
    ("players 3.7", _option("players", 3.7), "option players takes a whole number, not 3.7"),
    ("players true", _option("players", True), "option players takes a whole number, not true"),
    ("players text", _option("players", "3"), 'option players takes a whole number, not "3"'),
    (
        "players huge",
        _option("players", 10**4000),
        "option players must be from 2 to 8, not 10000000000000000000…",
    ),
    ("jokers 1", _option("jokers", 1), "option jokers takes true or false, not 1"),
    ("jokers text", _option("jokers", "true"), 'option jokers takes true or false, not "true"'),
    ("target 150.0", _option("target", 150.0), "option target takes a whole number, not 150.0"),
    ("scoring a number", _option("scoring", 5), "option scoring takes text, not 5"),
    ("options a list", lambda r: r.__setitem__("options", [3]), "options must be an object"),
]


@pytest.mark.parametrize(
    ("change", "reason"), [(c, r) for _, c, r in MALFORMED], ids=[name for name, _, _ in MALFORMED]
)
def test_a_malformed_record_is_refused_with_a_reason_naming_the_field(
    change: Callable[[Record], None], reason: str
) -> None:
    record = fresh_record()
    change(record)
    result = replay(record)
    assert not result.ok and result.index is None
    assert reason in (result.reason or "")
    assert set(result.as_json()) == {"ok", "reason"}
    if result.game is not None:
        assert result.game.deals == []  # the malformed hand started no deal


def test_a_malformed_second_hand_leaves_the_game_as_the_first_left_it(data: Path) -> None:
    record = load_record(data / "records" / "r500-basic-going-out.json")
    first_hand = hand(record)
    later = {**first_hand, "dealer": 1, "actions": []}  # R5-2: the deal passes to seat 1
    changes: list[tuple[dict[str, object], str]] = [
        ({"first": 0}, "hand 2: first must be seat 2, the seat after the dealer, not 0"),
        ({"dealer": 2}, "hand 2: dealer must be seat 1, the dealer the rules pick, not 2"),
        ({"deck": [*first_hand["deck"][:-1], None]}, "hand 2: deck must be a list"),
    ]
    for change, reason in changes:
        result = replay({**record, "hands": [first_hand, {**later, **change}]})
        assert not result.ok and reason in (result.reason or ""), result.reason
        assert result.game is not None and len(result.game.deals) == 1
        assert result.game.needs_deal and result.game.totals == [17, 64, 2]
    assert replay({**record, "hands": [first_hand, {**later, "first": 2}]}).ok


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'{"variant": "rummy500", "hands": []', "is not JSON"),
        (b'{"variant": "rummy500\xff", "hands": []}', "is not UTF-8 text (byte 21)"),
        (b'{"hands": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nests too deeply"),
        (b'{"options": {"players": ' + b"9" * 5000 + b"}}", "a number too long to read"),
        (b"[1, 2]", "a record is a JSON object"),
    ],
)
def test_a_file_that_holds_no_record_is_refused(
    tmp_path: Path, content: bytes, reason: str
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(content)
    with pytest.raises(RecordError, match=re.escape(reason)):
        load_record(path)


def test_a_saved_record_loads_back(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    record = fresh_record()
    path.write_text(json.dumps(record), encoding="utf-8")
    assert load_record(path) == record


SEAT_FIRST = "a record action starts with the seat"
NUMBER = "must be a number from 1"


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("p² draw stock", SEAT_FIRST),
        ("p٣ draw stock", SEAT_FIRST),
        ("p" + "9" * 5000 + " draw stock", SEAT_FIRST),
        ("p0 draw discard ²", NUMBER),
        ("p0 draw discard " + "9" * 5000, NUMBER),
        ("p0 rummy 1e3", NUMBER),
    ],
)
def test_an_action_without_a_number_where_one_belongs_is_refused_at_its_index(
    action: str, reason: str
) -> None:
    record = fresh_record()
    hand(record)["actions"] = [action]
    result = replay(record)
    assert not result.ok and result.index == 0 and result.action == action
    assert reason in (result.reason or "")
