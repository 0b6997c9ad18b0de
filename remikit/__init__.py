"""remikit: rummy as played at Indonesian tables (Remi 13 D, Rummy 500, Three-Thirteen).

The Python API of CONTRACT.md: :func:`score` scores a hand as ``remi score`` does,
:func:`parse_cards` and :func:`parse_card` read the notation of RULES.md §0.

>>> import remikit
>>> remikit.score("gin", remikit.parse_cards("As 2s 3s 7h 7d 7c Kd Kc Ks 9h")).points
9
>>> cards13 = remikit.parse_cards("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk")
>>> closed = remikit.score("remi13d", cards13, closing=remikit.parse_card("Ah"))
>>> closed.points, closed.dead
(135, ())
>>> [m.tokens() for m in closed.melds]
[['7c', '7d', '7s'], ['Kc', 'Kd', 'Jk=Ks'], ['9h', 'Th', 'Jh'], ['3s', '4s', '5s', '6s']]
>>> remikit.score("remi13d", cards13).points  # R13-12: the hand did not close
85
>>> remikit.score("three-thirteen", "3h 9c Kd", round=1, ace="high").points
34
>>> remikit.score("remi13d", cards13, closing=remikit.parse_card("7h"))
Traceback (most recent call last):
...
ValueError: the closing card must be an ace or a joker, not 7♥
>>> remikit.score("three-thirteen", "3h 9c Kd", round=12)
Traceback (most recent call last):
...
remikit.variants.spec.ScoreInputError: a round is 1 to 11, not 12
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from remikit.cards import Card, parse_card, parse_cards

if TYPE_CHECKING:
    from remikit.variants.spec import Scored, Scorer

__all__ = ["Card", "__version__", "parse_card", "parse_cards", "score"]

try:
    __version__ = version("remikit")
except PackageNotFoundError:  # run from a source tree that is not installed
    __version__ = "0+unknown"


_SCORERS: dict[str, Scorer] = {}  # by the variant name as given


def _scorer(variant: str) -> Scorer:
    """The scorer of ``variant`` (any alias), remembered for the next call."""
    from remikit.variants import find_scored  # the variants load on first use, not on import

    scorer = find_scored(variant).scorer
    assert scorer is not None
    if len(_SCORERS) < 1000:
        _SCORERS[variant] = scorer
    return scorer


def score(
    variant: str,
    cards: str | Iterable[Card | str],
    *,
    closing: Card | str | None = None,
    round: int | None = None,
    ace: str | None = None,
    pure_run: str | None = None,
) -> Scored:
    """Score ``cards`` as ``remi score VARIANT`` does (CONTRACT.md): the result has
    ``points`` (as in ``--json``), ``melds`` and ``dead``.

    Cards are :class:`Card` objects or their text, one string or one per card.
    ``closing`` (Remi 13 D) scores a close with that card; ``round`` and ``ace``
    (Three-Thirteen) are the round, 1–11, and ``low`` or ``high``; ``pure_run`` (Remi
    13 D) is the table's ``strict`` or ``natural4`` (R13-6). Input the variant
    cannot score (an unknown variant, a wrong hand size, a bad round) raises
    :class:`ValueError` saying why; so does a close the rules refuse (R13-7).
    """
    scorer = _SCORERS.get(variant) or _scorer(variant)
    hand = (
        parse_cards(cards)
        if isinstance(cards, str)
        else [c if isinstance(c, Card) else parse_card(c) for c in cards]
    )
    if isinstance(closing, str):
        closing = parse_card(closing)
    scorer.check(hand, closing=closing, round_no=round, ace=ace, pure_run=pure_run)
    result = scorer.score(hand, closing=closing, round_no=round, ace=ace, pure_run=pure_run)
    if result.refusal is not None:
        raise ValueError(result.refusal.en)
    return result
