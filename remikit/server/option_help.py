"""Which rule of docs/rules.md each table option changes, and the help text that says how.

The lobby shows the help beside each option with a link to the rule on the rules page
(``/rules/{variant}#R5-14``); the rules page marks the rules a table's options govern.

>>> option_help("rummy500", "floating")
{'rule': 'R5-14', 'help': 'opt.floating.help'}
>>> option_help("remi13d", "nothing")
{'rule': None, 'help': None}
"""

from __future__ import annotations

from remikit.i18n import N_

OPTION_RULES: dict[str, dict[str, tuple[str, str]]] = {
    "remi13d": {
        "players": ("R13-1", N_("opt.players.help_remi13d")),
        "discard_taken_card": ("R13-5", N_("opt.discard_taken_card.help")),
        "games": ("R13-15", N_("opt.games.help")),
        "pure_run": ("R13-6", N_("opt.pure_run.help")),
    },
    "three-thirteen": {
        "players": ("R3-1", N_("opt.players.help_three_thirteen")),
        "discard_taken_card": ("R3-5", N_("opt.discard_taken_card.help")),
        "jokers": ("R3-1", N_("opt.jokers.help_three_thirteen")),
        "ace": ("R3-4", N_("opt.ace.help")),
    },
    "rummy500": {
        "players": ("R5-1", N_("opt.players.help_rummy500")),
        "discard_taken_card": ("R5-7", N_("opt.discard_taken_card.help")),
        "jokers": ("R5-1", N_("opt.jokers.help_rummy500")),
        "target": ("R5-13", N_("opt.target.help")),
        "scoring": ("R5-14", N_("opt.scoring.help")),
        "rummy_calls": ("R5-10", N_("opt.rummy_calls.help")),
        "floating": ("R5-14", N_("opt.floating.help")),
        "unplayable_last_discard": ("R5-14", N_("opt.unplayable_last_discard.help")),
        "joker_layoff": ("R5-6", N_("opt.joker_layoff.help")),
    },
}
"""Variant → option → (rule id, message id of the help text)."""


LABELS: dict[str, str] = {
    "players": N_("opt.players"),
    "games": N_("opt.games"),
    "jokers": N_("opt.jokers"),
    "ace": N_("opt.ace"),
    "target": N_("opt.target"),
    "scoring": N_("opt.scoring"),
    "rummy_calls": N_("opt.rummy_calls"),
    "floating": N_("opt.floating"),
    "unplayable_last_discard": N_("opt.unplayable_last_discard"),
    "joker_layoff": N_("opt.joker_layoff"),
    "discard_taken_card": N_("opt.discard_taken_card"),
    "pure_run": N_("opt.pure_run"),
}
"""The message id of each option's label (as the lobby names them)."""
CHOICES: dict[str, str] = {
    "low": N_("optval.low"),
    "high": N_("optval.high"),
    "standard": N_("optval.standard"),
    "5-10-15": N_("optval.5-10-15"),
    "strict": N_("optval.strict"),
    "natural4": N_("optval.natural4"),
    "runs": N_("optval.runs"),
    "any": N_("optval.any"),
}
"""The message id of each option choice's label."""


def option_help(variant: str, option: str) -> dict[str, str | None]:
    """The rule id and help message id of one option, as ``/api/variants`` lists them."""
    rule, key = OPTION_RULES.get(variant, {}).get(option, (None, None))
    return {"rule": rule, "help": key}
