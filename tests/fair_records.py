"""Game records of web tables with fair deals (docs/fairness.md): random bots play a game
whose every deck is the fair deck of a secret and the seats' contributions."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from remikit.bots import RandomBot
from remikit.fairness import DealFairness, fair_deck
from remikit.variants import find_playable

TABLE = "HTEAG5UY"


def fair_record(
    variant: str,
    options: Mapping[str, object],
    *,
    seed: int = 1,
    table: str = TABLE,
    contributing: frozenset[int] | None = None,
) -> dict[str, Any]:
    """The record of a game of ``variant`` played to its end by random bots, each hand
    with its ``fairness``: a secret drawn from ``seed``, a contribution from each seat of
    ``contributing`` (every seat when None) and null from the others."""
    rng = random.Random(seed)
    game_class = find_playable(variant).game_class()
    game = game_class(game_class.options_type.from_mapping(options), auto_deal=False)
    bots = [RandomBot(seed=seed * 100 + seat) for seat in range(game.players)]
    seats = range(game.players) if contributing is None else contributing
    fairness = []
    while not game.over:
        if game.needs_deal:
            secret = rng.randbytes(32)
            contributions = [
                rng.randbytes(32) if seat in seats else None for seat in range(game.players)
            ]
            game.start_deal(fair_deck(game.full_deck(), secret, contributions))
            number = len(game.deals)
            fairness.append(DealFairness.drawn(table, number, secret, contributions).as_json())
        seat = game.to_play
        assert seat is not None
        game.apply(seat, bots[seat].choose(game.view(seat)))
    record = game.record()
    for hand, fair in zip(record["hands"], fairness, strict=True):
        hand["fairness"] = fair
    return record
