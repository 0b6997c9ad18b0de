"""Gin Rummy, the reference variant (RULES.md §4): scored by ``remi score gin``."""

from remikit.i18n import N_
from remikit.variants.gin.scoring import GinScorer
from remikit.variants.spec import VariantSpec

SPEC = VariantSpec(
    name="gin",
    aliases=("gin-rummy", "ginrummy"),
    title_key=N_("variant.gin"),
    scorer=GinScorer(),
)
