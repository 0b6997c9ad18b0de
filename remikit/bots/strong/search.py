"""Information-set Monte Carlo search: determinize, try each candidate, play on, compare.

Each candidate comes with a prior value from the variant's heuristic. For
each sampled world (:func:`~remikit.bots.strong.determinize.determinize`)
the search rebuilds a real deal (:meth:`remikit.engine.Game.resume_deal`, once, then
:meth:`~remikit.deal.Deal.fork` for each world),
applies one candidate action and lets fast policies play every seat for a
few turns (or to the end of the deal); the deal's scores, or the variant's
solver-based estimate of them at the horizon, add to the candidate's prior a
value relative to the opponents. Every candidate sees the same worlds and the same
random numbers in its rollouts (common random numbers), so the comparison
between candidates is much less noisy than the values themselves.

The choice is cautious: the variant's favourite candidate (listed first)
stays chosen unless another one beats it, on the paired differences over
the worlds, by more than :data:`CONFIDENCE` standard errors. With few
simulations the bot plays its heuristic; with more it follows the search.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from remikit.actions import Action, Draw
from remikit.bots.strong.determinize import Determinization, Knowledge, table_game
from remikit.deal import Deal
from remikit.errors import IllegalAction
from remikit.views import PlayerView

QUICK = 16
"""Below this many rollouts a decision is quick: shallower candidate ratings, no refinement."""

CONFIDENCE = 1.0
"""Standard errors by which a candidate must beat the favourite to replace it."""

Sampler = Callable[[PlayerView, random.Random], Determinization]
Plan = tuple[Action, ...]
"""A candidate: a legal action and the seat's actions meant to follow it this turn."""


class Tactics(Protocol):
    """What the search needs to know about one variant."""

    horizon: int
    """Turn changes a rollout plays after the candidate before it is evaluated."""

    sims_per_second: int
    """The effort a second of thinking buys: the budget becomes ``budget * sims_per_second``
    rollouts, or their worth in work a variant does in :meth:`candidates`. Set with
    ``bench/bench_strength.py --calibrate`` on the development machine, a 2-core container,
    so that a decision's 95th percentile CPU time stays within its budget there."""

    max_rollouts: int | None
    """The most rollouts a decision plays (None: as many as its effort buys); where more
    were measured to play no better, the effort beyond them is for :meth:`candidates`."""

    reads_play: bool
    """Whether sampled worlds are weighted by the variant's reading of play
    (:mod:`~remikit.bots.strong.inference`), where that was measured to play no worse."""

    effort: int
    """Rollouts' worth of thinking this decision may take (set before
    :meth:`candidates`): with very few, the tactics think less about candidates
    (below :data:`QUICK`)."""

    def candidates(
        self, view: PlayerView, include: Action | None = None
    ) -> list[tuple[Plan, float]]:
        """Sensible plans (a legal action and, in a variant with several actions a
        turn, the ones that follow it) with their prior values, the favourite (highest)
        first; one means: no search needed. A candidate's value in a world is its prior
        plus its rollout's value. ``include``: a legal action that must begin one of the
        plans, its prior found as the others' are (a game review rates it)."""

    def refine(
        self, view: PlayerView, world: Determinization, known: Knowledge, rng: random.Random
    ) -> Determinization:
        """A sampled world made more like real play (or ``world`` itself)."""

    def policy(self, deal: Deal, seat: int, rng: random.Random) -> Action:
        """A fast legal action for ``seat``, who is to play in ``deal`` (a rollout)."""

    def estimate(self, deal: Deal, seat: int) -> Sequence[float]:
        """Each seat's expected deal score at the horizon (the deal is not over), as
        far as ``seat``'s objective needs them."""

    def objective(self, scores: Sequence[float], seat: int) -> float:
        """How good per-seat deal scores are for ``seat`` (greater is better)."""


def including(
    found: list[tuple[Plan, float]], include: Action | None, prior: float = 0.0
) -> list[tuple[Plan, float]]:
    """``found`` with a plan of ``include`` alone (at ``prior``) after them, unless one of
    them begins with it."""
    if include is None or any(plan[0] == include for plan, _ in found):
        return found
    return [*found, ((include,), prior)]


@dataclass(frozen=True)
class Decision:
    """What a search found: the plan chosen, the candidates, their mean values over the
    worlds played (empty: no search was needed)."""

    plan: Plan
    candidates: tuple[Plan, ...]
    means: tuple[float, ...] = ()
    worlds: int = 0

    @property
    def action(self) -> Action:
        return self.plan[0]


