"""Who sits at a table: people (a name and the hash of their token) and bots (a level and
a seed), and the variant's seat draw (R13-2)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from remikit.variants import VariantSpec


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatConfig:
    """Who sits in a seat: a person (once someone has joined: a name and a token hash)
    or a bot of some level."""

    kind: Literal["person", "bot"]
    name: str | None = None
    level: str | None = None
    lang: str = "id"
    token_hash: str | None = None
    away: bool = False
    """A person's seat the table's stand-in bot plays until they come back."""
    then: dict[str, Any] | None = None
    """Who plays the seat from the next deal on, as its creator asked: ``{"kind": "bot",
    "level": ...}`` or ``{"kind": "person"}`` (open for someone new)."""
    profile: str | None = None
    """The profile whose seat it is (its public id), when its person joined signed in."""
    away_from: int | None = None
    """While the person is away: the state id from which the stand-in plays for them."""
    stand_in_turns: int = 0
    """The seat's actions the stand-in made in the person's earlier absences."""

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def stored(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "lang": self.lang,
            "token_hash": self.token_hash,
            "away": self.away,
            "then": self.then,
            "profile": self.profile,
            "away_from": self.away_from,
            "stand_in_turns": self.stand_in_turns,
        }

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> SeatConfig:
        kind: Literal["person", "bot"] = "bot" if data.get("kind") == "bot" else "person"
        return cls(
            kind=kind,
            name=data.get("name"),
            level=data.get("level"),
            lang=data.get("lang") or "id",
            token_hash=data.get("token_hash"),
            away=data.get("away") is True,
            then=data.get("then"),
            profile=data.get("profile"),
            away_from=data.get("away_from"),
            stand_in_turns=int(data.get("stand_in_turns") or 0),
        )

    def gone(self, state_id: int) -> SeatConfig:
        """The seat once its person is away from ``state_id`` on (the stand-in plays)."""
        return replace(self, away=True, away_from=state_id)

    def back(self, actions: Sequence[str], seat: int) -> SeatConfig:
        """The seat once its person is back, the stand-in's actions of ``actions`` (the
        table's, in record text) since they went away counted."""
        return replace(
            self,
            away=False,
            away_from=None,
            stand_in_turns=self.stand_in_turns + self.absent_turns(actions, seat),
        )

    def absent_turns(self, actions: Sequence[str], seat: int) -> int:
        """The seat's actions the stand-in has made in the absence going on now."""
        if not self.away or self.away_from is None:
            return 0
        return seat_actions(actions[self.away_from :], seat)


def seat_actions(actions: Sequence[str], seat: int) -> int:
    """How many of ``actions`` (record text, ``p0 discard Kc``) ``seat`` made."""
    mark = f"p{seat} "
    return sum(1 for text in actions if text.startswith(mark))


@dataclass(frozen=True)
class BotPlayer:
    """A bot that plays a seat: its level and seed. A decision depends only on these, the
    state it is made in and the seat's view (:func:`decision_seed`), so it may be made in
    any process and made again after a restart."""

    level: str
    seed: int

    def seed_at(self, state_id: int) -> int:
        """The seed of the decision made at ``state_id``."""
        digest = hashlib.sha256(f"{self.seed}/{state_id}".encode()).digest()
        return int.from_bytes(digest[:8], "big")


def bot_seed(seed: str, seat: int, role: str = "bot") -> int:
    """The seed of the bot of ``seat`` (``role``: ``stand-in`` for a person's stand-in)."""
    digest = hashlib.sha256(f"{seed}/{role}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def make_bots(seed: str, seats: Sequence[SeatConfig]) -> dict[int, BotPlayer]:
    """The bots of a table's bot seats, each seeded from the table's seed and its seat."""
    return {
        index: BotPlayer(seat.level or "random", bot_seed(seed, index))
        for index, seat in enumerate(seats)
        if seat.kind == "bot"
    }


def seat_rng(seed: str) -> random.Random:
    """The random source of a table's seat draw (R13-2): from its seed, apart from the deals."""
    digest = hashlib.sha256(f"{seed}/seats".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def seat_by_draw(
    info: VariantSpec, seed: str, seats: Sequence[SeatConfig]
) -> tuple[list[SeatConfig], list[dict[str, Any]]]:
    """The variant's seat draw (R13-2): the seats in the order it puts them, and the draw as
    stored, per seat: the seat its player took before the draw and the cards drawn."""
    assert info.seating is not None
    draw = info.seating(seat_rng(seed), len(seats))
    stored = [{"joined": p, "cards": [str(c) for c in draw.draws[p]]} for p in draw.order]
    return [seats[p] for p in draw.order], stored
