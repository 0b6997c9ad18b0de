"""Seeded random play of every registered variant (:func:`remikit.variants.playable`),
every invariant of :mod:`tests.random_play` checked after every action.

Each seed draws its own table options from those the variant declares and a mix of
random and greedy seats; most seeds play one deal (of a game of a fixed number of deals,
any one of them), every sixth a whole game. A variant registered later is covered here
without a line of its own.
"""

from __future__ import annotations

from collections import Counter

import pytest

from remikit.engine import Game
from remikit.records import replay
from remikit.variants import VariantSpec, playable
from tests.random_play import fixed_length, play, whole_game

CHUNKS = [range(0, 24), range(24, 104), range(104, 184), range(184, 264)]
"""The seeds each variant plays, in chunks: the first is the fast tier's (``make check``),
the others are slow."""
VARIANTS = [pytest.param(spec, id=spec.name) for spec in playable()]


def check_game(spec: VariantSpec, game: Game) -> None:
    """The totals add up the deals (and the bonuses of a game's end); an ended game ended
    at its length, and its winner (if any) is the one best total; a game begun at its
    first deal replays to itself."""
    done = [d.summary for d in game.deals if d.summary is not None]
    bonuses = game.view(None).extra.as_json().get("game_bonuses") or (0,) * game.players
    assert game.totals == [
        sum(s.points[seat] for s in done) + bonuses[seat] for seat in range(game.players)
    ]
    if game.over:
        length = fixed_length(spec)
        if length is not None:
            assert len(game.deals) == length
        elif spec.client is not None:
            value = getattr(game.options, str(spec.client.length))
            assert len(game.deals) == value or max(game.totals) >= value
        best = min(game.totals) if game.lower_is_better else max(game.totals)
        leaders = [s for s, total in enumerate(game.totals) if total == best]
        assert leaders == [game.winner] if game.winner is not None else len(leaders) > 1
        assert game.view(0).winner == game.winner
    if game.deals[0].number == 1:
        result = replay(game.record())
        assert result.ok and result.game is not None, result.reason
        assert result.game.record() == game.record()
        assert result.game.totals == game.totals and result.finished == game.over
        assert result.game.winner == game.winner


SEEDS = [
    pytest.param(seeds, marks=[pytest.mark.slow] if i else [], id=f"seeds{seeds.start}")
    for i, seeds in enumerate(CHUNKS)
]


@pytest.mark.parametrize("seeds", SEEDS)
@pytest.mark.parametrize("spec", VARIANTS)
def test_random_play_keeps_every_invariant(spec: VariantSpec, seeds: range) -> None:
    by_a_seat = whole = ended = actions = 0
    refused: Counter[str] = Counter()
    for seed in seeds:
        game = play(spec, seed, refused=refused)
        check_game(spec, game)
        actions += sum(len(d.log) for d in game.deals)
        by_a_seat += sum(
            d.summary is not None and d.summary.by_seat is not None for d in game.deals
        )
        if whole_game(seed):
            whole += 1
            ended += game.over
    assert by_a_seat, "some deals end by a seat's close, knock or going out"
    assert ended >= whole / 2, "most whole games reach their end"
    assert refused.total() > actions, "more actions refused than taken"


@pytest.mark.parametrize("spec", VARIANTS)
def test_the_same_seed_plays_the_same_game_checked_or_not(spec: VariantSpec) -> None:
    for seed in (0, 1):
        checked = play(spec, seed).record()
        assert play(spec, seed, check=False).record() == checked
