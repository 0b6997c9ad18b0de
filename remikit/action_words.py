"""The words of an action's record text: cards with a joker's declaration, counts from 1,
and the error of text that is not an action (:mod:`remikit.actions` reads whole actions).

>>> card_with_joker("jk=7h")
(Card('Jk'), Card('7h'))
>>> with_jokers((Card.parse("jk"), Card.parse("8h")), (Card.parse("7h"), None))
'Jk=7h 8h'
"""

from __future__ import annotations

import re

from remikit.cards import Card
from remikit.errors import Refusal
from remikit.i18n import N_


class ActionSyntaxError(Refusal, ValueError):
    """Text that is not an action: ``key`` and ``params`` name the message of
    :mod:`remikit.i18n` that says why; ``str()`` is English, :meth:`text` any language."""


def with_jokers(cards: tuple[Card, ...], stands_for: tuple[Card | None, ...]) -> str:
    """The cards as record text, a declared joker as ``JK=7h``."""
    pairs = zip(cards, stands_for, strict=True)
    return " ".join(str(c) if s is None else f"{c}={s}" for c, s in pairs)


def card_with_joker(token: str) -> tuple[Card, Card | None]:
    """The card a word of record text names, and the card it stands for (a joker's)."""
    if "=" in token:
        left, right = token.split("=", 1)
        card = Card.parse(left)
        if not card.is_joker:
            raise ActionSyntaxError("action.only_joker_declares", token=repr(token))
        stands = Card.parse(right)
        if stands.is_joker:
            raise ActionSyntaxError("action.joker_natural", token=repr(token))
        return card, stands
    return Card.parse(token), None


_NUMBER = re.compile(r"[0-9]{1,18}")
"""A number in an action: decimal digits (``²`` or a 5000-digit number is none)."""


def read_number(token: str) -> int | None:
    """The number ``token`` is (:data:`_NUMBER`), or None."""
    return int(token) if _NUMBER.fullmatch(token) else None


def count_arg(token: str, refusal: str) -> int:
    """A number from 1; else the :class:`ActionSyntaxError` with the message ``refusal``."""
    count = read_number(token)
    if count is None or count < 1:
        raise ActionSyntaxError(refusal, token=repr(token))
    return count


DEPTH_REFUSAL = N_("action.bad_depth")
"""The refusal of a depth that is no number from 1 (``draw discard K``, ``rummy K``)."""
MELD_NUMBER_REFUSAL = N_("action.bad_meld_number")
"""The refusal of a table meld number that is no number from 1 (``layoff C to N``)."""
