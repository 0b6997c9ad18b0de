"""The bot worker processes: the same decisions as in the server, quick decisions never
behind searches, fair turns by creator then table, dead workers replaced, a clean close."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import random
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar, cast

import pytest

from remikit.actions import Action
from remikit.bots import LEVELS, RandomBot, make_bot
from remikit.server.bots.driver import BotDriver
from remikit.server.bots.lanes import FairQueue, at_once
from remikit.server.bots.workers import (
    Lane,
    Owner,
    WorkerDied,
    Workers,
    WorkersClosed,
    decide,
    lane_of,
    lane_sizes,
    pickled_job,
)
from remikit.server.clock import ManualClock
from remikit.server.tables.seats import BotPlayer
from remikit.server.tables.service import Table
from remikit.variants import VariantSpec, playable
from remikit.views import PlayerView
from tests import bot_jobs

T = TypeVar("T")
CONTEXT = multiprocessing.get_context("forkserver")
TABLE = Owner("t1", "c1")


@dataclass(frozen=True)
class Gate:
    """Where the held jobs (:func:`tests.bot_jobs.held`) wait, and report their start."""

    gate: Connection
    opener: Connection
    started: Connection
    reporter: Connection

    @classmethod
    def new(cls) -> Gate:
        return cls(*CONTEXT.Pipe(duplex=False), *CONTEXT.Pipe(duplex=False))

    def open(self) -> None:
        self.opener.send("open")

    async def started_pid(self) -> int:
        """The pid of the next worker to start a held job (waiting for it)."""
        pid: int = await asyncio.to_thread(self.started.recv)
        return pid


def run(body: Callable[[Workers, Gate], Awaitable[T]], **sizes: int) -> T:
    """``body`` with started workers (``sizes``: :class:`Workers`' arguments) and a closed
    gate for their held jobs."""
    gate = Gate.new()

    async def main() -> T:
        workers = Workers(
            **sizes, initializer=bot_jobs.prepare, initargs=(gate.gate, gate.reporter)
        )
        async with workers:
            try:
                return await body(workers, gate)
            finally:
                gate.open()  # let any held job end

    return asyncio.run(main())


# -- lanes -----------------------------------------------------------------------------


def test_searching_levels_think_in_the_deep_lane() -> None:
    assert lane_of("random") is lane_of("greedy") is lane_of("greedy@2") is Lane.QUICK
    assert lane_of("strong") is lane_of("strong@0.1") is lane_of("expert@3") is Lane.DEEP
    assert set(LEVELS) == {"random", "greedy", "strong", "expert"}, "a new level: which lane?"


def test_each_lane_has_its_own_processes() -> None:
    assert lane_sizes(1) == lane_sizes(2) == {Lane.QUICK: 1, Lane.DEEP: 1}
    assert lane_sizes(4) == {Lane.QUICK: 1, Lane.DEEP: 3}
    assert lane_sizes(16) == {Lane.QUICK: 4, Lane.DEEP: 12}
    assert lane_sizes(4, quick=2) == {Lane.QUICK: 2, Lane.DEEP: 2}
    assert lane_sizes(4, quick=0)[Lane.QUICK] == 1
    assert sum(lane_sizes().values()) == max(2, os.cpu_count() or 1)


def test_a_lane_serves_creators_in_turn_then_their_tables_in_turn() -> None:
    queue: FairQueue[str] = FairQueue()
    owners = {"a1": Owner("a1", "A"), "a2": Owner("a2", "A"), "b1": Owner("b1", "B")}
    owners |= {"u1": Owner("u1", None), "u2": Owner("u2", None)}
    for job in ["a1.1", "a1.2", "a1.3", "a2.1", "b1.1", "u1.1", "u2.1", "u1.2"]:
        queue.push(owners[job[:2]], job)
    assert queue.discard(owners["a1"], "a1.2") and not queue.discard(owners["a1"], "a1.2")
    assert [queue.pop() for _ in range(4)] == ["a1.1", "b1.1", "u1.1", "a2.1"]
    queue.push(owners["b1"], "b1.2")  # B had run out: it joins at the end
    assert [queue.pop() for _ in range(len(queue))] == ["u2.1", "a1.3", "b1.2", "u1.2"]
    with pytest.raises(IndexError):
        queue.pop()


# -- decisions -------------------------------------------------------------------------


def views_of(spec: VariantSpec, seed: int, count: int = 3, every: int = 5) -> list[PlayerView]:
    """``count`` views with a choice to make (at most one in ``every`` steps), from a game
    of ``spec`` played at random."""
    game_class = spec.game_class()
    game = game_class(game_class.options_type.from_mapping({}), rng=random.Random(seed))
    mover = RandomBot(seed=seed)
    views: list[PlayerView] = []
    step = 0
    while not game.over and len(views) < count:
        if game.needs_deal:
            game.start_deal()
        seat = game.to_play
        assert seat is not None
        view = game.view(seat)
        if step % every == 0 and len(view.legal_actions) > 1:
            views.append(view)
        game.apply(seat, mover.choose(view))
        step += 1
    return views


@pytest.mark.parametrize("spec", playable(), ids=lambda spec: spec.name)
def test_a_worker_decides_as_the_bot_in_the_server(spec: VariantSpec) -> None:
    levels = [
        lv for lv in ("random", "greedy", "strong@0.02") if make_bot(lv, seed=0).plays(spec.name)
    ]
    asked = [
        (level, seed, view)
        for seed, view in enumerate(views_of(spec, seed=7), start=11)
        for level in levels
    ]
    assert asked and {lane_of(level) for level, _, _ in asked} == set(Lane)

    async def body(workers: Workers, gate: Gate) -> list[object]:
        return await asyncio.gather(
            *(workers.run(TABLE, lane_of(lv), decide, lv, s, v, False) for lv, s, v in asked)
        )

    answers = run(body, processes=2)
    expected = [make_bot(level, seed=seed).choose(view) for level, seed, view in asked]
    assert answers == expected
    assert [decide(level, seed, view, False) for level, seed, view in asked] == expected


@pytest.mark.parametrize("spec", playable(), ids=lambda spec: spec.name)
def test_a_job_carries_its_view_whole(spec: VariantSpec) -> None:
    """A job pickles a view's log as its record lines, its cards as bytes and its finished
    deals once: the worker reads the same view, all through a game."""
    views = views_of(spec, seed=9, count=400, every=7)
    assert any(len(view.log) > 1 for view in views)
    assert any(view.finished_deals for view in views)
    assert any(view.taken_from_discard for view in views)
    for view in views:
        fn, (level, seed, carried) = pickle.loads(pickled_job((decide, ("random", 3, view))))
        assert fn is decide and (level, seed) == ("random", 3)
        assert carried == view and list(carried.log) == list(view.log)


def test_a_worker_reads_each_record_line_once() -> None:
    """The next job of a table carries its log again, a play longer: the worker reads
    only the new line, and the plays it kept are those the lines say."""
    views = [v for v in views_of(playable()[0], seed=9) if len(v.log) > 2]
    first = views[0]
    later = [v for v in views if v.deal_number == first.deal_number][-1]
    assert len(later.log) > len(first.log)
    log = pickle.loads(pickled_job((decide, ("random", 3, first))))[1][2].log
    again = pickle.loads(pickled_job((decide, ("random", 3, later))))[1][2].log
    assert list(again) == list(later.log)
    assert all(a is b for a, b in zip(log, again[: len(log)], strict=True))


def test_a_level_that_picks_without_thinking_decides_at_once_in_the_server() -> None:
    """A ``random`` decision costs less than carrying its view to a worker: the driver
    makes it itself, the same one a worker makes; the other levels go to the runner."""
    assert at_once("random") and not at_once("greedy") and not at_once("strong@0.1")
    views = views_of(playable()[0], seed=5)
    sent: list[str] = []

    class Runner:
        async def run(self, owner: Owner, lane: Lane, fn: Callable[..., T], *args: Any) -> T:
            sent.append(args[0])
            return fn(*args)

    driver = BotDriver(Runner(), ManualClock(), delay=0)
    table = cast(Table, SimpleNamespace(id="t1", creator="c1"))

    async def decisions(level: str) -> list[Action]:
        bot = BotPlayer(level, 17)
        return [await driver.decision(table, bot, view, 40 + i) for i, view in enumerate(views)]

    for level in ("random", "greedy"):
        made = asyncio.run(decisions(level))
        seeds = [BotPlayer(level, 17).seed_at(40 + i) for i in range(len(views))]
        assert made == [decide(level, s, v) for s, v in zip(seeds, views, strict=True)]
    assert sent == ["greedy"] * len(views)


def test_what_a_job_raises_reaches_its_caller() -> None:
    view = views_of(playable()[0], seed=3, count=1)[0]

    async def body(workers: Workers, gate: Gate) -> None:
        with pytest.raises(ValueError, match="unknown bot level 'clever'") as caught:
            await workers.run(TABLE, Lane.QUICK, decide, "clever", 1, view)
        assert any("in bot worker" in note for note in caught.value.__notes__)

    run(body, processes=2)


# -- scheduling ------------------------------------------------------------------------


def test_a_lane_runs_jobs_by_creator_in_turn_then_by_table() -> None:
    jobs: list[tuple[str, str | None]] = [("a1", "A"), ("a1", "A"), ("a2", "A"), ("b1", "B")]
    jobs += [("b1", "B"), ("b2", "B")]
    jobs += [("c1", "C"), ("u1", None), ("u2", None)]

    async def body(workers: Workers, gate: Gate) -> list[str]:
        holder = asyncio.create_task(workers.run(Owner("x", "X"), Lane.DEEP, bot_jobs.held, "x"))
        await gate.started_pid()  # the only DEEP worker is busy: the rest must wait
        tasks = [
            asyncio.create_task(
                workers.run(Owner(table, creator), Lane.DEEP, bot_jobs.tagged, f"{table}.{i}")
            )
            for i, (table, creator) in enumerate(jobs)
        ]
        await asyncio.sleep(0)  # every job is queued
        gate.open()
        done = [await holder, *await asyncio.gather(*tasks)]
        return [tag for tag, _, _ in sorted(done, key=lambda answer: answer[1])]

    order = run(body, processes=2)
    assert order == ["x", "a1.0", "b1.3", "c1.6", "u1.7", "a2.2", "b2.5", "u2.8", "a1.1", "b1.4"]


def test_a_quick_decision_never_waits_behind_searches() -> None:
    async def body(workers: Workers, gate: Gate) -> None:
        deep = workers.pids(Lane.DEEP)
        assert len(deep) == 2 and workers.sizes == {Lane.QUICK: 1, Lane.DEEP: 2}
        searches = [
            asyncio.create_task(workers.run(Owner(f"d{i}", "D"), Lane.DEEP, bot_jobs.held, "d"))
            for i in range(3)
        ]
        assert {await gate.started_pid(), await gate.started_pid()} == set(deep)
        quick = asyncio.create_task(workers.run(TABLE, Lane.QUICK, bot_jobs.tagged, "q"))
        done, _ = await asyncio.wait([quick, *searches], return_when=asyncio.FIRST_COMPLETED)
        assert done == {quick} and quick.result()[2] in workers.pids(Lane.QUICK)
        gate.open()
        assert [tag for tag, _, _ in await asyncio.gather(*searches)] == ["d", "d", "d"]

    run(body, processes=3, quick=1)


def test_a_cancelled_caller_drops_its_job_not_yet_started() -> None:
    async def body(workers: Workers, gate: Gate) -> None:
        holder = asyncio.create_task(workers.run(TABLE, Lane.QUICK, bot_jobs.held, "held"))
        await gate.started_pid()
        dropped = asyncio.create_task(workers.run(TABLE, Lane.QUICK, bot_jobs.tagged, "drop"))
        after = asyncio.create_task(workers.run(TABLE, Lane.QUICK, bot_jobs.tagged, "after"))
        await asyncio.sleep(0)  # both are queued behind the held job
        dropped.cancel()
        await asyncio.sleep(0)
        gate.open()
        (_, first, _), (_, second, _) = await holder, await after
        assert second == first + 1, "the dropped job never ran"
        assert dropped.cancelled()

    run(body, processes=2)


# -- failures and the end ------------------------------------------------------------------


def test_a_worker_killed_mid_job_is_replaced_and_the_job_tried_again() -> None:
    async def body(workers: Workers, gate: Gate) -> None:
        job = asyncio.create_task(workers.run(TABLE, Lane.DEEP, bot_jobs.held, "again"))
        killed = await gate.started_pid()
        quick = workers.pids(Lane.QUICK)
        os.kill(killed, signal.SIGKILL)
        replacement = await gate.started_pid()  # the same job, in the new worker
        assert replacement != killed and workers.pids(Lane.DEEP) == [replacement]
        gate.open()
        assert (await job)[0] == "again"
        assert workers.pids(Lane.QUICK) == quick

    run(body, processes=2)


def test_a_job_that_ends_its_worker_twice_raises_worker_died(tmp_path: Path) -> None:
    async def body(workers: Workers, gate: Gate) -> None:
        marker = str(tmp_path / "tried")
        assert await workers.run(TABLE, Lane.QUICK, bot_jobs.exit_once, marker) == "tried again"
        with pytest.raises(WorkerDied):
            await workers.run(TABLE, Lane.DEEP, bot_jobs.exit_always)
        assert (await workers.run(TABLE, Lane.DEEP, bot_jobs.tagged, "still"))[0] == "still"
        assert workers.sizes == {lane: len(workers.pids(lane)) for lane in Lane}

    run(body, processes=2)


def test_close_ends_every_worker_even_a_busy_one() -> None:
    gate = Gate.new()

    async def main() -> None:
        workers = Workers(2, initializer=bot_jobs.prepare, initargs=(gate.gate, gate.reporter))
        await workers.start()
        pids = workers.pids(Lane.QUICK) + workers.pids(Lane.DEEP)
        busy = asyncio.create_task(workers.run(TABLE, Lane.DEEP, bot_jobs.held, "never"))
        await gate.started_pid()
        await workers.close()
        with pytest.raises(WorkersClosed):
            await busy
        with pytest.raises(WorkersClosed):
            await workers.run(TABLE, Lane.QUICK, bot_jobs.tagged, "late")
        for pid in pids:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
        assert not [p for p in multiprocessing.active_children() if p.pid in pids]

    asyncio.run(main())


def test_a_worker_that_cannot_start_fails_the_start() -> None:
    async def main() -> None:
        workers = Workers(2, initializer=bot_jobs.fail_to_start)
        with pytest.raises(ValueError, match="cannot start"):
            await workers.start()
        assert workers.pids(Lane.QUICK) == workers.pids(Lane.DEEP) == []

    asyncio.run(main())
