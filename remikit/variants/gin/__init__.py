"""Gin Rummy, the reference variant (RULES.md §4): OpenSpiel's rules, a game to 100."""

from remikit.i18n import N_
from remikit.variants.gin.rules import GinGame
from remikit.variants.gin.scoring import GinScorer
from remikit.variants.spec import ClientInfo, VariantSpec

SPEC = VariantSpec(
    name="gin",
    aliases=("gin-rummy", "ginrummy"),
    title_key=N_("variant.gin"),
    game=GinGame,
    scorer=GinScorer(),
    parts={
        "greedy": "remikit.variants.gin.greedy:GinStrategy",
        "tactics": "remikit.variants.gin.tactics:GinTactics",
        "tui": "remikit.variants.gin.tui:GinUI",
    },
    client=ClientInfo(
        deal="hand",
        length="target",
        table_melds=True,
        options=(
            "knock",
            "oklahoma",
            "target",
            "gin_bonus",
            "undercut_bonus",
            "discard_taken_card",
        ),
    ),
)
