"""Rummy 500: melds on the table, deep draws and Rummy calls, a game to 500 (RULES.md §2)."""

from remikit.variants.rummy500.rules import Rummy500Game
from remikit.variants.spec import VariantSpec

SPEC = VariantSpec(
    name="rummy500",
    aliases=("500", "rummy-500", "r500"),
    titles={"en": "Rummy 500", "id": "Remi 500"},
    game=Rummy500Game,
    parts={
        "greedy": "remikit.variants.rummy500.greedy:Rummy500Strategy",
        "tactics": "remikit.variants.rummy500.tactics:Rummy500Tactics",
        "tui": "remikit.variants.rummy500.tui:Rummy500UI",
    },
)
