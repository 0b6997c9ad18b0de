"""One decision rated the way the strong bot sees it, from the seat's view alone.

The strong search's candidates for the view, with the action taken among them, are
played out in the same sampled worlds (:func:`~remikit.bots.strong.search.play_worlds`);
each action's value is the mean of its best plan's, in the points the search counts for
the seat (its objective: the seat's deal score against the others'). The cost of the
action taken is how much less it is worth than the best, with the standard error of
that paired difference.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from remikit.actions import Action
from remikit.bots.strong import StrongBot, tactics_for
from remikit.bots.strong.search import play_worlds
from remikit.views import PlayerView

MIN_WORLDS = 4
"""The fewest worlds a rating plays, however many candidates share the effort."""


@dataclass(frozen=True)
class Rated:
    """A candidate action and its value (mean over the worlds)."""

    action: Action
    value: float


@dataclass(frozen=True)
class Rating:
    """The action taken against the best the search found."""

    taken: Action
    best: Action
    candidates: tuple[Rated, ...]  # the best first
    cost: float  # the best's value less the taken's, never below 0
    error: float  # the standard error of that difference
    worlds: int

    @property
    def agreed(self) -> bool:
        """Whether the action taken is the one the search rates best."""
        return self.taken == self.best


def rate(view: PlayerView, taken: Action, *, sims: int, seed: int) -> Rating:
    """Rate ``taken``, one of ``view.legal_actions``, with about ``sims`` rollouts."""
    tactics = tactics_for(view.variant)
    tactics.effort = sims
    found = tactics.candidates(view, include=taken)
    plans = [plan for plan, _ in found]
    if len(plans) == 1:
        return Rating(taken, taken, (Rated(taken, 0.0),), 0.0, 0.0, 0)
    priors = [prior for _, prior in found]
    rollouts = sims if tactics.max_rollouts is None else min(sims, tactics.max_rollouts)
    worlds = max(MIN_WORLDS, rollouts // len(plans))
    sampler = StrongBot(sims=sims).sampler(view, tactics)
    rows = play_worlds(view, tactics, sampler, random.Random(seed), plans, priors, worlds)
    means = [sum(row[i] for row in rows) / len(rows) for i in range(len(plans))]
    best_plan: dict[Action, int] = {}  # per first action, its best plan
    for i, plan in enumerate(plans):
        if plan[0] not in best_plan or means[i] > means[best_plan[plan[0]]]:
            best_plan[plan[0]] = i
    ranked = sorted(best_plan.items(), key=lambda item: -means[item[1]])
    best, best_i = ranked[0]
    taken_i = best_plan[taken]
    diffs = [row[best_i] - row[taken_i] for row in rows]
    cost = max(0.0, sum(diffs) / len(diffs))
    spread = math.sqrt(max(0.0, sum(d * d for d in diffs) / len(diffs) - cost * cost))
    return Rating(
        taken,
        best if means[best_i] > means[taken_i] else taken,
        tuple(Rated(action, means[i]) for action, i in ranked),
        cost,
        spread / math.sqrt(len(diffs)),
        len(rows),
    )
