"""R13-2 at a physical table: the seat draw as a referee enters it.

Each position A–D draws a card; the highest plays first (game seat 0), the
lowest deals (seat 3). Identical cards (the two decks) tie, and the tied
positions draw again, the redraw ordering only them in their shared place; a
joker is drawn again. The referee enters the first draw, then each redraw the
answer asks for (:class:`Redraw`), as the web table's draw does it
(the seat draw part of the variant's spec).

>>> seats([{"A": "Ks", "B": "7h", "C": "Jk", "D": "2c"}])
Traceback (most recent call last):
...
remikit.competition.seat_draw.Redraw: C
>>> seats([{"A": "Ks", "B": "7h", "C": "Jk", "D": "2c"}, {"C": "8d"}])
{'A': 0, 'B': 2, 'C': 1, 'D': 3}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from remikit.cards import JOKER, Card
from remikit.cards import seat_draw_strength as strength
from remikit.competition.results import EntryRefused, check_copies, read_card

POSITIONS = ("A", "B", "C", "D")


class Redraw(Exception):
    """The positions that must draw again before the draw is complete."""

    def __init__(self, positions: Sequence[str]) -> None:
        super().__init__(" ".join(positions))
        self.positions = tuple(positions)


def seats(draws: Sequence[Mapping[str, str]]) -> dict[str, int]:
    """The game seat of each position after ``draws`` (the first draw, then the
    redraws in the order asked for); :class:`Redraw` while some must draw again,
    :class:`EntryRefused` for a draw naming other positions or a bad card."""
    pending = iter(draws)

    def draw_round(group: list[str]) -> dict[str, Card]:
        cards: dict[str, Card] = {}
        waiting = group
        while waiting:
            given = next(pending, None)
            if given is None:
                raise Redraw(waiting)
            if sorted(given) != sorted(waiting):
                raise EntryRefused(
                    "bad_seat_draw", "competition.seat_draw_positions", positions=" ".join(waiting)
                )
            drawn = {p: read_card(given[p]) for p in waiting}
            check_copies(list(drawn.values()))
            cards |= {p: c for p, c in drawn.items() if c is not JOKER}
            waiting = [p for p in waiting if p not in cards]
        return cards

    def rank(group: list[str]) -> list[str]:
        cards = draw_round(group)
        out: list[str] = []
        for card in sorted(set(cards.values()), key=strength, reverse=True):
            tied = [p for p in group if cards[p] is card]
            out += tied if len(tied) == 1 else rank(tied)
        return out

    order = rank(list(POSITIONS))
    if next(pending, None) is not None:
        raise EntryRefused("bad_seat_draw", "competition.seat_draw_done")
    return {position: order.index(position) for position in POSITIONS}


def drawn_cards(draws: Sequence[Mapping[str, str]]) -> dict[str, list[str]]:
    """Every card each position drew, in order."""
    return {p: [str(read_card(d[p])) for d in draws if p in d] for p in POSITIONS}
