"""Table owners on a site of several processes (remikit/storage/owners.py, docs/design.md
decision 12): leases, claims and the fence that keeps a stale owner's writes out.

A node's lease is ended with ``leave`` here rather than waited out, so no test waits for
a clock. These run on PostgreSQL (a site needs it); they skip without one, except in CI.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from sqlalchemy.orm import Session

from remikit.storage import Store, StoredTable
from remikit.storage.owners import Fenced, Owners
from remikit.storage.store import now
from remikit.storage.testing import scratch_database
from remikit.storage.writer import Writer
from tests.conftest import postgres_admin_url

LEASE = 60.0  # long: a lease ends here only by leave()


@pytest.fixture
def store() -> Iterator[Store]:
    with scratch_database(postgres_admin_url()) as url:
        opened = Store(url)
        try:
            for code in ("AAAAAAAA", "BBBBBBBB"):
                opened.create_table(
                    StoredTable(
                        id=code,
                        variant="gin",
                        options={},
                        seed="1",
                        seats=[],
                        title="",
                        created_at=now(),
                    )
                )
            yield opened
        finally:
            opened.close()


def nodes(store: Store) -> tuple[Owners, Owners]:
    a, b = Owners(store, "a", "http://a", LEASE), Owners(store, "b", "http://b", LEASE)
    a.beat()
    b.beat()
    return a, b


def test_a_table_has_one_live_owner_and_each_claim_a_new_epoch(store: Store) -> None:
    a, b = nodes(store)
    assert sorted(a.orphans(10)) == ["AAAAAAAA", "BBBBBBBB"]
    assert a.claim("AAAAAAAA") == 1
    assert b.claim("AAAAAAAA") is None  # a's lease runs
    assert b.owner("AAAAAAAA") is not None and b.owner("AAAAAAAA").node == "a"  # type: ignore[union-attr]
    assert a.orphans(10) == ["BBBBBBBB"]
    a.leave()  # as if its lease ran out
    assert b.owner("AAAAAAAA") is None and "AAAAAAAA" in b.orphans(10)
    assert b.claim("AAAAAAAA") == 2
    assert b.lost({"AAAAAAAA": 2}) == [] and b.lost({"AAAAAAAA": 1}) == ["AAAAAAAA"]
    assert b.claim("NOSUCHTB") is None  # not a table: nothing to own


def test_a_finished_table_is_nobodys(store: Store) -> None:
    a, _ = nodes(store)
    store.finish("BBBBBBBB", {"scores": []})
    assert a.claim("BBBBBBBB") is None and a.orphans(10) == ["AAAAAAAA"]


class Fence:
    def __init__(self, owners: Owners, epochs: dict[str, int]) -> None:
        self.owners, self.epochs = owners, epochs

    def held(self, session: Session, tables: set[str]) -> set[str]:
        return self.owners.fence(session, {t: e for t, e in self.epochs.items() if t in tables})


def test_a_stale_owner_cannot_write(store: Store) -> None:
    a, b = nodes(store)
    epoch = a.claim("AAAAAAAA")
    assert epoch == 1
    writer = Writer(store)
    writer.fence = Fence(a, {"AAAAAAAA": epoch})

    async def play() -> None:
        await writer.append_action("AAAAAAAA", 0, 0, "p1 pass")  # a owns it: stored
        a.leave()
        assert b.claim("AAAAAAAA") == 2  # b takes it over
        with pytest.raises(Fenced):
            await writer.append_action("AAAAAAAA", 1, 0, "p1 draw stock")
        with pytest.raises(Fenced):
            await writer.run(lambda s: Store.set_table(s, "AAAAAAAA", title="x"), table="AAAAAAAA")
        # a write of no table is no table's owner's business
        await writer.run(lambda s: Store.set_table(s, "BBBBBBBB", title="y"))

    try:
        asyncio.run(play())
    finally:
        writer.close()
    assert store.actions("AAAAAAAA") == ["p1 pass"]
    loaded = store.load("AAAAAAAA")
    assert loaded is not None and loaded.title == ""


def test_writes_of_a_held_table_and_a_lost_one_in_one_batch(store: Store) -> None:
    a, b = nodes(store)
    a.claim("AAAAAAAA")
    b.claim("BBBBBBBB")
    writer = Writer(store)
    writer.fence = Fence(a, {"AAAAAAAA": 1, "BBBBBBBB": 1})  # a thinks it holds both

    async def play() -> list[BaseException | None]:
        results = await asyncio.gather(
            writer.append_action("AAAAAAAA", 0, 0, "p1 pass"),
            writer.append_action("BBBBBBBB", 0, 0, "p1 pass"),
            return_exceptions=True,
        )
        return list(results)

    try:
        first, second = asyncio.run(play())
    finally:
        writer.close()
    assert first is None and isinstance(second, Fenced)
    assert store.actions("AAAAAAAA") == ["p1 pass"] and store.actions("BBBBBBBB") == []
