"""Bots: they see only their own seat's view, are reproducible, close well and never cheat."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import fields

import pytest

from remikit.actions import Action, Discard, Draw
from remikit.bots import Bot, GreedyBot, RandomBot, check_view, make_bot, parse_bot_name, play_game
from remikit.cards import JOKER, Card, make_deck, parse_cards
from remikit.engine import Game
from remikit.variants import find_variant
from remikit.variants.remi13d import scoring as remi13d
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.hints import may_hold_pure_run
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
from remikit.variants.three_thirteen import scoring as three_thirteen
from remikit.variants.three_thirteen.rules import ThreeThirteenGame, ThreeThirteenOptions
from remikit.views import PlayerView

Stack = Callable[..., list[Card]]


class Spy(Bot):
    """A bot that records what it is handed and checks its answer is legal."""

    def __init__(self, inner: Bot, game: Game, seat: int) -> None:
        self.inner = inner
        self.name = inner.name
        self.game = game
        self.seat = seat
        self.calls = 0

    def choose(self, view: PlayerView) -> Action:
        assert type(view) is PlayerView
        assert view.seat == self.seat
        deal = self.game.deal
        assert deal is not None
        assert sorted(view.hand) == sorted(deal.hands[self.seat])
        assert view.hand_sizes == tuple(len(h) for h in deal.hands)
        self.calls += 1
        action = self.inner.choose(view)
        assert action in view.legal_actions
        return action


# -- the interface ---------------------------------------------------------------------


def test_make_bot_levels_and_budgets() -> None:
    assert isinstance(make_bot("random", seed=1), RandomBot)
    greedy = make_bot("Greedy@0.25", seed=1)
    assert isinstance(greedy, GreedyBot)
    assert greedy.name == "greedy@0.25" and greedy.budget == 0.25
    assert parse_bot_name("greedy") == ("greedy", None)
    with pytest.raises(ValueError, match="levels: expert, greedy, random, strong"):
        make_bot("clever", seed=1)
    with pytest.raises(ValueError, match="seconds"):
        make_bot("greedy@fast", seed=1)
    with pytest.raises(ValueError, match="positive"):
        make_bot("greedy@0", seed=1)


def test_a_bot_refuses_anything_but_a_seats_view() -> None:
    game = Remi13DGame(Remi13DOptions(games=1), rng=random.Random(1))
    bot = make_bot("greedy", seed=1)
    with pytest.raises(TypeError, match="PlayerView"):
        bot.choose(game)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="spectator"):
        bot.choose(game.view(None))
    with pytest.raises(ValueError, match="nothing to do"):
        check_view(game.view(1))  # seat 0 plays first


def test_a_view_holds_no_other_seats_cards() -> None:
    game = Remi13DGame(Remi13DOptions(games=1), rng=random.Random(7))
    view = game.view(2)
    names = {f.name for f in fields(PlayerView)}
    assert not names & {"hands", "stock", "deck"}, "no field carries hidden cards"
    deal = game.deal
    assert deal is not None
    assert view.hand == tuple(deal.hands[2])
    assert view.stock_size == len(deal.stock) and view.hand_sizes == (13, 13, 13, 13)
    hidden = [c for s, hand in enumerate(deal.hands) if s != 2 for c in hand] + deal.stock
    visible = set(view.hand) | set(view.discard_pile)
    for value in (getattr(view, f.name) for f in fields(PlayerView)):
        if isinstance(value, tuple) and value and all(isinstance(c, Card) for c in value):
            assert set(value) <= visible
    assert hidden  # the other seats' cards exist, but only as counts


@pytest.mark.parametrize("level", ["random", "greedy"])
def test_bots_are_only_ever_handed_their_own_view(level: str) -> None:
    game = Remi13DGame(Remi13DOptions(games=1), rng=random.Random(3))
    spies = [Spy(make_bot(level, seed=s), game, s) for s in range(4)]
    play_game(game, spies)
    assert game.over and all(spy.calls > 0 for spy in spies)


@pytest.mark.parametrize("level", ["random", "greedy"])
def test_same_seed_same_game(level: str) -> None:
    def record(seed: int) -> object:
        game = Remi13DGame(Remi13DOptions(games=1), rng=random.Random(11))
        play_game(game, [make_bot(level, seed=seed + s) for s in range(4)])
        return game.record()

    assert record(5) == record(5)
    if level == "random":
        assert record(5) != record(6)


# -- Remi 13 D: closing --------------------------------------------------------------

# 3s-6s (pure run), 9h Th Jh, 7c 7d 7s, Qd Kd and Ad; the stock's top card is a joker.
CLOSER = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Qd Kd Ad"
FILLER = [
    "2c 3c 4c 5d 6d 8h 8c 9c 9d Td Jc Qc Kc",
    "2d 3d 4d 5c 6c 8d 2h 3h 4h 5h 6h Kh Qh",
    "2s 8s 9s Ts Js Qs Ks 2c 3c 4c 5d 6d 8h",
]


def closing_view(stacked: Stack) -> tuple[Remi13DGame, PlayerView]:
    game = Remi13DGame(Remi13DOptions(games=1), auto_deal=False)
    deck = stacked(game.full_deck(), [CLOSER, *FILLER], dealer=3, stock="Jk")
    game.start_deal(deck)
    game.apply(0, Draw("stock"))
    return game, game.view(0)


def test_greedy_closes_with_the_best_closing_card(stacked: Stack) -> None:
    _, view = closing_view(stacked)
    ace = Card.parse("Ad")
    assert Close(ace) in view.legal_actions and Close(JOKER) in view.legal_actions
    hand = list(view.hand)
    by_joker = [c for c in hand if c is not JOKER]
    by_ace = list(hand)
    by_ace.remove(ace)
    # Remi Joker (75) with Qd Kd Ad beats Remi As (50) with Qd Kd Jk
    assert remi13d.close_score(by_joker, JOKER).points == 165
    assert remi13d.close_score(by_ace, ace).points == 140
    assert make_bot("greedy", seed=1).choose(view) == Close(JOKER)


def test_random_closes_whenever_it_can(stacked: Stack) -> None:
    _, view = closing_view(stacked)
    for seed in range(20):
        assert isinstance(make_bot("random", seed=seed).choose(view), Close)


def test_greedy_takes_a_discard_that_completes_a_pure_run(stacked: Stack) -> None:
    game = Remi13DGame(Remi13DOptions(games=1), auto_deal=False)
    seat1 = "4h 5h 6h 9c 9d Ks Qd 2c 5s 8d Jc 3d Tc"
    hands = [
        "7h 2s 3s 8s 9s Ts Js Qs 2d 3c 4c 6d 8c",
        seat1,
        "2h 3h 8h 9h Th Jh Qh Kh Ah 4s 6s 7s 2d",
        "Ac Kc Qc 3c 4c 5c 6c 7c 9c Tc Jc 4d 5d",
    ]
    deck = stacked(game.full_deck(), hands, dealer=3, stock="Kd 7d")
    game.start_deal(deck)
    game.apply(0, Draw("stock"))
    game.apply(0, Discard(Card.parse("7h")))
    view = game.view(1)
    assert not may_hold_pure_run(view.hand)
    assert may_hold_pure_run([*view.hand, Card.parse("7h")])
    assert make_bot("greedy", seed=1).choose(view) == Draw("discard")
    game.apply(1, Draw("discard"))
    discard = make_bot("greedy", seed=1).choose(game.view(1))
    assert isinstance(discard, Discard) and discard.card not in parse_cards("4h 5h 6h 7h")


def test_greedy_leaves_a_useless_discard(stacked: Stack) -> None:
    game = Remi13DGame(Remi13DOptions(games=1), auto_deal=False)
    hands = [
        "Kc 2s 3s 8s 9s Ts Js Qs 2d 3c 4c 6d 8c",
        "4h 5h 6h 7h 9c 9d Ks Qd 2c 5s 8d Jc 3d",
        "2h 3h 8h 9h Th Jh Qh Kh Ah 4s 6s 7s 2d",
        "Ac Kc Qc 3c 4c 5c 6c 7c 9c Tc Jc 4d 5d",
    ]
    deck = stacked(game.full_deck(), hands, dealer=3, stock="Kd 7d")
    game.start_deal(deck)
    game.apply(0, Draw("stock"))
    game.apply(0, Discard(Card.parse("Kc")))
    assert make_bot("greedy", seed=1).choose(game.view(1)) == Draw("stock")


# -- Three-Thirteen ----------------------------------------------------------------------


def test_greedy_three_thirteen_takes_and_discards_to_lower_deadwood(stacked: Stack) -> None:
    game = ThreeThirteenGame(ThreeThirteenOptions(), auto_deal=False)
    # round 1 (wild 3s): seat 0 holds 9c 9d Kh; the up-card 9s makes a set of nines
    hands = ["9c 9d Kh", "2c 5d 7h", "4s 6c 8h", "Tc Jd Qs"]
    deck = stacked(game.full_deck(), hands, dealer=3, up="9s", stock="Kd")
    game.start_deal(deck)
    bot = make_bot("greedy", seed=1)
    assert bot.choose(game.view(0)) == Draw("discard")
    game.apply(0, Draw("discard"))
    assert bot.choose(game.view(0)) == Discard(Card.parse("Kh"))
    game.apply(0, Discard(Card.parse("Kh")))
    deal = game.deal
    assert deal is not None
    assert three_thirteen.deadwood_points(deal.hands[0], round_no=1) == 0


# -- no illegal move in many games -------------------------------------------------------

CHUNKS = 4
GAMES_PER_CHUNK = 50


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_and_greedy_never_play_an_illegal_move(chunk: int) -> None:
    """200 seeded Remi 13 D games of mixed bots; every action is one of the view's legal ones."""
    info = find_variant("remi13d")
    for i in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        game = info.game_class()(Remi13DOptions(games=1), rng=random.Random(i))
        levels = ("random", "greedy") if i % 2 else ("greedy", "random")
        spies = [Spy(make_bot(levels[s % 2], seed=i * 4 + s), game, s) for s in range(4)]
        play_game(game, spies)
        assert game.over
        assert sorted(game.deals[0].cards_in_play()) == sorted(make_deck(decks=2, jokers=4))


@pytest.mark.parametrize("chunk", range(2))
def test_three_thirteen_bots_never_play_an_illegal_move(chunk: int) -> None:
    for i in range(chunk * 5, chunk * 5 + 5):
        game = ThreeThirteenGame(ThreeThirteenOptions(jokers=2 * (i % 3)), rng=random.Random(i))
        spies = [
            Spy(make_bot(("greedy", "random")[(s + i) % 2], seed=i * 4 + s), game, s)
            for s in range(4)
        ]
        play_game(game, spies)
        assert game.over and len(game.deals) == three_thirteen.ROUNDS


def test_greedy_beats_random_at_remi13d() -> None:
    wins = 0
    for i in range(8):
        game = Remi13DGame(Remi13DOptions(games=1), rng=random.Random(100 + i))
        seat = i % 4
        bots = [make_bot("greedy" if s == seat else "random", seed=i * 4 + s) for s in range(4)]
        play_game(game, bots)
        wins += game.winner == seat
    assert wins >= 6
