"""The strong bot's Three-Thirteen tactics: the round's end as the seat sees it, sampled
outlooks, candidates and draws from a view alone."""

from __future__ import annotations

import random

import pytest

from remikit.actions import Discard, Draw
from remikit.bots import make_bot
from remikit.cards import parse_cards
from remikit.variants import find_variant
from remikit.variants.three_thirteen.tactics import STEPS, ThreeThirteenTactics, ending, outlook
from remikit.views import PlayerView


def played_view(seed: int, decisions: int) -> PlayerView:
    """The view of the seat to play after ``decisions`` greedy moves."""
    info = find_variant("three-thirteen")
    game = info.game_class()(
        info.game_class().options_type.from_mapping({}), rng=random.Random(seed)
    )
    greedy = make_bot("greedy", seed=0)
    for _ in range(decisions):
        seat = game.to_play
        assert seat is not None
        game.apply(seat, greedy.choose(game.view(seat)))
    seat = game.to_play
    assert seat is not None
    return game.view(seat)


@pytest.mark.parametrize("decisions", [0, 9, 40])
def test_the_round_ends_at_one_of_the_next_turns(decisions: int) -> None:
    weights = ending(played_view(3, decisions))
    assert len(weights) == STEPS
    assert all(w > 0 for w in weights)
    assert sum(weights) == pytest.approx(1)


def test_the_outlook_of_a_complete_hand_is_nothing_and_high_cards_cost() -> None:
    futures = [list(parse_cards("2c 9d Kh 5s")), list(parse_cards("Qc 7h 4d Jc"))]
    weights = [0.25] * STEPS
    assert outlook(parse_cards("7c 8c 9c"), futures, 1, "low", weights) == 0
    low = outlook(parse_cards("Ac 2d 9h"), futures, 1, "low", weights)
    high = outlook(parse_cards("Kc Qd 9h"), futures, 1, "low", weights)
    assert 0 < low < high


def test_candidates_are_legal_and_the_favourite_comes_first() -> None:
    tactics = ThreeThirteenTactics()
    tactics.effort = 100
    for decisions in range(0, 60, 2):
        view = played_view(5, decisions)
        found = tactics.candidates(view)
        assert found and all(plan[0] in view.legal_actions for plan, _ in found)
        if view.phase == "draw":
            assert found[0][0][0] in (Draw("stock"), Draw("discard"))
        else:
            assert isinstance(found[0][0][0], Discard)
            assert [p for _, p in found] == sorted((p for _, p in found), reverse=True)


def test_the_tactics_decide_the_same_way_twice() -> None:
    view = played_view(8, 13)
    first, second = ThreeThirteenTactics(), ThreeThirteenTactics()
    first.effort = second.effort = 60
    assert first.candidates(view) == second.candidates(view)
