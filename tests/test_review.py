"""Game review (remikit.review, ``remi review``): it flags the wrong choice where the best
action is known, rates the strong bot's play better than the greedy bot's, is the same
for any number of processes, and looks only at the seat's own view."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from remikit.bots import make_bot, play_game
from remikit.cards import Card, make_deck
from remikit.cli.main import main
from remikit.review import review
from remikit.variants import find_playable
from remikit.variants.gin.actions import Knock
from remikit.variants.gin.game import GinGame
from remikit.variants.gin.options import GinOptions
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
from tests.stacked import Stacked, act, deal_stacked

BUDGET = 0.1

# Gin Rummy: seat 0 takes the upcard 5s and holds gin by throwing 5c away (G-7)
GIN_HAND = "2s 3s 4s 7h 8h 9h Ks Kh Kd 5c"
GIN_OTHER = "6s 6h Kc Qs Qh Qd 9c 8d 2d Tc"
# Remi 13 D: seat 0 draws Ah and may close with it (R13-7)
CLOSER = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kh Ks Jk"
OTHERS = [
    "2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs",
    "2d 3d 4d 5d 6d 8h 8s Qc Qd 4c 4s Jk Tc",
    "2c 3c 5c 6h 7h 8s Jd Jc Qh Td 9d 2s 3s",
]


def gin_record(stacked: Stacked, *lines: str) -> dict[str, Any]:
    game = GinGame(GinOptions(), auto_deal=False)
    deal_stacked(game, stacked, [GIN_HAND, GIN_OTHER], dealer=1, up="5s")
    act(game, *lines)
    return game.record()


def remi13d_record(stacked: Stacked, *lines: str) -> dict[str, Any]:
    game = Remi13DGame(Remi13DOptions(games=1), auto_deal=False)
    deck = stacked(make_deck(decks=2, jokers=4), [CLOSER, *OTHERS], dealer=3, stock="Ah")
    game.start_deal(deck, dealer=3)
    act(game, *lines)
    return game.record()


def test_going_gin_is_best_and_throwing_it_away_is_flagged(stacked: Stacked) -> None:
    """G-7: with the upcard taken, knocking with 5c is gin; discarding it instead keeps a
    gin hand but gives the other seat a turn to go down first and to lower its deadwood
    (a few points: an inaccuracy at least)."""
    wrong = review(gin_record(stacked, "p0 draw discard", "p0 discard 5c"), 0, budget=BUDGET)
    [discard] = [d for d in wrong.decisions if d.phase == "discard"]
    assert discard.rating.best == Knock(Card.parse("5c"))
    assert discard.verdict in ("inaccuracy", "mistake", "blunder"), discard
    right = review(gin_record(stacked, "p0 draw discard", "p0 knock 5c"), 0, budget=BUDGET)
    assert [d.verdict for d in right.decisions if d.phase == "discard"] == ["best"]


def test_not_closing_is_a_blunder(stacked: Stacked) -> None:
    """R13-7: closing with Ah scores 135 at once; a discard throws the close away."""
    wrong = review(remi13d_record(stacked, "p0 draw stock", "p0 discard Ah"), 0, budget=BUDGET)
    [discard] = [d for d in wrong.decisions if d.phase == "discard"]
    assert discard.rating.best == Close(Card.parse("Ah"))
    assert discard.verdict == "blunder" and discard.rating.cost > 80, discard
    right = review(remi13d_record(stacked, "p0 draw stock", "p0 close Ah"), 0, budget=BUDGET)
    assert [d.verdict for d in right.decisions if d.phase == "discard"] == ["best"]


def bot_game(variant: str, seed: int, **options: Any) -> dict[str, Any]:
    game_type = find_playable(variant).game_class()
    game = game_type(game_type.options_type.from_mapping(options), rng=random.Random(seed))
    bots = [make_bot("greedy", seed=seed), make_bot("strong@0.1", seed=seed + 1)]
    play_game(game, bots)
    return game.record()


def mean_and_interval(costs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval."""
    mean = sum(costs) / len(costs)
    variance = sum((c - mean) ** 2 for c in costs) / (len(costs) - 1)
    return mean, 1.96 * math.sqrt(variance / len(costs))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "options"), [("gin", {"target": 50}), ("three-thirteen", {"players": 2})]
)
def test_the_strong_bots_decisions_cost_less_than_the_greedy_bots(
    variant: str, options: dict[str, Any]
) -> None:
    """Over games of greedy (seat 0) against strong (seat 1), the mean cost of a decision
    is higher for greedy, by more than the 95% interval of the difference allows."""
    costs: dict[int, list[float]] = {0: [], 1: []}
    for seed in range(4):
        record = bot_game(variant, seed, **options)
        for seat in (0, 1):
            costs[seat] += [d.rating.cost for d in review(record, seat, budget=BUDGET).decisions]
    greedy, greedy_half = mean_and_interval(costs[0])
    strong, strong_half = mean_and_interval(costs[1])
    assert greedy - strong > math.hypot(greedy_half, strong_half), (greedy, strong)


