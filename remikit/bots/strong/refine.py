"""Sampled worlds that look played.

:func:`~remikit.bots.strong.determinize.determinize` deals the unseen cards
at random, so a sampled opponent holds a random hand; a real one has kept,
turn after turn, what helps it. :func:`refine_world` lets each other seat
swap, once per turn it has played, a random stock card in and the card its
variant's fast policy likes least back into the stock. What the seat has
seen is respected as before: hand sizes, the multiset of cards, and the
cards known to be in a hand (taken from the discard pile) stay where they are.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from remikit.actions import Draw
from remikit.bots.strong.determinize import Determinization, Knowledge
from remikit.cards import Card
from remikit.views import PlayerView

REFINE_TURNS = 10
"""At most this many swaps per hand."""

LeastUseful = Callable[[Sequence[Card], Sequence[Card]], Card]
"""``(hand, among)``: the card of ``among`` (some cards of ``hand``) to give up."""


def refine_world(
    view: PlayerView,
    world: Determinization,
    known: Knowledge,
    rng: random.Random,
    least_useful: LeastUseful,
) -> Determinization:
    """``world`` with the other seats' unknown cards improved by swaps (module docstring)."""
    seat = view.seat
    turns = [0] * view.players
    for play in view.log:
        if isinstance(play.action, Draw):
            turns[play.seat] += 1
    hands = [list(h) for h in world.hands]
    stock = list(world.stock)
    for s, hand in enumerate(hands):
        if s == seat or not stock:
            continue
        fixed = list(known.known[s])
        free = list(hand)
        for card in fixed:
            free.remove(card)
        for _ in range(min(turns[s], REFINE_TURNS)):
            if not free:
                break
            pick = rng.randrange(len(stock))
            free.append(stock[pick])
            out = least_useful(fixed + free, free)
            free.remove(out)
            stock[pick] = out
        hands[s] = fixed + free
    rng.shuffle(stock)
    return Determinization(tuple(tuple(h) for h in hands), tuple(stock))
