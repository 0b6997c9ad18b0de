"""The ``cheater``: the strong bot's search with every hand in plain sight.

A measurement ceiling for the arena only. It plays exactly like ``strong``
(same candidates, rollouts and choice), but instead of sampling the other
hands from its view it reads them from the true :class:`~remikit.engine.Game`;
only the order of the stock stays unknown to it (the stock's cards are then
known, so it shuffles them). How much better it does than ``strong`` is what
the hidden cards cost the strong bot.

It is deliberately not a level of :data:`remikit.bots.LEVELS`, which
``remi play``, the web server and every other front end use: only
:func:`make_arena_bot`, which the arena calls with the game it is about to
play, can build one. That keeps DESIGN.md decision 5 (bots see only their
view) true for every bot a person ever plays against.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from remikit.bots import Bot, check_bot, make_bot, parse_budget
from remikit.bots.strong import StrongBot
from remikit.bots.strong.determinize import Determinization
from remikit.bots.strong.search import Sampler, Tactics
from remikit.engine import Game
from remikit.views import PlayerView


class CheaterBot(StrongBot):
    """``strong`` that sees every hand of ``game`` (arena only, see the module docstring)."""

    def __init__(
        self,
        game: Game,
        *,
        seed: int | None = None,
        budget: float | None = None,
        name: str = "cheater",
        sims: int | None = None,
    ) -> None:
        super().__init__(seed=seed, budget=budget, name=name, sims=sims)
        self._game = game

    def sampler(self, view: PlayerView, tactics: Tactics) -> Sampler:
        def peek(v: PlayerView, rng: random.Random) -> Determinization:
            deal = self._game.deal
            assert deal is not None
            stock = list(deal.stock)
            rng.shuffle(stock)
            return Determinization(tuple(tuple(h) for h in deal.hands), tuple(stock))

        return peek


ArenaFactory = Callable[[str, int | None, float | None, Game], Bot]


def _cheater(name: str, seed: int | None, budget: float | None, game: Game) -> Bot:
    return CheaterBot(game, seed=seed, budget=budget, name=name)


ARENA_LEVELS: dict[str, ArenaFactory] = {"cheater": _cheater}
"""Levels only the arena may seat: they are handed the true game."""


def _arena_level(name: str) -> tuple[str, float | None] | None:
    """``(level, budget)`` when ``name`` names an arena-only level, else None."""
    level, at, budget_text = name.strip().lower().partition("@")
    if level not in ARENA_LEVELS:
        return None
    return level, parse_budget(level, budget_text) if at else None


def check_arena_bot(name: str, variant: str) -> None:
    """:func:`~remikit.bots.check_bot`, arena-only levels included."""
    found = _arena_level(name)
    if found is None:
        check_bot(name, variant)
    elif not StrongBot().plays(variant):
        raise ValueError(f"the {found[0]} bot does not play {variant}")


def make_arena_bot(name: str, *, seed: int | None, game: Game) -> Bot:
    """The bot called ``name`` for an arena game ``game`` (an arena-only level is
    handed the game; any other level is :func:`~remikit.bots.make_bot`)."""
    found = _arena_level(name)
    if found is None:
        return make_bot(name, seed=seed)
    level, budget = found
    return ARENA_LEVELS[level](name.strip().lower(), seed, budget, game)
