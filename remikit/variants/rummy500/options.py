"""The table options of Rummy 500 (RULES.md §2) and the bounds of its players and target."""

from __future__ import annotations

from dataclasses import dataclass

from remikit.engine import Options, option
from remikit.i18n import N_

MIN_PLAYERS, MAX_PLAYERS = 2, 8  # R5-1
DEFAULT_PLAYERS = 3
DEFAULT_TARGET = 500  # R5-13
MAX_TARGET = 10_000  # a game that could not end in an evening is refused


@dataclass(frozen=True, kw_only=True)
class Rummy500Options(Options):
    """Table options (CONTRACT.md): ``players`` 2–8, ``jokers``, ``target``,
    ``scoring`` (``standard`` or ``5-10-15``), ``rummy_calls``, ``floating``,
    ``unplayable_last_discard``, ``joker_layoff`` (``runs`` or ``any``, R5-6) and
    the shared ``discard_taken_card``."""

    players: int = option(
        DEFAULT_PLAYERS, label=N_("opt.players"), low=MIN_PLAYERS, high=MAX_PLAYERS
    )
    jokers: bool = option(True, label=N_("opt.jokers"))
    target: int = option(DEFAULT_TARGET, label=N_("opt.target"), low=1, high=MAX_TARGET)
    scoring: str = option(  # R5-11, R5-14
        "standard",
        label=N_("opt.scoring"),
        choices={"standard": N_("optval.standard"), "5-10-15": N_("optval.5-10-15")},
    )
    rummy_calls: bool = option(True, label=N_("opt.rummy_calls"))
    floating: bool = option(False, label=N_("opt.floating"))
    unplayable_last_discard: bool = option(False, label=N_("opt.unplayable_last_discard"))
    joker_layoff: str = option(  # R5-6 [interp]
        "runs",
        label=N_("opt.joker_layoff"),
        choices={"runs": N_("optval.runs"), "any": N_("optval.any")},
    )

    @property
    def decks(self) -> int:
        """R5-1: one deck for 2–4 players, two for 5–8."""
        return 1 if self.players <= 4 else 2
