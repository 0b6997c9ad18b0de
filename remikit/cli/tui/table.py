"""Rendering helpers for the terminal table: cards, hands, melds and seats as Rich text.

>>> token_text("Jk=Kh").plain, token_text("Th").plain
('Jk(K♥)', '10♥')
>>> positions(0, 4, previous_on="left")
{1: 'right', 2: 'top', 3: 'left', 0: 'you'}
>>> positions(0, 4, previous_on="right")
{1: 'left', 2: 'top', 3: 'right', 0: 'you'}
>>> positions(0, 3, previous_on="right")
{1: 'left', 2: 'right', 0: 'you'}
>>> from remikit.cards import parse_cards
>>> pile_text(parse_cards("7h 9c Ks")).plain
'1 K♠  2 9♣  3 7♥'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal

from rich import box
from rich.table import Table
from rich.text import Text

from remikit.cards import Card, Rank, Suit, display_order
from remikit.i18n import N_, t
from remikit.melds import Meld, meld_name_key

SUIT_STYLES = {
    Suit.HEART: "bold red",
    Suit.DIAMOND: "bold red",
    Suit.SPADE: "bold",
    Suit.CLUB: "bold",
}
JOKER_STYLE = "bold magenta"
SIDES: dict[int, tuple[str, ...]] = {
    1: ("top",),
    2: ("left", "right"),
    3: ("left", "top", "right"),
    4: ("left", "top_left", "top_right", "right"),
    5: ("left", "top_left", "top", "top_right", "right"),
    6: ("lower_left", "left", "top_left", "top_right", "right", "lower_right"),
    7: ("lower_left", "left", "top_left", "top", "top_right", "right", "lower_right"),
}
"""Where the other players sit, by how many there are, from the person's left round
to their right."""
POSITION_ORDER = (
    "lower_left",
    "left",
    "top_left",
    "top",
    "top_right",
    "right",
    "lower_right",
    "you",
)
POSITIONS = {
    "lower_left": N_("play.pos.lower_left"),
    "left": N_("play.pos.left"),
    "top_left": N_("play.pos.top_left"),
    "top": N_("play.pos.top"),
    "top_right": N_("play.pos.top_right"),
    "right": N_("play.pos.right"),
    "lower_right": N_("play.pos.lower_right"),
    "you": N_("play.pos.you"),
}
"""The message id of each position's name."""


def card_style(card: Card) -> str:
    return JOKER_STYLE if card.is_joker else SUIT_STYLES[card.suit]


def card_text(card: Card, *, extra: str = "") -> Text:
    """A card with its suit symbol, red for hearts and diamonds: ``A♠``, ``10♥``, ``Jk``."""
    style = card_style(card)
    return Text(card.symbol(), style=f"{style} {extra}".strip())


def card_markup(card: Card) -> str:
    """A card in Rich markup, for sentences: ``[bold red]7♥[/]``."""
    return f"[{card_style(card)}]{card.symbol()}[/]"


def cards_markup(cards: Iterable[Card]) -> str:
    return " ".join(card_markup(c) for c in cards)


def cards_text(cards: Iterable[Card], *, empty: str = "") -> Text:
    """Several cards, space separated (``empty`` when there are none)."""
    parts = [card_text(c) for c in cards]
    if not parts:
        return Text(empty, style="dim")
    return Text(" ").join(parts)


def token_text(token: str) -> Text:
    """A card of a meld in record form, ``Jk=Kh`` shown as ``Jk(K♥)``."""
    card_part, _, stands = token.partition("=")
    shown = card_text(Card.parse(card_part))
    if stands:
        shown.append("(")
        shown.append_text(card_text(Card.parse(stands)))
        shown.append(")")
    return shown


def meld_tokens_text(melds: Sequence[Sequence[str]], *, empty: str = "") -> Text:
    """Melds in record form, one per line."""
    if not melds:
        return Text(empty, style="dim")
    return Text("\n").join(Text(" ").join(token_text(tok) for tok in meld) for meld in melds)


def meld_text(meld: Meld) -> Text:
    return meld_tokens_text([meld.tokens()])


def meld_kind(meld: Meld, lang: str) -> str:
    """The meld's name in the table's words: kartu dasar (murni), kartu 3, kartu 4, …"""
    return t(meld_name_key(meld), lang, size=len(meld))


def sorted_hand(hand: Iterable[Card]) -> list[Card]:
    """The hand as shown: Spades, Hearts, Diamonds, Clubs by rank, jokers last."""
    return sorted(hand, key=display_order)


def hand_table(
    hand: Sequence[Card], *, new: Card | Sequence[Card] | None = None, wild: Rank | None = None
) -> Table:
    """The hand as a row of cards with their numbers above (to pick cards by number).

    ``new`` (the card or cards just drawn) is shown reversed, one copy per
    card given; cards of the ``wild`` rank get a star.
    """
    table = Table(box=None, show_header=True, header_style="dim", pad_edge=False, padding=(0, 1))
    marks = Counter([new] if isinstance(new, Card) else new or ())
    cells = []
    for i, card in enumerate(hand, start=1):
        table.add_column(str(i), justify="center")
        if marks[card] > 0:
            marks[card] -= 1
            cell = card_text(card, extra="reverse")
        else:
            cell = card_text(card)
        if wild is not None and not card.is_joker and card.rank == wild:
            cell.append("*", style="bold yellow")
        cells.append(cell)
    table.add_row(*cells)
    return table


def positions(
    person: int, players: int, *, previous_on: Literal["left", "right"]
) -> dict[int, str]:
    """Seat → where it sits as ``person`` sees the table (2–8 seats): ``left``, ``top``,
    ``right`` (and ``top_left``, ``lower_right``, … at bigger tables) or ``you``.

    ``previous_on`` says where the previous player in turn order sits: on the
    left in Remi 13 D (play runs to the right), on the right in the clockwise
    games (Three-Thirteen, Rummy 500).
    """
    sides = SIDES[players - 1]
    if previous_on == "left":
        sides = sides[::-1]
    out = {(person + i) % players: side for i, side in enumerate(sides, start=1)}
    out[person] = "you"
    return out


def pile_text(pile: Sequence[Card]) -> Text:
    """A spread discard pile, top first, each card after its position (1 = the top)."""
    if not pile:
        return Text("—", style="dim")
    parts = []
    for position, card in enumerate(reversed(pile), start=1):
        part = Text(f"{position} ", style="dim")
        part.append_text(card_text(card))
        parts.append(part)
    return Text("  ").join(parts)


def scores_table(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    total_row: Sequence[object] | None = None,
    first_left: bool = True,
) -> Table:
    """A plain table of numbers with a bold last row (running totals)."""
    table = Table(title=title, box=box.SIMPLE_HEAVY)
    for i, column in enumerate(columns):
        table.add_column(column, justify="left" if i == 0 and first_left else "right")
    for row in rows:
        table.add_row(*(c if isinstance(c, Text) else str(c) for c in row))
    if total_row is not None:
        table.add_row(*(str(c) for c in total_row), style="bold")
    return table
