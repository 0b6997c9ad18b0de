"""The loop that lets bots play a game: each bot is handed only its own seat's view.

After every discard, while a variant keeps a call window open (Rummy 500's
R5-10), every seat but the discarder is asked in priority order (nearest
after the discarder first) whether it calls; the first call is applied and
the caller plays on. Only then does the next player draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from remikit.actions import CallRummy, Discard
from remikit.bots.base import Bot
from remikit.engine import MAX_ACTIONS_PER_DEAL, Game


class GameStuck(RuntimeError):
    """A deal reached the engine's cap on its length: these bots do not end it."""


@runtime_checkable
class CallWindow(Protocol):
    """A deal where seats may call on a discard out of turn (Rummy 500)."""

    @property
    def rummy_window(self) -> int | None:
        """The seat whose discard may be called now, or None."""

    def call_order(self, discarder: int) -> list[int]:
        """The seats that may call, the one whose call wins first."""


def call_order(game: Game) -> list[int]:
    """The seats that may call on the last discard now, in priority order (R5-10);
    empty when no call window is open."""
    deal = game.deal
    if deal is None or deal.is_over or not isinstance(deal, CallWindow):
        return []
    discarder = deal.rummy_window
    return [] if discarder is None else deal.call_order(discarder)


def has_call(game: Game, seat: int) -> bool:
    """Whether ``seat`` has a legal call now."""
    return any(isinstance(a, CallRummy) for a in game.legal_actions(seat))


def ask_bot_to_call(game: Game, seat: int, bot: Bot) -> CallRummy | None:
    """The bot's call, if it has a legal one and makes it."""
    if not has_call(game, seat):
        return None
    answer = bot.call(game.view(seat))
    if answer is not None and not isinstance(answer, CallRummy):
        raise TypeError(f"{bot.name} answered a call with {answer}, not a Rummy call")
    return answer


def offer_calls(game: Game, bots: Sequence[Bot]) -> int | None:
    """Ask the seats in priority order whether they call; apply the first call.

    Returns the caller's seat, or None when nobody called.
    """
    for seat in call_order(game):
        call = ask_bot_to_call(game, seat, bots[seat])
        if call is not None:
            game.apply(seat, call)
            return seat
    return None


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
        if isinstance(action, Discard):
            offer_calls(game, bots)
    return game
