"""The strong bot: only views, no way to the hidden cards, consistent samples, determinism,
legal moves in every variant; the arena-only cheater.

The legality runs play 300 single deals per variant (a Remi 13 D game, a
Three-Thirteen round, a Rummy 500 hand), with one strong bot searching with
a handful of rollouts against greedy bots; whole games at the real budgets
are in ``bench/bench_strength.py``.
"""

from __future__ import annotations

import gc
import json
import random
from collections import Counter
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType

import pytest

from remikit.actions import Action, Discard, LayOff, MeldCards
from remikit.bots import LEVELS, Bot, check_bot, make_bot, play_game
from remikit.bots.cheater import ARENA_LEVELS, CheaterBot, check_arena_bot, make_arena_bot
from remikit.bots.strong import StrongBot, tactics_for
from remikit.bots.strong.determinize import determinize, full_deck, knowledge
from remikit.bots.strong.search import QUICK
from remikit.cli.main import main
from remikit.deal import Deal
from remikit.engine import Game
from remikit.variants import find_variant, playable
from remikit.views import PlayerView

VARIANTS = {
    "remi13d": {"games": 1},
    "three-thirteen": {"players": 4},
    "rummy500": {"players": 4},
}


def new_game(variant: str, seed: int, **options: object) -> Game:
    info = find_variant(variant)
    values = {**VARIANTS[variant], **options}
    return info.game_class()(
        info.game_class().options_type.from_mapping(values), rng=random.Random(seed)
    )


class Spy(Bot):
    """Checks that a bot is handed nothing but its seat's view, and answers legally."""

    def __init__(self, inner: Bot, seat: int) -> None:
        self.inner = inner
        self.name = inner.name
        self.seat = seat
        self.decisions = 0

    def choose(self, view: PlayerView) -> Action:
        assert type(view) is PlayerView and view.seat == self.seat
        action = self.inner.choose(view)
        assert action in view.legal_actions, (action, view.log[-3:])
        self.decisions += 1
        return action


# -- hidden information -------------------------------------------------------------


OPAQUE = (type, ModuleType, FunctionType, BuiltinFunctionType, MethodType)


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through references (classes, modules and
    functions are not entered: they lead to code, not to any game's state)."""
    seen: set[int] = set()
    stack = [root]
    out = []
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        out.append(obj)
        if isinstance(obj, OPAQUE):
            continue
        stack.extend(gc.get_referents(obj))
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_no_path_from_a_view_to_the_game(variant: str) -> None:
    game = new_game(variant, 3)
    bots = [make_bot("greedy", seed=s) for s in range(game.players)]
    for _ in range(12):  # into the deal: discards, takes, table melds
        seat = game.to_play
        assert seat is not None
        game.apply(seat, bots[seat].choose(game.view(seat)))
    for seat in range(game.players):
        found = reachable(game.view(seat))
        assert not [o for o in found if isinstance(o, Deal | Game | random.Random)]
        deal = game.deal
        assert deal is not None
        hidden = {id(h) for s, h in enumerate(deal.hands) if s != seat} | {id(deal.stock)}
        assert not [o for o in found if id(o) in hidden]


def test_the_strong_bot_keeps_no_reference_to_the_real_game() -> None:
    game = new_game("rummy500", 5)
    bot = StrongBot(seed=1, sims=6)
    bots: list[Bot] = [bot, *(make_bot("greedy", seed=s) for s in range(1, 4))]
    for _ in range(40):
        if game.over:
            break
        seat = game.to_play
        assert seat is not None
        game.apply(seat, bots[seat].choose(game.view(seat)))
    real = {id(game), id(game.deal), *(id(d) for d in game.deals)}
    assert not [o for o in reachable(bot) if id(o) in real]


def test_the_cheater_is_only_for_the_arena() -> None:
    assert "cheater" not in LEVELS and "cheater" in ARENA_LEVELS
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("cheater", seed=1)
    with pytest.raises(ValueError, match="unknown bot level"):
        check_bot("cheater@0.1", "remi13d")
    check_arena_bot("cheater@0.1", "remi13d")
    game = new_game("remi13d", 2)
    bot = make_arena_bot("cheater@0.01", seed=1, game=game)
    assert isinstance(bot, CheaterBot) and bot.budget == 0.01
    assert isinstance(make_arena_bot("strong", seed=1, game=game), StrongBot)


def test_the_play_command_refuses_the_cheater(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "remi13d", "--bots", "cheater"]) == 2
    assert "unknown bot level" in capsys.readouterr().err


