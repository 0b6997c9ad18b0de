"""Nothing outside remikit/variants/ names a variant: no import of a variant's package, no
variant name or alias as a string in code (docstrings and comments aside), in Python and
in the browser's scripts."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from remikit.variants import VARIANTS

ROOT = Path(__file__).resolve().parent.parent / "remikit"
PACKAGES = {spec.game_class().__module__.split(".")[2] for spec in VARIANTS.values() if spec.playable}
NAMES = {name for spec in VARIANTS.values() for name in spec.names()}


def _outside_variants(pattern: str) -> list[Path]:
    return sorted(p for p in ROOT.rglob(pattern) if "variants" not in p.relative_to(ROOT).parts)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _python_mentions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom | ast.Import):
            modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            names = [a.name for a in node.names] if isinstance(node, ast.ImportFrom) else []
            for module in modules:
                parts = module.split(".")
                if parts[:2] == ["remikit", "variants"] and (
                    len(parts) > 2 and parts[2] in PACKAGES or set(names) & PACKAGES
                ):
                    found.append(f"line {node.lineno}: imports {module}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if node.value.lower() in NAMES:
                found.append(f"line {node.lineno}: {node.value!r}")
    return found


@pytest.mark.parametrize("path", _outside_variants("*.py"), ids=lambda p: str(p.relative_to(ROOT)))
def test_python_outside_variants_names_no_variant(path: Path) -> None:
    assert _python_mentions(path) == []


COMMENT = re.compile(r"^\s*(//.*|/?\*.*)$|\s//.*$", re.M)
"""A comment: a line of ``// …`` or of a ``/** … */`` block, or ``// …`` after code."""
WORD = re.compile(r"(?<![\w.-])[A-Za-z0-9_-]+(?![\w-])")


@pytest.mark.parametrize("path", _outside_variants("*.js"), ids=lambda p: str(p.relative_to(ROOT)))
def test_scripts_name_no_variant(path: Path) -> None:
    code = COMMENT.sub("", path.read_text())
    words = NAMES - {name for name in NAMES if name.isdigit()}  # "500" is also a number
    assert [w for w in WORD.findall(code) if w.lower() in words] == []
