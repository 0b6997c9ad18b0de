"""Short reasons for a reviewed decision, from the seat's view and the rating alone.

Each reason is a message id with its fields (:class:`Reason`), so either language can
show it. Only what is computed is said: the deadwood (or dead-card points, or points in
hand) the variant's solver finds after the action taken and after the search's choice,
whether the top discard joins a meld of the best arrangement, a close, knock or going
out passed up, and whether the next seat took the discarded card (the play that
followed, public once made) or picked up a card earlier that goes with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from remikit.actions import Action, CallRummy, Close, Discard, Draw, Knock, Pass, Play
from remikit.cards import Card
from remikit.i18n import N_, t
from remikit.melds import AceMode
from remikit.review.rate import Rating
from remikit.solver import Goal
from remikit.variants.gin import scoring as gin
from remikit.variants.remi13d import scoring as remi13d
from remikit.variants.remi13d.rules import pure_rule_of
from remikit.variants.rummy500.melds import hand_points
from remikit.variants.rummy500.plan import Rules
from remikit.variants.three_thirteen import scoring as three_thirteen
from remikit.variants.three_thirteen.rules import options_of
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


# -- what a hand leaves, per variant ----------------------------------------------------


def _gin_left(view: PlayerView, hand: list[Card]) -> int:
    return gin.deadwood(hand).points


def _t13_ace(view: PlayerView) -> AceMode:
    return "high" if options_of(view).ace == "high" else "low"


def _t13_left(view: PlayerView, hand: list[Card]) -> int:
    return three_thirteen.deadwood_points(hand, round_no=view.deal_number, ace=_t13_ace(view))


def _remi13d_left(view: PlayerView, hand: list[Card]) -> int:
    found = remi13d.solver(pure_rule_of(view)).solve(hand)
    assert found is not None  # without goals every hand has an arrangement
    return -remi13d.dead_points(found.dead)


def _r5_left(view: PlayerView, hand: list[Card]) -> int:
    return hand_points(hand, Rules.of(view).scoring)


LEFT: dict[str, tuple[Callable[[PlayerView, list[Card]], int], str]] = {
    "gin": (_gin_left, N_("review.reason.deadwood")),
    "three-thirteen": (_t13_left, N_("review.reason.deadwood")),
    "remi13d": (_remi13d_left, N_("review.reason.dead_points")),
    "rummy500": (_r5_left, N_("review.reason.hand_points")),
}
"""Per variant: the points a hand leaves after a discard (lower is better) and the
message that compares two discards by them."""


def _top_melds(view: PlayerView, top: Card) -> bool | None:
    """Whether ``top`` joins a meld of the best arrangement of the hand with it, ``top``
    kept (None where the variant has no such solver)."""
    hand = [*view.hand, top]
    if view.variant == "gin":
        melds = gin.SOLVER.solve(hand, goal=Goal(discard=True, keep=top))
    elif view.variant == "three-thirteen":
        ace = _t13_ace(view)
        wild = three_thirteen.wild_rank(view.deal_number)
        melds = three_thirteen.solver(ace).solve(
            hand, wild_rank=wild, goal=Goal(discard=True, keep=top)
        )
    elif view.variant == "remi13d":
        melds = remi13d.solver(pure_rule_of(view)).solve(hand, goal=Goal(discard=True, keep=top))
    else:
        return None
    return melds is not None and any(top in m.cards for m in melds.melds)


# -- reasons ----------------------------------------------------------------------------


def _card(action: Action) -> Card | None:
    return action.card if isinstance(action, Discard | Close | Knock) else None


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
    card, best_card = _card(taken), _card(best)
    if isinstance(best, Close) and not isinstance(taken, Close):
        out.append(Reason(N_("review.reason.missed_close"), {"card": str(best.card)}))
    elif isinstance(best, Knock) and not isinstance(taken, Knock):
        out.append(Reason(N_("review.reason.missed_knock"), {"card": str(best.card)}))
    left = LEFT.get(view.variant)
    if card is not None and best_card is not None and card != best_card and left is not None:
        score, key = left
        points = {c: score(view, _without(view.hand, c)) for c in (card, best_card)}
        if view.variant == "three-thirteen" and points[best_card] == 0 < points[card]:
            out.append(Reason(N_("review.reason.missed_out"), {"card": str(best_card)}))
        out.append(
            Reason(
                key,
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
        picked = isinstance(following.action, CallRummy) or (
            isinstance(following.action, Draw) and following.action.source == "discard"
        )
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
    melds = _top_melds(view, top)
    if melds is None:
        return []
    key = N_("review.reason.top_melds") if melds else N_("review.reason.top_dead")
    return [Reason(key, {"card": str(top)})]


def reasons(view: PlayerView, rating: Rating, following: Play | None = None) -> list[Reason]:
    """Why the search rates the decision as it does, as far as a solver can tell;
    ``following`` is the play that came next in the deal (None when the deal ended)."""
    taken, best = rating.taken, rating.best
    if any(isinstance(a, Draw | Pass) for a in (taken, best)) and not any(
        _card(a) for a in (taken, best)
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
