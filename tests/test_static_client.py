"""The browser client names no variant: what a variant's table looks like comes from its
:class:`~remikit.variants.spec.ClientInfo` (``client`` in /api/variants and the table
object), its options' labels from the options, the deck a fair deal is checked with from
the server (fairness.js included), and every message key that info names is in the
catalogue and named as a literal by the scripts (the browser's catalogue is the server's,
from /api/messages)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from remikit.i18n import messages
from remikit.variants import VARIANTS, VariantSpec, playable

STATIC = Path(__file__).resolve().parent.parent / "remikit" / "server" / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))
CANONICAL = ("remi13d", "rummy500", "three-thirteen", "gin")
NAMES = {name for spec in VARIANTS.values() for name in spec.names()} | set(CANONICAL)

COMMENT = re.compile(r"/\*.*?\*/|(?<![:\\])//[^\n]*", re.S)
STRING = re.compile(r"""(["'`])((?:\\.|(?!\1).)*)\1""")
WORD = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, CANONICAL)) + r")(?![\w-])")
COMPARE = re.compile(r"""\b(?:variant|info\.name|view\.variant)\s*[!=]==?\s*["'`]""")


def code_of(path: Path) -> str:
    """The script without its comments (which may name variants)."""
    return COMMENT.sub("", path.read_text())


def test_the_scripts_are_found() -> None:
    assert {p.name for p in SCRIPTS} >= {
        "board.js",
        "lobby.js",
        "replay.js",
        "scores.js",
        "table.js",
    }


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_no_script_branches_on_a_variant_name(path: Path) -> None:
    code = code_of(path)
    named = [m.group(0) for m in WORD.finditer(code)]
    assert not named, f"{path.name} names variants: {named}"
    literals = [m.group(2) for m in STRING.finditer(code) if m.group(2).lower() in NAMES]
    assert not literals, f"{path.name} has variant names as strings: {literals}"
    compared = [m.group(0) for m in COMPARE.finditer(code)]
    assert not compared, f"{path.name} compares a variant with a literal: {compared}"


def test_the_check_catches_a_branch() -> None:
    branch = 'if (view.variant === "rummy500") x(); const y = t(`deal.three-thirteen`);'
    assert WORD.findall(branch) == ["rummy500", "three-thirteen"]
    assert COMPARE.search(branch)
    assert not WORD.search(COMMENT.sub("", 't("table.deal.round"); // three-thirteen'))


def catalogue() -> set[str]:
    """The message ids in the catalogue that the scripts name as string literals."""
    code = "".join(code_of(path) for path in SCRIPTS)
    return {key for key in messages("en") if f'"{key}"' in code}


@pytest.mark.parametrize("spec", playable(), ids=lambda s: s.name)
def test_client_info_names_real_options_and_known_messages(spec: VariantSpec) -> None:
    client = spec.client
    assert client is not None, f"{spec.name} is playable but has no client info"
    options = {o.name: o for o in spec.game_class().options_type.describe()}
    assert set(client.options) <= set(options)
    assert len(set(client.options)) == len(client.options)
    if isinstance(client.length, str):
        assert options[client.length].kind == "integer"
    else:
        assert client.length > 0
    if client.calls_option is not None:
        assert options[client.calls_option].kind == "boolean"
    assert len(client.wild_ranks) in (0, client.length)
    keys = catalogue()
    wanted = {
        f"table.deal.{client.deal}",
        f"end.deal_over.{client.deal}",
        f"scores.deal_word.{client.deal}",
    }
    assert wanted <= keys, f"missing in the scripts or the catalogue: {sorted(wanted - keys)}"
    hints = {client.draw_hint, client.discard_hint}  # named by the client info itself
    assert hints <= set(messages("en")), f"missing in the catalogue: {sorted(hints)}"


@pytest.mark.parametrize("spec", playable(), ids=lambda s: s.name)
def test_every_option_declares_its_labels(spec: VariantSpec) -> None:
    """Each option names its label, and each choice of a string option its own, with the
    option (``label``, ``choice_labels`` in /api/variants): the scripts keep none."""
    catalogue = set(messages("en"))
    for option in spec.options():
        assert option.label in catalogue, f"{spec.name} {option.name}: no label"
        if option.kind == "string" and option.choices:
            assert option.choice_labels is not None, f"{spec.name} {option.name}"
            assert len(option.choice_labels) == len(option.choices)
            assert set(option.choice_labels) <= catalogue
    code = "".join(code_of(path) for path in SCRIPTS)
    assert '"opt.' not in code and '"optval.' not in code, "a script keeps option labels"


def test_options_come_in_the_client_order_then_the_rest() -> None:
    for spec in playable():
        assert spec.client is not None
        names = [o.name for o in spec.options()]
        listed = [n for n in names if n in spec.client.options]
        assert names[: len(listed)] == list(spec.client.options)
        declared = [o.name for o in spec.game_class().options_type.describe()]
        rest = [n for n in declared if n not in spec.client.options]
        assert names[len(listed) :] == rest


PARSED = re.compile(r"""\b(?:legal_actions|view\.log|my_call\.split|\.log\s*\|\|)""")


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_no_script_parses_action_text(path: Path) -> None:
    """Log entries and legal actions are read in their structured form (``plays``,
    ``legal``); the record text is only sent back or shown as is."""
    parsed = [m.group(0) for m in PARSED.finditer(code_of(path))]
    assert not parsed, f"{path.name} reads action text: {parsed}"


def test_the_parse_check_catches_a_text_log() -> None:
    assert PARSED.search("describeLog(view.log || [], nameOf)")
    assert PARSED.search("new Set(view.legal_actions)")
