"""Gin Rummy, the reference variant (RULES.md §4): scored by ``remi score gin``."""

from remikit.variants.gin.scoring import GinScorer
from remikit.variants.spec import VariantSpec

SPEC = VariantSpec(
    name="gin",
    aliases=("gin-rummy", "ginrummy"),
    titles={"en": "Gin Rummy", "id": "Gin Rummy"},
    scorer=GinScorer(),
)
