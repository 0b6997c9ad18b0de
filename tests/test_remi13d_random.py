"""1,000 seeded Remi 13 D games with invariants checked after every action.

Half the seats (alternating with the seed) are greedy bots deciding from their
own views, the others play uniformly random legal actions.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from remikit.bots import make_bot
from remikit.cards import make_deck
from remikit.engine import Phase
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
from tests.hidden import blind_view

FULL = Counter(make_deck(decks=2, jokers=4))
GAMES = 1000
CHUNKS = 10


def check_invariants(game: Remi13DGame) -> None:
    deal = game.deals[-1]
    assert Counter(deal.cards_in_play()) == FULL, "every one of the 108 cards is somewhere"
    for seat, hand in enumerate(deal.hands):
        drawn = seat == deal.to_play and deal.phase is Phase.DISCARD
        assert len(hand) == (14 if drawn else 13), "13 cards between turns (R13-4)"
    if not game.over:
        assert deal.to_play is not None and game.legal_actions(deal.to_play)
        for seat in range(4):
            if seat != deal.to_play:
                assert game.legal_actions(seat) == []
    else:
        assert all(game.legal_actions(s) == [] for s in range(4))
    for seat in range(4):
        view = game.view(seat)
        assert list(view.hand) == deal.hands[seat]
        assert blind_view(game, seat) == view, "a view must not change when hidden cards do"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk: int) -> None:
    for seed in range(chunk * GAMES // CHUNKS, (chunk + 1) * GAMES // CHUNKS):
        game = Remi13DGame(Remi13DOptions(games=1), rng=random.Random(seed))
        chooser = random.Random(-seed - 1)
        greedy = {seat: make_bot("greedy", seed=seed) for seat in range(seed % 2, 4, 2)}
        check_invariants(game)
        while not game.over:
            seat = game.to_play
            assert seat is not None
            if seat in greedy:
                action = greedy[seat].choose(game.view(seat))
                assert action in game.legal_actions(seat)
            else:
                action = chooser.choice(game.legal_actions(seat))
            game.apply(seat, action)
            if not game.over:
                check_invariants(game)
        deal = game.deals[-1]
        assert deal.summary is not None
        assert game.totals == list(deal.summary.points)
        check_invariants(game)
