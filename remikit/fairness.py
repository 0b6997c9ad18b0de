"""Provably fair deals: a commitment before the deal, the secret after it (docs/fairness.md).

Before a deal of a web table starts, the server draws a 32-byte secret and publishes
its commitment; the people at the table may each contribute 32 random bytes; the deal's
key is a hash of the secret and every contribution, in seat order, and the deck is the
remikit shuffle (:mod:`remikit.shuffle`) of the variant's unshuffled deck with a seed
derived from the key. When the deal ends the secret is revealed, and anyone can check
that it matches the commitment and that the key gives the deck that was dealt.

Every hash is SHA-256 of a sequence of *fields*, each written as its length (an
unsigned 4-byte big-endian integer) followed by its bytes, the first field a label
naming the scheme, its version and the purpose; numbers are unsigned 4-byte
big-endian integers:

* commitment = H("remikit/fairness/1/commitment", table id (UTF-8), deal, secret)
* key = H("remikit/fairness/1/key", secret, seats, contribution of seat 0, …, of
  seat ``seats - 1``), an empty field for a seat that contributed nothing
* deck seed = H("remikit/fairness/1/deck", key)

A duplicate round (docs/fairness.md §11) deals every online table from one round
secret ``R``: round commitment = H("remikit/fairness/1/round", R), and deal ``k``'s
secret at each table is SHA-256 of the text ``"{R as a decimal integer}/secret/{k}"``,
with no contributions.

>>> secret = bytes(range(32))
>>> commitment("TESTTABL", 1, secret).hex()[:16]
'65dfa2e283bda572'
>>> deal_key(secret, [bytes(32), None]).hex()[:16]
'9d8172cc2365be47'
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from remikit.cards import Card
from remikit.i18n import brief
from remikit.shuffle import shuffled

VERSION = 1
"""The version of the scheme this module computes; a record names the one it used."""
SECRET_BYTES = 32
CONTRIBUTION_BYTES = 32
HEX = re.compile(r"[0-9a-f]*")


def _label(purpose: str) -> bytes:
    return f"remikit/fairness/{VERSION}/{purpose}".encode("ascii")


def _number(n: int) -> bytes:
    return n.to_bytes(4, "big")


def _hash(*fields: bytes) -> bytes:
    """SHA-256 of ``fields``, each preceded by its length (4 bytes, big-endian)."""
    digest = hashlib.sha256()
    for item in fields:
        digest.update(_number(len(item)))
        digest.update(item)
    return digest.digest()


def commitment(table: str, deal: int, secret: bytes) -> bytes:
    """The commitment the server publishes before deal ``deal`` (from 1) of ``table``."""
    return _hash(_label("commitment"), table.encode("utf-8"), _number(deal), secret)


def deal_key(secret: bytes, contributions: Sequence[bytes | None]) -> bytes:
    """The key of a deal: its secret and each seat's contribution (None: none), in seat
    order."""
    parts = [c or b"" for c in contributions]
    return _hash(_label("key"), secret, _number(len(parts)), *parts)


def deck_seed(key: bytes) -> bytes:
    """The :mod:`remikit.shuffle` seed of the deck of the deal of ``key``."""
    return _hash(_label("deck"), key)


def seeded_secret(seed: str, deal: int) -> bytes:
    """The secret of deal ``deal`` of a table whose secrets come from ``seed`` (a
    duplicate round's tables, tests): SHA-256 of ``"{seed}/secret/{deal}"``."""
    return hashlib.sha256(f"{seed}/secret/{deal}".encode()).digest()


def round_seed(round_secret: bytes) -> str:
    """The seed of every online table of a duplicate round: its secret as a decimal
    integer (big-endian)."""
    return str(int.from_bytes(round_secret, "big"))


def round_commitment(round_secret: bytes) -> bytes:
    """The commitment a duplicate round publishes before it starts."""
    return _hash(_label("round"), round_secret)


def fair_deck(
    full_deck: Sequence[Card], secret: bytes, contributions: Sequence[bytes | None]
) -> list[Card]:
    """The deck of a deal: ``full_deck`` (unshuffled) shuffled with the key's seed."""
    return shuffled(full_deck, deck_seed(deal_key(secret, contributions)))


class FairnessError(ValueError):
    """Fairness data of a record that is not well formed."""


@dataclass(frozen=True)
class Mismatch:
    """One thing that does not match in a deal's fairness data: ``code`` names what,
    ``fields`` fill in the message ``verify.<code>`` (:mod:`remikit.cli.verify`)."""

    code: str
    fields: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, **self.fields}


