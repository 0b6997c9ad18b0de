"""Rummy 500 bots: greedy melds, lays off, takes from the pile when it pays, calls Rummy;
calls in the play loop go by priority (R5-10); 400 seeded bot games keep every invariant.

The 400 games mix random and greedy bots at 2, 4 and 8 players with a mix of
table options. To keep the run short, 384 of them play to a target of 60
points, stopped after four hands; every 25th plays a whole game to 500.
Invariants (cards accounted for, valid table melds, views that hide the other
hands) are checked before every action.
"""

from __future__ import annotations

import random

import pytest

from remikit.actions import Action, Discard, Draw, MeldCards, Pass, Play
from remikit.bots import Bot, RandomBot, make_bot, play_game
from remikit.bots.greedy import GreedyBot
from remikit.cards import Card
from remikit.cli.arena import make_arena
from remikit.cli.arguments import ArenaError
from remikit.variants import find_variant
from remikit.variants.rummy500.actions import CallRummy, Decline
from remikit.variants.rummy500.game import Rummy500Game
from remikit.variants.rummy500.new_melds import resolve_meld
from remikit.variants.rummy500.options import Rummy500Options
from remikit.variants.rummy500.plan import Rules, plan_turn
from remikit.views import PlayerView
from tests.random_play import Checker
from tests.test_rummy500_rules import (
    JOKER_HANDS,
    OUT_HAND,
    P0,
    P1_OUT,
    P2,
    Stacked,
    act,
    check_table,
    deal_of,
    new_game,
)


def C(text: str) -> Card:
    return Card.parse(text)


def turn(game: Rummy500Game, seat: int, bot: Bot) -> list[str]:
    """Let ``bot`` play the rest of ``seat``'s turn; the actions as record text."""
    done = []
    deal = deal_of(game)
    while game.to_play == seat and not deal.is_over:
        view = game.view(seat)
        action = bot.choose(view)
        assert action in view.legal_actions
        game.apply(seat, action)
        done.append(str(action))
        if isinstance(action, Discard | Decline):
            break
    return done


def greedy() -> GreedyBot:
    return GreedyBot(seed=1)


# -- melding, laying off, discarding ---------------------------------------------------


def test_greedy_melds_what_scores_and_discards_the_rest(stacked: Stacked) -> None:
    game = new_game(
        stacked, [P0, "8h 4c 9d Jc Qd 3s 2d", "4d 9h Td 6c Qs 5s Jd"], up="Ah", stock="9s Kh"
    )
    done = turn(game, 0, greedy())
    assert done[0] == "draw stock"  # the ace on the pile melds with nothing
    assert sorted(done[1:3]) == ["meld 5h 6h 7h", "meld Kc Kd Ks"]
    assert done[3] == "discard 9s"  # a dead nine before a dead two
    assert deal_of(game).hands[0] == [C("2c")]


def test_greedy_lays_off_on_any_table_meld(stacked: Stacked) -> None:
    game = new_game(
        stacked, [P0, "8h 4c 9d Jc Qd 3s 2d", "4d 9h Td 6c Qs 5s Jd"], up="Ah", stock="9s Kh"
    )
    turn(game, 0, greedy())
    done = turn(game, 1, greedy())
    assert done[0] == "draw stock"
    assert set(done[1:3]) == {"layoff 8h to 2", "layoff Kh to 1"} or set(done[1:3]) == {
        "layoff 8h to 1",
        "layoff Kh to 2",
    }
    table = game.view(1).table
    assert sum(1 for m in table for s in m.laid_by if s == 1) == 2


@pytest.mark.parametrize("joker_layoff", ["runs", "any"])
def test_R5_6_greedy_lays_a_joker_off_onto_a_set_only_with_joker_layoff_any(
    stacked: Stacked, joker_layoff: str
) -> None:
    game = new_game(stacked, JOKER_HANDS, up="Ah", stock="5s Ad", joker_layoff=joker_layoff)
    act(game, "p0 draw stock", "p0 meld Kc Ks Kd", "p0 discard 2c", "p1 draw stock")
    done = turn(game, 1, greedy())  # every action legal (turn checks)
    assert ("layoff Jk=Kh to 1" in done) == (joker_layoff == "any")
    # the turn plan alone: a joker and a nine against a set of kings
    table = [resolve_meld([C("Kc"), C("Ks"), C("Kd")], [None] * 3, seat=0, number=1)]
    plan = plan_turn([Card.parse("Jk"), C("9c")], table, Rules(joker_layoff=joker_layoff))
    assert plan is not None
    expected = ["layoff Jk=Kh to 1", "discard 9c"] if joker_layoff == "any" else ["discard Jk"]
    assert [str(a) for a in plan.actions()] == expected


