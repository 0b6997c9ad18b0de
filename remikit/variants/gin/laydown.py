"""The best lay-down of a hand, one action at a time (G-6): what ``lay`` at the terminal
and "Lay down best" at the web table play.

The knocker lays the melds of the hand's least-deadwood arrangement; the defender
first lays off every card it can without leaving more deadwood, then lays its melds.
A run longer than five cards is laid as two melds (G-2).

>>> from remikit.cards import parse_cards
>>> [" ".join(map(str, m)) for m in split(parse_cards("As 2s 3s 4s 5s 6s 7s"))]
['As 2s 3s 4s', '5s 6s 7s']
"""

from __future__ import annotations

from collections.abc import Sequence

from remikit.actions import Action, LayOff, MeldCards, Pass
from remikit.cards import Card
from remikit.variants.gin.melds import MAX_MELD, is_run
from remikit.variants.gin.rules import min_deadwood
from remikit.variants.gin.scoring import deadwood
from remikit.variants.gin.state import GinPhase
from remikit.views import PlayerView


def split(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """A meld as melds of at most five cards: a long run cut into runs of three or more."""
    ordered = sorted(cards, key=lambda c: int(c.rank)) if is_run(cards) else list(cards)
    if len(ordered) <= MAX_MELD:
        return [tuple(ordered)]
    head = len(ordered) - 3 if len(ordered) <= MAX_MELD + 3 else MAX_MELD
    return [tuple(ordered[:head]), *split(ordered[head:])]


def best_melds(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The melds of the hand's least-deadwood arrangement, each of at most five cards."""
    return [part for meld in deadwood(hand).melds for part in split(meld.cards)]


def best_layoff(view: PlayerView) -> LayOff | None:
    """A legal lay-off that leaves no more deadwood than keeping the card (the first
    that frees a dead card, else one that keeps the deadwood)."""
    now = min_deadwood(view.hand)
    keeps = None
    for action in view.legal_actions:
        if isinstance(action, LayOff):
            left = min_deadwood([c for c in view.hand if c != action.card])
            if left < now:
                return action
            if left == now and keeps is None:
                keeps = action
    return keeps


def next_step(view: PlayerView) -> Action | None:
    """The next action of the best lay-down in the view's phase, ``pass`` once done;
    None outside the laying down."""
    if view.phase is GinPhase.LAY_OFF:
        return best_layoff(view) or Pass()
    if view.phase in (GinPhase.LAY_DOWN, GinPhase.DEFEND):
        melds = best_melds(view.hand)
        return MeldCards(melds[0], (None,) * len(melds[0])) if melds else Pass()
    return None
