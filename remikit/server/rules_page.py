"""The rules page of each variant (``/rules/{variant}?lang=..&table=CODE``).

The page is docs/rules.md (English) or docs/rules.id.md (Indonesian, the same sections
and rule ids), shipped inside the package as ``remikit/server/rules/`` (links to the
docs): the common ground (section 0), the variant's section, and the worked examples
of its rules. Every rule id becomes an anchor (``#R5-14``), and a mention of a rule
id a link to it. With ``table``, the table's options head the page with their values
and the rules they change are marked. The page has no script.
"""

from __future__ import annotations

import re
from functools import cache
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from markdown_it.token import Token

from remikit.i18n import N_, t
from remikit.server.problems import Problem, pick_lang
from remikit.variants import VARIANTS, VariantSpec, find_variant

if TYPE_CHECKING:
    from remikit.engine import OptionInfo

RULES_DIR = Path(__file__).resolve().parent / "rules"
FILES = {"en": "rules.md", "id": "rules.id.md"}
SECTIONS = {v.name: v.rules_section for v in VARIANTS.values() if v.rules_section is not None}
"""The section of docs/rules.md that holds each variant's rules."""
PREFIXES = {v.name: v.rule_prefix for v in VARIANTS.values() if v.rule_prefix is not None}
COMMON, EXAMPLES = "0", "5"

_IDS = "|".join(re.escape(prefix) for prefix in PREFIXES.values())
RULE_ID = re.compile(rf"\b(?:{_IDS})\d+\b")
LEADING_RULE = re.compile(rf"^\*\*((?:{_IDS})\d+)\b")
HEADING = re.compile(r"^## (\d+)\. ", re.MULTILINE)

router = APIRouter()


@cache
def sections(lang: str) -> dict[str, str]:
    """The ``## N.`` sections of the rules text in ``lang``, by number."""
    text = (RULES_DIR / FILES[lang]).read_text(encoding="utf-8")
    marks = list(HEADING.finditer(text))
    return {
        m.group(1): text[m.start() : marks[i + 1].start() if i + 1 < len(marks) else len(text)]
        for i, m in enumerate(marks)
    }


def variant_text(variant: str, lang: str) -> str:
    """The Markdown of one variant's page: section 0, its section, its worked examples."""
    parts = sections(lang)
    out = [parts[COMMON], parts[SECTIONS[variant]]]
    heading, _, body = parts[EXAMPLES].partition("\n")
    items = re.split(r"\n(?=- )", body.strip())
    mine = [i for i in items if i.startswith("- " + PREFIXES[variant])]
    if mine:
        out.append(heading + "\n\n" + "\n".join(mine) + "\n")
    return "\n".join(out)


@cache
def rule_pages(lang: str) -> dict[str, str]:
    """Each rule id of the rules text and the page it is on (``/rules/rummy500?lang=id``)."""
    prefixes = {prefix: variant for variant, prefix in PREFIXES.items()}
    found = re.findall(rf"^- \*\*((?:{_IDS})\d+)\b", "\n".join(sections(lang).values()), re.M)
    return {rule: f"/rules/{prefixes[rule.split('-')[0] + '-']}?lang={lang}" for rule in found}


def _link_rule_ids(inline: Token, here: str, pages: dict[str, str]) -> None:
    """Turn each rule id in the text of ``inline`` into a link to its anchor, on this page
    (``here``) or another variant's; an id the rules do not define stays text."""
    children: list[Token] = []
    for child in inline.children or []:
        if child.type != "text" or not RULE_ID.search(child.content):
            children.append(child)
            continue
        at = 0
        for found in RULE_ID.finditer(child.content):
            rule = found.group()
            if rule not in pages:
                continue
            if found.start() > at:
                children.append(_text(child.content[at : found.start()]))
            page = "" if pages[rule] == here else pages[rule]
            link = Token("link_open", "a", 1, attrs={"href": f"{page}#{rule}"})
            children += [link, _text(found.group()), Token("link_close", "a", -1)]
            at = found.end()
        if at < len(child.content):
            children.append(_text(child.content[at:]))
    inline.children = children


def _text(content: str) -> Token:
    return Token("text", "", 0, content=content)


