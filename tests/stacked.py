"""Rule tests on a stacked deck: a game dealing chosen hands, moves written as text, and
the state a refused move must leave alone."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from remikit.actions import parse_action
from remikit.cards import Card, parse_cards
from remikit.engine import Game
from remikit.records import apply_recorded

Stacked = Callable[..., list[Card]]
"""The ``stacked`` fixture (conftest.py): a deck that deals chosen hands."""

G = TypeVar("G", bound=Game)


def deal_stacked(game: G, stacked: Stacked, hands: Sequence[str], *, dealer: int, **deck: str) -> G:
    """``game`` (made with ``auto_deal=False``) with its first deal from a deck dealing
    ``hands`` by seat, then the cards ``deck`` names (``up``, ``stock``)."""
    game.start_deal(stacked(game.full_deck(), list(hands), dealer=dealer, **deck), dealer=dealer)
    return game


def act(game: Game, *lines: str) -> None:
    """Apply moves written ``s1 draw stock`` (seat, then the action's text), as a record
    does (a Rummy call window's passes may be left out)."""
    for line in lines:
        seat, text = line.split(maxsplit=1)
        apply_recorded(game, int(seat[1:]), parse_action(text))


def snapshot(game: Game) -> tuple[object, ...]:
    """All there is to see of a game: its record, every view, totals, end and winner."""
    views = tuple(game.view(s) for s in [*range(game.players), None])
    return (json.dumps(game.record()), views, tuple(game.totals), game.over, game.winner)


def stack_deck(
    full: Sequence[Card],
    hands: Sequence[str] | Mapping[int, str],
    *,
    dealer: int,
    up: str = "",
    stock: str = "",
    players: int | None = None,
    size: int | None = None,
) -> list[Card]:
    """A deck that deals ``hands[seat]`` to each seat (``dealer`` dealing, one card at a
    time from the seat after the dealer), then ``up`` (the up-card, if any), then ``stock``
    from the top; the rest of ``full`` follows in order. ``hands`` may name only some seats
    (a mapping): the others get the first cards of ``full`` nobody else is given, and
    ``players`` and ``size`` say how many seats there are and how many cards each holds."""
    given = dict(enumerate(hands)) if isinstance(hands, Sequence) else dict(hands)
    fixed = {seat: parse_cards(text) for seat, text in given.items()}
    players = len(fixed) if players is None else players
    size = len(next(iter(fixed.values()))) if size is None else size
    rest = Counter(full)
    for cards in [*fixed.values(), parse_cards(up), parse_cards(stock)]:
        rest.subtract(Counter(cards))
    assert all(n >= 0 for n in rest.values()), f"more cards than the deck has: {-rest}"
    spare = []
    for card in full:
        if rest[card] > 0:
            spare.append(card)
            rest[card] -= 1
    for seat in range(players):
        if seat not in fixed:
            fixed[seat], spare = spare[:size], spare[size:]
    assert all(len(h) == size for h in fixed.values()), "every hand must have the same size"
    order = [(dealer + 1 + i) % players for i in range(players)]
    deck = [fixed[seat][i] for i in range(size) for seat in order]
    return deck + parse_cards(up) + parse_cards(stock) + spare