def test_going_out_by_melding_everything_and_keeping_a_card_back_to_go_out(
    stacked: Stacked,
) -> None:
    # OUT_HAND with a Th drawn: 7h-Th and four kings meld every card
    game = new_game(stacked, [OUT_HAND, P1_OUT, P2], up="Ac", stock="Th")
    done = turn(game, 0, greedy())
    assert not any(a.startswith("discard") for a in done)  # R5-8: out by melding
    assert deal_of(game).went_out == 0
    # with floating on, melding everything would float: keep the 7h back and discard it
    game = new_game(stacked, [OUT_HAND, P1_OUT, P2], up="Ac", stock="Th", floating=True)
    done = turn(game, 0, greedy())
    assert done[-1] == "discard 7h" and deal_of(game).went_out == 0
    # ... unless the last discard may not be playable: then it melds everything and floats
    game = new_game(
        stacked,
        [OUT_HAND, P1_OUT, P2],
        up="Ac",
        stock="Th",
        floating=True,
        unplayable_last_discard=True,
    )
    done = turn(game, 0, greedy())
    deal = deal_of(game)
    assert not deal.is_over and deal.hands[0] == [] and deal.to_play == 1


def test_greedy_does_not_discard_a_card_that_opens_a_rummy_call(stacked: Stacked) -> None:
    game = new_game(
        stacked, ["Kc 4d 5h 6h 7h 9s 9h", "2c 8c 8d 4s Tc Qd 3s", P2], up="Qc", stock="2h"
    )
    deal = deal_of(game)
    deal.discard_pile.append(C("Jc"))  # the pile ends Qc Jc: a Kc on it makes a run
    act(game, "p0 draw stock")
    done = turn(game, 0, greedy())
    assert done == ["meld 5h 6h 7h", "discard 4d"]  # not the Kc, worth more; not a nine


def laid_8h_to_play(stacked: Stacked) -> Rummy500Game:
    """Seat 1 to discard, holding an 8h that fits the 5h 6h 7h on the table and an 8c."""
    game = new_game(
        stacked, [P0, "8h 8c 9d Jc Qd 3s 2d", "4d 9h Td 6c Qs 5s Jd"], up="Ah", stock="9s 4c"
    )
    act(game, "p0 draw stock", "p0 meld 5h 6h 7h", "p0 meld Kc Ks Kd", "p0 discard 9s")
    return game


def kc_on_queen_jack(stacked: Stacked) -> Rummy500Game:
    """Seat 1 to discard, holding a Kc, a 4d and 5h 6h 7h; the pile is Qc Jc."""
    game = new_game(
        stacked,
        ["2c 8c 8d 4s Tc Qd Jc", "Kc 4d 5h 6h 7h 9s 9h", "4c 9d Td 6c Qs 5s Jd"],
        up="Qc",
        stock="3s 2h",
        dealer=2,
    )
    act(game, "p0 draw stock", "p0 discard Jc", "p1 draw stock")
    return game


@pytest.mark.parametrize("level", ["greedy", "strong@0.1"])
def test_R5_5_R5_10_no_bot_feeds_a_card_that_plays_on_the_table_or_the_pile(
    stacked: Stacked, level: str
) -> None:
    for seed in range(3):
        # the 8h is laid off, not thrown for the next player to lay off or call Rummy on
        done = turn(laid_8h_to_play(stacked), 1, make_bot(level, seed=seed))
        assert "layoff 8h to 1" in done and "discard 8h" not in done
        # a Kc thrown would let the next player call Rummy on Qc Jc Kc; the 4d is safe
        done = turn(kc_on_queen_jack(stacked), 1, make_bot(level, seed=seed))
        assert done[-1] == "discard 4d"