@dataclass(frozen=True)
class DealFairness:
    """What a deal's fairness rests on: its commitment, the contributions (one per seat,
    None where a seat gave none) and, once the deal is over, its secret."""

    table: str
    deal: int
    commitment: bytes
    contributions: tuple[bytes | None, ...]
    secret: bytes | None = None
    version: int = VERSION

    @classmethod
    def drawn(
        cls, table: str, deal: int, secret: bytes, contributions: Sequence[bytes | None]
    ) -> DealFairness:
        """The data of a deal whose secret is ``secret`` (revealed)."""
        return cls(table, deal, commitment(table, deal, secret), tuple(contributions), secret)

    def revealed(self, secret: bytes) -> DealFairness:
        return DealFairness(
            self.table, self.deal, self.commitment, self.contributions, secret, self.version
        )

    def deck(self, full_deck: Sequence[Card]) -> list[Card]:
        """The deck the secret and contributions give (the secret must be known)."""
        if self.secret is None:
            raise ValueError("the secret of this deal is not revealed")
        return fair_deck(full_deck, self.secret, self.contributions)

    def as_json(self) -> dict[str, Any]:
        """As a record holds it (docs/contract.md): bytes in lowercase hex."""
        return {
            "version": self.version,
            "table": self.table,
            "deal": self.deal,
            "commitment": self.commitment.hex(),
            "contributions": [c.hex() if c is not None else None for c in self.contributions],
            "secret": self.secret.hex() if self.secret is not None else None,
        }

    @classmethod
    def from_json(cls, data: object) -> DealFairness:
        """Read :meth:`as_json`'s object; :class:`FairnessError` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise FairnessError("fairness must be an object")
        version = data.get("version")
        if version != VERSION or isinstance(version, bool):
            raise FairnessError(f"fairness version {brief(version)} is not one remikit knows (1)")
        table = data.get("table")
        if not isinstance(table, str) or not table or not _is_utf8(table):
            raise FairnessError("fairness table must be the table's id")
        deal = data.get("deal")
        if isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal < 2**32:
            raise FairnessError(f"fairness deal must be a deal number from 1, not {brief(deal)}")
        contributions = data.get("contributions")
        if not isinstance(contributions, list) or not 1 <= len(contributions) <= 64:
            raise FairnessError("fairness contributions must be a list, one entry per seat")
        return cls(
            table=table,
            deal=deal,
            commitment=_bytes(data.get("commitment"), "commitment", 32),
            contributions=tuple(
                None if c is None else _bytes(c, f"contribution of seat {i}", CONTRIBUTION_BYTES)
                for i, c in enumerate(contributions)
            ),
            secret=None
            if data.get("secret") is None
            else _bytes(data.get("secret"), "secret", SECRET_BYTES),
        )


def _is_utf8(text: str) -> bool:
    """Whether ``text`` has a UTF-8 form (JSON may hold a lone surrogate, which has none)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _bytes(value: object, name: str, size: int) -> bytes:
    if not isinstance(value, str) or len(value) != 2 * size or not HEX.fullmatch(value):
        raise FairnessError(f"fairness {name} must be {size} bytes in lowercase hex")
    return bytes.fromhex(value)


