"""``remi openspiel gin``: remikit's bots in OpenSpiel's ``gin_rummy`` (contract.md), the
games it plays read from the registry (the variants' ``openspiel`` parts)."""

from __future__ import annotations

import argparse
import io
import json
import random

import pytest

from remikit.actions import Pass
from remikit.bots import make_bot
from remikit.cli.main import build_parser
from remikit.cli.openspiel import games, play_match, run
from remikit.variants.gin.observed import ObservedSeat
from remikit.variants.gin.openspiel import numbers

pyspiel = pytest.importorskip("pyspiel")


def args(**kw: object) -> argparse.Namespace:
    base = {"game": "gin", "bot": "greedy", "hands": 4, "seed": 3, "jobs": 1, "json": True}
    base["lang"] = "en"
    return argparse.Namespace(**(base | kw))


def test_json_shape() -> None:
    out = io.StringIO()
    assert run(args(), out=out) == 0
    data = json.loads(out.getvalue())
    assert data["hands"] == 4 and data["bot"] == "greedy" and data["opponent"] == "simple"
    assert data["wins"] + data["losses"] + data["draws"] == 4
    assert data["win_rate"] == data["wins"] / 4
    low, high = data["win_rate_ci95"]
    assert 0 <= low <= data["win_rate"] <= high <= 1
    assert sum(data["outcomes"].values()) == 4


def test_seeded_hands_repeat() -> None:
    first = play_match("gin", "greedy", 3, 9).outcomes
    assert first == play_match("gin", "greedy", 3, 9).outcomes


def test_unknown_bot_is_refused() -> None:
    assert run(args(bot="clever"), out=io.StringIO()) == 2


def test_the_games_are_the_variants_with_an_openspiel_part(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert games() == ["gin"]
    parsed = build_parser().parse_args(["openspiel", "gin", "--bot", "greedy"])
    assert parsed.game == "gin"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["openspiel", "rummy500", "--bot", "greedy"])
    assert "invalid choice: 'rummy500'" in capsys.readouterr().err


def test_the_human_report_names_the_game_and_each_ending() -> None:
    out = io.StringIO()
    assert run(args(json=False, hands=2), out=out) == 0
    report = out.getvalue()
    assert "Gin Rummy against OpenSpiel's simple bot" in report
    assert "won by a knock" in report or "lost to a knock" in report or "drawn" in report


def test_view_legal_actions_match_openspiel() -> None:
    """Every legal action of the observed view is one OpenSpiel allows, over whole hands."""
    game = pyspiel.load_game("gin_rummy")
    for n in range(8):
        state = game.new_initial_state()
        deck = random.Random(n)
        seat = n % 2
        seen = ObservedSeat(seat)
        other = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - seat)
        bot = make_bot("greedy", seed=n)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(deck.choices(outcomes, weights)[0])
                continue
            seen.observe(state.to_observation_struct(seat).to_dict())
            if state.current_player() != seat:
                state.apply_action(other.step(state))
                continue
            view = seen.view()
            assert view.hand_sizes[seat] == len(view.hand)
            action = bot.choose(view)
            assert numbers(action)[0] in state.legal_actions()
            seen.played(action)
            for number in numbers(action):
                state.apply_action(number)


def test_view_hides_the_other_hand() -> None:
    """Two OpenSpiel states that differ only in the other seat's hidden cards (and the
    stock) give seat 0 the same view."""
    game = pyspiel.load_game("gin_rummy")
    first = game.new_initial_state()
    for card in range(21):  # the hands and the upcard
        first.apply_action(card)
    theirs = [c for c in range(21) if c in first.hands()[1]]
    views = []
    for swap in (False, True):
        cards = list(range(52))
        if swap:  # two of seat 1's cards become two cards nobody holds
            for a, b in zip(theirs[:2], (40, 45), strict=True):
                cards[a], cards[b] = cards[b], cards[a]
        state = game.new_initial_state()
        for card in cards[:21]:
            state.apply_action(card)
        assert (state.hands()[1] != first.hands()[1]) == swap
        seen = ObservedSeat(0)
        seen.observe(state.to_observation_struct(0).to_dict())
        state.apply_action(54)  # seat 0 passes the upcard
        seen.played(Pass())
        seen.observe(state.to_observation_struct(0).to_dict())
        state.apply_action(54)  # seat 1 passes
        seen.observe(state.to_observation_struct(0).to_dict())
        views.append(seen.view())
    assert views[0] == views[1]
    assert views[0].hand_sizes == (10, 10)
    assert [str(p) for p in views[0].log] == ["p0 pass", "p1 pass"]


@pytest.mark.parametrize(("lang", "words"), [("en", "not installed"), ("id", "belum terpasang")])
def test_missing_openspiel_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, words: str
) -> None:
    monkeypatch.setattr("remikit.cli.openspiel.has_pyspiel", lambda: False)
    assert run(args(lang=lang), out=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert words in err and "pip install 'remikit[openspiel]'" in err