# -- taking from the pile ---------------------------------------------------------------


def deep_pile_game(stacked: Stacked, junk: str) -> Rummy500Game:
    """Four players; seat 0 holds 6h 7h and the pile is 8h, then the three ``junk`` cards
    and the ace seat 0 threw."""
    first, second, third = junk.split()
    hands = [
        "6h 7h 2c 3d 9s 4c As",
        f"{first} 5s 8s Tc Jh 2d 3h",
        f"{second} 4s 6d 8c Td Jc 9h",
        f"{third} 3s 6s 9c Th Qc 5c",
    ]
    game = new_game(stacked, hands, up="8h", stock="5d 7s 7c 7d")
    act(
        game,
        "p0 draw stock",
        "p0 discard As",
        "p1 draw stock",
        f"p1 discard {first}",
        "p2 draw stock",
        f"p2 discard {second}",
        "p3 draw stock",
        f"p3 discard {third}",
    )
    return game


def test_greedy_takes_a_profitable_deep_discard_and_melds_the_owed_card_first(
    stacked: Stacked,
) -> None:
    game = deep_pile_game(stacked, "2s 3c 4h")  # cheap cards over the 8h
    view = game.view(0)
    assert Draw("discard", 5) in view.legal_actions
    bot = greedy()
    assert bot.choose(view) == Draw("discard", 5)
    game.apply(0, Draw("discard", 5))
    assert deal_of(game).must_meld == C("8h")
    first = bot.choose(game.view(0))
    assert isinstance(first, MeldCards) and C("8h") in first.cards  # the owed meld first
    done = turn(game, 0, bot)
    assert done[-1].startswith("discard") and deal_of(game).must_meld is None


def test_greedy_refuses_a_deep_discard_that_costs_more_than_it_melds(stacked: Stacked) -> None:
    game = deep_pile_game(stacked, "Ks Qd Jd")  # 8h melds 21 points under 30 of faces
    view = game.view(0)
    assert Draw("discard", 5) in view.legal_actions
    assert greedy().choose(view) == Draw("stock")


def test_greedy_takes_the_top_discard_only_to_meld_it(stacked: Stacked) -> None:
    game = new_game(
        stacked, [P0, "8h 4c 9d Jc Qd 3s 2d", "4d 9h Td 6c Qs 5s Jd"], up="Kh", stock="9s"
    )
    assert greedy().choose(game.view(0)) == Draw("discard")  # Kh makes four kings
    game = new_game(
        stacked, [P0, "8h 4c 9d Jc Qd 3s 2d", "4d 9h Td 6c Qs 5s Jd"], up="2s", stock="9s"
    )
    assert greedy().choose(game.view(0)) == Draw("stock")


def test_greedy_declines_at_an_empty_stock_only_when_nothing_in_the_pile_helps(
    stacked: Stacked,
) -> None:
    for top, expected in (("9c", Decline()), ("Kh", Draw("discard"))):
        game = new_game(stacked, [P0, "8h 4c 9d Jc Qd 3s 2d", "4d 9h Td 6c Qs 5s Jd"], up=top)
        deal = deal_of(game)
        deal.stock.clear()  # a position at an empty stock (R5-9)
        view = game.view(0)
        assert Decline() in view.legal_actions
        assert greedy().choose(view) == expected


# -- Rummy calls (R5-10) -------------------------------------------------------------------


# seat 1 throws the 8h that fits seat 0's 5h 6h 7h
CALL_HANDS = [P0, "9c 9d 4s 8h Qd 3s 2d", "4c 9h Td 6c Qs 5s Jd", "3h 2h 4d 6d 8c Tc Jc"]
CALL_OPENING = (
    "p0 draw stock",
    "p0 meld 5h 6h 7h",
    "p0 discard 2c",
    "p1 draw stock",
    "p1 discard 8h",
)