def check_deal(
    fair: DealFairness,
    full_deck: Sequence[Card],
    deck: Sequence[Card],
    *,
    table: str | None = None,
    deal: int | None = None,
    seats: int | None = None,
) -> list[Mismatch]:
    """Everything that does not match in a deal: the secret against the commitment, the
    deck against the key, and the table, deal number and seat count the record implies.
    Empty when the deal verifies."""
    problems = []
    if table is not None and fair.table != table:
        problems.append(Mismatch("table", {"found": fair.table, "expected": table}))
    if deal is not None and fair.deal != deal:
        problems.append(Mismatch("deal_number", {"found": fair.deal, "expected": deal}))
    if seats is not None and len(fair.contributions) != seats:
        problems.append(Mismatch("seats", {"found": len(fair.contributions), "expected": seats}))
    if fair.secret is None:
        return [*problems, Mismatch("no_secret")]
    if not hmac.compare_digest(commitment(fair.table, fair.deal, fair.secret), fair.commitment):
        problems.append(Mismatch("commitment"))
    expected = fair.deck(full_deck)
    wrong = [i for i, (a, b) in enumerate(zip(deck, expected, strict=False)) if a != b]
    if wrong or len(deck) != len(expected):
        first = wrong[0] if wrong else min(len(deck), len(expected))
        problems.append(
            Mismatch(
                "deck",
                {
                    "position": first + 1,
                    "found": str(deck[first]) if first < len(deck) else None,
                    "expected": str(expected[first]) if first < len(expected) else None,
                    "differ": len(wrong) + abs(len(deck) - len(expected)),
                },
            )
        )
    return problems


@dataclass(frozen=True)
class DealCheck:
    """The verdict on one deal of a record: verified, or what does not match."""

    deal: int
    problems: tuple[Mismatch, ...]

    @property
    def verified(self) -> bool:
        return not self.problems

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"deal": self.deal, "verified": self.verified}
        if self.problems:
            out["problems"] = [p.as_json() for p in self.problems]
        return out


def check_round(round_secret: bytes, commitment_: bytes) -> list[Mismatch]:
    """Whether a revealed round secret gives the round's published commitment."""
    if hmac.compare_digest(round_commitment(round_secret), commitment_):
        return []
    return [Mismatch("round_commitment")]


def round_deal(fair: DealFairness, round_secret: bytes) -> list[Mismatch]:
    """What does not match in a deal of a duplicate round: its secret must be the one
    the round secret gives for its deal number, and nobody contributed."""
    problems = []
    if fair.secret is not None and not hmac.compare_digest(
        seeded_secret(round_seed(round_secret), fair.deal), fair.secret
    ):
        problems.append(Mismatch("round_secret"))
    if any(c is not None for c in fair.contributions):
        problems.append(Mismatch("round_contributions"))
    return problems


def verify_record(record: Mapping[str, Any], round_secret: bytes | None = None) -> list[DealCheck]:
    """Check every hand of a game record (docs/contract.md): its ``fairness`` object
    against its deck. Every hand must name the table the first one names, and its own
    deal number; with ``round_secret``, each deal must also be its duplicate round's
    (:func:`round_deal`). :class:`remikit.records.RecordError` for a record that is not
    one."""
    from remikit.records import RecordError, new_game, read_deck

    game = new_game(record)
    hands = record.get("hands")
    if not isinstance(hands, list) or not hands:
        raise RecordError("hands must be a list (one entry per deal)")
    full = game.full_deck()
    table: str | None = None
    checks = []
    for number, hand in enumerate(hands, start=1):
        if not isinstance(hand, dict):
            raise RecordError(f"hand {number} is not an object")
        deck = read_deck(hand.get("deck"), f"hand {number}")
        data = hand.get("fairness")
        if data is None:
            checks.append(DealCheck(number, (Mismatch("no_fairness"),)))
            continue
        try:
            fair = DealFairness.from_json(data)
        except FairnessError as exc:
            checks.append(DealCheck(number, (Mismatch("malformed", {"reason": str(exc)}),)))
            continue
        table = table or fair.table
        found = check_deal(fair, full, deck, table=table, deal=number, seats=game.players)
        if round_secret is not None:
            found += round_deal(fair, round_secret)
        checks.append(DealCheck(number, tuple(found)))
    return checks
