"""Seeing a knock coming: the chance that the other seat knocks at one of its turns.

A seat that keeps its deadwood low throws its costliest unmatched card, so the
value of what it throws falls as its hand nears a knock (G-5); the longer the
hand runs, the nearer every hand is; a seat that takes upcards builds melds. A
logistic model reads these from the other seat's public play
(:func:`signs`): the hand's draws so far, the deadwood values of its last two
discards and the upcards it took. Its coefficients (:data:`MODEL`) were fitted
on hands of remikit's greedy bots against each other, with
``python bench/fit_knock.py --games 400 --seed 1``; they name no opponent.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from remikit.actions import Discard, Draw
from remikit.variants.gin.actions import Knock
from remikit.variants.gin.melds import value
from remikit.views import PlayerView

FEATURES = ("draws", "draws_squared", "last", "previous", "took")
MODEL = (-0.9023, 2.3491, -0.5546, -2.0213, -1.5266, 0.0558)
"""The intercept, then one log-odds per feature of :data:`FEATURES`."""
NONE_THROWN = 10
"""The value counted for a discard not yet made."""


def signs(plays: Sequence[tuple[int, object]], seat: int) -> tuple[int, int, int, int]:
    """What ``seat``'s public play shows before its next draw: the hand's draws so far,
    the values of its last and previous discards, the upcards it took."""
    draws = took = 0
    thrown: list[int] = []
    for who, action in plays:
        if isinstance(action, Draw):
            draws += 1
            if who == seat and action.source == "discard":
                took += 1
        elif who == seat and isinstance(action, Discard | Knock):
            thrown.append(value(action.card))
    last = thrown[-1] if thrown else NONE_THROWN
    previous = thrown[-2] if len(thrown) > 1 else NONE_THROWN
    return draws, last, previous, took


def features(draws: int, last: int, previous: int, took: int) -> tuple[float, ...]:
    d = draws / 10
    return (d, d * d, last / 10, previous / 10, float(took))


def knock_chance(draws: int, last: int, previous: int, took: int) -> float:
    """The model's chance that the seat knocks in its turn at draw number ``draws``."""
    z = MODEL[0] + sum(
        b * x for b, x in zip(MODEL[1:], features(draws, last, previous, took), strict=True)
    )
    return 1 / (1 + math.exp(-z))


def risks(view: PlayerView, turns: int) -> list[float]:
    """The chance that the other seat knocks at each of its next ``turns`` turns, if it has
    not before (it draws next, then every second draw)."""
    assert view.seat is not None
    other = 1 - view.seat
    draws, last, previous, took = signs([(p.seat, p.action) for p in view.log], other)
    mine = 1 if len(view.hand) <= 10 else 0  # this seat draws first
    return [knock_chance(draws + mine + 2 * k, last, previous, took) for k in range(turns)]
