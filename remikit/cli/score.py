"""``remi score``: the score calculator of CONTRACT.md, for a referee and for checks.

>>> import json
>>> request = Request("remi13d", parse_hand("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk", "en"),
...                   closing=parse_hand("Ah", "en")[0])
>>> json.dumps(score(request, "en").as_json())  # doctest: +ELLIPSIS
'{"variant": "remi13d", "points": 135, "can_close": true, "melds": [...], "dead": []}'
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

from remikit.cards import JOKER, Card, CardError
from remikit.i18n import default_lang, t
from remikit.melds import AceMode, Meld
from remikit.scoring import gin, remi13d, three_thirteen
from remikit.solver import NEG, Goal

VARIANTS = {
    "remi13d": "remi13d", "13d": "remi13d", "remi-13d": "remi13d",
    "three-thirteen": "three-thirteen", "3-13": "three-thirteen", "313": "three-thirteen",
    "threethirteen": "three-thirteen", "three_thirteen": "three-thirteen",
    "gin": "gin", "gin-rummy": "gin", "ginrummy": "gin",
}
COPIES = 2  # two decks (R13-1, R3-1)
JOKERS = 4


class InputError(ValueError):
    """Input that names no scorable hand; the message is in the user's language."""


@dataclass(frozen=True)
class Request:
    """One hand to score."""

    variant: str
    hand: list[Card]
    closing: Card | None = None
    round_no: int | None = None
    ace: AceMode = "low"


@dataclass(frozen=True)
class Result:
    """A scored hand: ``points`` is None for a refused close, with ``reason`` saying why."""

    variant: str
    points: int | None
    can_close: bool
    melds: tuple[Meld, ...] = ()
    dead: tuple[Card, ...] = ()
    reason: str | None = None
    title: str = ""

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "variant": self.variant,
            "points": self.points,
            "can_close": self.can_close,
            "melds": [m.tokens() for m in self.melds],
            "dead": [str(c) for c in self.dead],
        }
        if self.reason is not None:
            out["reason"] = self.reason
        return out


# -- reading input --------------------------------------------------------


def variant_name(text: str, lang: str) -> str:
    """The canonical name of a variant or alias."""
    name = VARIANTS.get(text.strip().lower())
    if name is None:
        raise InputError(t("score.unknown_variant", lang, variant=text))
    return name


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


