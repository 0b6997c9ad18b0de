"""Competitions of Remi 13 D: seating, results, standings and exports of a whole event."""

from remikit.variants import VARIANTS, VariantSpec


def competition_variant() -> VariantSpec:
    """The variant competitions are played in (the one whose spec says ``competition``)."""
    return next(spec for spec in VARIANTS.values() if spec.competition)
