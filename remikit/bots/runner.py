"""The loop that lets bots play a game: each bot is handed only its own seat's view."""

from __future__ import annotations

from collections.abc import Sequence

from remikit.bots.base import Bot
from remikit.engine import MAX_ACTIONS_PER_DEAL, Game


class GameStuck(RuntimeError):
    """A deal reached the engine's cap on its length: these bots do not end it."""


def play_game(game: Game, bots: Sequence[Bot]) -> Game:
    """Let ``bots`` (one per seat, in seat order) play ``game`` to its end.

    Each bot only ever receives ``game.view(seat)`` of its own seat.
    """
    if len(bots) != game.players:
        raise ValueError(f"{game.players} seats need {game.players} bots, not {len(bots)}")
    while not game.over:
        if game.needs_deal:
            game.start_deal()
        seat = game.to_play
        deal = game.deal
        if seat is None or deal is None:
            raise RuntimeError("no seat is to play in a running deal")
        if len(deal.log) >= MAX_ACTIONS_PER_DEAL:
            names = ", ".join(bot.name for bot in bots)
            raise GameStuck(f"{game.name} deal {deal.number} reached {MAX_ACTIONS_PER_DEAL} "
                            f"actions without ending ({names}): these bots do not finish it")
        action = bots[seat].choose(game.view(seat))
        game.apply(seat, action)
    return game
