"""What a player absent from a round scores, by a rule the competition declares up front.

Four kinds of absence: a ``bye`` (the field is not a multiple of four), ``late`` (the
rounds before a player's first), ``withdrawn`` (the rounds after a dropped player's
last) and ``missed`` (any other round a player who takes part is not in). Each kind
scores by one rule, per game of the round missed:

- ``round_mean``: the mean of that round's scores of the seats that did not close;
- ``round_lowest``: the lowest score of that round;
- ``fixed``: a declared number;
- ``zero``: nothing;
- ``average``: the player's own average over the games they played up to that round.

Every rule looks only at rounds up to the one missed, so an award is what it is once its
round is done; the server stores it then and never works it out again.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, cast

from remikit.competition.standings import Competitor, Played

Rule = Literal["round_mean", "round_lowest", "fixed", "zero", "average"]
Kind = Literal["bye", "late", "withdrawn", "missed"]
RULES: tuple[Rule, ...] = ("round_mean", "round_lowest", "fixed", "zero", "average")
KINDS: tuple[Kind, ...] = ("bye", "late", "withdrawn", "missed")


@dataclass(frozen=True)
class AbsenceRule:
    """A rule and, for ``fixed``, the points per game missed."""

    rule: Rule
    points: int = 0

    def json(self) -> dict[str, Any]:
        if self.rule == "fixed":
            return {"rule": self.rule, "points": self.points}
        return {"rule": self.rule}


DEFAULT = AbsenceRule("round_mean")
"""Remi 13 D's default: most scores are below zero, so an absence scores the round's mean
of the non-closing seats, below the round's mean of all seats: missing never pays."""


@dataclass(frozen=True)
class Absences:
    """The rule of each kind of absence."""

    bye: AbsenceRule = DEFAULT
    late: AbsenceRule = DEFAULT
    withdrawn: AbsenceRule = DEFAULT
    missed: AbsenceRule = DEFAULT

    def of(self, kind: Kind) -> AbsenceRule:
        rule: AbsenceRule = getattr(self, kind)
        return rule

    def json(self) -> dict[str, dict[str, Any]]:
        return {kind: self.of(kind).json() for kind in KINDS}

    @classmethod
    def from_json(cls, data: Mapping[str, Mapping[str, Any]]) -> Absences:
        return cls(
            **{
                kind: AbsenceRule(cast(Rule, data[kind]["rule"]), int(data[kind].get("points", 0)))
                for kind in KINDS
            }
        )


def declare(given: Mapping[str, Mapping[str, Any] | None], bye_points: str | None) -> Absences:
    """The rules a new competition declares: ``missed`` as given (else the default);
    ``late`` and ``withdrawn`` as given, else as ``missed``; ``bye`` as given, else the
    older setting ``bye_points`` (``average`` or ``zero``) when given, else the default."""

    def rule(data: Mapping[str, Any] | None) -> AbsenceRule | None:
        if data is None:
            return None
        return AbsenceRule(data["rule"], data.get("points") or 0)

    missed = rule(given.get("missed")) or DEFAULT
    legacy = AbsenceRule(cast(Rule, bye_points)) if bye_points else None
    return Absences(
        bye=rule(given.get("bye")) or legacy or DEFAULT,
        late=rule(given.get("late")) or missed,
        withdrawn=rule(given.get("withdrawn")) or missed,
        missed=missed,
    )


def stored_rules(absences: Mapping[str, Any] | None, bye_points: str) -> Absences:
    """A stored competition's rules; one made before they were declared (None) scores a
    bye by its ``bye_points`` and any other absence zero, as it always did."""
    if absences is not None:
        return Absences.from_json(absences)
    zero = AbsenceRule("zero")
    return Absences(AbsenceRule(cast(Rule, bye_points)), zero, zero, zero)


@dataclass(frozen=True)
class Award:
    """What a player scores for a round they were absent from: ``points`` in all, for
    ``games`` games missed, by ``rule`` for a ``kind`` of absence."""

    round: int
    player: str
    kind: Kind
    rule: Rule
    points: int
    games: int

    def json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "player": self.player,
            "kind": self.kind,
            "rule": self.rule,
            "points": self.points,
            "games": self.games,
        }


@dataclass(frozen=True)
class Attendance:
    """A round made: whether it is done, the players seated and those with a bye."""

    number: int
    done: bool
    seated: frozenset[str]
    byes: frozenset[str]


def halves_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


def score(
    rule: AbsenceRule, number: int, player: str, games: Sequence[Played], per_round: int
) -> int:
    """What ``rule`` gives for round ``number``, whose ``per_round`` games were missed
    (``games``: every confirmed game; a bot's seat is not a player's score).

    >>> game = Played(1, 1, 1, ("P1", "P2", "P3", None), (135, -20, -61, 50), closer=0)
    >>> [score(AbsenceRule(r, 7), 1, "P9", [game], 4) for r in RULES]
    [-162, -244, 28, 0, 0]
    """
    if rule.rule == "zero":
        return 0
    if rule.rule == "fixed":
        return rule.points * per_round
    seats = [
        (game, seat, points)
        for game in games
        for seat, (pid, points) in enumerate(zip(game.players, game.points, strict=True))
        if pid is not None
    ]
    if rule.rule == "average":
        own = [p for g, s, p in seats if g.round <= number and g.players[s] == player]
        return halves_up(Fraction(sum(own) * per_round, len(own))) if own else 0
    round_scores = [(g, s, p) for g, s, p in seats if g.round == number]
    if rule.rule == "round_lowest":
        return min((p for _, _, p in round_scores), default=0) * per_round
    open_scores = [p for g, s, p in round_scores if g.closer != s]
    return halves_up(Fraction(sum(open_scores) * per_round, len(open_scores))) if open_scores else 0


def due(
    rules: Absences,
    rounds: Sequence[Attendance],
    players: Iterable[Competitor],
    games: Sequence[Played],
    per_round: int,
    given: Collection[tuple[int, str]] = (),
) -> list[Award]:
    """The awards of every round done that are not ``given`` yet (by round and player).

    A player takes part once seated or given a bye, or once checked in (from the next
    round made); a disqualified player, or one who never took part, has none. The rounds
    before a player's first are ``late``, those after a dropped player's last
    ``withdrawn``, any other they are not in ``missed``.
    """
    made = max((r.number for r in rounds), default=0)
    present: dict[str, list[int]] = {}  # the rounds each player is seated or has a bye in
    for r in rounds:
        for pid in r.seated | r.byes:
            present.setdefault(pid, []).append(r.number)
    out = []
    for player in players:
        if player.status == "disqualified":
            continue
        there = present.get(player.id, [])
        if not there and player.status != "checked_in":
            continue
        first = min(there, default=made + 1)
        last = max(there, default=made)
        for r in rounds:
            if not r.done or player.id in r.seated or (r.number, player.id) in given:
                continue
            kind: Kind
            if player.id in r.byes:
                kind = "bye"
            elif r.number < first:
                kind = "late"
            elif player.status == "dropped" and r.number > last:
                kind = "withdrawn"
            else:
                kind = "missed"
            rule = rules.of(kind)
            points = score(rule, r.number, player.id, games, per_round)
            out.append(Award(r.number, player.id, kind, rule.rule, points, per_round))
    return out
