"""A table as the store loads it: its configuration, its actions, and each deal's deck
and fairness data (:class:`StoredTable`), made from its rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from remikit.storage.models import DealRow, TableRow


def _aware(moment: datetime | None) -> datetime | None:
    """SQLite gives naive datetimes back; they were stored in UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


@dataclass(frozen=True)
class StoredFairness:
    """A deal's fairness data as stored (docs/fairness.md): hex texts, one contribution
    per seat (None where the seat gave none)."""

    number: int
    version: int
    secret: str
    commitment: str
    contributions: tuple[str | None, ...]


@dataclass(frozen=True)
class StoredTable:
    """A table as stored: its configuration, seed and (when loaded) its actions and the
    deck of each deal started so far (``decks[0]`` the first deal's, card texts top
    first)."""

    id: str
    variant: str
    options: dict[str, Any]
    seed: str
    seats: list[dict[str, Any]]
    title: str
    created_at: datetime
    finished_at: datetime | None = None
    result: dict[str, Any] | None = None
    seat_draw: list[dict[str, Any]] | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    lang: str | None = None
    owner_hash: str | None = None
    client: str | None = None
    closed_at: datetime | None = None
    rematch: str | None = None
    actions: tuple[str, ...] = field(default=())
    action_count: int = 0
    decks: tuple[tuple[str, ...], ...] = field(default=())
    fair: tuple[StoredFairness, ...] = field(default=())
    """The fairness data of every deal whose secret is drawn (dealt or not), in order."""
    fixed_seed: bool = False
    calls: dict[int, str] = field(default_factory=dict)
    """The answers held in the call window open now (none after its last action), by
    seat: what people answered before a restart (record text without the seat)."""


def stored(
    row: TableRow,
    actions: Sequence[str] = (),
    count: int | None = None,
    deals: Sequence[DealRow] = (),
    calls: dict[int, str] | None = None,
) -> StoredTable:
    created = _aware(row.created_at)
    assert created is not None
    return StoredTable(
        id=row.id,
        variant=row.variant,
        options=dict(row.options),
        seed=row.seed,
        seats=[dict(s) for s in row.seats],
        title=row.title,
        created_at=created,
        finished_at=_aware(row.finished_at),
        result=row.result,
        seat_draw=None if row.seat_draw is None else [dict(s) for s in row.seat_draw],
        settings=dict(row.settings or {}),
        lang=row.lang,
        owner_hash=row.owner_hash,
        client=row.client,
        closed_at=_aware(row.closed_at),
        rematch=row.rematch,
        actions=tuple(actions),
        action_count=len(actions) if count is None else count,
        decks=tuple(tuple(d.deck.split()) for d in deals if d.deck is not None),
        fair=tuple(_fairness(d) for d in deals if d.fairness is not None),
        fixed_seed=row.fixed_seed,
        calls=dict(calls or {}),
    )


def _fairness(row: DealRow) -> StoredFairness:
    assert row.fairness is not None and row.secret is not None and row.commitment is not None
    return StoredFairness(
        row.number, row.fairness, row.secret, row.commitment, tuple(row.contributions or ())
    )
