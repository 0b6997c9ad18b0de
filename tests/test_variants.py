"""The variant registry: every registered variant's parts resolve, names are unique, and
the core imports no front end."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from typing import ClassVar

import pytest

from remikit.actions import FixedAction, Pass, kind_of, register_kind
from remikit.engine import Game
from remikit.kinds import TokenSection
from remikit.variants import VARIANTS, find_playable, find_variant, playable, register
from remikit.variants.gin.scoring import GinScorer
from remikit.variants.spec import OPTIONAL_PARTS, PARTS, Scorer, VariantSpec


@pytest.mark.parametrize("spec", list(VARIANTS.values()), ids=lambda s: s.name)
def test_every_part_of_every_variant_resolves(spec: VariantSpec) -> None:
    assert set(spec.titles) == {"en", "id"}
    assert spec.scorer is None or isinstance(spec.scorer, Scorer)
    assert set(spec.parts) <= {*PARTS, *OPTIONAL_PARTS}
    if spec.playable:
        game = spec.game_class()
        assert issubclass(game, Game) and game.name == spec.name
        assert set(PARTS) <= set(spec.parts), f"{spec.name} lacks a front-end part"
    for part in (p for p in (*PARTS, *OPTIONAL_PARTS) if p in spec.parts):
        assert callable(spec.part(part)), f"{spec.name}: {part} does not resolve"
    for name in spec.names():
        assert find_variant(name.upper()) is spec


def test_a_missing_part_fails_loudly() -> None:
    spec = VariantSpec(
        "x",
        (),
        "variant.remi13d",
        parts={"greedy": "remikit.variants.remi13d.greedy:NoSuchStrategy"},
    )
    with pytest.raises(AttributeError):
        spec.part("greedy")
    with pytest.raises(LookupError):
        spec.part("tactics")


def test_names_and_aliases_are_unique() -> None:
    with pytest.raises(ValueError, match="already taken: 500"):
        register(VariantSpec("other", ("500",), "variant.rummy500"))
    assert "other" not in VARIANTS


def test_a_scored_only_variant_plays_at_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    scored = VariantSpec(name="scored", aliases=(), title_key="variant.gin", scorer=GinScorer())
    monkeypatch.setitem(VARIANTS, "scored", scored)
    assert find_variant("scored").scorer is not None
    assert "scored" not in [s.name for s in playable()]
    with pytest.raises(ValueError, match="for a table"):
        find_playable("scored")


def test_every_kind_of_action_is_registered_under_its_verb() -> None:
    """Each variant's kinds of action read back from their verbs; a verb is taken once;
    a token section is the same wherever two kinds share it, and has its own place."""
    sections: dict[str, TokenSection] = {}
    for spec in playable():
        for kind in spec.game_class().deal_type.phases:
            assert kind_of(kind.verb) is kind
            for section in kind.sections:
                assert sections.setdefault(section.name, section) == section
    assert len({s.order for s in sections.values()}) == len(sections)
    with pytest.raises(ValueError, match="'pass' is taken by Pass"):

        @register_kind
        @dataclass(frozen=True)
        class Other(FixedAction):
            verb: ClassVar[str] = "pass"

    assert kind_of("pass") is Pass


def test_the_core_imports_no_front_end() -> None:
    """Importing the engine, every variant and the records loads no bot, terminal, server,
    storage, Rich, FastAPI or SQLAlchemy module (import-linter checks the modules; this
    checks the variant packages' own ``__init__``)."""
    code = (
        "import sys, remikit, remikit.variants, remikit.records, remikit.engine\n"
        "bad = ('remikit.bots', 'remikit.cli', 'remikit.server', 'remikit.storage',"
        " 'rich', 'fastapi', 'sqlalchemy')\n"
        "print([m for m in sys.modules if m.startswith(bad)])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
