"""A finished game reviewed seat by seat: every decision of the seat rated
(:func:`~remikit.review.rate.rate`) from the view it had then, marked by its cost, and
summed up per deal and for the game.

Decisions are rated independently, each with its own seed derived from the review's
seed and its place in the game, so a review is the same for any number of processes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from remikit.actions import Action, parse_seat_action
from remikit.bots.runner import play_all
from remikit.bots.strong import DEFAULT_BUDGET, MIN_SIMS, tactics_for
from remikit.errors import IllegalAction
from remikit.records import RecordError, apply_recorded, new_game, start_hand
from remikit.review.rate import Rating, rate
from remikit.variants import find_playable
from remikit.views import PlayerView

VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""A decision's mark: the search's own choice, within the first mark, then worse."""


@dataclass(frozen=True)
class Moment:
    """A decision to rate: the seat's view and the action it took."""

    index: int  # the action's place in the record, counted over every deal from 0
    deal: int  # from 1
    turn: int  # the action's place in the deal's log, from 0
    view: PlayerView
    taken: Action


@dataclass(frozen=True)
class Reviewed:
    """A decision with its rating and mark."""

    index: int
    deal: int
    turn: int
    phase: str
    rating: Rating
    verdict: str

    def as_json(self) -> dict[str, Any]:
        r = self.rating
        return {
            "index": self.index,
            "deal": self.deal,
            "turn": self.turn,
            "phase": self.phase,
            "taken": str(r.taken),
            "best": str(r.best),
            "cost": round(r.cost, 2),
            "error": round(r.error, 2),
            "verdict": self.verdict,
            "worlds": r.worlds,
            "candidates": [
                {"action": str(c.action), "value": round(c.value, 2)} for c in r.candidates
            ],
        }


@dataclass(frozen=True)
class Summary:
    """Decisions of a deal or a game: how many, how many agreed with the search, the
    expected points lost, and how many of each mark."""

    decisions: int
    agreed: int
    lost: float
    marks: Mapping[str, int]

    @classmethod
    def of(cls, reviewed: Sequence[Reviewed]) -> Summary:
        marks = {v: sum(1 for r in reviewed if r.verdict == v) for v in VERDICTS}
        agreed = sum(1 for r in reviewed if r.rating.agreed)
        return cls(len(reviewed), agreed, sum(r.rating.cost for r in reviewed), marks)

    def as_json(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "agreed": self.agreed,
            "lost": round(self.lost, 2),
            "marks": dict(self.marks),
        }


@dataclass(frozen=True)
class Review:
    variant: str
    seat: int
    sims: int
    seed: int
    decisions: tuple[Reviewed, ...]

    def deals(self) -> dict[int, Summary]:
        numbers = sorted({d.deal for d in self.decisions})
        return {n: Summary.of([d for d in self.decisions if d.deal == n]) for n in numbers}

    def summary(self) -> Summary:
        return Summary.of(self.decisions)

    def lines(self) -> list[dict[str, Any]]:
        """``remi review --json`` (docs/contract.md): one object per decision, in order,
        then the summary."""
        out: list[dict[str, Any]] = [
            {
                "index": d.index,
                "deal": d.deal,
                "action": f"p{self.seat} {d.rating.taken}",
                "best": f"p{self.seat} {d.rating.best}",
                "cost": round(d.rating.cost, 2),
                "label": d.verdict,
            }
            for d in self.decisions
        ]
        summary = self.summary()
        out.append(
            {
                "summary": True,
                "decisions": summary.decisions,
                "agreed": summary.agreed,
                "expected_points_lost": round(summary.lost, 2),
            }
        )
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seat": self.seat,
            "sims": self.sims,
            "seed": self.seed,
            "decisions": [d.as_json() for d in self.decisions],
            "deals": [{"deal": n, **s.as_json()} for n, s in self.deals().items()],
            "game": self.summary().as_json(),
        }


def moments(record: Mapping[str, Any], seat: int) -> list[Moment]:
    """Every decision of ``seat`` in the record: its actions where it had a choice.
    :class:`RecordError` for a record that does not replay."""
    game = new_game(record)
    if not 0 <= seat < game.players:
        raise RecordError(f"there is no seat {seat}: the seats are 0 to {game.players - 1}")
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError("hands must be a list (one entry per deal)")
    found: list[Moment] = []
    index = 0
    for number, hand in enumerate(hands, start=1):
        for turn, text in enumerate(start_hand(game, hand, number)):
            try:
                who, action = parse_seat_action(text)
                if who == seat:
                    view = game.view(seat)
                    if len(view.legal_actions) > 1 and game.to_play == seat:
                        found.append(Moment(index, number, turn, view, action))
                apply_recorded(game, who, action)
            except (ValueError, IllegalAction) as exc:
                raise RecordError(f"hand {number}, action {turn + 1} ({text}): {exc}") from None
            index += 1
    return found


def sims_for(variant: str, budget: float) -> int:
    """Rollouts a decision gets for a budget of ``budget`` seconds (as the strong bot's)."""
    return max(MIN_SIMS, round(budget * tactics_for(variant).sims_per_second))


def decision_seed(seed: int, moment: Moment) -> int:
    text = f"remi-review|{seed}|{moment.deal}|{moment.turn}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _rate(task: tuple[Moment, int, int]) -> Rating:
    moment, sims, seed = task
    return rate(moment.view, moment.taken, sims=sims, seed=seed)


def review(
    record: Mapping[str, Any],
    seat: int,
    *,
    budget: float = DEFAULT_BUDGET,
    seed: int = 0,
    jobs: int = 1,
    on_decision: Callable[[int, int], None] | None = None,
) -> Review:
    """Review ``seat``'s decisions in ``record``; ``on_decision(done, total)`` is told of
    each rated decision."""
    found = moments(record, seat)
    variant = find_playable(str(record["variant"])).name
    spec = find_playable(variant)
    sims = sims_for(variant, budget)
    tasks = [(m, sims, decision_seed(seed, m)) for m in found]
    ratings: list[Rating] = []
    for rating in play_all(_rate, tasks, jobs):
        ratings.append(rating)
        if on_decision is not None:
            on_decision(len(ratings), len(tasks))
    reviewed = tuple(
        Reviewed(m.index, m.deal, m.turn, str(m.view.phase), r, verdict(r, spec.review_marks))
        for m, r in zip(found, ratings, strict=True)
    )
    return Review(variant, seat, sims, seed, reviewed)


def verdict(rating: Rating, marks: tuple[float, float, float]) -> str:
    """The mark of a rating: ``best`` where the search agrees, else by the largest mark
    its cost reaches; a cost within its standard error is ``good`` (noise)."""
    if rating.agreed:
        return "best"
    if rating.cost <= rating.error:
        return "good"
    reached = sum(1 for mark in marks if rating.cost >= mark)
    return VERDICTS[1 + reached]
