"""Short reasons for a reviewed decision, from the seat's view and the rating alone.

Each reason is a message id with its fields (:class:`Reason`), so either language can
show it. Only what is computed is said: the deadwood (or dead-card points, or points in
hand) the variant's solver finds after the action taken and after the search's choice,
whether the top discard joins a meld of the best arrangement, a close, knock or going
out passed up, and whether the next seat took the discarded card (the play that
followed, public once made) or picked up a card earlier that goes with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from remikit.actions import Action, Draw, Pass, Play
from remikit.cards import Card
from remikit.i18n import N_, t
from remikit.kinds import Place
from remikit.review.rate import Rating
from remikit.variants import find_playable
from remikit.views import PlayerView


@dataclass(frozen=True)
class Reason:
    """A message id and its fields."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, lang: str) -> str:
        return t(self.key, lang, **self.params)

    def as_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": self.params}


# -- what a variant computes of a hand --------------------------------------------------


class Hints(Protocol):
    """What a variant's review part (``review`` in its spec) computes of a hand."""

    left_message: str
    """The message that compares two discards by what they leave."""

    def left(self, view: PlayerView, hand: Sequence[Card]) -> int:
        """The points ``hand`` leaves (deadwood, dead cards, points in hand): lower is better."""

    def top_melds(self, view: PlayerView, top: Card) -> bool | None:
        """Whether ``top`` joins a meld of the best arrangement of the hand with it (None:
        the variant does not tell)."""

    def goes_out_with(self, left: int) -> bool:
        """Whether a hand leaving ``left`` goes out."""


def hints_of(view: PlayerView) -> Hints:
    hints: Hints = find_playable(view.variant).part("review")()
    return hints


# -- reasons ----------------------------------------------------------------------------


def _card(action: Action, view: PlayerView) -> Card | None:
    """The card ``action``, taken at ``view``, lets go of to end the turn: a discard's, a
    close's or a knock's (a single card from the hand onto the pile or out of play)."""
    previous = view.log[-1] if view.log else None
    for move in action.moves(previous):
        if move.source is Place.HAND and move.to in (Place.PILE, Place.OUT):
            return move.cards[0] if len(move.cards) == 1 else None
    return None


def _takes_discard(play: Play, previous: Play) -> bool:
    """Whether ``play``, after ``previous``, takes cards from the discard pile."""
    return any(m.source is Place.PILE and m.to is Place.HAND for m in play.action.moves(previous))


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


def _goes_with(card: Card, other: Card) -> bool:
    """Whether two natural cards may share a meld: the same rank, or the same suit at
    most two ranks apart."""
    if card.is_joker or other.is_joker:
        return False
    if card.rank == other.rank:
        return True
    return card.suit == other.suit and abs(int(card.rank) - int(other.rank)) <= 2


def _discard_reasons(view: PlayerView, rating: Rating, following: Play | None) -> list[Reason]:
    out: list[Reason] = []
    taken, best = rating.taken, rating.best
    card, best_card = _card(taken, view), _card(best, view)
    if best.missed is not None and type(taken) is not type(best):
        out.append(Reason(best.missed, {"card": str(best_card)}))
    if card is not None and best_card is not None and card != best_card:
        hints = hints_of(view)
        points = {c: hints.left(view, _without(view.hand, c)) for c in (card, best_card)}
        if hints.goes_out_with(points[best_card]) and not hints.goes_out_with(points[card]):
            out.append(Reason(N_("review.reason.missed_out"), {"card": str(best_card)}))
        out.append(
            Reason(
                hints.left_message,
                {
                    "card": str(card),
                    "points": points[card],
                    "best": str(best_card),
                    "best_points": points[best_card],
                },
            )
        )
        if points[best_card] >= points[card]:  # the difference lies elsewhere
            out.append(_worth(rating))
    if card is not None and following is not None and following.seat != view.seat:
        assert view.seat is not None  # a seat's decision
        picked = _takes_discard(following, Play(view.seat, taken))
        wanted = [
            c for s, c in view.taken_from_discard if s == following.seat and _goes_with(card, c)
        ]
        if picked:
            out.append(Reason(N_("review.reason.next_took"), {"card": str(card)}))
        elif wanted:
            out.append(
                Reason(
                    N_("review.reason.next_wants"),
                    {"card": str(card), "picked": " ".join(str(c) for c in wanted)},
                )
            )
    return out


def _draw_reasons(view: PlayerView) -> list[Reason]:
    if not view.discard_pile:
        return []
    top = view.discard_pile[-1]
    melds = hints_of(view).top_melds(view, top)
    if melds is None:
        return []
    key = N_("review.reason.top_melds") if melds else N_("review.reason.top_dead")
    return [Reason(key, {"card": str(top)})]


def reasons(view: PlayerView, rating: Rating, following: Play | None = None) -> list[Reason]:
    """Why the search rates the decision as it does, as far as a solver can tell;
    ``following`` is the play that came next in the deal (None when the deal ended)."""
    taken, best = rating.taken, rating.best
    if any(isinstance(a, Draw | Pass) for a in (taken, best)) and not any(
        _card(a, view) for a in (taken, best)
    ):
        out = _draw_reasons(view)
        if not rating.agreed:
            out.append(_worth(rating))
    else:
        out = _discard_reasons(view, rating, following)
    if not out and not rating.agreed:
        out.append(_worth(rating))
    return out


def _worth(rating: Rating) -> Reason:
    return Reason(N_("review.reason.worth"), {"cost": round(rating.cost, 1)})


def texts(found: Sequence[Reason], lang: str) -> str:
    """The reasons as one line of text."""
    return " ".join(r.text(lang) for r in found)
