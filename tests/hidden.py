"""The check that a view (and an environment's observation) leaks nothing: it must not
change when hidden cards do."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from remikit.cards import Card
from remikit.engine import Game
from remikit.views import PlayerView

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from remikit.envs.aec import RemiEnv

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


def blind_observation(env: RemiEnv, agent: str) -> NDArray[np.float32]:
    """The observation an environment's agent would get with every card it may not see
    replaced by a filler card (:func:`blind_view`), choosing the same action tokens."""
    view = blind_view(env.game, env.seat(agent))
    return env.layout.encode(view, env.codec, env._pending)


def check_no_early_secret(secrets: Mapping[int, str], messages: Iterable[dict[str, Any]]) -> int:
    """No message holds the secret (hex) of a deal that was not over when it was sent
    (docs/fairness.md): the state messages say how many deals were over; a message
    without a view is judged by the state before it. Returns how many were checked."""
    over = checked = 0
    for message in messages:
        view = message.get("view") if message.get("type") == "state" else None
        if isinstance(view, dict):
            over = len(view["finished_deals"])
        text = json.dumps(message)
        for number, secret in secrets.items():
            assert number <= over or secret not in text, f"deal {number}'s secret left early"
        checked += 1
    return checked