def render(variant: str, lang: str, marks: dict[str, str]) -> str:
    """The HTML of the variant's rules: each rule's list item gets its id as an anchor;
    those in ``marks`` (rule id → the table's options on it, as HTML) are marked with
    them."""
    markdown = variant_text(variant, lang)
    pages, here = rule_pages(lang), f"/rules/{variant}?lang={lang}"
    md = MarkdownIt("commonmark", {"html": False})
    tokens = md.parse(markdown)
    for i, token in enumerate(tokens):
        if token.type != "inline":
            continue
        found = LEADING_RULE.match(token.content)
        if found and i >= 2 and tokens[i - 2].type == "list_item_open":
            rule = found.group(1)
            item = tokens[i - 2]
            item.attrSet("id", rule)
            if rule in marks:
                item.attrSet("class", "rule table-option")
                note = Token("html_inline", "", 0, content=marks[rule])
                token.children = [*(token.children or []), note]
            else:
                item.attrSet("class", "rule")
        _link_rule_ids(token, here, pages)
    html: str = md.renderer.render(tokens, md.options, {})
    return html


def value_text(option: OptionInfo, value: Any, lang: str) -> str:
    """An option's value as the lobby words it: on or off, its choice's label, or as it is."""
    if isinstance(value, bool):
        return t(N_("play.on"), lang) if value else t(N_("play.off"), lang)
    labels = dict(zip(option.choices or (), option.choice_labels or (), strict=False))
    return t(labels[value], lang) if value in labels else str(value)


def option_marks(
    variant: VariantSpec, values: dict[str, Any], lang: str
) -> tuple[str, dict[str, str]]:
    """The list of a table's options (HTML) and, per rule id, the options it is marked with."""
    rules = variant.option_rules
    defaults = {o.name: o.default for o in variant.options()}
    rows: list[str] = []
    marks: dict[str, str] = {}
    for option in variant.options():
        name = option.name
        value = values.get(name, option.default)
        label = escape(t(option.label, lang) if option.label else name)
        shown = escape(value_text(option, value, lang))
        changed = " changed" if value != defaults[name] else ""
        rule = rules.get(name, (None, ""))[0]
        where = f' <a href="#{rule}">{rule}</a>' if rule else ""
        rows.append(f'<li class="option{changed}"><b>{label}</b>: {shown}{where}</li>')
        if rule:
            tag = f'<span class="option-tag{changed}">{label}: {shown}</span>'
            marks[rule] = marks.get(rule, ' <span class="rule-options">') + tag
    marks = {rule: html + "</span>" for rule, html in marks.items()}
    return '<ul class="table-options">' + "".join(rows) + "</ul>", marks


def page(variant: VariantSpec, lang: str, table: dict[str, Any] | None) -> str:
    """The whole rules page."""
    title = escape(t(N_("rules.title"), lang, variant=variant.title(lang)))
    query = f"&table={escape(table['id'])}" if table else ""
    other = "en" if lang == "id" else "id"
    back = escape(t(N_("rules.back_table"), lang))
    bar = [
        '<a class="home" href="/">remikit</a>',
        f'<a id="back-to-table" href="/table/{escape(table["id"])}">{back}</a>' if table else "",
        f'<a class="lang-link" hreflang="{other}" lang="{other}" '
        f'href="/rules/{variant.name}?lang={other}{query}">{escape(t("lang.switch", lang))}</a>',
    ]
    options_html, marks = "", dict[str, str]()
    if table is not None:
        listed, marks = option_marks(variant, table["options"], lang)
        head = escape(t(N_("rules.table_options"), lang, table=table["id"]))
        options_html = f'<section class="card-box table-box"><h2>{head}</h2>{listed}</section>'
    body = render(variant.name, lang, marks)
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="manifest" href="../manifest.webmanifest">
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/rules.css">
</head>
<body class="rules-page">
<header class="topbar">{"".join(bar)}</header>
<main class="rules">
<h1>{title}</h1>
{options_html}
<article class="rules-text">{body}</article>
</main>
</body>
</html>
"""


@router.get("/rules/{name}", include_in_schema=False)
async def rules_page(request: Request, name: str) -> HTMLResponse:
    """A variant's rules in the language asked for, with a table's options marked."""
    lang = pick_lang(request.query_params.get("lang") or request.headers.get("accept-language"))
    try:
        variant = find_variant(name)
    except ValueError:
        variant = None
    if variant is None or variant.name not in SECTIONS:
        names = ", ".join(sorted(SECTIONS))
        raise Problem("bad_variant", "server.bad_variant", status=404, variant=name, variants=names)
    table = None
    code = request.query_params.get("table")
    if code:
        stored = await request.app.state.hub.stored(code)
        if stored.variant != variant.name:
            raise Problem("unknown_table", "server.unknown_table", status=404, table=code)
        options = variant.game_class().options_type.from_mapping(stored.options).as_dict()
        table = {"id": stored.id, "options": options}
    return HTMLResponse(page(variant, lang, table))
