"""The ``strong`` and ``expert`` levels: information-set Monte Carlo search.

At each decision the bot samples the cards it cannot see from its own view
(:func:`~remikit.bots.strong.determinize.determinize`), rebuilds each sampled
position on the real engine, tries a handful of sensible candidate actions
in it and plays on with fast policies (:mod:`remikit.bots.strong.search`);
what to try, how to play on and how to value a position come from one
tactics object per variant.

Thinking time. ``strong@B`` thinks about ``B`` seconds per decision (1 s by
default). So that a seeded game gives the same moves on any machine and under
any load, the budget is turned into a fixed number of rollouts:
``round(B * SIMS_PER_SECOND[variant])``, at least :data:`MIN_SIMS`; the rates
were measured once on the development machine (see :data:`SIMS_PER_SECOND`).
``StrongBot(timed=True)`` also stops at the wall-clock budget, for a table
where the answer must come in time more than it must be reproducible.
``expert`` is ``strong`` with three times the budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from remikit.actions import Action
from remikit.bots.base import Bot, check_view
from remikit.bots.strong.determinize import Determinization, determinize, knowledge
from remikit.bots.strong.remi13d import Remi13DTactics
from remikit.bots.strong.search import Decision, Tactics, search
from remikit.bots.strong.three_thirteen import ThreeThirteenTactics
from remikit.views import PlayerView

DEFAULT_BUDGET = 1.0
EXPERT_FACTOR = 3.0
MIN_SIMS = 8

TACTICS: dict[str, Callable[[], Tactics]] = {
    "remi13d": Remi13DTactics,
    "three-thirteen": ThreeThirteenTactics,
}
"""The strong bot's knowledge of each variant, by the variant's name."""

SIMS_PER_SECOND: dict[str, int] = {
    "remi13d": 4000,
    "three-thirteen": 3500,
}
"""Rollouts per second of thinking, per variant: measured once (``bench/bench_strength.py
--calibrate``) on the development machine, a 2-core container, and fixed here."""

Sampler = Callable[[PlayerView, random.Random], Determinization]


class StrongBot(Bot):
    """Determinized Monte Carlo search over a few candidate actions (module docstring)."""

    def __init__(self, *, seed: int | None = None, budget: float | None = None,
                 name: str = "strong", sims: int | None = None, timed: bool = False) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.budget = DEFAULT_BUDGET if budget is None else budget
        self.sims = sims
        self.timed = timed
        self.tactics: dict[str, Tactics] = {}
        self.last: Decision | None = None

    def plays(self, variant: str) -> bool:
        return variant in TACTICS

    def simulations(self, variant: str) -> int:
        """Rollouts per decision: ``sims`` when given, else the budget's worth."""
        if self.sims is not None:
            return self.sims
        return max(MIN_SIMS, round(self.budget * SIMS_PER_SECOND[variant]))

    def sampler(self, view: PlayerView, tactics: Tactics) -> Sampler:
        """How this bot fills in the cards it cannot see: sampled from its view, then
        made to look played by the variant's tactics."""
        known = knowledge(view)
        return lambda v, rng: tactics.refine(v, determinize(v, rng, known=known), known, rng)

    def choose(self, view: PlayerView) -> Action:
        check_view(view)
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        tactics = self.tactics.get(view.variant)
        if tactics is None:
            if view.variant not in TACTICS:
                raise ValueError(f"the strong bot does not play {view.variant}; "
                                 f"it plays {', '.join(sorted(TACTICS))}")
            tactics = self.tactics[view.variant] = TACTICS[view.variant]()
        deadline = time.perf_counter() + self.budget if self.timed else None
        self.last = search(view, tactics, self.sampler(view, tactics), self.rng,
                           sims=self.simulations(view.variant), deadline=deadline)
        return self.last.action


def make_strong(name: str, seed: int | None, budget: float | None) -> Bot:
    return StrongBot(seed=seed, budget=budget, name=name)


def make_expert(name: str, seed: int | None, budget: float | None) -> Bot:
    base = DEFAULT_BUDGET if budget is None else budget
    return StrongBot(seed=seed, budget=base * EXPERT_FACTOR, name=name)


__all__ = ["TACTICS", "StrongBot", "determinize", "make_expert", "make_strong"]
