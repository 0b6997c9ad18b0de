"""2,000 seeded Gin Rummy hands and 40 games to 100, invariants checked after every action.

Actions always come from ``game.legal_actions``. Purely random play almost never
knocks (it reaches the wall), so the chooser mixes: with probability
``RANDOM_SHARE`` any legal action, otherwise a discard that leaves the least
deadwood and a knock whenever one is legal; lay-downs and lay-offs are picked at
random among the legal ones, so the hands end every way G-6 … G-9 allow.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from remikit.actions import Action, Discard, MeldCards
from remikit.cards import Card
from remikit.engine import Phase
from remikit.records import replay
from remikit.variants.gin import melds
from remikit.variants.gin.actions import Knock
from remikit.variants.gin.rules import GinDeal, GinGame, GinOptions, min_deadwood
from remikit.variants.gin.state import GinEnding, GinPhase, GinViewPart
from tests.hidden import blind_view

HANDS = 2000
GAMES = 40
CHUNKS = 8
RANDOM_SHARE = 0.3


def options(seed: int) -> GinOptions:
    return GinOptions(
        knock=(10, 10, 5, 0)[seed % 4],
        oklahoma=seed % 7 == 3,
        discard_taken_card=seed % 5 != 1,
        target=(100, 50)[seed % 2],
    )


def deal_of(game: GinGame) -> GinDeal:
    deal = game.deals[-1]
    assert isinstance(deal, GinDeal)
    return deal


def choose(game: GinGame, seat: int, chooser: random.Random) -> Action:
    actions = game.legal_actions(seat)
    if chooser.random() < RANDOM_SHARE:
        return chooser.choice(actions)
    knocks = [a for a in actions if isinstance(a, Knock)]
    if knocks:
        return chooser.choice(knocks)
    discards = [a for a in actions if isinstance(a, Discard)]
    if discards:
        hand = deal_of(game).hands[seat]
        return min(discards, key=lambda a: min_deadwood([c for c in hand if c is not a.card]))
    return chooser.choice(actions)


def check_melds_offered(game: GinGame, seat: int, chooser: random.Random) -> None:
    """Every meld of the hand the rules accept is offered (in some order of its cards), and
    only those."""
    deal = deal_of(game)
    legal = {frozenset(a.cards) for a in game.legal_actions(seat) if isinstance(a, MeldCards)}
    hand = deal.hands[seat]
    for size in (3, 4, 5, 6):
        subsets = list(combinations(hand, size))
        for cards in chooser.sample(subsets, k=min(6, len(subsets))):
            meld = MeldCards(tuple(cards), (None,) * size)
            assert deal.can(seat, meld) == (frozenset(cards) in legal)


def check_invariants(game: GinGame, full: Counter[Card], chooser: random.Random) -> None:
    deal = deal_of(game)
    assert Counter(deal.cards_in_play()) == full, "every card is somewhere, once"
    sizes = [len(h) for h in deal.hands]
    if deal.phase in (GinPhase.OFFER, Phase.DRAW, GinPhase.WALL):
        assert sizes == [10, 10]
    elif deal.phase is Phase.DISCARD:
        assert sizes[deal.to_play or 0] == 11 and sum(sizes) == 21
    elif not deal.is_over:
        assert deal.knocker is not None and sizes[1 - deal.knocker] <= 10
    if deal.is_over:
        assert all(game.legal_actions(s) == [] for s in range(2))
    else:
        actor = deal.to_play
        assert actor is not None and game.legal_actions(actor), "someone can always act"
        assert game.legal_actions(1 - actor) == []
        assert len(deal.stock) >= 2, "the stock never goes below the wall (G-8)"
        if deal.phase in (GinPhase.LAY_DOWN, GinPhase.DEFEND):
            check_melds_offered(game, actor, chooser)
    for seat in (0, 1, None):
        view = game.view(seat)
        assert view.hand == (tuple(deal.hands[seat]) if seat is not None else ())
        assert view.stock_size == len(deal.stock) and GinViewPart.of(view).knock_limit == deal.limit
        assert blind_view(game, seat) == view, "a view must not change when hidden cards do"


def check_score(deal: GinDeal) -> None:
    summary = deal.summary
    assert summary is not None
    if summary.ended_by is not GinEnding.KNOCK:
        assert summary.points == (0, 0) and deal.returns() == (0, 0)
        return
    knocker = deal.knocker
    assert knocker is not None and summary.by_seat == knocker
    left = [melds.points(h) for h in deal.hands]
    assert left[knocker] <= deal.limit, "a knock ends within the limit (G-5)"
    result = deal.returns()[knocker]
    assert sum(deal.returns()) == 0
    assert summary.points[knocker] == max(result, 0)
    assert summary.points[1 - knocker] == max(-result, 0)
    if left[knocker] == 0:
        assert all(m.laid_by.count(1 - knocker) == 0 for m in deal.table if m.owner == knocker)


def play(seed: int, *, whole_game: bool) -> GinGame:
    game = GinGame(options(seed), rng=random.Random(seed), auto_deal=False)
    game.start_deal()
    full = Counter(game.full_deck())
    chooser = random.Random(-seed - 1)
    check_invariants(game, full, chooser)
    while not game.over:
        seat = game.to_play
        assert seat is not None
        game.apply(seat, choose(game, seat, chooser))
        check_invariants(game, full, chooser)
        deal = deal_of(game)
        if deal.is_over:
            check_score(deal)
            if not whole_game:
                break
            if not game.over:
                game.start_deal()
    return game


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_hands_keep_every_invariant(chunk: int) -> None:
    ended: Counter[str] = Counter()
    for seed in range(chunk * HANDS // CHUNKS, (chunk + 1) * HANDS // CHUNKS):
        game = play(seed, whole_game=False)
        summary = deal_of(game).summary
        assert summary is not None
        ended[summary.ended_by] += 1
        result = replay(game.record())
        assert result.ok and result.game is not None
        assert result.game.record() == game.record()
    assert ended["knock"] and ended["wall"], ended


@pytest.mark.parametrize("chunk", range(4))
def test_random_games_to_the_target(chunk: int) -> None:
    for seed in range(chunk * GAMES // 4, (chunk + 1) * GAMES // 4):
        game = play(seed, whole_game=True)
        assert game.over and game.winner is not None
        assert max(game.totals) >= game.options.target
        assert GinViewPart.of(game.view(0)).game_bonuses == game.bonuses and sum(game.bonuses) > 0
        result = replay(game.record())
        assert result.ok and result.finished and result.game is not None
        assert result.game.totals == game.totals and result.game.winner == game.winner
