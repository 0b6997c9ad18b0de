"""The check that a view leaks nothing: it must not change when hidden cards do."""

from __future__ import annotations

from collections.abc import Iterable

from remikit.cards import Card
from remikit.engine import Game
from remikit.views import PlayerView

FILLER = Card.parse("2c")


def blind_view(game: Game, seat: int | None, *, shown: Iterable[int | None] = ()) -> PlayerView:
    """The view of ``seat`` with every card it may not see replaced by a filler card:
    the other hands (but those in ``shown``) and the stock. The game is restored after."""
    deal = game.deals[-1]
    hands = [list(h) for h in deal.hands]
    stock = list(deal.stock)
    keep = {seat, *shown}
    try:
        for s, hand in enumerate(deal.hands):
            if s not in keep:
                hand[:] = [FILLER] * len(hand)
        deal.stock[:] = [FILLER] * len(deal.stock)
        return game.view(seat)
    finally:
        for hand, cards in zip(deal.hands, hands, strict=True):
            hand[:] = cards
        deal.stock[:] = stock
