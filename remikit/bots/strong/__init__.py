"""The ``strong`` and ``expert`` levels: information-set Monte Carlo search.

At each decision the bot samples the cards it cannot see from its own view
(:func:`~remikit.bots.strong.determinize.determinize`), rebuilds each sampled
position on the real engine, tries a handful of sensible candidate actions
in it and plays on with fast policies (:mod:`remikit.bots.strong.search`);
what to try, how to play on and how to value a position come from one
tactics object per variant.

Thinking time. ``strong@B`` thinks about ``B`` seconds per decision (1 s by
default). So that a seeded game gives the same moves on any machine and under
any load, the budget is turned into a fixed effort, in rollouts:
``round(B * rate)``, at least :data:`MIN_SIMS`, where the rate is the variant
tactics' ``sims_per_second``, measured once on the development machine. A
variant whose rollouts stop helping caps them (``max_rollouts``) and spends
the rest of the effort on rating its candidates.
``StrongBot(timed=True)`` also stops at the wall-clock budget, for a table
where the answer must come in time more than it must be reproducible: ``remi
play`` and the web table make their bots so (``make_bot(..., timed=True)``),
the arena does not.
``expert`` is ``strong`` with three times the budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from remikit.actions import Action, LayOff, MeldCards
from remikit.bots.base import Bot, check_view
from remikit.bots.strong.determinize import determinize, knowledge, reading_weights
from remikit.bots.strong.search import QUICK, Decision, Plan, Sampler, Tactics, search
from remikit.cards import Card
from remikit.variants import find_variant
from remikit.views import PlayerView

DEFAULT_BUDGET = 1.0
EXPERT_FACTOR = 3.0
MIN_SIMS = 8


def tactics_for(variant: str) -> Tactics:
    """New tactics of ``variant`` (the ``tactics`` part of its spec)."""
    spec = find_variant(variant)
    if not spec.has("tactics"):
        raise ValueError(f"the strong bot does not play {variant}")
    tactics: Tactics = spec.part("tactics")()
    return tactics


class StrongBot(Bot):
    """Determinized Monte Carlo search over a few candidate actions (module docstring)."""

    def __init__(
        self,
        *,
        seed: int | None = None,
        budget: float | None = None,
        name: str = "strong",
        sims: int | None = None,
        timed: bool = False,
    ) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.budget = DEFAULT_BUDGET if budget is None else budget
        self.sims = sims
        self.timed = timed
        self.tactics: dict[str, Tactics] = {}
        self.last: Decision | None = None
        self._decided: tuple[object, Decision] | None = None
        self._plan: tuple[object, Plan] | None = None

    def plays(self, variant: str) -> bool:
        return find_variant(variant).has("tactics")

    def simulations(self, variant: str) -> int:
        """A decision's effort in rollouts: ``sims`` when given, else the budget's worth."""
        if self.sims is not None:
            return self.sims
        return max(MIN_SIMS, round(self.budget * self._tactics(variant).sims_per_second))

    def sampler(self, view: PlayerView, tactics: Tactics) -> Sampler:
        """How this bot fills in the cards it cannot see: sampled from its view, weighted
        by the variant's reading of play where its tactics use one, then made to look played by
        the variant's tactics."""
        known = knowledge(view)
        weights = reading_weights(view, known) if tactics.reads_play else None
        if self.simulations(view.variant) < QUICK:
            return lambda v, rng: determinize(v, rng, known=known, weights=weights)
        return lambda v, rng: tactics.refine(
            v, determinize(v, rng, known=known, weights=weights), known, rng
        )

    def _tactics(self, variant: str) -> Tactics:
        tactics = self.tactics.get(variant)
        if tactics is None:
            tactics = self.tactics[variant] = tactics_for(variant)
        return tactics

    @staticmethod
    def _key(view: PlayerView, hand: Sequence[Card] | None = None, log: int = 0) -> object:
        cards = view.hand if hand is None else hand
        return (view.deal_number, len(view.log) + log, tuple(sorted(cards)), view.seat)

    def choose(self, view: PlayerView) -> Action:
        check_view(view)
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        key = self._key(view)
        if (
            self._plan is not None
            and self._plan[0] == key
            and self._plan[1][0] in view.legal_actions
        ):
            plan = self._plan[1]
        else:
            plan = self.decide(view).plan
        self._plan = None
        action, rest = plan[0], plan[1:]
        if rest and isinstance(action, MeldCards | LayOff):
            hand = list(view.hand)
            for card in action.cards if isinstance(action, MeldCards) else (action.card,):
                hand.remove(card)
            self._plan = (self._key(view, hand, 1), rest)
        return action

    def decide(self, view: PlayerView) -> Decision:
        """Search this view (once: asked again about the same view, the same answer)."""
        key = self._key(view)
        if self._decided is not None and self._decided[0] == key:
            return self._decided[1]
        tactics = self._tactics(view.variant)
        deadline = time.perf_counter() + self.budget if self.timed else None
        self.last = search(
            view,
            tactics,
            self.sampler(view, tactics),
            self.rng,
            sims=self.simulations(view.variant),
            deadline=deadline,
        )
        self._decided = (key, self.last)
        return self.last


def make_strong(name: str, seed: int | None, budget: float | None) -> Bot:
    return StrongBot(seed=seed, budget=budget, name=name)


def make_expert(name: str, seed: int | None, budget: float | None) -> Bot:
    base = DEFAULT_BUDGET if budget is None else budget
    return StrongBot(seed=seed, budget=base * EXPERT_FACTOR, name=name)


__all__ = ["StrongBot", "determinize", "make_expert", "make_strong", "tactics_for"]