def parse_round(value: object, lang: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 11:
        raise InputError(t("score.bad_round", lang, round=value))
    return value


def parse_ace(value: object, lang: str) -> AceMode:
    if value not in ("low", "high"):
        raise InputError(t("score.bad_ace", lang, ace=value))
    return value


def check(request: Request, lang: str) -> None:
    """Refuse hands of the wrong size, or with more copies of a card than the decks hold."""
    count = len(request.hand)
    if request.variant == "remi13d" and count != remi13d.HAND_SIZE:
        raise InputError(t("score.remi13d_count", lang, count=count))
    if request.variant == "three-thirteen":
        assert request.round_no is not None
        size = three_thirteen.hand_size(request.round_no)
        if count != size:
            raise InputError(t("score.t13_count", lang, round=request.round_no, size=size,
                               count=count))
    if request.variant == "gin" and count not in (gin.HAND_SIZE, gin.HAND_SIZE + 1):
        raise InputError(t("score.gin_count", lang, count=count))
    copies, jokers = (1, 0) if request.variant == "gin" else (COPIES, JOKERS)
    extra = [request.closing] if request.closing is not None else []
    for card, n in Counter(request.hand + extra).items():
        limit = jokers if card is JOKER else copies
        if n > limit:
            raise InputError(t("score.too_many_copies", lang, count=n, card=card, limit=limit))


def request_from_line(line: str, lang: str) -> Request:
    """A request from one ``--batch`` line; keys that are not needed are ignored."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(t("score.bad_json", lang, detail=exc.msg)) from None
    if not isinstance(data, dict):
        raise InputError(t("score.not_object", lang))
    for key in ("variant", "hand"):
        if key not in data:
            raise InputError(t("score.missing_key", lang, key=key))
    variant = data["variant"]
    if not isinstance(variant, str):
        raise InputError(t("score.unknown_variant", lang, variant=variant))
    hand = data["hand"]
    if not isinstance(hand, str) and not (
        isinstance(hand, list) and all(isinstance(c, str) for c in hand)
    ):
        raise InputError(t("score.bad_hand", lang))
    closing = data.get("closing")
    if closing is not None and not isinstance(closing, str):
        raise InputError(t("score.bad_card", lang, token=closing))
    return make_request(variant_name(variant, lang), hand, closing=closing,
                        round_no=data.get("round"), ace=data.get("ace"), lang=lang)


def make_request(variant: str, cards: str | Iterable[str], *, closing: str | None,
                 round_no: object, ace: object, lang: str) -> Request:
    """A checked request from the parts of a command line or a batch line."""
    hand = parse_hand(cards, lang)
    if variant == "remi13d":
        if round_no is not None or ace is not None:
            raise InputError(t("score.round_not_here", lang))
        closing_card = None
        if closing is not None:
            parsed = parse_hand(closing, lang)
            if len(parsed) != 1:
                raise InputError(t("score.bad_card", lang, token=closing))
            closing_card = parsed[0]
        request = Request(variant, hand, closing=closing_card)
    elif variant == "gin":
        if closing is not None or round_no is not None or ace is not None:
            raise InputError(t("score.gin_options", lang))
        request = Request(variant, hand)
    else:
        if closing is not None:
            raise InputError(t("score.closing_not_here", lang))
        if round_no is None:
            raise InputError(t("score.need_round", lang))
        request = Request(variant, hand, round_no=parse_round(round_no, lang),
                          ace=parse_ace("low" if ace is None else ace, lang))
    check(request, lang)
    return request


# -- scoring --------------------------------------------------------------


def score(request: Request, lang: str) -> Result:
    """Score a checked request (R13-11 / R13-12, R3-7, or Gin deadwood)."""
    if request.variant == "remi13d":
        return _score_remi13d(request, lang)
    if request.variant == "gin":
        found_gin = gin.deadwood(request.hand)
        title = t("score.title_gin", lang, discard=(
            t("score.gin_discard", lang, card=found_gin.discard.symbol())
            if found_gin.discard is not None else ""))
        return Result("gin", found_gin.points, found_gin.points == 0, found_gin.melds,
                      found_gin.dead, title=title)
    assert request.round_no is not None
    found = three_thirteen.deadwood(request.hand, round_no=request.round_no, ace=request.ace)
    wild = three_thirteen.wild_rank(request.round_no)
    title = t("score.title_t13", lang, round=request.round_no, wild=wild.label,
              ace=t(f"ace.{request.ace}", lang))
    return Result("three-thirteen", found.points, found.points == 0, found.melds, found.dead,
                  title=title)


def _score_remi13d(request: Request, lang: str) -> Result:
    hand, closing = request.hand, request.closing
    if closing is None:
        got = remi13d.hand_score(hand)
        full = remi13d.SOLVER.value(hand, goal=Goal(all_melded=True, need_pure=True))
        return Result("remi13d", got.points, full > NEG // 2, got.melds, got.dead,
                      title=t("score.title_hand", lang))
    try:
        got = remi13d.close_score(hand, closing)
    except remi13d.CloseRefused as refused:
        return Result("remi13d", None, False, reason=refused.reason.text(lang))
    bonus_name = "Remi Joker" if closing is JOKER else "Remi As"
    title = t("score.title_close", lang, card=closing.symbol(), bonus_name=bonus_name,
              bonus=got.bonus)
    return Result("remi13d", got.points, True, got.melds, got.dead, title=title)


# -- output ---------------------------------------------------------------


def render(result: Result, lang: str) -> list[str]:
    """The human report: title, melds with their kind (and points), dead cards, total."""
    lines = [result.title]
    is_remi = result.variant == "remi13d"
    if is_remi and not result.melds:
        lines.append(t("score.no_pure", lang))
    if result.melds:
        lines.append(f"{t('score.melds', lang)}:")
        width = max(len(m.symbols()) for m in result.melds)
        kinds = [_kind(m, lang) for m in result.melds]
        kind_width = max(len(k) for k in kinds)
        for meld, kind in zip(result.melds, kinds, strict=True):
            line = f"  {meld.symbols():<{width}}  {kind:<{kind_width}}"
            lines.append(f"{line}  {meld.points:>3}" if is_remi else line.rstrip())
    dead = " ".join(c.symbol() for c in result.dead) or t("score.none", lang)
    if is_remi and result.dead:
        dead += f"  ({remi13d.dead_points(result.dead)})"
    lines.append(f"{t('score.dead', lang)}: {dead}")
    label = "score.points" if is_remi else "score.deadwood"
    lines.append(f"{t(label, lang)}: {result.points}")
    return lines


def _kind(meld: Meld, lang: str) -> str:
    if meld.kind == "run":
        return t("meld.pure_run" if meld.pure else "meld.run", lang)
    return t(f"meld.{meld.kind}", lang, size=len(meld))


def run_batch(lines: Iterable[str], out: TextIO, lang: str) -> int:
    """Score JSON lines in order, one JSON line out each; 1 if any line was malformed."""
    status = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            result = score(request_from_line(line, lang), lang).as_json()
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
    parser = subparsers.add_parser("score", help=t("score.help", lang),
                                   description=t("score.help", lang))
    parser.add_argument("variant", nargs="?", metavar="VARIANT",
                        help=t("score.help_variant", lang))
    parser.add_argument("cards", nargs="*", metavar="CARD", help=t("score.help_cards", lang))
    parser.add_argument("--closing", metavar="CARD", help=t("score.help_closing", lang))
    parser.add_argument("--round", type=int, metavar="N", help=t("score.help_round", lang))
    parser.add_argument("--ace", choices=("low", "high"), help=t("score.help_ace", lang))
    parser.add_argument("--json", action="store_true", help=t("score.help_json", lang))
    parser.add_argument("--batch", metavar="FILE", help=t("score.help_batch", lang))
    parser.add_argument("--lang", choices=("id", "en"), help=t("score.help_lang", lang))
    parser.set_defaults(func=run, intermixed="cards")


def run(args: argparse.Namespace) -> int:
    """Exit status: 0 scored, 1 close refused or a malformed batch line, 2 unusable input."""
    lang: str = args.lang or default_lang()
    if args.batch is not None:
        options = (args.closing, args.round, args.ace)
        if args.variant or args.cards or any(o is not None for o in options):
            return _fail(t("score.batch_alone", lang))
        return _batch(args.batch, lang)
    if not args.variant:
        return _fail(t("score.need_variant", lang))
    try:
        variant = variant_name(args.variant, lang)
        request = make_request(variant, args.cards, closing=args.closing, round_no=args.round,
                               ace=args.ace, lang=lang)
    except InputError as exc:
        return _fail(str(exc))
    result = score(request, lang)
    if args.json:
        print(json.dumps(result.as_json()))
    elif result.points is not None:
        print("\n".join(render(result, lang)))
    if result.reason is not None:
        print(t("score.refused", lang, reason=result.reason), file=sys.stderr)
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
