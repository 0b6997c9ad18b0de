"""The table options of Gin Rummy (RULES.md §4), OpenSpiel's defaults."""

from __future__ import annotations

from dataclasses import dataclass

from remikit.engine import Options, option
from remikit.i18n import N_
from remikit.views import PlayerView


@dataclass(frozen=True, kw_only=True)
class GinOptions(Options):
    """Table options, OpenSpiel's defaults (G-1 … G-10): two players, a knock limit of
    10 (``oklahoma``: the first upcard's value), gin and undercut bonuses of 25, a game
    to 100; a card just taken from the discard pile may be discarded at once."""

    players: int = option(2, label=N_("opt.players"), low=2, high=2)
    discard_taken_card: bool = option(True, label=N_("opt.discard_taken_card"))
    knock: int = option(10, label=N_("opt.knock"), low=0, high=10)
    oklahoma: bool = option(False, label=N_("opt.oklahoma"))
    gin_bonus: int = option(25, label=N_("opt.gin_bonus"), low=0, high=100)
    undercut_bonus: int = option(25, label=N_("opt.undercut_bonus"), low=0, high=100)
    target: int = option(100, label=N_("opt.target"), low=1, high=10_000)


def options_of(view: PlayerView) -> GinOptions:
    """The table options of a Gin Rummy view."""
    assert isinstance(view.options, GinOptions)
    return view.options
