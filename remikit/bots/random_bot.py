"""The ``random`` level: a uniformly random legal action (and a coin flip for Rummy calls)."""

from __future__ import annotations

import random

from remikit.actions import Action, Pass
from remikit.bots.base import Bot, check_view
from remikit.views import PlayerView


class RandomBot(Bot):
    """Picks uniformly among the legal actions, except that it takes an eager kind of
    action whenever it can.

    In Remi 13 D a bot that never closed would let every game run to an
    empty stock (R13-13), which makes its games meaningless as opponents or
    baselines; so when a close ("tutup", an :attr:`~remikit.actions.Action.eager` kind)
    is legal it picks one of the legal closes (uniformly). In the other variants going
    out happens by itself.

    Asked in a call window (Rummy 500's, R5-10), it calls with probability
    :attr:`call_chance` (one half), picking uniformly among its calls, else passes.
    """

    call_chance = 0.5

    def __init__(self, *, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        check_view(view)
        if view.phase.is_call_window:
            calls = [a for a in view.legal_actions if a.calls]
            return self.rng.choice(calls) if self.rng.random() < self.call_chance else Pass()
        eager = [a for a in view.legal_actions if a.eager]
        return self.rng.choice(eager or view.legal_actions)
