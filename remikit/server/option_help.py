"""The labels of table options and their choices, and each option's rule and help.

Which rule of docs/rules.md an option changes, and the help text that says how, is
the variant's own (:attr:`~remikit.variants.spec.VariantSpec.option_rules`).

The lobby shows the help beside each option with a link to the rule on the rules page
(``/rules/{variant}#R5-14``); the rules page marks the rules a table's options govern.

>>> option_help("rummy500", "floating")
{'rule': 'R5-14', 'help': 'opt.floating.help'}
>>> option_help("remi13d", "nothing")
{'rule': None, 'help': None}
"""

from __future__ import annotations

from remikit.i18n import N_
from remikit.variants import find_variant

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
    "knock": N_("opt.knock"),
    "oklahoma": N_("opt.oklahoma"),
    "gin_bonus": N_("opt.gin_bonus"),
    "undercut_bonus": N_("opt.undercut_bonus"),
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
    rules: dict[str, tuple[str | None, str | None]] = dict(find_variant(variant).option_rules)
    rule, key = rules.get(option, (None, None))
    return {"rule": rule, "help": key}