def test_greedy_calls_rummy_when_it_sees_it(stacked: Stacked) -> None:
    game = new_game(stacked, CALL_HANDS[:3], up="Js", stock="Ah 7s Kh 3c")
    act(game, *CALL_OPENING)
    assert game.view(2).legal_actions == (CallRummy(1), Pass())  # the next player first
    assert game.view(0).legal_actions == ()
    game.apply(2, Pass())
    view = game.view(0)  # not the next player
    assert view.phase == "call" and view.to_play == 0
    assert view.legal_actions == (CallRummy(1), Pass())
    assert greedy().choose(view) == CallRummy(1)
    assert game.view(1).legal_actions == ()  # nothing to call on its own discard


def test_random_calls_half_the_time(stacked: Stacked) -> None:
    game = new_game(stacked, CALL_HANDS[:3], up="Js", stock="Ah 7s Kh 3c")
    act(game, *CALL_OPENING, "p2 pass")
    view = game.view(0)
    answers = [RandomBot(seed=s).choose(view) for s in range(200)]
    assert set(answers) == {Pass(), CallRummy(1)}
    assert 60 < sum(a != Pass() for a in answers) < 140


class Recorder(Bot):
    """A bot that notes when it is asked to answer a call window, and answers as ``inner``
    would."""

    def __init__(self, inner: Bot, seat: int, asked: list[int]) -> None:
        self.inner, self.seat, self.asked = inner, seat, asked
        self.name = inner.name

    def choose(self, view: PlayerView) -> Action:
        if view.phase == "call":
            self.asked.append(self.seat)
        return self.inner.choose(view)


def answer_window(game: Rummy500Game, bots: list[Bot]) -> None:
    """Let the seats answer a call window, in the engine's order."""
    deal = deal_of(game)
    while deal.phase == "call":
        seat = deal.to_play
        assert seat is not None
        game.apply(seat, bots[seat].choose(game.view(seat)))


def test_the_nearest_caller_after_the_discarder_wins_and_play_goes_on_after_it(
    stacked: Stacked,
) -> None:
    game = new_game(stacked, CALL_HANDS, up="Js", stock="Ah 7s Kh 3c 5c 6s")
    act(game, *CALL_OPENING)
    assert deal_of(game).awaiting() == [2, 3, 0]
    asked: list[int] = []
    never = RandomBot(seed=1)
    never.call_chance = 0.0
    bots: list[Bot] = [
        Recorder(greedy(), 0, asked),
        Recorder(greedy(), 1, asked),
        Recorder(never, 2, asked),
        Recorder(greedy(), 3, asked),
    ]
    # seats 3 and 0 both want the 8h (it fits 5h 6h 7h); seat 3 sits nearer after seat 1
    answer_window(game, bots)
    assert asked == [2, 3]
    deal = deal_of(game)
    assert deal.log[-1] == Play(3, CallRummy(1))
    assert deal.to_play == 3 and deal.must_meld == C("8h")
    done = turn(game, 3, bots[3])
    assert done[0] == "layoff 8h to 1" and done[-1].startswith("discard")
    assert deal.to_play == 0  # seat 2 lost its turn; play goes on after the caller


def test_play_game_asks_for_calls_after_discards() -> None:
    game = Rummy500Game(Rummy500Options(players=4, target=300), rng=random.Random(7))
    asked: list[int] = []
    bots: list[Bot] = [Recorder(greedy(), s, asked) for s in range(4)]
    play_game(game, bots)
    assert game.over and asked
    calls = [p for d in game.deals for p in d.log if isinstance(p.action, CallRummy)]
    assert calls  # greedy bots do call


# -- 400 seeded games --------------------------------------------------------------------

GAMES = 400
CHUNKS = 4
SHORT_TARGET = 60
MAX_HANDS = 4


def options_for(seed: int) -> Rummy500Options:
    rng = random.Random(f"bot options {seed}")
    return Rummy500Options(
        players=(2, 4, 8)[seed % 3],
        target=500 if seed % 25 == 0 else SHORT_TARGET,
        jokers=rng.random() < 0.8,
        scoring=rng.choice(("standard", "5-10-15")),
        rummy_calls=rng.random() < 0.8,
        floating=rng.random() < 0.3,
        unplayable_last_discard=rng.random() < 0.3,
        discard_taken_card=rng.random() < 0.2,
        joker_layoff=rng.choice(("runs", "any")),
    )