# -- determinize ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant,options",
    [
        ("remi13d", {}),
        ("three-thirteen", {}),
        ("three-thirteen", {"players": 3, "jokers": 2}),
        ("rummy500", {}),
        ("rummy500", {"players": 2}),
        pytest.param("rummy500", {"players": 6}, marks=pytest.mark.slow),
    ],
)
def test_determinize_respects_what_the_seat_has_seen(
    variant: str, options: dict[str, object]
) -> None:
    rng = random.Random(11)
    for seed in range(3):
        game = new_game(variant, seed, **options)
        bots = [make_bot("greedy" if s % 2 else "random", seed=s) for s in range(game.players)]
        held: list[Counter[object]] = [Counter() for _ in range(game.players)]
        start = 0
        while not game.over:
            deal = game.deal
            assert deal is not None
            if len(deal.log) > 400 or deal.number > 3:
                break
            for seat in range(game.players):
                view = game.view(seat)
                if view.to_play is None:
                    continue
                world = determinize(view, rng)
                assert world.hands[seat] == view.hand
                assert tuple(len(h) for h in world.hands) == view.hand_sizes
                assert len(world.stock) == view.stock_size
                table = [c for m in view.table for c in m.cards]
                cards = [c for h in world.hands for c in h] + list(world.stock)
                # the whole deck, and nothing the seat sees elsewhere
                assert Counter(cards + list(view.discard_pile) + table) == Counter(full_deck(view))
                for other in range(game.players):
                    assert not held[other] - Counter(world.hands[other]), "a known card moved"
                    assert not Counter(knowledge(view).known[other]) - Counter(deal.hands[other])
                # the engine rebuilds the very same position from the true cards
                again = game.resume_deal(view, hands=deal.hands, stock=deal.stock)
                for other in range(game.players):
                    assert again.legal_actions(other) == deal.legal_actions(other)
            mover = game.to_play
            assert mover is not None
            number = deal.number
            action = bots[mover].choose(game.view(mover))
            game.apply(mover, action)
            if game.deal is not deal or deal.is_over:  # a new deal: nothing known
                held = [Counter() for _ in range(game.players)]
                start = 0
                continue
            assert deal.number == number
            for who, card in deal.taken[start:]:
                held[who][card] += 1
            start = len(deal.taken)
            gone = (
                action.cards
                if isinstance(action, MeldCards)
                else (action.card,)
                if isinstance(action, Discard | LayOff)
                else ()
            )
            for card in gone:
                if held[mover][card] > 0:
                    held[mover][card] -= 1


def test_determinize_is_random_but_seeded() -> None:
    game = new_game("remi13d", 4)
    view = game.view(1)
    assert determinize(view, random.Random(1)) == determinize(view, random.Random(1))
    assert determinize(view, random.Random(1)) != determinize(view, random.Random(2))


# -- reproducible decisions -------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_seeded_strong_bot_plays_the_same_game_twice(variant: str) -> None:
    records = []
    for _ in range(2):
        game = new_game(variant, 21)
        bots: list[Bot] = [StrongBot(seed=5 + s, sims=6) for s in range(game.players)]
        _play_rounds(game, bots, 2)
        records.append(json.dumps(game.record()))
    assert records[0] == records[1]


def _play_rounds(game: Game, bots: list[Bot], deals: int) -> None:
    """Play the first ``deals`` deals (the whole game if it is shorter), calls included."""
    while not game.over and sum(d.is_over for d in game.deals) < deals:
        seat = game.to_play
        assert seat is not None
        game.apply(seat, bots[seat].choose(game.view(seat)))


