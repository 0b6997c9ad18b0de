"""One hand of OpenSpiel's own ``gin_rummy`` (default parameters) with a remikit bot in one
seat: the variant's ``openspiel`` part, which ``remi openspiel gin`` plays (CONTRACT.md).

The other seat is ``pyspiel.make_simple_gin_rummy_bot``. The remikit bot sees only its
seat's observations (:class:`~remikit.variants.gin.observed.ObservedSeat`); its actions
become OpenSpiel's with :func:`~remikit.variants.gin.openspiel.numbers`. OpenSpiel is
imported when a hand is played, not before.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from remikit.bots import Bot
from remikit.i18n import N_
from remikit.variants.gin.observed import ObservedSeat
from remikit.variants.gin.openspiel import numbers
from remikit.views import PlayerView

OUTCOMES = {
    "won_knock": N_("openspiel.won_knock"),
    "won_gin": N_("openspiel.won_gin"),
    "won_undercut": N_("openspiel.won_undercut"),
    "lost_knock": N_("openspiel.lost_knock"),
    "lost_gin": N_("openspiel.lost_gin"),
    "lost_undercut": N_("openspiel.lost_undercut"),
    "drawn": N_("openspiel.drawn"),
}
"""How a hand ended for the remikit bot, and the message naming it."""


class GinInOpenSpiel:
    """Gin Rummy's hands in OpenSpiel's engine (the ``openspiel`` part)."""

    game = "gin_rummy"
    """OpenSpiel's name of the game."""
    outcomes = OUTCOMES

    def play_hand(self, seat: int, bot: Bot, deck: random.Random) -> tuple[float, str]:
        """One hand, ``bot`` in ``seat``, OpenSpiel's chance outcomes drawn with ``deck``:
        the bot's return and how the hand ended (a key of :data:`OUTCOMES`)."""
        pyspiel = importlib.import_module("pyspiel")
        game = pyspiel.load_game(self.game)
        state = game.new_initial_state()
        other = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - seat)
        seen = ObservedSeat(seat)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(deck.choices(outcomes, weights)[0])
                continue
            seen.observe(state.to_observation_struct(seat).to_dict())
            if state.current_player() != seat:
                state.apply_action(other.step(state))
                continue
            action = bot.choose(within_openspiel(seen.view(), state.legal_actions()))
            seen.played(action)
            for number in numbers(action):
                state.apply_action(number)
        points = float(state.returns()[seat])
        return points, outcome_kind(state.to_observation_struct(seat), seat, points)


def within_openspiel(view: PlayerView, allowed: Sequence[int]) -> PlayerView:
    """``view`` with only the legal actions OpenSpiel also allows its seat: OpenSpiel
    refuses a knock where its 11-card deadwood over-reports, and a lay-off beyond the run
    as first laid down (docs/rules.md G-5, G-6), both legal in remikit."""
    legal = tuple(a for a in view.legal_actions if numbers(a)[0] in allowed)
    return replace(view, legal_actions=legal)


def outcome_kind(struct: Any, seat: int, points: float) -> str:
    """How the finished hand ended for ``seat`` (a key of :data:`OUTCOMES`)."""
    knocked = list(struct.to_dict()["knocked"])
    if points == 0 or not any(knocked):
        return "drawn"
    knocker = knocked.index(True)
    deadwood = struct.to_dict()["deadwood"]
    won = points > 0
    if (knocker == seat) != won:
        return ("won_" if won else "lost_") + "undercut"
    gin = deadwood[knocker] == 0
    return ("won_" if won else "lost_") + ("gin" if gin else "knock")
