"""The registry of variants, found by name or alias.

Each variant lives in its own package and declares a
:class:`~remikit.variants.spec.VariantSpec`; adding a variant to remikit is its folder
and one line below. A variant kept in a package of its own is registered by naming its
spec (``module:attribute``) in the entry point group ``remikit.variants`` of that
package's metadata, or in the environment variable ``REMIKIT_VARIANTS`` (several
separated by commas): every process (``remi serve``, ``remi play``, the arena's workers)
then knows it. Every list of variants outside the packages (the CLI's, the
environments', the browser's) is read from here.

>>> find_variant("3-13").name
'three-thirteen'
>>> [spec.name for spec in playable()][:4]  # then any registered from other packages
['remi13d', 'three-thirteen', 'rummy500', 'gin']
>>> [spec.name for spec in scored()]
['remi13d', 'three-thirteen', 'gin']
"""

from __future__ import annotations

import os
from importlib import import_module
from importlib.metadata import entry_points

from remikit.variants.spec import ScoreInputError, VariantSpec

__all__ = [
    "ENV_VAR",
    "VARIANTS",
    "VariantSpec",
    "find_playable",
    "find_scored",
    "find_variant",
    "playable",
    "playable_names",
    "register",
    "scored",
]

ENV_VAR = "REMIKIT_VARIANTS"
"""The environment variable naming more variants' specs, ``module:attribute`` each."""

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
        raise ValueError(f"unknown variant {name!r} for a table; variants: {playable_names()}")
    return spec


def playable() -> list[VariantSpec]:
    """The variants that tables can play (those with a game)."""
    return [spec for spec in VARIANTS.values() if spec.playable]


def playable_names() -> str:
    """The playable variants' names, comma separated, for a help text or an error."""
    return ", ".join(spec.name for spec in playable())


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
    for point in entry_points(group="remikit.variants"):
        register(point.load())
    for target in filter(None, (n.strip() for n in os.environ.get(ENV_VAR, "").split(","))):
        register(load_spec(target))


def load_spec(target: str) -> VariantSpec:
    """The :class:`VariantSpec` that ``module:attribute`` names (``module`` alone: its ``SPEC``)."""
    module, _, attribute = target.partition(":")
    spec = getattr(import_module(module), attribute or "SPEC", None)
    if not isinstance(spec, VariantSpec):
        raise ValueError(f"{ENV_VAR}: {target!r} names no VariantSpec")
    return spec


_register_all()
