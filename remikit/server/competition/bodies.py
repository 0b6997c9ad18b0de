"""The JSON bodies the competition API takes (docs/competition.md), checked: names
cleaned, an entry either cards or points, a reason where one is needed."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StrictBool, StrictInt, field_validator, model_validator

from remikit.competition.absence import Rule, declare
from remikit.competition.standings import RankBy, TieBreak
from remikit.server.problems import Problem

Card = Annotated[str, Field(max_length=8)]
Position = Literal["A", "B", "C", "D", "a", "b", "c", "d"]
Reason = Annotated[str, Field(min_length=1, max_length=500)]


def clean(text: str | None, most: int, *, required: bool = False) -> str | None:
    """A name as shown: spaces folded, printable, 1 to ``most`` characters (None for
    an optional one left empty); else the problem ``bad_name``."""
    folded = " ".join((text or "").split())
    if not folded and not required:
        return None
    if not 1 <= len(folded) <= most or not folded.isprintable():
        raise Problem("bad_name", "competition.bad_name", max=most)
    return folded


class AbsenceRuleRequest(BaseModel):
    """A rule for one kind of absence; ``points`` (per game) with ``fixed`` only."""

    rule: Rule
    points: int | None = Field(default=None, ge=-1000, le=1000, strict=True)

    @model_validator(mode="after")
    def points_when_fixed(self) -> AbsenceRuleRequest:
        if (self.points is None) == (self.rule == "fixed"):
            raise ValueError("points with the rule fixed, and only with it")
        return self


class AbsencesRequest(BaseModel):
    bye: AbsenceRuleRequest | None = None
    late: AbsenceRuleRequest | None = None
    withdrawn: AbsenceRuleRequest | None = None
    missed: AbsenceRuleRequest | None = None


class CreateRequest(BaseModel):
    name: str = Field(max_length=200)
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    venue: str = Field(default="", max_length=200)
    rounds: int = Field(ge=1, le=20, strict=True)
    games: int = Field(default=4, ge=1, le=10, strict=True)
    tie_breaks: list[TieBreak] = Field(default_factory=list, max_length=6)
    fill: Literal["bots", "byes"] = "byes"
    bot_level: str = Field(default="greedy", max_length=40)
    bye_points: Literal["average", "zero"] | None = None
    clubs_apart: bool = False
    clubs_every_round: bool = False
    publish: Literal["live", "round"] = "live"
    organiser_password: str = Field(max_length=200)
    organiser_name: str = Field(default="organiser", max_length=200)
    referee_password: str | None = Field(default=None, max_length=200)
    login_hours: int | None = Field(default=None, ge=1, le=720, strict=True)
    duplicate: bool = False
    absences: AbsencesRequest = Field(default_factory=AbsencesRequest)
    rank_by: RankBy = "total"
    min_games: int = Field(default=0, ge=0, le=200, strict=True)

    @field_validator("tie_breaks")
    @classmethod
    def once_each(cls, value: list[TieBreak]) -> list[TieBreak]:
        if len(set(value)) != len(value):
            raise ValueError("each tie-break at most once")
        return value

    @model_validator(mode="after")
    def luck_needs_duplicate(self) -> CreateRequest:
        if "luck_adjusted" in self.tie_breaks and not self.duplicate:
            raise ValueError("the luck_adjusted tie-break needs duplicate deals")
        return self


def absence_fields(body: CreateRequest) -> dict[str, Any]:
    """The absence rules a new competition declares (docs/competition.md §1), and its
    ``bye_points`` as stored: the bye's rule when it is ``average`` or ``zero``, else
    ``rule``."""
    rules = declare(body.absences.model_dump(), body.bye_points)
    bye = rules.bye.rule
    return {"absences": rules.json(), "bye_points": bye if bye in ("average", "zero") else "rule"}


class LoginRequest(BaseModel):
    """An account's ``name`` and ``password``; ``role``, when given, must be the account's
    (and names it when there is no name: the organiser's account ``organiser``)."""

    name: str | None = Field(default=None, max_length=200)
    password: str = Field(max_length=200)
    role: Literal["organiser", "referee"] | None = None


class AccountRequest(BaseModel):
    name: str = Field(max_length=200)
    password: str = Field(max_length=200)


class PlayerRequest(BaseModel):
    name: str = Field(max_length=200)
    club: str | None = Field(default=None, max_length=200)
    contact: str | None = Field(default=None, max_length=200)


class ReasonRequest(BaseModel):
    reason: Reason


class RoundRequest(BaseModel):
    online_tables: list[Annotated[int, Field(ge=1, le=10_000)]] = Field(
        default_factory=list, max_length=1000
    )


class SeatDrawRequest(BaseModel):
    cards: dict[Position, Card] | None = None
    redraw: dict[Position, Card] | None = None


class EntryRequest(BaseModel):
    """Cards (``hands`` in game-seat order, ``closer``, ``closing``) or ``points`` with a
    ``reason``; a correction has a reason either way; ``replace`` to replace an entry
    not yet confirmed."""

    hands: list[Annotated[list[Card], Field(max_length=20)]] | None = Field(
        default=None, max_length=8
    )
    closer: StrictInt | list[StrictInt] | None = Field(default=None)
    closing: Card | None = None
    points: list[StrictInt] | None = Field(default=None, max_length=8)
    reason: Reason | None = None
    replace: StrictBool = False  # a game entered already, not confirmed: replace its entry


class ConfirmRequest(BaseModel):
    """A player of the table confirms with their code; without ``player``, the login."""

    player: str | None = Field(default=None, max_length=16)
    code: str | None = Field(default=None, max_length=16)


class TimerRequest(BaseModel):
    action: Literal["start", "pause", "reset"]
    minutes: int | None = Field(default=None, ge=1, le=600)


def entry_body(body: EntryRequest, *, correction: bool = False) -> dict[str, Any]:
    """The entry's fields: exactly one of cards and points, a reason where needed."""
    if (body.hands is None) == (body.points is None):
        raise Problem("bad_entry", "competition.cards_or_points")
    if body.reason is None and (correction or body.points is not None):
        raise Problem("bad_entry", "competition.need_reason")
    return body.model_dump()
