"""The one interface every bot has.

A bot is handed a :class:`~remikit.views.PlayerView` of its own seat and
answers with one of the view's legal actions; in a Rummy call window (R5-10)
those are its calls and ``pass``. It never sees a
:class:`~remikit.engine.Game` or a :class:`~remikit.deal.Deal`: hidden
information stays in the engine (DESIGN.md decision 5).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from remikit.actions import Action
from remikit.views import PlayerView


class Bot(ABC):
    """A player that picks one of ``view.legal_actions``.

    ``name`` is the name it was made with (``greedy``, ``greedy@0.1``).
    Given the same seed and the same sequence of views, a bot makes the
    same decisions.
    """

    name: str

    @abstractmethod
    def choose(self, view: PlayerView) -> Action:
        """The action to take; ``view`` is the bot's own seat, with legal actions."""

    def plays(self, variant: str) -> bool:
        """Whether this bot can play the variant named ``variant`` (its canonical name)."""
        return True


def check_view(view: PlayerView) -> None:
    """Refuse anything but a seat's view with something to do."""
    if not isinstance(view, PlayerView):
        raise TypeError(f"a bot is given a PlayerView, not {type(view).__name__}")
    if view.seat is None:
        raise ValueError("a bot plays a seat: a spectator's view has no hand")
    if not view.legal_actions:
        raise ValueError(f"seat {view.seat} has nothing to do now")
