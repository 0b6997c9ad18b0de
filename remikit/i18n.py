"""The message catalogue: one gettext catalogue per language, for every front end.

The texts live in ``remikit/locale/<lang>/LC_MESSAGES/remikit.po`` (compiled to
``remikit.mo``, which is what is read here, with the standard library's :mod:`gettext`).
A message id is a stable key (``play.went_out``; an illegal action's reason key, such as
``not_your_turn``, is its own id) and every language, English too, translates it; ``{name}``
fields are filled in by :func:`t` with :meth:`str.format`, and :func:`tn` picks the plural
form for a count. docs/translating.md tells how to add a language or a message.

>>> t("score.points", "id")
'Poin'
>>> t("score.bad_round", "en", round="12")
'a round is 1 to 11, not 12'
>>> tn("table.cards_n", 1, "en"), tn("table.cards_n", 3, "en"), tn("table.cards_n", 3, "id")
('1 card', '3 cards', '3 kartu')
"""

from __future__ import annotations

import gettext
import json
import math
import os
from functools import cache
from pathlib import Path

DOMAIN = "remikit"
LOCALE_DIR = Path(__file__).with_name("locale")
SOURCE_LANG = "en"
"""The language every other one falls back to for a message it lacks."""


def _languages() -> tuple[str, ...]:
    found = sorted(
        path.name
        for path in LOCALE_DIR.iterdir()
        if (path / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()
    )
    # Indonesian first: the tables this is for speak it.
    return tuple(sorted(found, key=lambda code: (code != "id", code)))


LANGUAGES: tuple[str, ...] = _languages()
"""The languages with a compiled catalogue (a folder of ``remikit/locale``)."""


class _Added(gettext.NullTranslations):
    """Messages a variant package outside remikit brings (:func:`add_messages`)."""

    def __init__(self, texts: dict[str, str]) -> None:
        super().__init__()
        self.texts = texts

    def gettext(self, message: str) -> str:
        found = self.texts.get(message)
        return found if found is not None else super().gettext(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        found = self.texts.get(msgid1)
        return found if found is not None else super().ngettext(msgid1, msgid2, n)


_ADDED: dict[str, dict[str, str]] = {}
"""Messages added by :func:`add_messages`, by language."""


def add_messages(texts: dict[str, dict[str, str]]) -> None:
    """Add messages by language (``{"en": {key: text}, "id": {key: text}}``): how a variant
    package that lives outside remikit brings the texts its spec and parts name. A key the
    catalogue already has keeps the catalogue's text."""
    for lang, entries in texts.items():
        _ADDED.setdefault(lang, {}).update(entries)
    catalogue.cache_clear()


def N_(key: str) -> str:
    """Mark ``key`` as a message id where it is data (a variant's hint, a table of keys),
    so that extraction finds it; :func:`t` translates it where it is shown."""
    return key


@cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang``, falling back to English for what it lacks (and
    to English altogether for a language without a catalogue)."""
    source = gettext.translation(DOMAIN, LOCALE_DIR, languages=[SOURCE_LANG])
    source.add_fallback(_Added(_ADDED.get(SOURCE_LANG, {})))
    if lang == SOURCE_LANG or lang not in LANGUAGES:
        return source
    found = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])
    found.add_fallback(_Added(_ADDED.get(lang, {})))
    found.add_fallback(source)  # after the added texts of ``lang``
    return found


def t(key: str, lang: str, /, **kw: object) -> str:
    """The message ``key`` in ``lang`` (English when it has no such text), fields filled in."""
    return catalogue(lang).gettext(key).format(**kw)


def tn(key: str, n: int, lang: str, /, **kw: object) -> str:
    """The message ``key`` in the plural form ``lang`` uses for ``n`` things; ``{n}``
    is ``n`` unless a field says otherwise."""
    return catalogue(lang).ngettext(key, key, n).format(**({"n": n} | kw))


def plural_rule(lang: str) -> str:
    """The C expression of the catalogue's Plural-Forms header: which form ``n`` takes."""
    forms = catalogue(lang).info().get("plural-forms", "nplurals=2; plural=(n != 1);")
    rule = forms.split("plural=", 1)[1].strip().rstrip(";").strip()
    return rule


def messages(lang: str) -> dict[str, str | list[str]]:
    """Every message of ``lang`` (English where it has none): a text, or a list of plural
    forms in the order of :func:`plural_rule`. What the browser is sent."""
    out: dict[str, str | list[str]] = {}
    for code in dict.fromkeys((SOURCE_LANG, lang)):
        if code not in LANGUAGES:
            continue
        out.update(_ADDED.get(code, {}))
        compiled = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code])
        entries: dict[str | tuple[str, int], str] = vars(compiled)["_catalog"]  # every message
        forms: dict[str, dict[int, str]] = {}
        for msgid, text in entries.items():
            if isinstance(msgid, tuple):
                forms.setdefault(msgid[0], {})[msgid[1]] = text
            elif msgid:  # not the header
                out[msgid] = text
        for key, texts in forms.items():
            out[key] = [texts[index] for index in sorted(texts)]
    return out


def messages_json(lang: str) -> str:
    """:func:`messages` with the plural rule and the languages, as the browser loads them."""
    code = lang if lang in LANGUAGES else SOURCE_LANG
    body = {
        "lang": code,
        "languages": list(LANGUAGES),
        "plural": plural_rule(code),
        "messages": messages(code),
    }
    return json.dumps(body, ensure_ascii=False, sort_keys=True)


_BRIEF = 20
_MAX_SHOWN_BITS = 14_000  # about 4200 digits, within what str() of an int converts


def brief(value: object) -> str:
    """A value as a message quotes it: in JSON's spelling, cut short when long, so that a
    refusal of a huge number or a long text stays readable.

    >>> brief(True), brief(3.7), brief("3"), brief(None), brief([1, 2])
    ('true', '3.7', '"3"', 'null', '[…]')
    >>> brief(10**50), brief(-(10**9000))
    ('10000000000000000000…', '-~1e9000')
    """
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        if value.bit_length() > _MAX_SHOWN_BITS:  # more digits than str() converts
            return f"{'-' if value < 0 else ''}~1e{int(value.bit_length() * math.log10(2))}"
        text = str(value)
    elif isinstance(value, float):
        text = repr(value)
    elif isinstance(value, str):
        text = json.dumps(value[: _BRIEF + 1], ensure_ascii=False)
    elif isinstance(value, list | tuple):
        text = "[…]"
    elif isinstance(value, dict):
        text = "{…}"
    else:
        text = type(value).__name__
    return text if len(text) <= _BRIEF else text[:_BRIEF] + "…"


def default_lang() -> str:
    """The locale's language (LC_ALL, LC_MESSAGES, LANG) where it has a catalogue, else ``en``."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return pick_lang(value)
    return SOURCE_LANG


def pick_lang(value: str | None) -> str:
    """A language of :data:`LANGUAGES` from a ``lang`` parameter, a locale name or an
    Accept-Language header; English for anything else (``in`` is Indonesian's old code).

    >>> pick_lang("id-ID,id;q=0.9,en;q=0.8"), pick_lang("en-US"), pick_lang(None)
    ('id', 'en', 'en')
    >>> pick_lang("id_ID.UTF-8"), pick_lang("in"), pick_lang("fr")
    ('id', 'id', 'en')
    """
    code = (value or "").strip().lower()[:2]
    code = "id" if code == "in" else code
    return code if code in LANGUAGES else SOURCE_LANG
