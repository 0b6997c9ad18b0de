"""The registry of variants, found by name or alias.

Each variant lives in its own package and declares a
:class:`~remikit.variants.spec.VariantSpec`; adding a variant is its folder and
one line below. Every list of variants outside the packages (the CLI's, the
environments', the browser's) is read from here.

>>> find_variant("3-13").name
'three-thirteen'
>>> [spec.name for spec in playable()]
['remi13d', 'three-thirteen', 'rummy500', 'gin']
>>> [spec.name for spec in scored()]
['remi13d', 'three-thirteen', 'gin']
"""

from __future__ import annotations

from remikit.variants.spec import ScoreInputError, VariantSpec

__all__ = [
    "VARIANTS",
    "VariantSpec",
    "find_playable",
    "find_scored",
    "find_variant",
    "playable",
    "register",
    "scored",
]

VARIANTS: dict[str, VariantSpec] = {}
"""Every registered variant by its canonical name, in the order registered (the first,
Remi 13 D, is what ``remi play`` plays when no variant is named)."""


def register(spec: VariantSpec) -> None:
    """Add a variant; its name and aliases must be new."""
    taken = {n for other in VARIANTS.values() for n in other.names()}
    clash = taken.intersection(spec.names())
    if clash:
        raise ValueError(f"variant names already taken: {', '.join(sorted(clash))}")
    VARIANTS[spec.name] = spec


def find_variant(name: str) -> VariantSpec:
    """The variant called ``name`` (any alias, any letter case)."""
    key = name.strip().lower()
    for spec in VARIANTS.values():
        if key in spec.names():
            return spec
    names = ", ".join(VARIANTS)
    raise ValueError(f"unknown variant {name!r}; variants: {names}")


def find_playable(name: str) -> VariantSpec:
    """The variant called ``name`` that tables play (ValueError for one scored only)."""
    spec = find_variant(name)
    if not spec.playable:
        names = ", ".join(s.name for s in playable())
        raise ValueError(f"unknown variant {name!r} for a table; variants: {names}")
    return spec


def playable() -> list[VariantSpec]:
    """The variants that tables can play (those with a game)."""
    return [spec for spec in VARIANTS.values() if spec.playable]


def scored() -> list[VariantSpec]:
    """The variants ``remi score`` scores (those with a scorer)."""
    return [spec for spec in VARIANTS.values() if spec.scorer is not None]


def find_scored(name: object) -> VariantSpec:
    """The variant called ``name`` that ``remi score`` scores; else
    :class:`~remikit.variants.spec.ScoreInputError` saying which it scores
    (``score.unknown_variant``, or ``score.not_scored`` for a variant whose score is not
    that of a hand alone, as Rummy 500's, R5-12).

    >>> find_scored("500")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    remikit.variants.spec.ScoreInputError: remi score does not score rummy500: ... gin)
    """
    names = ", ".join(spec.name for spec in scored())
    try:
        spec = find_variant(name) if isinstance(name, str) else None
    except ValueError:
        spec = None
    if spec is None:
        raise ScoreInputError("score.unknown_variant", variant=name, variants=names)
    if spec.scorer is None:
        raise ScoreInputError("score.not_scored", variant=spec.name, variants=names)
    return spec


def _register_all() -> None:
    from remikit.variants import gin, remi13d, rummy500, three_thirteen

    for package in (remi13d, three_thirteen, rummy500, gin):
        register(package.SPEC)


_register_all()
