"""The variant registry: every registered variant's parts resolve, names are unique, the
core imports no front end, and no module outside remikit/variants/ names a variant."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
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


# -- nothing outside remikit/variants/ names a variant ------------------------------------

ROOT = Path(__file__).resolve().parent.parent / "remikit"


def variant_names_in(path: Path) -> list[str]:
    """Where ``path`` imports a variant's package or names a variant in a string that is
    no docstring (a table keyed by variant, a branch on one, a lookup of one)."""
    packages = {p.name for p in (ROOT / "variants").iterdir() if (p / "__init__.py").exists()}
    names = {name for spec in VARIANTS.values() for name in spec.names()}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        imported: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module == "remikit.variants":
            imported = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported = [node.module]
        elif isinstance(node, ast.Import):
            imported = [alias.name for alias in node.names]
        for module in imported:
            parts = module.split(".")
            package = (
                parts[2] if parts[:2] == ["remikit", "variants"] and len(parts) > 2 else module
            )
            if package in packages:
                found.append(f"line {line}: imports {package}")
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value.lower() in names
            and id(node) not in docstrings
        ):
            found.append(f"line {line}: {node.value!r}")
    return found


def outside_the_variants() -> list[Path]:
    return [p for p in sorted(ROOT.rglob("*.py")) if p.relative_to(ROOT).parts[0] != "variants"]


@pytest.mark.parametrize(
    "path",
    outside_the_variants(),
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_no_module_outside_the_variants_names_one(path: Path) -> None:
    """A variant lives in its own package: the lists of variants (the environments, the
    Gymnasium ids, ``remi score``, ``remi openspiel``, the browser's decks and option
    labels) are read from the registry, never written out."""
    assert variant_names_in(path) == []


def test_the_check_finds_a_table_a_branch_and_an_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        '"""Docs may say gin."""\n'
        "from remikit.variants.gin.rules import GinGame\n"
        "import remikit.variants.rummy500.melds\n"
        'IDS = {"three-thirteen": 1}\n'
        'def f(v):\n    """remi13d"""\n    return v == "500"\n'
    )
    assert variant_names_in(module) == [
        "line 2: imports gin",
        "line 3: imports rummy500",
        "line 4: 'three-thirteen'",
        "line 7: '500'",
    ]


COMMENT = re.compile(r"^\s*(//.*|/?\*.*)$|\s//.*$", re.M)
"""A comment: a line of ``// …`` or of a ``/** … */`` block, or ``// …`` after code."""
WORD = re.compile(r"(?<![\w.-])[A-Za-z0-9_-]+(?![\w-])")


@pytest.mark.parametrize(
    "path", sorted((ROOT / "server" / "static").rglob("*.js")), ids=lambda p: p.name
)
def test_no_browser_script_names_a_variant(path: Path) -> None:
    """The browser draws every table from what ``/api/variants`` and the states say."""
    names = {name for spec in VARIANTS.values() for name in spec.names() if not name.isdigit()}
    code = COMMENT.sub("", path.read_text(encoding="utf-8"))
    assert [word for word in WORD.findall(code) if word.lower() in names] == []
