"""Deals: the deck of every deal of a table, stored when the deal starts.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

Until this revision a table kept only its seed, and its decks were rebuilt by
``random.Random(int(seed))``, shuffling the variant's full deck with
:meth:`random.Random.shuffle` once per deal, one generator for the whole game.
From this revision on the decks are stored (``deals``) and a table is rebuilt
from its decks and actions. For every table already stored, this revision
computes the decks it was dealt under that old scheme, replaying its actions
to learn how many deals it started, and stores them: the computation below
keeps the old scheme whole (the code no longer deals that way), including the
old Three-Thirteen stock reshuffle (R3-5), which also used
:meth:`random.Random.shuffle`.

A Three-Thirteen round whose stock ran out before this revision was
reshuffled the old way: its decks are stored all the same, but the current
code reshuffles differently, so such a table replays only up to that
reshuffle. The revision logs each one (there are none unless a round's whole
stock was drawn).
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

from remikit.actions import parse_seat_action
from remikit.cards import Card
from remikit.deal import Deal
from remikit.engine import Game
from remikit.variants import find_playable

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

log = logging.getLogger("remikit.storage")

TABLES = sa.table(
    "tables",
    sa.column("id", sa.String),
    sa.column("variant", sa.String),
    sa.column("options", sa.JSON),
    sa.column("seed", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
ACTIONS = sa.table(
    "actions",
    sa.column("table_id", sa.String),
    sa.column("index", sa.Integer),
    sa.column("action", sa.Text),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    deals = op.create_table(
        "deals",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("deck", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "number", name="uq_deals_table_number"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
    )
    assert deals is not None
    bind = op.get_bind()
    tables = bind.execute(
        sa.select(
            TABLES.c.id, TABLES.c.variant, TABLES.c.options, TABLES.c.seed, TABLES.c.created_at
        ).order_by(TABLES.c.created_at, TABLES.c.id)
    ).all()
    for table_id, variant, options, seed, created_at in tables:
        actions = bind.execute(
            sa.select(ACTIONS.c.action, ACTIONS.c.created_at)
            .where(ACTIONS.c.table_id == table_id)
            .order_by(ACTIONS.c.index)
        ).all()
        try:
            dealt = legacy_decks(table_id, variant, options, seed, [text for text, _ in actions])
        except Exception:  # the old code could not rebuild it either
            log.warning("table %s: its decks cannot be computed", table_id, exc_info=True)
            continue
        rows = []
        for number, (deck, after) in enumerate(dealt, start=1):
            moment = created_at if after is None else actions[after][1]
            rows.append(
                {
                    "table_id": table_id,
                    "number": number,
                    "deck": " ".join(str(c) for c in deck),
                    "created_at": moment or datetime.now(UTC),
                }
            )
        if rows:
            op.bulk_insert(deals, rows)


def downgrade() -> None:
    op.drop_table("deals")


def legacy_decks(
    table_id: str, variant: str, options: dict[str, Any], seed: str, actions: Sequence[str]
) -> list[tuple[list[Card], int | None]]:
    """The decks a table was dealt before this revision, each with the index of the action
    that ended the deal before it (None for the first deal): ``random.Random(int(seed))``
    shuffles the full deck for each deal in turn, as ``Game.start_deal`` did, and the
    stored actions are replayed to find where each deal ended. Replay stops at an action
    the game refuses (the decks up to there are those it was dealt)."""
    game_type = find_playable(variant).game_class()
    game: Game = game_type(game_type.options_type.from_mapping(options), auto_deal=False)
    rng = random.Random(int(seed))
    dealt: list[tuple[list[Card], int | None]] = []

    def deal(after: int | None) -> None:
        cards = game.full_deck()
        rng.shuffle(cards)
        legacy_reshuffles(game.start_deal(cards))
        dealt.append((cards, after))

    deal(None)
    for index, text in enumerate(actions):
        try:
            seat, action = parse_seat_action(text)
            game.apply(seat, action)
        except Exception as exc:
            log.warning("table %s: replay stops at action %d %r: %s", table_id, index, text, exc)
            break
        if game.needs_deal:
            deal(index)
    if any(getattr(d, "reshuffles", 0) for d in game.deals):
        log.warning(
            "table %s: a Three-Thirteen stock was reshuffled the old way; the table replays "
            "only up to that reshuffle",
            table_id,
        )
    return dealt


def legacy_reshuffles(deal: Deal) -> None:
    """Make ``deal`` reshuffle a Three-Thirteen stock (R3-5) the old way."""
    if not hasattr(deal, "reshuffles"):
        return
    state: Any = deal

    def reshuffle() -> None:
        state.reshuffles += 1
        text = " ".join(str(c) for c in state.deck) + f"|{state.reshuffles}"
        digest = hashlib.sha256(text.encode("ascii")).digest()
        cards = state.discard_pile[:-1]
        random.Random(int.from_bytes(digest[:8], "big")).shuffle(cards)
        del state.discard_pile[:-1]
        state.stock = cards

    setattr(deal, "reshuffle", reshuffle)  # noqa: B010  (an instance's own method)
