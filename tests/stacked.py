"""Rule tests on a stacked deck: a game dealing chosen hands, moves written as text, and
the state a refused move must leave alone."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TypeVar

from remikit.actions import parse_action
from remikit.cards import Card
from remikit.engine import Game

Stacked = Callable[..., list[Card]]
"""The ``stacked`` fixture (conftest.py): a deck that deals chosen hands."""

G = TypeVar("G", bound=Game)


def deal_stacked(game: G, stacked: Stacked, hands: Sequence[str], *, dealer: int,
                 **deck: str) -> G:
    """``game`` (made with ``auto_deal=False``) with its first deal from a deck dealing
    ``hands`` by seat, then the cards ``deck`` names (``up``, ``stock``)."""
    game.start_deal(stacked(game.full_deck(), list(hands), dealer=dealer, **deck),
                    dealer=dealer)
    return game


def act(game: Game, *lines: str) -> None:
    """Apply moves written ``s1 draw stock`` (seat, then the action's text)."""
    for line in lines:
        seat, text = line.split(maxsplit=1)
        game.apply(int(seat[1:]), parse_action(text))


def snapshot(game: Game) -> tuple[object, ...]:
    """All there is to see of a game: its record, every view, totals, end and winner."""
    views = tuple(game.view(s) for s in [*range(game.players), None])
    return (json.dumps(game.record()), views, tuple(game.totals), game.over, game.winner)
