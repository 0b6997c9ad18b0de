"""One game at a physical table of a Remi 13 D competition, as a referee enters it.

An entry is either each seat's final 13 cards with the closer's closing card (or
nobody closing: the stock ran out, R13-13), checked and scored by remikit's own
scorer (R13-11 for the closer, R13-12 for the others), or four scores entered
directly. :func:`dealers` says who deals each game (R13-3). A refused entry raises
:class:`EntryRefused` with a stable code and a message of :mod:`remikit.i18n`.

>>> hands = [
...     "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk".split(),
...     "2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs".split(),
...     "Jk 9s 9d 2c 3c 4c Qh Qd Qs 5d 6d 8h 4s".split(),
...     "2d 3d 4d 5d 6d 8s 8h 8c Td Jd Qd 2s 4c".split(),
... ]
>>> score_cards(hands, closer=0, closing="Ah").points
(135, 25, -100, 55)
>>> dealers([(135, 25, -100, 55), None], 3)
[3, 2, None]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from remikit.cards import JOKER, Card, CardError, Rank, parse_card
from remikit.competition import competition_variant
from remikit.errors import Reason, Refusal
from remikit.i18n import t
from remikit.variants.spec import ScoreInputError

SEATS = 4
HAND = 13
COPIES = 2  # of each natural card in two decks (R13-1)
JOKERS = 4
MAX_POINTS = 1000  # a score entered directly lies within ± this


class EntryRefused(Refusal):
    """An entry refused, nothing stored: ``code`` (docs/competition.md) and a message;
    ``hand``, the game seat (0–3) whose hand it concerns, if one does (the text names it)."""

    def __init__(self, code: str, key: str, *, hand: int | None = None, **params: object) -> None:
        super().__init__(key, **params)
        self.code = code
        self.hand = hand

    def text(self, lang: str) -> str:
        said = super().text(lang)
        return (
            said
            if self.hand is None
            else t("competition.seat_says", lang, seat=self.hand + 1, why=said)
        )


@dataclass(frozen=True)
class Arrangement:
    """A seat's best arrangement (R13-14): melds in text form (``Jk=Ks``), dead cards."""

    melds: tuple[tuple[str, ...], ...]
    dead: tuple[str, ...]
    points: int

    def json(self) -> dict[str, object]:
        return {
            "melds": [list(m) for m in self.melds],
            "dead": list(self.dead),
            "points": self.points,
        }


@dataclass(frozen=True)
class GameResult:
    """A scored game: points per game seat, who closed with which card (None: nobody,
    ``stock_out``), and each seat's arrangement (none for scores entered directly)."""

    points: tuple[int, ...]
    closer: int | None
    closing: str | None
    arrangements: tuple[Arrangement, ...] = ()

    @property
    def stock_out(self) -> bool:
        return self.closer is None


def read_card(text: str, hand: int | None = None) -> Card:
    try:
        return parse_card(text)
    except CardError:
        raise EntryRefused("bad_card", "competition.bad_card", hand=hand, card=text[:12]) from None


def one_closer(closer: int | Sequence[int] | None) -> int | None:
    """The seat that closed: an entry names one seat or none (a list of two: ``closed_twice``)."""
    if closer is None or isinstance(closer, int):
        seats = [] if closer is None else [closer]
    else:
        seats = list(dict.fromkeys(closer))
    if len(seats) > 1:
        raise EntryRefused("closed_twice", "competition.closed_twice", seats=len(seats))
    if seats and not 0 <= seats[0] < SEATS:
        raise EntryRefused("bad_seat", "competition.bad_seat", seat=seats[0])
    return seats[0] if seats else None


def closing_card(closer: int | None, closing: str | None) -> Card | None:
    """The closing card: an ace or a joker (R13-7), given exactly when a seat closed."""
    if closer is None:
        if closing is not None:
            raise EntryRefused("close_refused", "competition.closing_without_closer")
        return None
    if closing is None:
        raise EntryRefused(
            "close_refused", "competition.no_closing_card", hand=closer, seat=closer + 1
        )
    card = read_card(closing, closer)
    if card is not JOKER and card.rank != Rank.ACE:
        why = Reason("competition.closing_not_ace", card=card)
        raise EntryRefused(
            "close_refused", "competition.close_refused", hand=closer, seat=closer + 1, why=why
        )
    return card


