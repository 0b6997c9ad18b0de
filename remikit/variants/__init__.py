"""The registry of variants, found by name or alias."""

from __future__ import annotations

from dataclasses import dataclass

from remikit.engine import Game
from remikit.variants.remi13d import Remi13DGame
from remikit.variants.rummy500 import Rummy500Game
from remikit.variants.three_thirteen import ThreeThirteenGame


@dataclass(frozen=True)
class VariantInfo:
    name: str
    aliases: tuple[str, ...]
    game: type[Game]
    title: dict[str, str]


VARIANTS: dict[str, VariantInfo] = {}


def register(info: VariantInfo) -> None:
    VARIANTS[info.name] = info


def find_variant(name: str) -> VariantInfo:
    """The variant called ``name`` (any alias, any letter case)."""
    key = name.strip().lower()
    for info in VARIANTS.values():
        if key == info.name or key in info.aliases:
            return info
    names = ", ".join(sorted(VARIANTS))
    raise ValueError(f"unknown variant {name!r}; variants: {names}")


register(VariantInfo("remi13d", ("13d", "remi-13d", "remi13", "r13"), Remi13DGame,
                     {"en": "Remi 13 D", "id": "Remi 13 D"}))
register(VariantInfo("three-thirteen", ("3-13", "313", "three_thirteen", "threethirteen", "t13"),
                     ThreeThirteenGame, {"en": "Three-Thirteen", "id": "Three-Thirteen"}))
register(VariantInfo("rummy500", ("500", "rummy-500", "r500"), Rummy500Game,
                     {"en": "Rummy 500", "id": "Remi 500"}))
