"""The greedy Gin Rummy strategy: the least deadwood now, a knock as soon as one is legal.

The greedy bot asks :meth:`GinStrategy.draw` in the draw phase and
:meth:`GinStrategy.discard` in every other phase, so the strategy answers by
``view.phase``: it takes the upcard (G-3, G-4) when the least deadwood after the
best discard goes down; it discards to the least deadwood, keeping among equal
cards the one more cards still to come would meld; it knocks (G-5) as soon as it
may, with the card that leaves the least deadwood (gin when it can), at the wall
too (G-8); laying down (G-6) it lays melds of at most five cards (G-2) for as
long as one leaves the least deadwood; as the defender it lays off and lays
melds so that its final deadwood is the least possible (:func:`best_defence`,
exact over every order of lay-offs, one lay-off opening the way for the next).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from remikit.actions import Action, Discard, Draw, LayOff, MeldCards, Pass
from remikit.bots.greedy import draw_choice
from remikit.cards import Card, Suit, make_deck
from remikit.deal import Phase
from remikit.solver import Goal
from remikit.variants.gin import melds
from remikit.variants.gin.actions import Knock
from remikit.variants.gin.rules import min_deadwood
from remikit.variants.gin.scoring import SOLVER
from remikit.variants.gin.state import GinPhase
from remikit.views import PlayerView


def after_discard(hand: Sequence[Card], card: Card) -> int:
    """The least deadwood of ``hand`` without ``card``."""
    rest = list(hand)
    rest.remove(card)
    return min_deadwood(rest)


def best_after_discard(hand: Sequence[Card], kept: Card | None = None) -> int:
    """The least deadwood ``hand`` leaves after its best discard (never ``kept``): one
    search that chooses the discard too."""
    return -SOLVER.value(hand, goal=Goal(discard=True, keep=kept))


def takes_upcard(view: PlayerView) -> bool:
    """Whether the upcard lowers the least deadwood after the best discard (G-4)."""
    top = view.top_discard
    if top is None:
        return False
    kept = None if view.options.discard_taken_card else top
    return best_after_discard([*view.hand, top], kept) < min_deadwood(view.hand)


def best_knock(view: PlayerView) -> Knock | None:
    """The legal knock that leaves the least deadwood (gin first), or None."""
    knocks = [a for a in view.legal_actions if isinstance(a, Knock)]
    if not knocks:
        return None
    cards = list(view.hand)
    if view.phase is GinPhase.WALL and view.top_discard is not None:
        cards.append(view.top_discard)  # G-8: the knock takes the upcard first
    return min(knocks, key=lambda k: (after_discard(cards, k.card), -melds.value(k.card)))


DECK = frozenset(make_deck())


def seen(view: PlayerView) -> set[Card]:
    """The cards the seat sees: its hand, the pile and the table's melds."""
    return {*view.hand, *view.discard_pile, *(c for m in view.table for c in m.cards)}


def live(view: PlayerView) -> frozenset[Card]:
    """The cards the seat may still draw, as far as its view tells: none it sees, nor one
    another seat took from the pile."""
    taken = {card for seat, card in view.taken_from_discard if seat != view.seat}
    return DECK - seen(view) - taken


def outs(card: Card, hand: Sequence[Card], drawable: frozenset[Card]) -> int:
    """How many drawable cards would make ``card`` a meld of three with another card of
    ``hand``."""
    rank, suit = int(card.rank), card.suit
    held = set(hand)
    found: set[Card] = set()
    for other in Suit:
        if other != suit and Card.of(rank, other) in held:
            found.update(Card.of(rank, s) for s in Suit if s not in (suit, other))
    for low in range(rank - 2, rank + 1):
        window = [Card.of(r, suit) for r in range(low, low + 3) if 1 <= r <= 13]
        if len(window) == 3:
            others = [c for c in window if c is not card]
            if others[0] in held:
                found.add(others[1])
            elif others[1] in held:
                found.add(others[0])
    return len(found & drawable)


def best_discard(view: PlayerView) -> Discard:
    """The legal discard that leaves the least deadwood; among equals, the card fewest
    drawable cards would meld, then the costliest."""
    discards = [a for a in view.legal_actions if isinstance(a, Discard)]
    hand, drawable = view.hand, live(view)
    return min(
        discards,
        key=lambda d: (
            after_discard(hand, d.card),
            outs(d.card, hand, drawable),
            -melds.value(d.card),
        ),
    )


def next_meld(view: PlayerView) -> Action:
    """A legal meld that keeps the least deadwood reachable (the longest first), else pass."""
    hand = view.hand
    least = min_deadwood(hand)
    laid = [a for a in view.legal_actions if isinstance(a, MeldCards)]
    for meld in sorted(laid, key=lambda m: -len(m.cards)):
        if min_deadwood([c for c in hand if c not in meld.cards]) == least:
            return meld
    return Pass()


Table = tuple[tuple[Card, ...], ...]
"""The knocker's melds as they lie, by table number from 1 (lay-offs included)."""


@cache
def defence(hand: frozenset[Card], table: Table) -> tuple[int, tuple[tuple[Card, int], ...]]:
    """The least final deadwood of the defender holding ``hand`` against ``table``, and
    the lay-offs (card, meld number) that reach it, in order; melds laid after them."""
    best: tuple[int, tuple[tuple[Card, int], ...]] = (min_deadwood(sorted(hand)), ())
    for number, meld in enumerate(table, 1):
        for card in melds.layoff_cards(meld):
            if card in hand:
                grown = (*table[: number - 1], (*meld, card), *table[number:])
                left, rest = defence(hand - {card}, grown)
                if left < best[0]:
                    best = (left, ((card, number), *rest))
    return best


def best_defence(view: PlayerView) -> Action:
    """The first lay-off of the defender's best defence (:func:`defence`), else pass."""
    if not any(isinstance(a, LayOff) for a in view.legal_actions):
        return Pass()
    table = tuple(m.cards for m in view.table)
    _, layoffs = defence(frozenset(view.hand), table)
    if not layoffs:
        return Pass()
    first = LayOff(*layoffs[0])
    return first if first in view.legal_actions else Pass()


class GinStrategy:
    """Greedy Gin Rummy (module docstring)."""

    def draw(self, view: PlayerView) -> Action:
        return draw_choice(view, takes_upcard(view))

    def discard(self, view: PlayerView) -> Action:
        phase = view.phase
        if phase is GinPhase.OFFER:
            return Draw("discard") if takes_upcard(view) else Pass()
        if phase in (Phase.DISCARD, GinPhase.WALL):
            knock = best_knock(view)
            if knock is not None:
                return knock
            return best_discard(view) if phase is Phase.DISCARD else Pass()
        if phase in (GinPhase.LAY_DOWN, GinPhase.DEFEND):
            return next_meld(view)
        if phase is GinPhase.LAY_OFF:
            return best_defence(view)
        return view.legal_actions[0]
