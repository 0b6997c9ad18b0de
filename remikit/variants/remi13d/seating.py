"""R13-2: the seat draw that decides where everyone sits, who plays first and who deals.

Each player draws one card from a shuffled 108-card deck (from its top: the
end of the list :mod:`remikit.shuffle` gives for a seed drawn from the caller's
:class:`random.Random`, or the list the caller's ``shuffle`` gives). A joker is
drawn again [interp]. The highest card plays first (seat 0), the lowest deals
(the last seat), the rest sit in descending card order; ranks go A, K … 2 and
equal ranks by suit (Spade > Heart > Diamond > Club), so only identical cards
(the two decks) tie. Tied players draw again, and that redraw orders only
them: they keep the place their shared card gave them, so none of them can
pass, or fall behind, a player who did not tie; a player who did not tie
draws once and keeps that card.

The procedure, exactly (stacked tests rely on it): a group of players draws a
round, one card each in player order, then those who drew a joker draw again,
in player order, until every one holds a natural card. The group is ranked by
those cards; each set of players holding identical cards is then a group of
its own, drawn and ranked in its place, the higher tie first. Should the deck
ever run out, a fresh deck is shuffled and the draw goes on.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from remikit.cards import JOKER, Card, make_deck, seat_draw_strength
from remikit.shuffle import draw_seed, shuffled

Shuffle = Callable[[list[Card]], list[Card]]
"""How a fresh deck of the seat draw is shuffled: the unshuffled deck in, the order out."""


@dataclass(frozen=True)
class SeatDraw:
    """The seat draw as the players saw it.

    ``draws[p]`` is every card player ``p`` drew, in order (jokers and the
    redraws of a tie included); ``seats[p]`` is the seat player ``p`` takes:
    seat 0 plays first, the last seat deals.
    """

    draws: tuple[tuple[Card, ...], ...]
    seats: tuple[int, ...]

    @property
    def order(self) -> tuple[int, ...]:
        """The players in seat order (the first plays first, the last deals)."""
        return tuple(sorted(range(len(self.seats)), key=self.seats.__getitem__))


def draw_seats(rng: random.Random, players: int, *, shuffle: Shuffle | None = None) -> SeatDraw:
    """R13-2: the seat draw of ``players`` players. Each fresh deck is shuffled by
    :func:`remikit.shuffle.shuffled` with a seed drawn from ``rng``, or by ``shuffle``
    when given (tests stack the deck with it)."""

    def from_rng(deck: list[Card]) -> list[Card]:
        return shuffled(deck, draw_seed(rng))

    return _Draw(shuffle or from_rng, players).run()


class _Draw:
    def __init__(self, shuffle: Shuffle, players: int) -> None:
        self.shuffle = shuffle
        self.deck: list[Card] = []
        self.draws: list[list[Card]] = [[] for _ in range(players)]

    def run(self) -> SeatDraw:
        order = self.rank(list(range(len(self.draws))))
        seats = [0] * len(order)
        for seat, player in enumerate(order):
            seats[player] = seat
        return SeatDraw(tuple(tuple(d) for d in self.draws), tuple(seats))

    def rank(self, group: list[int]) -> list[int]:
        """``group`` in seat order: a round of draws, each tie ranked among itself."""
        cards = self.round(group)
        out: list[int] = []
        for card in sorted(set(cards.values()), key=seat_draw_strength, reverse=True):
            tied = [p for p in group if cards[p] is card]
            out += tied if len(tied) == 1 else self.rank(tied)
        return out

    def round(self, group: list[int]) -> dict[int, Card]:
        """Each player's natural card of one round (jokers drawn again)."""
        cards: dict[int, Card] = {}
        waiting = group
        while waiting:
            for player in waiting:
                card = self.take()
                self.draws[player].append(card)
                if card is not JOKER:
                    cards[player] = card
            waiting = [p for p in waiting if p not in cards]
        return cards

    def take(self) -> Card:
        if not self.deck:
            self.deck = self.shuffle(make_deck(decks=2, jokers=4))  # R13-1
        return self.deck.pop()
