"""Each option's rule and help, as ``/api/variants`` lists them.

Which rule of docs/rules.md an option changes, and the help text that says how, is
the variant's own (:attr:`~remikit.variants.spec.VariantSpec.option_rules`); the labels
of an option and of its choices are declared with the option itself
(:func:`remikit.engine.option`).

The lobby shows the help beside each option with a link to the rule on the rules page
(``/rules/{variant}#R5-14``); the rules page marks the rules a table's options govern.

>>> option_help("rummy500", "floating")
{'rule': 'R5-14', 'help': 'opt.floating.help'}
>>> option_help("remi13d", "nothing")
{'rule': None, 'help': None}
"""

from __future__ import annotations

from remikit.variants import find_variant


def option_help(variant: str, option: str) -> dict[str, str | None]:
    """The rule id and help message id of one option, as ``/api/variants`` lists them."""
    rules: dict[str, tuple[str | None, str | None]] = dict(find_variant(variant).option_rules)
    rule, key = rules.get(option, (None, None))
    return {"rule": rule, "help": key}
