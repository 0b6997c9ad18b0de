"""State changes (docs/protocol.md §4.3, ``change``) over random play of every registered
variant: for each seat and the spectator, the ops between one state and the next make
exactly the next one (its JSON text, key order included) in Python
(:mod:`remikit.server.transport.changes`) and in the browser's ``static/changes.js``
under node; the state they start from is left as it was and shared where nothing changed;
a step of one new play sends that play, not the whole log."""

from __future__ import annotations

import base64
import json
import random
import shutil
import subprocess
from collections.abc import Iterator
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from remikit.engine import Game
from remikit.server.serialize import view_json
from remikit.server.transport.changes import (
    FIXED,
    Op,
    State,
    apply_change,
    change_message,
    diff,
    patch,
)
from remikit.variants import VariantSpec, playable
from tests.hidden import blind_view
from tests.random_play import play

SEEDS = range(4)
"""Seed 0 plays a whole game (tests/random_play.py), the others one deal each."""
VARIANTS = [pytest.param(spec, id=spec.name) for spec in playable()]
CHANGES_JS = Path(__file__).resolve().parent.parent / "remikit" / "server" / "static" / "changes.js"


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class States:
    """State-like messages of one seat (None: the spectators) after every step of a
    game: the view as the protocol sends it, with parts that change or come and go."""

    def __init__(self, seat: int | None, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.messages: list[State] = []

    def add(self, game: Game) -> None:
        rng, seat, rev = self.rng, self.seat, len(self.messages)
        view = game.view(seat)
        message: State = {
            "type": "state",
            "table_id": "ABCD2345",
            "state_id": rev,
            "rev": rev,
            "table": {
                "state_id": rev,
                "status": "finished" if game.over else "playing",
                "seats": [
                    {"seat": s, "connected": rng.random() < 0.95, "thinking": s == view.to_play}
                    for s in range(game.players)
                ],
                "spectators": rng.randrange(3),
                "timer": None if view.to_play is None else {"seat": view.to_play},
            },
            "call_window": {"discarder": 0} if rng.random() < 0.1 else None,
            "view": view_json(view),
        }
        if seat is not None and rng.random() < 0.7:
            message["advice"] = {"hand": len(view.hand), "can_close": rng.random() < 0.2}
        if seat is not None and view.to_play == seat and rng.random() < 0.8:
            message["lay_down"] = {"type": "pass", "text": "pass"}
        self.messages.append(message)


def sequences(spec: VariantSpec, seed: int) -> dict[int | None, list[State]]:
    """Every seat's and the spectators' states over one seed's play."""
    rng = random.Random(f"{spec.name} changes {seed}")
    seats: dict[int | None, States] = {}

    def record(game: Game) -> None:
        if not seats:
            seats.update({s: States(s, rng) for s in [*range(game.players), None]})
        for states in seats.values():
            states.add(game)

    play(spec, seed, check=False, extra=record)
    return {seat: states.messages for seat, states in seats.items()}


@cache
def every_sequence(name: str) -> list[list[State]]:
    spec = next(s for s in playable() if s.name == name)
    return [states for seed in SEEDS for states in sequences(spec, seed).values()]


def steps(name: str) -> Iterator[tuple[State, State]]:
    for states in every_sequence(name):
        yield from pairwise(states)


def touched(ops: list[Op]) -> set[str]:
    """The top-level keys the ops go into."""
    return {op[1][0] for op in ops}


@pytest.mark.parametrize("spec", VARIANTS)
def test_the_changes_make_exactly_the_next_state(spec: VariantSpec) -> None:
    count = 0
    for states in every_sequence(spec.name):
        texts = [dumps(state) for state in states]
        for i, (old, new) in enumerate(pairwise(states)):
            change = change_message(old, new)
            ops = change["ops"]
            done = apply_change(old, change)
            assert dumps(done) == texts[i + 1], ops  # the same values, types and key order
            shared = [k for k in old if k in done and k not in touched(ops) | FIXED]
            assert all(done[k] is old[k] for k in shared), "what no op touches is shared"
            sent = json.loads(dumps(change))  # as the client reads it
            assert dumps(apply_change(json.loads(texts[i]), sent)) == texts[i + 1]
            count += 1
        assert [dumps(state) for state in states] == texts, "the changes leave states be"
    assert count > 300


LATE = 20
"""Plays in the log from which a step's ops are compared in size with the whole state."""


@pytest.mark.parametrize("spec", VARIANTS)
def test_one_new_play_sends_that_play_not_the_log(spec: VariantSpec) -> None:
    """The log's new entry is appended; later in a deal the ops of a step are a small
    part of the state (the legal actions, which change wholesale, are most of the rest)."""
    ratios = []
    for old, new in steps(spec.name):
        was, now = old["view"], new["view"]
        if now["deal_number"] != was["deal_number"] or len(now["log"]) != len(was["log"]) + 1:
            continue
        ops = diff(old, new)
        logs = [op for op in ops if op[1][:2] in (["view", "log"], ["view", "plays"])]
        assert logs == [
            ["append", ["view", "log"], len(was["log"]), now["log"][-1:]],
            ["append", ["view", "plays"], len(was["plays"]), now["plays"][-1:]],
        ]
        if len(was["log"]) >= LATE:
            ratios.append(len(dumps(ops)) / len(dumps(new)))
    assert len(ratios) > 100
    ratios.sort()
    assert ratios[len(ratios) // 2] < 0.15, "most steps send a small part of the state"
    assert ratios[-1] < 0.5, "every step sends less than half of it"


def test_ops_of_each_kind() -> None:
    old = {"type": "state", "rev": 3, "a": [1, 2, 3], "b": {"x": 1, "y": [1, 5]}, "c": 0}
    new = {"type": "state", "rev": 4, "a": [1, 2, 9, 9], "b": {"x": 1, "y": [2, 5]}, "d": None}
    assert diff(old, new) == [
        ["del", ["c"]],
        ["set", ["a"], [1, 2, 9, 9]],
        ["set", ["b", "y"], [2, 5]],
        ["set", ["d"], None],
    ]
    assert patch(old, diff(old, new)) == new | {"rev": 3}
    # a key added before one kept: the kept one is set again after it, the order exact
    later = {"type": "state", "rev": 5, "a": [1], "b": {"w": 0, "x": 1, "y": [1]}}
    ops = diff(new, later)
    assert dumps(patch(new, ops)) == dumps(later | {"rev": 4})
    assert ["del", ["b", "x"]] in ops and ["set", ["b", "w"], 0] in ops
    with pytest.raises(ValueError, match="rev 2"):
        apply_change(old, {"base": 2, "rev": 4, "state_id": 1, "ops": []})


def test_a_list_changed_in_place_is_sent_whole_and_a_grown_one_by_its_new_items() -> None:
    seats = [{"seat": s, "connected": True, "away": False} for s in range(4)]
    old = {"table": {"seats": seats}, "view": {"log": ["p0 draw stock"]}}
    changed = [*seats[:2], seats[2] | {"away": True}, seats[3]]
    new = {"table": {"seats": changed}, "view": {"log": ["p0 draw stock", "p0 discard 7h"]}}
    assert diff(old, new) == [
        ["set", ["table", "seats"], changed],
        ["append", ["view", "log"], 1, ["p0 discard 7h"]],
    ]


# -- the browser's changes.js, under node ----------------------------------------------------

NODE_RUNNER = """
import {createInterface} from "node:readline";
const {applyChanges} = await import(process.argv[1]);
for await (const line of createInterface({input: process.stdin})) {
  const {state, ops} = JSON.parse(line);
  const before = JSON.stringify(state);
  const result = applyChanges(state, ops);
  const shared = Object.keys(state).filter((k) => result[k] === state[k]);
  const flags = JSON.stringify({shared, unchanged: JSON.stringify(state) === before});
  console.log(`${flags}\t${JSON.stringify(result)}`);
}
"""


@pytest.mark.parametrize("spec", VARIANTS)
def test_changes_js_applies_them_exactly_as_python(spec: VariantSpec) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    module = "data:text/javascript;base64," + base64.b64encode(CHANGES_JS.read_bytes()).decode()
    pairs = [(old, diff(old, new)) for old, new in steps(spec.name)]
    lines = "".join(dumps({"state": old, "ops": ops}) + "\n" for old, ops in pairs)
    run = subprocess.run(
        [node, "--input-type=module", "-e", NODE_RUNNER, module],
        input=lines,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    answers = run.stdout.splitlines()
    assert len(answers) == len(pairs)
    for (old, ops), line in zip(pairs, answers, strict=True):
        flags, result = line.split("\t", 1)
        answer = json.loads(flags)
        assert result == dumps(patch(old, ops))  # the same text: values, types, key order
        assert answer["unchanged"], "applyChanges leaves the state it starts from as it was"
        assert set(answer["shared"]) >= {k for k in old if k not in touched(ops)}


@pytest.mark.parametrize("spec", VARIANTS)
def test_a_change_tells_a_seat_nothing_its_view_hides(spec: VariantSpec) -> None:
    """The ops from one view to the next are the same when every card the seat may not
    see is another card: a change carries nothing the seat's views do not."""
    last: dict[int | None, tuple[State, State]] = {}
    checked = 0

    def record(game: Game) -> None:
        nonlocal checked
        if not game.deals or game.deals[-1].is_over:  # a deal over shows its hands
            last.clear()
            return
        for seat in [*range(game.players), None]:
            view = game.view(seat)
            real = {"view": view_json(view)}
            shown = [view.extra.as_json().get("went_out")]  # a hand gone out is shown (R3-6)
            blind = {"view": view_json(blind_view(game, seat, shown=shown))}
            if seat in last:
                before_real, before_blind = last[seat]
                assert diff(before_real, real) == diff(before_blind, blind)
                checked += 1
            last[seat] = real, blind

    play(spec, SEEDS[0], check=False, extra=record)
    assert checked > 0