class Checked(Bot):
    """A bot whose every answer must be legal; the game's invariants are checked before
    each decision (once per position)."""

    def __init__(self, inner: Bot, checker: Checker, seat: int, checked: list[int]) -> None:
        self.inner, self.checker, self.game, self.seat = inner, checker, checker.game, seat
        self.checked = checked
        self.name = inner.name

    def check(self, view: PlayerView) -> None:
        assert view.seat == self.seat and view == self.game.view(self.seat)
        deal = self.game.deal
        assert deal is not None
        stamp = deal.number * 100_000 + len(deal.log)
        if self.checked[0] != stamp:
            self.checked[0] = stamp
            check_position(self.checker)

    def choose(self, view: PlayerView) -> Action:
        self.check(view)
        action = self.inner.choose(view)
        assert action in view.legal_actions, (action, view.legal_actions)
        return action


def check_position(checker: Checker) -> None:
    """The invariants of every variant (tests/random_play.py) and Rummy 500's own."""
    checker.check(offered=False)
    check_table(checker.game)


class Capped(Rummy500Game):
    """A game that stops after ``MAX_HANDS`` hands (short games only)."""

    def is_finished(self) -> bool:
        return super().is_finished() or (
            self.options.target == SHORT_TARGET and len(self.deals) >= MAX_HANDS
        )


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_bot_games_keep_every_invariant(chunk: int) -> None:
    for seed in range(chunk * GAMES // CHUNKS, (chunk + 1) * GAMES // CHUNKS):
        options = options_for(seed)
        game = Capped(options, rng=random.Random(seed))
        checker = Checker(find_variant("rummy500"), game, random.Random(seed))
        checked = [-1]
        levels = ("greedy", "random")
        bots: list[Bot] = [
            Checked(make_bot(levels[(s + seed) % 2], seed=seed * 10 + s), checker, s, checked)
            for s in range(options.players)
        ]
        play_game(game, bots)
        assert game.over
        check_position(checker)
        if options.target == 500:
            best = max(game.totals)
            assert best >= 500 and game.winner == game.totals.index(best)


def test_greedy_beats_random() -> None:
    wins = 0
    for i in range(12):
        game = Rummy500Game(
            Rummy500Options(players=2 + i % 3, target=200), rng=random.Random(500 + i)
        )
        seat = i % game.players
        bots = [
            make_bot("greedy" if s == seat else "random", seed=i * 8 + s)
            for s in range(game.players)
        ]
        play_game(game, bots)
        wins += game.winner == seat
    assert wins >= 11


def test_same_seed_same_game() -> None:
    def record(seed: int) -> object:
        game = Rummy500Game(Rummy500Options(players=4, target=150), rng=random.Random(3))
        play_game(game, [make_bot(("greedy", "random")[s % 2], seed=seed + s) for s in range(4)])
        return game.record()

    assert record(5) == record(5)


# -- the arena ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bots", ["greedy,random", "greedy,greedy,random", "random,greedy,random,greedy,random"]
)
def test_arena_seats_one_player_per_bot(bots: str) -> None:
    arena = make_arena("500", bots, games=2, seed=4, options=["target=100"])
    assert arena.options.as_dict()["players"] == len(bots.split(","))
    result = arena.run()
    assert result.variant == "rummy500" and [s.bot for s in result.stats] == bots.split(",")
    assert sum(s.wins for s in result.stats) == 2  # a Rummy 500 game always has a winner
    assert all(s.played == 2 for s in result.stats)


def test_arena_checks_the_players_option_against_the_bots() -> None:
    with pytest.raises(ArenaError, match="give 3 bots, not 2"):
        make_arena("500", "greedy,random", games=1, seed=1, options=["players=3"])
    with pytest.raises(ArenaError, match="players"):
        make_arena("500", ",".join(["random"] * 9), games=1, seed=1)
    arena = make_arena("500", "greedy,random,random", games=1, seed=1, options=["players=3"])
    assert arena.options.as_dict()["players"] == 3


def test_lower_is_better_belongs_to_the_game() -> None:
    assert find_variant("3-13").game_class().lower_is_better
    assert not find_variant("500").game_class().lower_is_better
    assert not find_variant("13d").game_class().lower_is_better