def check_copies(cards: Sequence[Card], owners: Sequence[int | None] = ()) -> None:
    """No more copies of a card than two decks hold (R13-1); with ``owners`` (the game
    seat each card is in), the refusal names the hand where a card goes over."""
    counts: Counter[Card] = Counter()
    for index, card in enumerate(cards):
        counts[card] += 1
        limit = JOKERS if card is JOKER else COPIES
        if counts[card] > limit:
            count = sum(1 for c in cards if c == card)
            raise EntryRefused(
                "too_many_copies",
                "competition.too_many_copies",
                hand=owners[index] if owners else None,
                card=card,
                count=count,
                limit=limit,
            )


def score_cards(
    hands: Sequence[Sequence[str]],
    *,
    closer: int | Sequence[int] | None,
    closing: str | None,
    pure_run: str = "strict",
) -> GameResult:
    """Check and score a game from each game seat's final 13 cards (R13-11, R13-12, R13-13)."""
    if len(hands) != SEATS:
        raise EntryRefused("hand_size", "competition.seat_count", count=len(hands))
    seat = one_closer(closer)
    read = [[read_card(text, index) for text in hand] for index, hand in enumerate(hands)]
    for index, hand in enumerate(read):
        if len(hand) != HAND:
            raise EntryRefused(
                "hand_size", "competition.hand_size", hand=index, seat=index + 1, count=len(hand)
            )
    card = closing_card(seat, closing)
    owners = [index for index, hand in enumerate(read) for _ in hand]
    closing_cards = [] if card is None else [card]
    check_copies(
        [c for hand in read for c in hand] + closing_cards, owners + [seat] * len(closing_cards)
    )
    scorer = competition_variant().scorer
    assert scorer is not None
    points: list[int] = []
    arrangements: list[Arrangement] = []
    for index, hand in enumerate(read):
        closes = card if index == seat else None
        try:
            scorer.check(hand, closing=closes, round_no=None, ace=None, pure_run=pure_run)
        except ScoreInputError as exc:
            why = Reason(exc.key, **cast(dict[str, Any], exc.params))
            raise EntryRefused(
                "close_refused", "competition.close_refused", hand=index, seat=index + 1, why=why
            ) from None
        got = scorer.score(hand, closing=closes, round_no=None, ace=None, pure_run=pure_run)
        if got.points is None:
            raise EntryRefused(
                "close_refused",
                "competition.close_refused",
                hand=index,
                seat=index + 1,
                why=got.refusal or Reason(),
            )
        melds = tuple(tuple(m.tokens()) for m in got.melds)
        arrangements.append(Arrangement(melds, tuple(str(c) for c in got.dead), got.points))
        points.append(got.points)
    return GameResult(tuple(points), seat, None if card is None else str(card), tuple(arrangements))


def points_result(
    points: Sequence[int], *, closer: int | Sequence[int] | None = None, closing: str | None = None
) -> GameResult:
    """A game entered as four scores (with, when a seat closed, who and with which card)."""
    if len(points) != SEATS:
        raise EntryRefused("bad_points", "competition.points_count", count=len(points))
    for value in points:
        if not -MAX_POINTS <= value <= MAX_POINTS:
            raise EntryRefused("bad_points", "competition.points_range", max=MAX_POINTS)
    seat = one_closer(closer)
    card = closing_card(seat, closing)
    return GameResult(tuple(points), seat, None if card is None else str(card))


def next_dealer(points: Sequence[int], dealer: int) -> int:
    """R13-3: the loser of a game deals the next (the lowest score; of equal lowest,
    the first in turn order after that game's dealer)."""
    low = min(points)
    return next(
        (dealer + step) % len(points)
        for step in range(1, len(points) + 1)
        if points[(dealer + step) % len(points)] == low
    )


def dealers(results: Sequence[Sequence[int] | None], games: int) -> list[int | None]:
    """Who deals each of ``games`` games: seat 3 the first (the lowest seat-draw card,
    R13-2), then the loser of each game (R13-3); None after a game with no result yet.
    The seat after the dealer plays first."""
    out: list[int | None] = []
    dealer: int | None = SEATS - 1
    for number in range(games):
        out.append(dealer)
        known = results[number] if number < len(results) else None
        dealer = None if dealer is None or known is None else next_dealer(known, dealer)
    return out
