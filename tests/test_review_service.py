"""The server's reviews as a service (remikit.server.reviews): the work runs in another
process, in steps whose progress shows, and gives the very review the one-thread review
gave; the clients with reviews waiting take turns, a step each."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from remikit.review import review
from remikit.server.reviews import CHUNK, Job, Prepared, Reviews, prepare, rate_decisions
from remikit.server.settings import Settings
from remikit.storage import Store, StoredTable

T = TypeVar("T")

GOLDEN = json.loads((Path(__file__).parent / "data" / "reviews" / "gin-seat1.json").read_text())
"""A finished game of Gin Rummy (three deals) and the review of seat 1 the server made
before its reviews ran in steps (budget 0.002 s, seed 0)."""


def finished_table(table_id: str, record: dict[str, Any] = GOLDEN["record"]) -> StoredTable:
    """A finished table of the game of ``record``, as the database gives it back."""
    hands = record["hands"]
    actions = tuple(text for hand in hands for text in hand["actions"])
    moment = datetime(2026, 12, 1, tzinfo=UTC)
    return StoredTable(
        id=table_id,
        variant=record["variant"],
        options=dict(record["options"]),
        seed="1",
        seats=[{"kind": "bot", "level": "greedy", "name": f"Bot {i + 1}"} for i in range(2)],
        title="",
        created_at=moment,
        finished_at=moment,
        result={},
        actions=actions,
        action_count=len(actions),
        decks=tuple(tuple(hand["deck"]) for hand in hands),
    )


def store_finished(url: str, table_id: str) -> None:
    """Write the finished game of :data:`GOLDEN` to the database at ``url``."""
    table = finished_table(table_id)
    store = Store(url)
    try:
        with store.transaction() as session:
            Store.add_table(session, table)
            for number, deck in enumerate(table.decks, start=1):
                Store.add_deal(session, table.id, number, deck)
            for index, text in enumerate(table.actions):
                Store.add_action(session, table.id, index, int(text[1:].split()[0]), text)
    finally:
        store.close()


async def finished(job: Job, tries: int = 100_000) -> None:
    for _ in range(tries):
        if job.status != "running":
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the review is still running")


def test_the_review_runs_in_another_process_in_steps_and_is_the_same() -> None:
    steps: list[tuple[str, int | None]] = []
    done: list[int] = []

    async def main() -> dict[str, Any]:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(1, mp_context=context) as pool:

            async def run(fn: Callable[..., T], /, *args: Any) -> T:
                steps.append((fn.__name__, args[-2] if fn is rate_decisions else None))
                done.append(job.done)
                result = await asyncio.wrap_future(pool.submit(fn, *args))
                assert pickle.loads(pickle.dumps(result)) == result
                return result

            reviews = Reviews(Settings(review_budget=GOLDEN["budget"]), run=run)
            job, started = reviews.start(finished_table("GZMXR5W6"), 1, "someone")
            assert started
            await finished(job)
            reviews.close()
            return job.as_json("en", GOLDEN["budget"])

    made = asyncio.run(main())
    assert made["status"] == "done", made
    assert made == GOLDEN["review"]
    total = made["total"]
    assert steps == [("prepare", None)] + [("rate_decisions", i) for i in range(0, total, CHUNK)]
    assert done == [0, *range(0, total, CHUNK)]  # the progress moves between the steps
    alone = review(GOLDEN["record"], 1, budget=GOLDEN["budget"], seed=0)
    assert made["review"]["decisions"] == [
        found | {k: made["review"]["decisions"][i][k] for k in ("step", "best_play", "reasons")}
        for i, found in enumerate(alone.as_json()["decisions"])
    ]


def test_the_work_is_the_same_whatever_the_steps() -> None:
    prepared = prepare(finished_table("GZMXR5W6"), 0, 0.002)
    assert prepared.record == GOLDEN["record"]
    whole = rate_decisions(prepared.record, 0, prepared.sims, 0, 0, prepared.total)
    assert len(whole) == prepared.total > CHUNK
    parts = [
        decision
        for start in range(0, prepared.total, 3)
        for decision in rate_decisions(prepared.record, 0, prepared.sims, 0, start, start + 3)
    ]
    assert parts == whole


def test_the_clients_take_turns_a_step_each() -> None:
    """Client A asks two reviews, then client B one: B's review does not wait for both
    of A's; while both have steps to come they alternate; A's go in the order asked."""
    order: list[tuple[str, int]] = []  # (table, seat) of each step
    owner: dict[int, str] = {}

    async def run(fn: Callable[..., T], /, *args: Any) -> T:
        result = fn(*args)
        if isinstance(result, Prepared):
            owner[id(result.record)] = args[0].id
        order.append((owner[id(args[0])] if fn is rate_decisions else args[0].id, args[1]))
        return result

    async def main() -> None:
        reviews = Reviews(Settings(review_budget=0.001), run=run)
        jobs = [
            reviews.start(finished_table("AAAAAAAA"), 0, "a")[0],
            reviews.start(finished_table("AAAAAAAA"), 1, "a")[0],
            reviews.start(finished_table("BBBBBBBB"), 1, "b")[0],
        ]
        for job in jobs:
            await finished(job)
            assert job.status == "done"
        reviews.close()

    asyncio.run(main())
    client = {("AAAAAAAA", 0): "a", ("AAAAAAAA", 1): "a", ("BBBBBBBB", 1): "b"}
    who = [client[step] for step in order]
    assert who[:2] == ["a", "b"]
    for i in range(1, len(who)):
        if who[i] == who[i - 1]:  # one client twice in a row: the other has no step to come
            assert len(set(who[i:])) == 1, who
    a = [step for step in order if client[step] == "a"]
    first_of_second = a.index(("AAAAAAAA", 1))
    assert set(a[:first_of_second]) == {("AAAAAAAA", 0)}


def test_the_default_runner_is_a_thread() -> None:
    async def main() -> Job:
        reviews = Reviews(Settings(review_budget=0.001))
        assert reviews.pool is not None
        job, _ = reviews.start(finished_table("GZMXR5W6"), 0)
        await finished(job)
        reviews.close()
        return job

    job = asyncio.run(main())
    assert job.status == "done" and job.done == job.total