@pytest.mark.slow
def test_the_same_review_for_any_number_of_processes(stacked: Stacked) -> None:
    record = bot_game("gin", 3, target=25)
    one = review(record, 1, budget=BUDGET, seed=4, jobs=1)
    two = review(record, 1, budget=BUDGET, seed=4, jobs=2)
    assert one.as_json() == two.as_json()
    assert review(record, 1, budget=BUDGET, seed=5).as_json() != one.as_json()


@pytest.mark.slow
def test_a_rating_sees_nothing_hidden() -> None:
    """Two records that differ only in stock cards nobody has seen give the same rating
    of the seat's first decision."""
    record = bot_game("gin", 6, target=25)
    hand = record["hands"][0]
    first = {**record, "hands": [{**hand, "actions": hand["actions"][:1]}]}
    deck = list(hand["deck"])
    deck[30:] = reversed(deck[30:])  # deep in the stock: unseen at the first decision
    other = {**first, "hands": [{**first["hands"][0], "deck": deck}]}
    seat = int(hand["actions"][0][1])
    assert (
        review(first, seat, budget=BUDGET).as_json() == review(other, seat, budget=BUDGET).as_json()
    )


def test_remi_review_prints_a_table_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bot_game("gin", 2, target=25)))
    assert main(["review", str(path), "--seat", "1", "--budget", "0.05", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    *decisions, summary = lines
    assert summary["summary"] is True and summary["decisions"] == len(decisions) > 0
    assert set(summary) == {"summary", "decisions", "agreed", "expected_points_lost"}
    assert all(set(d) == {"index", "deal", "action", "best", "cost", "label"} for d in decisions)
    assert all(d["action"].startswith("p1 ") and d["best"].startswith("p1 ") for d in decisions)
    actions = [a for hand in json.loads(path.read_text())["hands"] for a in hand["actions"]]
    assert all(actions[d["index"]] == d["action"] for d in decisions)
    assert main(["review", str(path), "--budget", "0.05", "--lang", "id"]) == 0
    text = capsys.readouterr().out
    assert "Ringkasan" in text and "Permainan" in text and "Calon" in text


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--seat", "7"], "kursi 7"),
        (["--budget", "0"], "anggaran"),
        (["--budget", "nan"], "anggaran"),
        (["--jobs", "-1"], "-1"),
    ],
)
def test_remi_review_refuses_what_gives_nothing_to_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bot_game("gin", 2, target=25)))
    assert main(["review", str(path), *args, "--lang", "id"]) == 2
    assert says in capsys.readouterr().err


def test_remi_review_of_a_broken_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"variant": "gin", "hands": [{"deck": ["As"]}]')
    assert main(["review", str(path)]) == 2
    assert "remi review:" in capsys.readouterr().err
