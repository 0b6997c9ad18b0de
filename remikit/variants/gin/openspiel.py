"""OpenSpiel's numbering of Gin Rummy's cards, melds and actions (``gin_rummy``).

OpenSpiel numbers a card ``suit * 13 + rank`` with suits in the order
Spade, Club, Diamond, Heart and ranks from the ace (0) to the king (12). Its
actions are the 52 cards (a discard, a lay-off, the discard after a knock),
52 draw the upcard, 53 draw from the stock, 54 pass, 55 knock, and
56 + *m* lay down meld *m* of its 185 melds. Nothing here imports OpenSpiel.

>>> from remikit.cards import parse_card, parse_cards
>>> card_number(parse_card("As")), card_number(parse_card("Kh"))
(0, 51)
>>> str(card_of(14))
'2c'
>>> meld_number(parse_cards("2c 2d 2h")), meld_number(parse_cards("3s 4s 5s"))
(5, 67)
>>> from remikit.actions import parse_action
>>> numbers(parse_action("knock 7d"))
[55, 32]
"""

from __future__ import annotations

from collections.abc import Sequence

from remikit.actions import Action, Discard, Draw, LayOff, MeldCards, Pass
from remikit.cards import Card, Suit
from remikit.variants.gin.actions import Knock

DRAW_UPCARD = 52
DRAW_STOCK = 53
PASS = 54
KNOCK = 55
MELD_BASE = 56
MELDS = 185
SUITS = (Suit.SPADE, Suit.CLUB, Suit.DIAMOND, Suit.HEART)
"""OpenSpiel's suit order (``scdh``)."""
_SUIT_NUMBER = {suit: i for i, suit in enumerate(SUITS)}


def card_number(card: Card) -> int:
    """OpenSpiel's number of ``card``."""
    return _SUIT_NUMBER[card.suit] * 13 + int(card.rank) - 1


def card_of(number: int) -> Card:
    """The card OpenSpiel numbers ``number`` (0 … 51)."""
    if not 0 <= number < 52:
        raise ValueError(f"OpenSpiel numbers cards 0 to 51, not {number}")
    return Card.of(number % 13 + 1, SUITS[number // 13])


def meld_number(cards: Sequence[Card]) -> int:
    """OpenSpiel's number of a meld (0 … 184): the 65 sets by rank (a set of three by its
    missing suit, then the set of four), then runs of 3, 4 and 5 by suit and lowest rank."""
    ranks = sorted(int(c.rank) - 1 for c in cards)
    if len({c.rank for c in cards}) == 1:
        if len(cards) == 4:
            return ranks[0] * 5 + 4
        missing = ({0, 1, 2, 3} - {_SUIT_NUMBER[c.suit] for c in cards}).pop()
        return ranks[0] * 5 + missing
    suit, low, size = _SUIT_NUMBER[cards[0].suit], ranks[0], len(cards)
    offset = {3: 65, 4: 65 + 44, 5: 65 + 44 + 40}[size]
    return offset + suit * (13 - size + 1) + low


def meld_cards(number: int) -> tuple[Card, ...]:
    """The cards of OpenSpiel's meld ``number``."""
    if not 0 <= number < MELDS:
        raise ValueError(f"OpenSpiel numbers melds 0 to {MELDS - 1}, not {number}")
    if number < 65:
        rank, kind = divmod(number, 5)
        suits = SUITS if kind == 4 else tuple(s for i, s in enumerate(SUITS) if i != kind)
        return tuple(Card.of(rank + 1, s) for s in suits)
    number -= 65
    for size, count in ((3, 44), (4, 40), (5, 36)):
        if number < count:
            suit, low = divmod(number, 13 - size + 1)
            return tuple(Card.of(low + r + 1, SUITS[suit]) for r in range(size))
        number -= count
    raise AssertionError("unreachable")


def numbers(action: Action) -> list[int]:
    """The OpenSpiel actions that make remikit's ``action`` (a knock is two: the knock and
    its discard)."""
    if isinstance(action, Draw):
        return [DRAW_UPCARD if action.source == "discard" else DRAW_STOCK]
    if isinstance(action, Pass):
        return [PASS]
    if isinstance(action, Discard | LayOff):
        return [card_number(action.card)]
    if isinstance(action, Knock):
        return [KNOCK, card_number(action.card)]
    if isinstance(action, MeldCards):
        return [MELD_BASE + meld_number(action.cards)]
    raise ValueError(f"{action} is not a Gin Rummy action")
