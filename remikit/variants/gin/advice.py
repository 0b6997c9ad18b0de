"""Gin Rummy's hints at the web table (the ``advice`` part), from the seat's own view only.

The deadwood of the best arrangement (G-2); whether the seat can knock or go gin now and
with which card (G-5, at the wall too, G-8); the best lay-down, its melds laid as
:mod:`.laydown` lays them (G-6); for the defender, the lay-offs onto the knocker's melds
that leave it the least deadwood, and that deadwood (G-6, the greedy bot's
:func:`~remikit.variants.gin.greedy.defence`); and a warning before a discard
that may meld with a card the other player took from the discard pile and still holds
(G-4: what the view's ``taken_from_discard``, the pile and the table show).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypedDict

from remikit.actions import LayOff
from remikit.cards import Card
from remikit.deal import Phase
from remikit.melds import Arrangement, Meld
from remikit.server.advice import BestArrangement, StateAdvice, discards, meld_json
from remikit.server.serialize import action_json, cards_json
from remikit.solver import Goal
from remikit.variants.gin.actions import Knock
from remikit.variants.gin.greedy import DECK, defence, seen
from remikit.variants.gin.laydown import split
from remikit.variants.gin.rules import min_deadwood
from remikit.variants.gin.scoring import SOLVER
from remikit.variants.gin.state import GinPhase
from remikit.views import PlayerView


class Knocking(TypedDict):
    """The knock that leaves the least deadwood (G-5): gin where it leaves none."""

    card: str
    deadwood: int


class LayingOff(TypedDict):
    """The defender's best lay-offs, in order, and its deadwood after them (G-6)."""

    plays: list[dict[str, Any]]
    deadwood: int


class GinStateAdvice(StateAdvice):
    """The state's advice with the knock and the lay-offs (null where they do not apply)."""

    knock: Knocking | None
    lay_off: LayingOff | None


class GinBest(BestArrangement):
    """The best arrangement with the knock that leaves it (null where none)."""

    knock: Knocking | None


def _solve(cards: Sequence[Card], goal: Goal | None = None) -> Arrangement:
    found = SOLVER.solve(cards) if goal is None else SOLVER.solve(cards, goal=goal)
    assert found is not None  # every hand has an arrangement (all cards dead at worst)
    return found


def discard_now(view: PlayerView) -> Arrangement | None:
    """The best arrangement after the seat's best discard or knock now: in the discard
    phase from its hand, the card just taken kept where it may not go back (G-4); at the
    wall from its hand and the upcard (G-8). None when the seat is not discarding."""
    if view.to_play != view.seat:
        return None
    if view.phase is Phase.DISCARD:
        return _solve(view.hand, Goal(discard=True, keep=view.kept_card))
    if view.phase is GinPhase.WALL and view.top_discard is not None:
        return _solve([*view.hand, view.top_discard], Goal(discard=True))
    return None


def knocking(view: PlayerView, found: Arrangement | None) -> Knocking | None:
    """The knock with the best discard ``found``, where the rules allow it now (G-5)."""
    if found is None or found.discard is None or Knock(found.discard) not in view.legal_actions:
        return None
    return {"card": str(found.discard), "deadwood": -found.value}


def _laid(melds: Sequence[Meld]) -> list[Meld]:
    """Melds as they are laid down: a run longer than five as two (G-2)."""
    return [
        Meld(m.kind, part, (None,) * len(part), m.points) for m in melds for part in split(m.cards)
    ]


def _mask(cards: Iterable[Card]) -> int:
    """The cards as bits by index."""
    bits = 0
    for card in cards:
        bits |= 1 << card.index
    return bits


_RANK_BITS = tuple(sum(1 << (suit * 13 + r0) for suit in range(4)) for r0 in range(13))
"""The four cards of each rank (by rank - 1) as bits."""


def _may_meld(card: Card, taken: Card, free: int) -> bool:
    """Whether ``card`` and ``taken`` make a meld of three with one card of ``free`` (bits by
    index: :func:`_mask`): a set, or a run with the Ace low (G-2)."""
    suit, r0 = divmod(card.index, 13)
    taken_suit, taken_r0 = divmod(taken.index, 13)
    if r0 == taken_r0:
        return bool(free & _RANK_BITS[r0] & ~(1 << card.index) & ~(1 << taken.index))
    low, high = sorted((r0, taken_r0))
    if suit != taken_suit or high - low > 2:
        return False
    thirds = (low + 1,) if high - low == 2 else (low - 1, high + 1)
    return any(0 <= r < 13 and free >> (suit * 13 + r) & 1 for r in thirds)


def _order(card: Card) -> tuple[int, int]:
    return (int(card.rank), -card.suit)


def warnings(view: PlayerView) -> list[dict[str, Any]]:
    """For each card the seat may discard: the cards the other player took from the
    discard pile and still holds (none of them back on the pile or on the table) that it
    may meld with, the third card of the meld being one the seat has not seen."""
    shown = seen(view)
    held = {c for seat, c in view.taken_from_discard if seat != view.seat} - shown
    if not held:
        return []
    free = _mask(DECK - shown)
    out = []
    for card in discards(view):
        joins = sorted((t for t in held if _may_meld(card, t, free)), key=_order)
        if joins:
            out.append({"card": str(card), "layoff": [], "call": False, "joins": cards_json(joins)})
    return out


def laying_off(view: PlayerView) -> tuple[int, list[LayOff]] | None:
    """The defender's lay-offs that leave it the least deadwood, in order, and that
    deadwood (G-6: in the lay-off phase every meld on the table is the knocker's); None
    but for the defender in the lay-off phase."""
    if view.to_play != view.seat or view.phase is not GinPhase.LAY_OFF:
        return None
    left, plays = defence(frozenset(view.hand), tuple(m.cards for m in view.table))
    return left, [LayOff(card, number) for card, number in plays]


class GinAdvice:
    """The hints of a Gin Rummy seat (:class:`~remikit.server.advice.Advisor`)."""

    def state(self, view: PlayerView) -> GinStateAdvice:
        """The deadwood now (after the best discard in the discard phase), the knock (G-5),
        the defender's lay-offs (G-6) and the discard warnings."""
        found = discard_now(view)
        knock = knocking(view, found)
        laying = laying_off(view)
        if found is not None and view.phase is Phase.DISCARD:
            deadwood = -found.value
        else:
            deadwood = min_deadwood(view.hand)
        return {
            "can_close": False,
            "close_card": None,
            "can_go_out": knock is not None,
            "go_out_discard": None if knock is None else knock["card"],
            "counter": {"deadwood": deadwood},
            "warnings": warnings(view),
            "knock": knock,
            "lay_off": None
            if laying is None
            else {"plays": [action_json(a) for a in laying[1]], "deadwood": laying[0]},
        }

    def best(self, view: PlayerView) -> GinBest:
        """The melds to lay (after the lay-offs, for the defender), the deadwood left and
        the discard or knock that leaves it."""
        found = discard_now(view)
        knock = knocking(view, found)
        if found is not None and (view.phase is Phase.DISCARD or knock is not None):
            rest, plays, discard = found, [], found.discard
        else:
            laying = laying_off(view)
            plays = [] if laying is None else laying[1]
            laid = {p.card for p in plays}
            rest, discard = _solve([c for c in view.hand if c not in laid]), None
        return {
            "melds": [meld_json(m) for m in _laid(rest.melds)],
            "plays": [action_json(a) for a in plays],
            "dead": cards_json(rest.dead),
            "points": -rest.value,
            "discard": None if discard is None else str(discard),
            "close": None,
            "goes_out": knock is not None,
            "knock": knock,
        }
