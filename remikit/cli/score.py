"""``remi score``: the score calculator of CONTRACT.md, for a referee and for checks.

>>> import json
>>> request = Request("remi13d", parse_hand("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk", "en"),
...                   closing=parse_hand("Ah", "en")[0])
>>> json.dumps(as_json(score(request)))  # doctest: +ELLIPSIS
'{"variant": "remi13d", "points": 135, "can_close": true, "melds": [...], "dead": []}'
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO, cast

from remikit.cards import Card, CardError
from remikit.i18n import LANGUAGES, N_, default_lang, t
from remikit.melds import PURE_RUN_CHOICES, Meld, meld_name_key
from remikit.variants import find_scored, find_variant, scored
from remikit.variants.spec import Scored, ScoreInputError, Scorer


class InputError(ValueError):
    """Input that names no scorable hand; the message is in the user's language."""


@dataclass(frozen=True)
class Request:
    """One hand to score."""

    variant: str
    hand: list[Card]
    closing: Card | None = None
    round_no: int | None = None
    ace: str | None = None
    pure_run: str | None = None


def as_json(result: Scored) -> dict[str, object]:
    """The ``--json`` object of CONTRACT.md."""
    out: dict[str, object] = {
        "variant": result.variant,
        "points": result.points,
        "can_close": result.can_close,
        "melds": [m.tokens() for m in result.melds],
        "dead": [str(c) for c in result.dead],
    }
    if result.refusal is not None:
        out["reason"] = result.refusal.en
    return out


# -- reading input --------------------------------------------------------


def variant_name(text: object, lang: str) -> str:
    """The canonical name of a variant or alias that ``remi score`` scores."""
    try:
        return find_scored(text).name
    except ScoreInputError as exc:
        raise InputError(t(exc.key, lang, **exc.params)) from None


def scorer(variant: str) -> Scorer:
    found = find_variant(variant).scorer
    assert found is not None
    return found


def parse_hand(cards: str | Iterable[str], lang: str) -> list[Card]:
    """Cards from one string or from tokens, each token checked on its own."""
    parts = [cards] if isinstance(cards, str) else list(cards)
    hand = []
    for part in parts:
        for token in part.replace(",", " ").split():
            try:
                hand.append(Card.parse(token))
            except CardError:
                raise InputError(t("score.bad_card", lang, token=token)) from None
    return hand


def request_from_line(line: str, lang: str) -> Request:
    """A request from one ``--batch`` line; keys that are not needed are ignored."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(t("score.bad_json", lang, detail=exc.msg)) from None
    except RecursionError:
        raise InputError(t("score.bad_json", lang, detail=t("score.too_deep", lang))) from None
    except ValueError:  # an integer of more digits than Python converts
        raise InputError(t("score.bad_json", lang, detail=t("score.too_long", lang))) from None
    if not isinstance(data, dict):
        raise InputError(t("score.not_object", lang))
    for key in ("variant", "hand"):
        if key not in data:
            raise InputError(t("score.missing_key", lang, key=key))
    variant = variant_name(data["variant"], lang)
    hand = data["hand"]
    if not isinstance(hand, str) and not (
        isinstance(hand, list) and all(isinstance(c, str) for c in hand)
    ):
        raise InputError(t("score.bad_hand", lang))
    closing = data.get("closing")
    if closing is not None and not isinstance(closing, str):
        raise InputError(t("score.bad_card", lang, token=closing))
    return make_request(
        variant,
        hand,
        closing=closing,
        round_no=data.get("round"),
        ace=data.get("ace"),
        pure_run=data.get("pure_run"),
        lang=lang,
    )


def make_request(
    variant: str,
    cards: str | Iterable[str],
    *,
    closing: str | None,
    round_no: object,
    ace: object,
    pure_run: object,
    lang: str,
) -> Request:
    """A checked request from the parts of a command line or a batch line."""
    hand = parse_hand(cards, lang)
    closing_card = None
    if closing is not None:
        parsed = parse_hand(closing, lang)
        if len(parsed) != 1:
            raise InputError(t("score.bad_card", lang, token=closing))
        closing_card = parsed[0]
    try:
        scorer(variant).check(
            hand, closing=closing_card, round_no=round_no, ace=ace, pure_run=pure_run
        )
    except ScoreInputError as exc:
        raise InputError(t(exc.key, lang, **exc.params)) from None
    return Request(
        variant,
        hand,
        closing=closing_card,
        round_no=cast(int | None, round_no),
        ace=cast(str | None, ace),
        pure_run=cast(str | None, pure_run),
    )


def score(request: Request) -> Scored:
    """Score a checked request with its variant's scorer."""
    return scorer(request.variant).score(
        request.hand,
        closing=request.closing,
        round_no=request.round_no,
        ace=request.ace,
        pure_run=request.pure_run,
    )