def forced_draw(view: PlayerView) -> Action | None:
    """The draw when the view leaves no choice between the stock and the top discard
    (either is missing or refused), else None."""
    legal = view.legal_actions
    if view.top_discard is None or Draw("discard") not in legal:
        return Draw("stock") if Draw("stock") in legal else legal[0]
    if Draw("stock") not in legal:
        return Draw("discard")
    return None


def rollout(deal: Deal, seat: int, plan: Plan, tactics: Tactics, rng: random.Random) -> float:
    """Carry out ``plan`` for ``seat``, play on with the policies, and value the result."""
    for action in plan:
        if deal.is_over or deal.to_play != seat or not deal.can(seat, action):
            break  # the plan no longer fits the sampled world; the policy takes over
        deal.apply(seat, action)
    changes = 0
    current = seat
    while not deal.is_over:
        to_play = deal.to_play
        assert to_play is not None
        if to_play != current and not deal.phase.is_call_window:  # answers are not turns
            changes += 1
            current = to_play
            if changes > tactics.horizon:
                break
        try:
            deal.apply(to_play, tactics.policy(deal, to_play, rng))
        except IllegalAction:  # a policy slip: any legal action keeps the rollout going
            deal.apply(to_play, deal.legal_actions(to_play)[0])
    summary = deal.summary
    scores = summary.points if summary is not None else tactics.estimate(deal, seat)
    return tactics.objective(scores, seat)


def play_worlds(
    view: PlayerView,
    tactics: Tactics,
    sampler: Sampler,
    rng: random.Random,
    plans: Sequence[Plan],
    priors: Sequence[float],
    worlds: int,
    deadline: float | None = None,
) -> list[list[float]]:
    """Per sampled world, the value of each plan (its prior added): every plan sees the
    same world and the same random numbers. Stops early at ``deadline`` (a
    :func:`time.perf_counter` time), after at least one world."""
    seat = view.seat
    assert seat is not None
    game = table_game(view)
    start: Deal | None = None  # the view's deal, forked for every rollout
    rows: list[list[float]] = []
    for _ in range(worlds):
        if deadline is not None and rows and time.perf_counter() >= deadline:
            break
        world = sampler(view, rng)
        seed = rng.getrandbits(64)
        if start is None:
            start = game.resume_deal(view, hands=world.hands, stock=world.stock)
        values = []
        for plan in plans:
            deal = start.fork(hands=world.hands, stock=world.stock)
            values.append(rollout(deal, seat, plan, tactics, random.Random(seed)))
        rows.append([v + p for v, p in zip(values, priors, strict=True)])
    return rows


def search(
    view: PlayerView,
    tactics: Tactics,
    sampler: Sampler,
    rng: random.Random,
    *,
    sims: int,
    deadline: float | None = None,
) -> Decision:
    """Choose among ``tactics.candidates(view)`` with about ``sims`` rollouts in all (at
    most ``tactics.max_rollouts``; the tactics may spend the rest on the candidates).

    With ``deadline`` (a :func:`time.perf_counter` time) the search also stops
    when that time has come, after at least one world.
    """
    seat = view.seat
    assert seat is not None
    tactics.effort = sims
    found = tactics.candidates(view)
    candidates = [a for a, _ in found]
    priors = [p for _, p in found]
    if len(candidates) == 1:
        return Decision(candidates[0], tuple(candidates))
    n = len(candidates)
    rollouts = sims if tactics.max_rollouts is None else min(sims, tactics.max_rollouts)
    rows = play_worlds(
        view, tactics, sampler, rng, candidates, priors, max(1, rollouts // n), deadline
    )
    played = len(rows)
    sums = [0.0] * n
    diff_sums = [0.0] * n
    diff_squares = [0.0] * n
    for row in rows:
        for i, value in enumerate(row):
            sums[i] += value
            d = value - row[0]
            diff_sums[i] += d
            diff_squares[i] += d * d
    best, best_bound = 0, 0.0
    for i in range(1, n):
        mean = diff_sums[i] / played
        variance = max(0.0, diff_squares[i] / played - mean * mean)
        bound = mean - CONFIDENCE * math.sqrt(variance / played) if played > 1 else -math.inf
        if bound > best_bound:
            best, best_bound = i, bound
    return Decision(candidates[best], tuple(candidates), tuple(s / played for s in sums), played)
