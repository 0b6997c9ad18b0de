"""The one message catalogue (remikit/locale, docs/translating.md): every language has
every message with the English text's fields, the code uses exactly the messages the
catalogue holds (as Babel's extractor finds them with babel.cfg), no message id is built
at run time, and the compiled .mo files are those of the .po files."""

from __future__ import annotations

import io
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from remikit.errors import IllegalAction, Reason
from remikit.i18n import LANGUAGES, LOCALE_DIR, messages, pick_lang, t, tn
from remikit.server.app import create_app
from remikit.server.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "remikit" / "server" / "static"
SOURCES = [*sorted((ROOT / "remikit").rglob("*.py")), *sorted(STATIC.rglob("*.js"))]


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "remikit.po"


def read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def entries(catalog: Catalog) -> Iterator[tuple[str, bool, tuple[str, ...]]]:
    """Each message of a catalogue: its id, whether it has plural forms, its texts."""
    for message in catalog:
        if not message.id:
            continue  # the header
        plural = isinstance(message.id, tuple | list)
        key = message.id[0] if plural else message.id
        texts = message.string if isinstance(message.string, tuple | list) else (message.string,)
        yield str(key), plural, tuple(str(text or "") for text in texts)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def extracted() -> dict[str, bool]:
    """Every message id the code uses, as `make messages` extracts it: id → plural."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    found: dict[str, bool] = {}
    for _, _, message, _, _ in extract_from_dir(str(ROOT), method_map, options_map):
        key = message[0] if isinstance(message, tuple) else message
        found[key] = found.get(key, False) or isinstance(message, tuple)
    return found


@pytest.fixture(scope="module")
def used() -> dict[str, bool]:
    return extracted()


def test_the_languages_are_the_locale_folders() -> None:
    folders = {p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/remikit.po")}
    assert set(LANGUAGES) == folders >= {"en", "id"}
    assert pick_lang("id") == "id" and pick_lang("xx") == "en"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_has_a_text_in_every_language(lang: str) -> None:
    catalog = read(po_path(lang))
    assert not [m.id for m in catalog if m.id and m.fuzzy], "fuzzy messages are not used"
    empty = [key for key, _, texts in entries(catalog) if not all(texts)]
    assert not empty, f"{lang}: no text for {empty}"
    assert set(messages(lang)) == set(messages("en"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_says_itself_twice(lang: str) -> None:
    doubled = [
        key
        for key, _, texts in entries(read(po_path(lang)))
        for text in texts
        if re.fullmatch(r"(.{10,}?)\s?\1", text, re.S)
    ]
    assert not doubled, f"{lang}: the text is there twice in {doubled}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_the_english_fields(lang: str) -> None:
    english = {key: texts for key, _, texts in entries(read(po_path("en")))}
    for key, _, texts in entries(read(po_path(lang))):
        wanted = set().union(*(fields(text) for text in english[key]))
        for text in texts:
            assert fields(text) == wanted, f"{lang} {key}: {text!r} has not the fields {wanted}"


def test_the_code_uses_every_message_and_only_those(used: dict[str, bool]) -> None:
    for path in [LOCALE_DIR / "remikit.pot", *map(po_path, LANGUAGES)]:
        defined = {key: plural for key, plural, _ in entries(read(path))}
        name = path.relative_to(ROOT)
        assert not set(used) - set(defined), (
            f"used, not in {name}: {sorted(set(used) - set(defined))}"
        )
        assert not set(defined) - set(used), (
            f"in {name}, unused: {sorted(set(defined) - set(used))}"
        )
        wrong = sorted(key for key in used if used[key] != defined[key])
        assert not wrong, (
            f"{name}: plural forms where the code wants none, or none where it does: {wrong}"
        )


def test_plural_messages_have_every_form() -> None:
    for lang in LANGUAGES:
        catalog = read(po_path(lang))
        for key, plural, texts in entries(catalog):
            assert not plural or len(texts) == catalog.num_plurals, (lang, key)
    assert tn("table.cards_n", 1, "en") == "1 card"
    assert tn("table.cards_n", 2, "en") == "2 cards"
    assert tn("table.cards_n", 1, "id") == "1 kartu" and tn("table.cards_n", 5, "id") == "5 kartu"
    assert messages("id")["table.cards_n"] == ["{n} kartu"]


# A message id passed to a keyword of babel.cfg must be a literal: no f-string, no
# concatenation, no template literal, no %-formatting; and nowhere is a text that starts
# like a message id (a namespace of the catalogue and a dot) completed at run time.
def keywords() -> set[str]:
    """The functions babel.cfg names as taking a message id, in any language."""
    with (ROOT / "babel.cfg").open() as f:
        _, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    return {name for options in options_map.values() for name in options.get("keywords", {})}


KEYWORDS = r"\b(?:" + "|".join(sorted(keywords() - {"Problem"})) + ")"
SPACES = "|".join(sorted({key.split(".")[0] for key in messages("en") if "." in key}))
BUILT = [
    re.compile(KEYWORDS + r"\(\s*[rbu]?f['\"]"),  # t(f"play.{x}")
    re.compile(KEYWORDS + r"\(\s*['\"][^'\"]*['\"]\s*[+%]"),  # t("level." + base)
    re.compile(KEYWORDS + r"\(\s*\w+\s*\+"),  # t(key + "_deal")
    re.compile(KEYWORDS + r"\(\s*`"),  # t(`opt.${name}`)
    re.compile(r"\bProblem\([^()]*?,\s*(?:f['\"]|['\"][^'\"]*['\"]\s*\+|`)"),
    re.compile(rf"\bf[\"']({SPACES})\.[\w.]*\{{"),  # f"end.by.{how}" anywhere
    re.compile(rf"[\"'`]({SPACES})\.[\w.]*[\"'`]\s*\+"),  # "level." + base anywhere
    re.compile(rf"`({SPACES})\.[\w.]*\$\{{"),  # `pos.${zone}` anywhere
]


def built_keys(text: str) -> list[str]:
    return [m.group(0) for pattern in BUILT for m in pattern.finditer(text)]


def test_the_check_catches_built_keys() -> None:
    for built in (
        't(f"meld.{kind}", lang)',
        "t(key + ('_deal' if x else ''), lang)",
        't("level." + base)',
        "t(`opt.${option.name}`)",
        "message(`optval.${c}`, c)",
        'key = f"end.by.{summary.ended_by}"',
        'Problem("bad", f"server.{why}")',
        'IllegalAction(f"{kind}_refused")',
    ):
        assert built_keys(built), built
    for literal in (
        't("meld.set", lang, size=3)',
        "t(KINDS[kind], lang)",
        'N_("opt.players")',
        "`remikit.token.${code}`",  # a storage key, not a message
    ):
        assert not built_keys(literal), literal


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_message_id_is_built_at_run_time(path: Path) -> None:
    assert not built_keys(path.read_text()), f"{path.name} builds message ids"


def test_the_pattern_files_are_found() -> None:
    names = {p.name for p in SOURCES}
    assert {"i18n.py", "errors.py", "board.js", "lobby.js", "i18n.js"} <= names


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalogues_are_up_to_date(lang: str) -> None:
    """`make catalogues` has been run: the .mo is what compiling the .po gives."""
    compiled = io.BytesIO()
    write_mo(compiled, read(po_path(lang)))
    committed = (po_path(lang).with_suffix(".mo")).read_bytes()
    assert compiled.getvalue() == committed, f"run make catalogues ({lang})"


def test_texts_come_from_the_catalogue() -> None:
    assert t("no.such.message", "id") == "no.such.message"
    assert t("score.points", "xx") == t("score.points", "en")
    refused = IllegalAction("close_refused", why=Reason("reason.dead_cards", dead="7♥"))
    assert refused.text("id") == "tidak bisa tutup: masih ada kartu mati (7♥)"
    assert str(refused) == "cannot close: not every card is in a meld (dead: 7♥)"


def test_the_browser_gets_the_catalogue_from_the_server(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'remikit.db'}"))
    with TestClient(app) as client:
        body = client.get("/api/messages", params={"lang": "id"}).json()
        assert body["lang"] == "id" and body["languages"] == list(LANGUAGES)
        assert body["plural"] == "0" and body["messages"] == messages("id")
        assert body["messages"]["btn.discard"] == "Buang"
        english = client.get("/api/messages", params={"lang": "en"}).json()
        assert english["plural"] == "(n != 1)"
        assert english["messages"]["table.cards_n"] == ["{n} card", "{n} cards"]
        assert client.get("/api/messages", params={"lang": "xx"}).json()["lang"] == "en"
