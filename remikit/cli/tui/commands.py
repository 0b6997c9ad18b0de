"""What the person types at the terminal table: commands and card names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from remikit.action_words import ActionSyntaxError
from remikit.actions import Action, Discard, Draw, kind_of, parse_action
from remikit.cards import Card, CardError
from remikit.cli.tui.table import sorted_hand
from remikit.errors import Translated
from remikit.i18n import t
from remikit.views import PlayerView

if TYPE_CHECKING:
    from remikit.cli.tui.ui import VariantUI


@dataclass(frozen=True)
class Command:
    """What the person typed: an action, or one of ``help``, ``melds``, ``quit``, ``show``,
    ``close_best``, ``auto`` (the variant plays its best steps for the person), or
    ``error`` with a message."""

    kind: str
    action: Action | None = None
    message: str = ""


STOCK_WORDS = frozenset({"s", "stock", "stok", "tumpukan"})
TAKE_WORDS = frozenset({"d", "take", "ambil", "discard"})
DISCARD_WORDS = frozenset({"b", "buang", "discard"})
CLOSE_WORDS = frozenset({"t", "tutup", "close"})
MELD_WORDS = frozenset({"m", "melds", "jadi"})
HELP_WORDS = frozenset({"h", "help", "?", "bantuan"})
QUIT_WORDS = frozenset({"q", "quit", "exit", "keluar"})
TABLE_WORDS = frozenset({"t", "table", "meja"})


def parse_card_arg(token: str, hand: Sequence[Card], lang: str) -> Card:
    """A card named by its text (``7h``, ``10h``, ``jk``) or by its number in the shown hand."""
    if token.isdigit():
        number = int(token)
        if not 1 <= number <= len(hand):
            raise ValueError(t("play.bad_number", lang, number=number, count=len(hand)))
        return hand[number - 1]
    try:
        return Card.parse(token)
    except CardError:
        raise ValueError(t("score.bad_card", lang, token=token)) from None


def parse_command(text: str, view: PlayerView, lang: str, ui: VariantUI | None = None) -> Command:
    """Read one line typed at the table (see ``h`` for the commands); ``ui`` reads the
    variant's own commands first."""
    words = text.strip().split()
    if not words:
        return Command("show")
    verb, args = words[0].lower(), words[1:]
    hand = sorted_hand(view.hand)
    try:
        if ui is not None:
            if verb in ui.auto_words and not args:
                return Command("auto")
            action = ui.parse_action(verb, args, view, lang)
            if action is not None:
                return Command("action", action)
        if verb in HELP_WORDS and not args:
            return Command("help")
        if verb in QUIT_WORDS and not args:
            return Command("quit")
        if verb in MELD_WORDS and not args:
            return Command("melds")
        if verb in STOCK_WORDS and not args:
            return Command("action", Draw("stock"))
        if verb in TAKE_WORDS and not args:
            return Command("action", Draw("discard"))
        if verb in DISCARD_WORDS and len(args) == 1:
            return Command("action", Discard(parse_card_arg(args[0], hand, lang)))
        if verb in CLOSE_WORDS and not args:
            return Command("close_best")
        if kind_of(verb) is not None or (verb.startswith("p") and verb[1:].isdigit()):
            return Command("action", _record_action(words, view))
        if len(words) == 1 and view.phase == "discard" and _names_card(verb):
            return Command("action", Discard(parse_card_arg(verb, hand, lang)))
    except (ValueError, ActionSyntaxError) as exc:
        return Command("error", message=exc.text(lang) if isinstance(exc, Translated) else str(exc))
    return Command("error", message=t("play.unknown_command", lang, text=text.strip()))


def _names_card(token: str) -> bool:
    if token.isdigit():
        return True
    try:
        Card.parse(token)
    except CardError:
        return False
    return True


def _record_action(words: list[str], view: PlayerView) -> Action:
    """Record notation, with or without the seat: ``draw stock``, ``p2 discard 7h``."""
    if words[0].lower().startswith("p") and words[0][1:].isdigit():
        if int(words[0][1:]) != view.seat:
            raise ActionSyntaxError("play.not_your_seat", seat=view.seat, given=words[0])
        words = words[1:]
    return parse_action(" ".join(words))