# -- output ---------------------------------------------------------------


def render(result: Scored, lang: str) -> list[str]:
    """The human report: title, melds with their kind (and points), dead cards, total."""
    lines = [result.title.text(lang), *(t(note, lang) for note in result.notes)]
    if result.melds:
        lines.append(t("score.melds", lang) + ":")
        width = max(len(m.symbols()) for m in result.melds)
        kinds = [_kind(m, lang) for m in result.melds]
        kind_width = max(len(k) for k in kinds)
        for meld, kind in zip(result.melds, kinds, strict=True):
            line = f"  {meld.symbols():<{width}}  {kind:<{kind_width}}"
            lines.append(f"{line}  {meld.points:>3}" if result.shows_points else line.rstrip())
    dead = " ".join(c.symbol() for c in result.dead) or t("score.none", lang)
    if result.dead and result.dead_points is not None:
        dead += f"  ({result.dead_points})"
    lines.append(t("score.dead", lang) + f": {dead}")
    label = N_("score.points") if result.shows_points else N_("score.deadwood")
    lines.append(f"{t(label, lang)}: {result.points}")
    return lines


def _kind(meld: Meld, lang: str) -> str:
    return t(meld_name_key(meld), lang, size=len(meld))


def run_batch(lines: Iterable[str], out: TextIO, lang: str) -> int:
    """Score JSON lines in order, one JSON line out each; 1 if any line was malformed."""
    status = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            result = as_json(score(request_from_line(line, lang)))
        except InputError as exc:
            status = 1
            result = {"error": t("score.line_error", lang, line=number, error=exc)}
        out.write(json.dumps(result) + "\n")
        out.flush()
    return status


# -- the command ----------------------------------------------------------


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``remi score``."""
    lang = default_lang()
    parser = subparsers.add_parser(
        "score", help=t("score.help", lang), description=t("score.help", lang)
    )
    names = ", ".join(spec.name for spec in scored())
    parser.add_argument(
        "variant", nargs="?", metavar="VARIANT", help=t("score.help_variant", lang, variants=names)
    )
    parser.add_argument("cards", nargs="*", metavar="CARD", help=t("score.help_cards", lang))
    parser.add_argument("--closing", metavar="CARD", help=t("score.help_closing", lang))
    parser.add_argument("--round", type=int, metavar="N", help=t("score.help_round", lang))
    parser.add_argument("--ace", choices=("low", "high"), help=t("score.help_ace", lang))
    parser.add_argument("--pure-run", choices=PURE_RUN_CHOICES, help=t("score.help_pure_run", lang))
    parser.add_argument("--json", action="store_true", help=t("score.help_json", lang))
    parser.add_argument("--batch", metavar="FILE", help=t("score.help_batch", lang))
    parser.add_argument("--lang", choices=LANGUAGES, help=t("score.help_lang", lang))
    parser.set_defaults(func=run, intermixed="cards")


def run(args: argparse.Namespace) -> int:
    """Exit status: 0 scored, 1 close refused or a malformed batch line, 2 unusable input."""
    lang: str = args.lang or default_lang()
    if args.batch is not None:
        options = (args.closing, args.round, args.ace, args.pure_run)
        if args.variant or args.cards or any(o is not None for o in options):
            return _fail(t("score.batch_alone", lang))
        return _batch(args.batch, lang)
    if not args.variant:
        return _fail(t("score.need_variant", lang))
    try:
        variant = variant_name(args.variant, lang)
        request = make_request(
            variant,
            args.cards,
            closing=args.closing,
            round_no=args.round,
            ace=args.ace,
            pure_run=args.pure_run,
            lang=lang,
        )
    except InputError as exc:
        return _fail(str(exc))
    result = score(request)
    if args.json:
        print(json.dumps(as_json(result)))
    elif result.points is not None:
        print("\n".join(render(result, lang)))
    if result.refusal is not None:
        print(t("score.refused", lang, reason=result.refusal.text(lang)), file=sys.stderr)
        return 1
    return 0


def _batch(path: str, lang: str) -> int:
    if path == "-":
        return run_batch(sys.stdin, sys.stdout, lang)
    try:
        source = open(path, encoding="utf-8")  # noqa: SIM115 (closed below)
    except OSError as exc:
        return _fail(t("score.no_file", lang, path=path, detail=exc.strerror or exc))
    with source:
        return run_batch(source, sys.stdout, lang)


def _fail(message: str) -> int:
    print(f"remi score: {message}", file=sys.stderr)
    return 2
