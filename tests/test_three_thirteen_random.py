"""1,000 seeded Three-Thirteen games with invariants checked after every action.

The sample: seeds where ``seed % 20 == 0`` (50 of them) play a full game of
11 rounds; the other 950 play one round, the round number spread over 1 … 11
(a round r > 1 is started directly with the engine's own ``make_deal``, at the
dealer the rotation gives it). Tables spread over 2 … 8 players, jokers 0, 2
and 4 (8 players always with jokers), both ace modes, and ``discard_taken_card``
on a quarter of them.

Actions are always chosen from ``game.legal_actions``: draws at random; a
discard at random with probability ``RANDOM_DISCARD``, otherwise the discard
that leaves the least deadwood. Purely random discards rarely complete a hand
of 10 or more cards, so a purely random round 11 can run past the engine's
cap of actions per deal; the greedy share makes rounds end in tens of turns
while still wandering through the stock running out and being refilled.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from remikit.actions import Action, Discard
from remikit.cards import Card
from remikit.engine import Phase
from remikit.records import replay
from remikit.variants.three_thirteen import scoring
from remikit.variants.three_thirteen.rules import (
    ThreeThirteenDeal,
    ThreeThirteenGame,
    ThreeThirteenOptions,
)
from remikit.variants.three_thirteen.state import ThreeThirteenViewPart
from tests.hidden import blind_view

GAMES = 1000
CHUNKS = 10
FULL_GAME_EVERY = 20
RANDOM_DISCARD = 0.35


def table(seed: int) -> ThreeThirteenOptions:
    players = 2 + seed % 7
    jokers = (0, 2, 4)[seed // 7 % 3]
    if players == 8 and jokers == 0:
        jokers = 2
    return ThreeThirteenOptions(
        players=players,
        jokers=jokers,
        ace=("low", "high")[seed // 21 % 2],
        discard_taken_card=seed // 42 % 4 == 0,
    )


def is_full_game(seed: int) -> bool:
    return seed % FULL_GAME_EVERY == 0


def start(seed: int) -> ThreeThirteenGame:
    """A full game (round 1 dealt), or a game whose only deal is one later round."""
    game = ThreeThirteenGame(table(seed), rng=random.Random(seed), auto_deal=False)
    round_no = 1 if is_full_game(seed) else 1 + seed // 3 % 11
    if round_no == 1:
        game.start_deal()
        return game
    players = game.players
    dealer = (players - 1 + round_no - 1) % players
    deck = game.new_deck()
    deal = game.make_deal(number=round_no, dealer=dealer, first=(dealer + 1) % players)
    deal.deal(deck)
    game.deals.append(deal)
    return game


def deal_of(game: ThreeThirteenGame) -> ThreeThirteenDeal:
    deal = game.deals[-1]
    assert isinstance(deal, ThreeThirteenDeal)
    return deal


def choose(game: ThreeThirteenGame, seat: int, chooser: random.Random) -> Action:
    actions = game.legal_actions(seat)
    deal = deal_of(game)
    if deal.phase is Phase.DISCARD and chooser.random() >= RANDOM_DISCARD:
        keep = None if deal.options.discard_taken_card else deal.just_taken
        best = scoring.deadwood(
            deal.hands[seat],
            round_no=deal.round_no,
            ace=deal.options.ace_mode,
            discard=True,
            keep=keep,
        )
        assert best.discard is not None
        greedy = Discard(best.discard)
        assert greedy in actions
        return greedy
    return chooser.choice(actions)


def check_invariants(game: ThreeThirteenGame, full: Counter[Card]) -> None:
    deal = deal_of(game)
    size = deal.round_no + 2
    assert Counter(deal.cards_in_play()) == full, "every card is in a hand, the stock or the pile"
    for seat, hand in enumerate(deal.hands):
        drawn = seat == deal.to_play and deal.phase is Phase.DISCARD
        assert len(hand) == size + drawn, "r+2 cards between turns, r+3 after the draw"
    if deal.is_over:
        assert all(game.legal_actions(s) == [] for s in range(game.players))
    else:
        actor = deal.to_play
        assert actor is not None and game.legal_actions(actor), "someone can always act"
        assert all(game.legal_actions(s) == [] for s in range(game.players) if s != actor)
        if deal.phase is Phase.DRAW:
            assert deal.stock, "a turn never starts with an empty stock (R3-5)"
        assert actor != deal.went_out, "the player who went out takes no final turn"
    for seat in [*range(game.players), None]:
        view = game.view(seat)
        assert view.hand == (tuple(deal.hands[seat]) if seat is not None else ())
        assert view.hand_sizes == tuple(len(h) for h in deal.hands)
        assert view.stock_size == len(deal.stock)
        assert view.discard_pile == tuple(deal.discard_pile)
        assert ThreeThirteenViewPart.of(view).wild_rank == scoring.wild_rank(deal.round_no).label
        assert view.to_play == deal.to_play and view.deal_number == deal.round_no
        blind = blind_view(game, seat, shown=[deal.went_out])  # R3-6: a hand gone out is shown
        assert blind == view, "a view must not change when cards hidden from it do"


def check_scores(deal: ThreeThirteenDeal) -> None:
    summary = deal.summary
    assert summary is not None and len(summary.results) == deal.players
    for seat, result in enumerate(summary.results):
        ace = deal.options.ace_mode
        assert result.points == scoring.deadwood_points(
            deal.hands[seat], round_no=deal.round_no, ace=ace
        )
        melded = [Card.parse(t.split("=")[0]) for meld in result.melds for t in meld]
        assert Counter(melded + list(result.dead)) == Counter(deal.hands[seat])
        assert result.went_out == (seat == deal.went_out)
    if summary.ended_by == "out":
        assert deal.went_out is not None and summary.by_seat == deal.went_out
        assert summary.points[deal.went_out] == 0
        assert len(deal.log) >= 2 * deal.players  # the one going out and each final turn
    else:
        assert summary.ended_by == "stock"


def play(seed: int, *, check: bool) -> ThreeThirteenGame:
    game = start(seed)
    full = Counter(game.full_deck())
    chooser = random.Random(-seed - 1)
    if check:
        check_invariants(game, full)
    while not game.over:
        seat = game.to_play
        assert seat is not None
        game.apply(seat, choose(game, seat, chooser))
        deal = deal_of(game)
        if check:
            check_invariants(game, full)
        if deal.is_over:
            if check:
                check_scores(deal)
            if not is_full_game(seed):
                break  # a single-round sample
            if not game.over:
                game.start_deal()
                if check:
                    check_invariants(game, full)
    return game


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk: int) -> None:
    for seed in range(chunk * GAMES // CHUNKS, (chunk + 1) * GAMES // CHUNKS):
        game = play(seed, check=True)
        done = [d for d in game.deals if d.summary is not None]
        assert game.totals == [
            sum(d.summary.points[s] for d in done if d.summary) for s in range(game.players)
        ]
        if not is_full_game(seed):
            assert len(game.deals) == 1 and not game.over
            continue
        assert game.over and len(game.deals) == 11
        best = min(game.totals)
        leaders = [s for s, t in enumerate(game.totals) if t == best]
        assert game.winner == (leaders[0] if len(leaders) == 1 else None)
        assert game.view(0).game_over
        # the record replays to the same game
        result = replay(game.record())
        assert result.ok and result.finished and result.game is not None
        assert result.game.totals == game.totals and result.game.winner == game.winner
        assert result.game.record() == game.record()


@pytest.mark.parametrize("seed", [0, 3, 10, 41, 60, 77])
def test_same_seed_gives_the_same_record(seed: int) -> None:
    assert play(seed, check=False).record() == play(seed, check=False).record()
