"""The ``greedy`` level: the best immediate arrangement, one variant strategy each.

The greedy bot looks one action ahead. It draws the discard when that makes
its best arrangement after the best discard better than the hand it holds,
otherwise the stock (whose card it cannot know); it discards the card whose
removal leaves the best arrangement; in Remi 13 D it closes whenever a close
is legal, with the closing card that scores most. Each variant's package holds
its strategy (``greedy.py``, named by the variant's spec); Rummy 500's plays
melds and lay-offs on a shared table, deep draws and Rummy calls.

Which arrangement is "best" depends on the variant, so the bot keeps a small
strategy object per variant (one set per bot, so a bot's decisions depend only
on its own views), found from ``view.variant`` through the registry. Every search
goes through the shared exact solver, whose
memo outlives a call, so similar hands in consecutive turns are cheap.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from remikit.actions import Action, Discard, Draw, Pass
from remikit.bots.base import Bot, check_view
from remikit.cards import Card
from remikit.deal import Phase
from remikit.variants import find_variant
from remikit.views import PlayerView

Rating = tuple[int, int]
"""How good a hand is for a strategy; a greater rating is better."""


class Strategy(Protocol):
    """How the greedy bot plays one variant."""

    def draw(self, view: PlayerView) -> Action:
        """The choice in the draw phase."""

    def discard(self, view: PlayerView) -> Action:
        """The choice after drawing: a discard (or a close, a meld, a lay-off)."""


@runtime_checkable
class CallingStrategy(Protocol):
    """A strategy for a variant with calls on a discard (Rummy 500's, R5-10)."""

    def call(self, view: PlayerView) -> Action | None:
        """The answer in a call window: a call to make, or None to pass."""


def legal_discards(view: PlayerView) -> list[Card]:
    return [a.card for a in view.legal_actions if isinstance(a, Discard)]


def draw_choice(view: PlayerView, take_discard: bool) -> Action:
    """The discard when ``take_discard`` and legal, else the stock (else whatever is legal)."""
    choice = Draw("discard") if take_discard else Draw("stock")
    if choice in view.legal_actions:
        return choice
    other = Draw("stock") if take_discard else Draw("discard")
    if other in view.legal_actions:
        return other
    return view.legal_actions[0]


def best_single_discard(
    view: PlayerView, found: Card | None, rate: Callable[[list[Card]], Rating]
) -> Action:
    """``Discard(found)`` when legal, else the legal discard whose rest scores best.

    The solver's ``keep`` cannot forbid one joker among several, so its
    choice is checked against the legal actions.
    """
    allowed = legal_discards(view)
    if not allowed:
        return view.legal_actions[0]
    if found is not None and found in allowed:
        return Discard(found)
    best_key: Rating | None = None
    best: Card = allowed[0]
    for card in allowed:
        rest = list(view.hand)
        rest.remove(card)
        key = rate(rest)
        if best_key is None or key > best_key:
            best_key, best = key, card
    return Discard(best)


class GreedyBot(Bot):
    """Plays the best immediate arrangement (see the module docstring).

    It makes no random choices; ``seed`` is kept so that every level is made
    the same way, and ``budget`` (``greedy@0.1``) is accepted and ignored.
    """

    def __init__(
        self, *, seed: int | None = None, budget: float | None = None, name: str = "greedy"
    ) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.budget = budget
        self.strategies: dict[str, Strategy] = {}

    def plays(self, variant: str) -> bool:
        return find_variant(variant).has("greedy")

    def strategy(self, variant: str) -> Strategy:
        """This bot's strategy for ``variant`` (made on first use)."""
        strategy = self.strategies.get(variant)
        if strategy is None:
            spec = find_variant(variant)
            if not spec.has("greedy"):
                raise ValueError(f"the greedy bot does not play {variant}")
            strategy = self.strategies[variant] = spec.part("greedy")()
        return strategy

    def choose(self, view: PlayerView) -> Action:
        check_view(view)
        strategy = self.strategy(view.variant)
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        if view.phase.is_call_window:
            answer = strategy.call(view) if isinstance(strategy, CallingStrategy) else None
            return answer if answer is not None else Pass()
        if view.phase is Phase.DRAW:
            return strategy.draw(view)
        return strategy.discard(view)