def test_the_budget_is_a_fixed_effort_in_rollouts() -> None:
    bot = StrongBot(seed=1, budget=0.1)
    for spec in playable():
        variant = spec.name
        sims = max(8, round(0.1 * tactics_for(variant).sims_per_second))
        assert bot.simulations(variant) == sims
    assert StrongBot(seed=1, budget=1.0).simulations("remi13d") == 1400
    assert StrongBot(seed=1, sims=3).simulations("remi13d") == 3
    expert = make_bot("expert@0.1", seed=1)
    assert isinstance(expert, StrongBot) and expert.budget == pytest.approx(0.3)


def test_a_timed_bot_stops_at_its_budget_not_at_its_rollouts() -> None:
    bot = make_bot("strong@0.05", seed=1, timed=True)
    assert isinstance(bot, StrongBot) and bot.timed
    plain = make_bot("strong@0.05", seed=1)
    assert isinstance(plain, StrongBot) and not plain.timed
    bot.sims = 10**9  # only the clock can end this search (Rummy 500 caps no rollouts)
    game = new_game("rummy500", 3)
    seat = game.to_play
    assert seat is not None
    game.apply(seat, game.legal_actions(seat)[0])
    decision = bot.decide(game.view(seat))
    assert decision.worlds >= 1 and decision.action in game.legal_actions(seat)


def test_the_arena_gives_the_same_results_with_one_or_two_jobs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = []
    for jobs in ("1", "2"):
        assert (
            main(
                [
                    "arena",
                    "three-thirteen",
                    "--bots",
                    "strong@0.002,cheater@0.002,greedy",
                    "--games",
                    "2",
                    "--seed",
                    "3",
                    "--jobs",
                    jobs,
                    "--json",
                ]
            )
            == 0
        )
        data = json.loads(capsys.readouterr().out)
        data.pop("seconds")
        out.append(data)
    assert out[0] == out[1]
    assert [b["bot"] for b in out[0]["bots"]] == ["strong@0.002", "cheater@0.002", "greedy"]


# -- legal play ----------------------------------------------------------------------------


def _single_deals(variant: str, deals: int, sims: int, *, later: int = 1) -> int:
    """Play ``deals`` single deals, a strong bot at a rotating seat against greedy bots.

    Deal ``i`` is the game's deal ``1 + i % later`` (greedy bots play the deals
    before it), so Three-Thirteen rounds of every size come up.
    """
    decisions = 0
    for i in range(deals):
        game = new_game(variant, 1000 + i)
        greedy = [make_bot("greedy", seed=s) for s in range(game.players)]
        _play_rounds(game, greedy, i % later)
        seat = i % game.players
        bots: list[Bot] = list(greedy)
        spy = Spy(StrongBot(seed=i, sims=sims), seat)
        bots[seat] = spy
        _play_rounds(game, bots, i % later + 1)
        assert game.over or game.deals[i % later].is_over
        decisions += spy.decisions
    return decisions


@pytest.mark.slow
@pytest.mark.timeout(1500)  # 300 deals of strong play: minutes on a busy machine
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_strong_never_makes_an_illegal_move(variant: str) -> None:
    later = 11 if variant == "three-thirteen" else 1  # every round of Three-Thirteen
    assert _single_deals(variant, 300, sims=2, later=later) > 300


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_strong_at_full_effort_never_makes_an_illegal_move(variant: str) -> None:
    """The candidates a real budget brings (lookaheads, deep takes, refined worlds)."""
    later = 11 if variant == "three-thirteen" else 1
    assert _single_deals(variant, 60, sims=QUICK, later=later) > 60


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_strong_plays_whole_games_with_calls(variant: str) -> None:
    game = new_game(variant, 8)
    bots: list[Bot] = [Spy(StrongBot(seed=s, sims=4), s) for s in range(game.players)]
    if variant == "three-thirteen":
        _play_rounds(game, bots, 3)
    else:
        play_game(game, bots)
        assert game.over
