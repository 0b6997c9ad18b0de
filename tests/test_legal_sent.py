"""The legal actions a seat is sent are what the server accepts at that state id, over
random play at web tables of people only (every seat driven here): an action sent as
legal is accepted, and every other candidate (what any seat may do now, what a seat may
do in other phases, Rummy calls of every depth, cards that are not in the hand) is
refused with the state unchanged. Rummy 500 covers the call window after every discard
(R5-10), the real one and the one no call can take."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from remikit.actions import Action, Discard, Draw, Pass
from remikit.cards import Card
from remikit.server.clock import ManualClock
from remikit.server.problems import Problem
from remikit.server.settings import Settings
from remikit.server.tables.registry import Tables
from remikit.server.tables.service import Table
from remikit.variants.rummy500.actions import CallRummy

CASES = [
    ("three-thirteen", {"players": 3}, 400),
    ("rummy500", {"players": 3}, 400),
    ("remi13d", {}, 400),
]
SEEDS = [
    "7",
    pytest.param("8", marks=pytest.mark.slow),
    pytest.param("9", marks=pytest.mark.slow),
]
ALWAYS: list[Action] = [
    Draw("stock"),
    Draw("discard"),
    Pass(),
    *(CallRummy(k) for k in range(1, 6)),
    Discard(Card.parse("Jk")),
    Discard(Card.parse("As")),
]


async def settled(table: Table) -> None:
    """Until the table's own tasks are done with the last action (the writer is a thread)."""
    for _ in range(500):
        await asyncio.sleep(0.002)
        window = table.window
        if not table.lock.locked() and (window is None or not window.done.is_set()):
            return
    raise AssertionError("the table did not settle")


def candidates(table: Table, rng: random.Random) -> list[tuple[int, Action]]:
    """Every seat's legal actions now, and the fixed ones, for every seat."""
    seats = range(len(table.seats))
    legal = {a for s in seats for a in table.view(s).legal_actions}
    pool = sorted(legal | set(ALWAYS), key=str)
    return [(s, a) for s in seats for a in rng.sample(pool, min(len(pool), 12))]


async def play(
    folder: Path, variant: str, options: dict[str, object], steps: int, seed: str
) -> tuple[int, dict[str, int]]:
    """Random play: the candidates checked, and the call windows met (blank or real)."""
    hub = Tables(
        Settings(database_url=f"sqlite:///{folder / 'remikit.db'}", bot_delay=0, call_window=600),
        clock=ManualClock(),
    )
    await hub.start()
    rng = random.Random(f"{variant}/legal")
    checked = 0
    windows = {"blank": 0, "real": 0}
    try:
        players = 4 if variant == "remi13d" else int(str(options["players"]))
        table = await hub.create(
            variant=variant,
            options=options,
            seats=[{"kind": "person"}] * players,
            title=None,
            settings={"turn_time": None},
            seed=seed,
        )
        for seat in range(players):
            await hub.join(table.id, name=f"P{seat}", seat=seat, lang="en")
        await settled(table)
        for _ in range(steps):
            if table.game.over:
                break
            state = table.state_id
            sent = {s: table.view(s).legal_actions for s in range(players)}
            assert any(sent.values()), f"nobody may act at state {state}"
            for seat, action in candidates(table, rng):
                if action in sent[seat]:
                    continue
                before = (table.state_id, table.game.to_play, table.window)
                with pytest.raises(Problem):
                    await table.submit(seat, state, action)
                assert (table.state_id, table.game.to_play, table.window) == before
                checked += 1
            if table.window is not None:
                windows["blank" if table.window.blank else "real"] += 1
            seat = rng.choice([s for s in range(players) if sent[s]])
            action = rng.choice(sent[seat])
            outcome = await table.submit(seat, state, action)
            assert outcome in ("applied", "call_pending"), (seat, action)
            checked += 1
            await settled(table)
    finally:
        await hub.close()
    return checked, windows


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("variant", "options", "steps"), CASES, ids=[c[0] for c in CASES])
def test_the_legal_actions_sent_are_exactly_those_accepted(
    tmp_path: Path, variant: str, options: dict[str, object], steps: int, seed: str
) -> None:
    checked, windows = asyncio.run(play(tmp_path, variant, options, steps, seed))
    assert checked > steps * 5
    if variant == "rummy500":  # both kinds of call window were met
        assert windows["blank"] > 0 and windows["real"] > 0, windows
