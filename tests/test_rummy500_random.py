"""1,000 seeded Rummy 500 games of random legal play, invariants checked after every action.

Games are spread over 2, 4 and 8 players with a mix of table options. Most
play to a target of 150 (every tenth to the default 500) so that random play
finishes in reasonable time; a game still running after 30 hands is stopped
there (random players often score below zero, so a target may never be
reached). Whenever a Rummy call is open, a random other seat that has one
takes it with probability 0.3.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from remikit.actions import Action, Discard, Pass
from remikit.cards import Card
from remikit.engine import Phase
from remikit.records import replay
from remikit.variants.rummy500.actions import CallRummy
from remikit.variants.rummy500.melds import PlacedMeld, hand_points, resolve_meld
from remikit.variants.rummy500.rules import Rummy500Deal, Rummy500Game, Rummy500Options
from remikit.variants.rummy500.state import Rummy500Phase
from tests.hidden import blind_view

GAMES = 1000
CHUNKS = 10
MAX_HANDS = 30
CALL_CHANCE = 0.3


def options_for(seed: int) -> Rummy500Options:
    rng = random.Random(f"options {seed}")
    return Rummy500Options(
        players=(2, 4, 8)[seed % 3],
        target=500 if seed % 20 == 0 else 150 if seed % 5 == 0 else 50,
        jokers=rng.random() < 0.8,
        scoring=rng.choice(("standard", "5-10-15")),
        rummy_calls=rng.random() < 0.8,
        floating=rng.random() < 0.3,
        unplayable_last_discard=rng.random() < 0.3,
        discard_taken_card=rng.random() < 0.2,
        joker_layoff=rng.choice(("runs", "any")),  # R5-6
    )


CHECKED: set[PlacedMeld] = set()


def check_meld(meld: PlacedMeld, number: int) -> None:
    """A table meld is still a valid meld with the same declarations."""
    assert meld.number == number
    if meld in CHECKED:  # melds are immutable: each one is checked once
        return
    stands = [s.identity if s.card.is_joker else None for s in meld.slots]
    again = resolve_meld(meld.cards(), stands, seat=0, number=number)
    assert again.kind == meld.kind
    assert sorted(s.identity for s in again.slots) == sorted(s.identity for s in meld.slots)
    if meld.kind == "run":
        positions = [s.position for s in meld.slots]
        assert positions == list(range(meld.low, meld.high + 1))
        assert all(s.identity.suit == meld.suit for s in meld.slots)
    else:
        assert 3 <= len(meld.slots) <= 4
        assert len({s.identity.suit for s in meld.slots}) == len(meld.slots)
    if len(CHECKED) > 100_000:
        CHECKED.clear()
    CHECKED.add(meld)


def check_invariants(game: Rummy500Game, full: Counter[Card]) -> None:
    deal = game.deals[-1]
    assert isinstance(deal, Rummy500Deal)
    assert Counter(deal.cards_in_play()) == full, "every card is somewhere"
    credits = [0] * game.players
    for number, meld in enumerate(deal.table, start=1):
        check_meld(meld, number)
        for slot in meld.slots:
            credits[slot.seat] += slot.points(game.options.scoring)
    assert sum(credits) == deal.table_points(), "table credits add up to the table"
    if deal.summary is not None:
        for seat, result in enumerate(deal.summary.results):
            assert result.points == credits[seat] - hand_points(
                deal.hands[seat], game.options.scoring
            )
    views = []
    for seat in range(game.players):
        view = game.view(seat)
        assert list(view.hand) == deal.hands[seat]
        assert blind_view(game, seat) == view, "a view must not change when hidden cards do"
        views.append(view)
    if game.over or deal.is_over:
        assert all(v.legal_actions == () for v in views)
        return
    to_play = deal.to_play
    assert to_play is not None
    legal = views[to_play].legal_actions
    assert legal, "the seat to play always has something to do"
    if deal.must_meld is not None:
        assert not any(isinstance(a, Discard) for a in legal)
    if deal.phase is Phase.DISCARD:
        assert deal.hands[to_play], "a turn never waits with an empty hand"
    for seat, view in enumerate(views):
        if seat != to_play:
            assert view.legal_actions == (), "only the seat to play (or asked) acts"
    if deal.phase is Rummy500Phase.CALL:  # R5-10: the seat asked calls or passes, nothing else
        assert deal.rummy_from is not None and to_play in deal.call_order(deal.rummy_from)
        assert Pass() in legal and all(isinstance(a, CallRummy | Pass) for a in legal)


def play(seed: int, *, check: bool = True) -> Rummy500Game:
    game = Rummy500Game(options_for(seed), rng=random.Random(seed))
    chooser = random.Random(-seed - 1)
    full = Counter(game.full_deck())
    if check:
        check_invariants(game, full)
    while not game.over and len(game.deals) <= MAX_HANDS:
        deal = game.deals[-1]
        assert isinstance(deal, Rummy500Deal) and deal.to_play is not None
        seat = deal.to_play
        legal = game.legal_actions(seat)
        if deal.phase is Rummy500Phase.CALL:  # a call now and then, else a pass
            calls = [a for a in legal if isinstance(a, CallRummy)]
            action: Action = chooser.choice(calls) if chooser.random() < CALL_CHANCE else Pass()
        else:
            action = chooser.choice(legal)
        game.apply(seat, action)
        if check:
            check_invariants(game, full)
    return game


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk: int) -> None:
    for seed in range(chunk * GAMES // CHUNKS, (chunk + 1) * GAMES // CHUNKS):
        game = play(seed)
        finished = [d for d in game.deals if d.summary is not None]
        assert finished
        assert game.totals == [
            sum(d.summary.points[s] for d in finished if d.summary) for s in range(game.players)
        ]
        if game.over:
            best = max(game.totals)
            assert best >= game.options.target and game.totals.count(best) == 1
            assert game.winner == game.totals.index(best)
        if seed % 25 == 0:
            again = replay(game.record())
            assert again.ok and again.game is not None
            assert again.game.totals == game.totals and again.finished == game.over
