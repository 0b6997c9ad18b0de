"""A web table's fair deals (docs/fairness.md): each deal's secret, drawn and committed to
before the deal, the contributions of the people at the table, and what leaves the server
of them (the secret only once its deal is over)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from remikit.cards import Card
from remikit.fairness import (
    CONTRIBUTION_BYTES,
    HEX,
    SECRET_BYTES,
    VERSION,
    DealFairness,
    fair_deck,
    seeded_secret,
)
from remikit.fairness import commitment as commit
from remikit.server.problems import Problem
from remikit.storage import StoredFairness, StoredTable


def fixed_secret(seed: str, number: int) -> bytes:
    """The secret of deal ``number`` of a table made with a given seed (a duplicate
    round's tables; tests and benchmarks, whose deals must repeat)."""
    return seeded_secret(seed, number)


@dataclass
class FairDeal:
    """One deal's secret, its commitment and the contributions so far (one per seat)."""

    number: int
    secret: bytes
    commitment: bytes
    contributions: list[bytes | None]
    version: int = VERSION

    @classmethod
    def draw(cls, table: str, number: int, players: int, seed: str | None) -> FairDeal:
        """A new deal's secret: from the system's CSPRNG, or from ``seed`` when the table
        was made with one (:func:`fixed_secret`)."""
        secret = secrets.token_bytes(SECRET_BYTES) if seed is None else fixed_secret(seed, number)
        return cls(number, secret, commit(table, number, secret), [None] * players)

    @classmethod
    def from_stored(cls, stored: StoredFairness) -> FairDeal:
        return cls(
            stored.number,
            bytes.fromhex(stored.secret),
            bytes.fromhex(stored.commitment),
            [None if c is None else bytes.fromhex(c) for c in stored.contributions],
            stored.version,
        )

    def stored(self) -> StoredFairness:
        return StoredFairness(
            self.number, self.version, self.secret.hex(), self.commitment.hex(), self.hex()
        )

    def hex(self) -> tuple[str | None, ...]:
        """The contributions as stored and shown: hex, or None."""
        return tuple(None if c is None else c.hex() for c in self.contributions)

    def deck(self, full_deck: Sequence[Card]) -> list[Card]:
        return fair_deck(full_deck, self.secret, self.contributions)

    def public(self, table: str, *, revealed: bool) -> dict[str, Any]:
        """The record's ``fairness`` object of this deal; the secret only if ``revealed``."""
        data = DealFairness(
            table,
            self.number,
            self.commitment,
            tuple(self.contributions),
            self.secret if revealed else None,
            self.version,
        )
        return data.as_json()


def read_entropy(value: object) -> bytes:
    """A contribution as a client sends it: 32 bytes in lowercase hex; else the problem
    ``bad_message``."""
    if (
        not isinstance(value, str)
        or len(value) != 2 * CONTRIBUTION_BYTES
        or not HEX.fullmatch(value)
    ):
        raise Problem("bad_message", "server.bad_entropy", size=CONTRIBUTION_BYTES)
    return bytes.fromhex(value)


def record_with_fairness(record: dict[str, Any], stored: StoredTable) -> dict[str, Any]:
    """A finished table's record (docs/contract.md) with each hand's ``fairness``, its
    secret revealed (a hand dealt before fair deals has none)."""
    fair = {f.number: FairDeal.from_stored(f) for f in stored.fair}
    hands = []
    for number, hand in enumerate(record["hands"], start=1):
        if number in fair:
            hand = hand | {"fairness": fair[number].public(stored.id, revealed=True)}
        hands.append(hand)
    return record | {"hands": hands}
