"""``remi ladder``: the JSON of CONTRACT.md, paired deals in every seat rotation, the same
ladder for any --jobs, ratings that order the levels, bilingual errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from remikit.cli import ladder_play
from remikit.cli.games import GameOutcome, GameTask, play_task
from remikit.cli.ladder import make_ladder
from remikit.cli.ladder_play import LadderPlay, PairedDeal
from remikit.cli.ladder_rating import rate
from remikit.cli.main import main
from remikit.i18n import t
from remikit.variants import playable

FAST = "random,greedy,greedy@0.1"
"""Three levels that play at once (greedy takes a budget and ignores it)."""


def ladder_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["ladder", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


def test_json_has_the_contract_shape(capsys: pytest.CaptureFixture[str]) -> None:
    data = ladder_json(capsys, "gin", "--levels", FAST, "--deals", "3", "--seed", "5")
    assert set(data) == {
        "variant",
        "options",
        "players",
        "seed",
        "deals",
        "games",
        "rating",
        "tables",
        "levels",
        "head_to_head",
    }
    assert (data["variant"], data["players"], data["seed"], data["deals"]) == ("gin", 2, 5, 3)
    assert data["rating"] == {"model": "plackett-luce", "tau": 0.0, "interval_sigmas": 2.0}
    # every pair of the three levels is a table of two, and plays its three deals
    assert [table["levels"] for table in data["tables"]] == [
        ["random", "greedy"],
        ["random", "greedy@0.1"],
        ["greedy", "greedy@0.1"],
    ]
    assert all(table["deals"] == 3 for table in data["tables"])
    levels = data["levels"]
    assert sorted(level["level"] for level in levels) == sorted(FAST.split(","))
    assert [level["mu"] for level in levels] == sorted((v["mu"] for v in levels), reverse=True)
    for level in levels:
        # two tables, three deals each, each played in both rotations
        assert level["deals"] == 12 and level["par"] == 0.5
        low, high = level["interval"]
        assert low == pytest.approx(level["mu"] - 2 * level["sigma"], abs=0.002)
        assert high == pytest.approx(level["mu"] + 2 * level["sigma"], abs=0.002)
        assert level["ordinal"] == pytest.approx(level["mu"] - 3 * level["sigma"], abs=0.002)
        assert level["win_rate"] == pytest.approx(level["wins"] / 12, abs=1e-4)
        ci_low, ci_high = level["win_rate_ci95"]
        assert 0 <= ci_low <= level["win_rate"] <= ci_high <= 1
    # each of 9 deals played twice has one winner's share to give
    assert sum(level["wins"] for level in levels) == pytest.approx(18)
    pairs = data["head_to_head"]
    assert len(pairs) == 3
    for pair in pairs:
        assert pair["deals"] == 3 == pair["a_better"] + pair["b_better"] + pair["ties"]
        assert 0 < pair["p_value"] <= 1


def test_the_same_ladder_for_one_or_two_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("three-thirteen", "--levels", FAST, "--deals", "13", "--seed", "9")
    one = ladder_json(capsys, *args, "--jobs", "1")
    two = ladder_json(capsys, *args, "--jobs", "2")
    assert one == two
    # 13 deals need a second game of 11 rounds: played in a second round of games
    assert one["games"] == 2 * 3


def test_paired_deals_share_their_deck_in_every_rotation() -> None:
    """Each rotation of a table's game seats every level one seat on and deals the same
    decks; the ladder counts a deal once every rotation dealt it alike."""
    ladder = make_ladder("three-thirteen", FAST, deals=11, seed=4, options=["players=2"])
    played = ladder.play()
    assert len(played.deals) == 3  # every pair of the three levels
    for table, deals in enumerate(played.deals):
        assert len(deals) == 11
        rotations = [ladder.task(table, 0, r) for r in range(2)]
        assert [task.seats() for task in rotations] == [(0, 1), (1, 0)]
        assert len({task.deck_seed() for task in rotations}) == 1
        outcomes = [play_task(task) for task in rotations]
        for deal in deals:
            assert deal.game == 0
            assert {o.decks[deal.number - 1] for o in outcomes} == {deal.deck}
            assert len({o.dealers[deal.number - 1] for o in outcomes}) == 1
            # by level: each rotation's scores of the seats, turned back to the levels
            for o, scores in zip(outcomes, deal.scores, strict=True):
                by_seat = o.deals[deal.number - 1]
                assert scores == tuple(by_seat[o.seats.index(level)] for level in range(2))
        assert len({deal.deck for deal in deals}) == 11  # a new deck each round
    # another table, or another game of the same table, deals other decks
    first = {d.deck for d in played.deals[0]}
    assert not first & {d.deck for d in played.deals[1]}
    later = play_task(ladder.task(0, 1, 0))
    assert not first & set(later.decks)


def test_a_deal_dealt_otherwise_in_one_rotation_is_not_paired() -> None:
    same = GameOutcome(0, (0, 1), (5, 0), 0, ((5, 0), (0, 3)), ("d1", "d2"), (1, 0))
    other = GameOutcome(1, (1, 0), (0, 9), 1, ((0, 4), (9, 0)), ("d1", "dX"), (1, 0))
    deals = ladder_play.paired_deals(2, 7, [same, other])
    # the first deal's scores by level: level 0 scored 5 then 4 (it sat in seat 1)
    assert deals == [PairedDeal(2, 7, 1, "d1", ((5, 0), (4, 0)))]


def test_greedy_rates_above_random(capsys: pytest.CaptureFixture[str]) -> None:
    data = ladder_json(
        capsys, "gin", "--levels", "random,greedy", "--deals", "12", "--seed", "2024"
    )
    greedy, random_ = data["levels"]
    assert (greedy["level"], random_["level"]) == ("greedy", "random")
    assert greedy["interval"][0] > random_["interval"][1]
    assert greedy["win_rate_ci95"][0] > 0.5 > random_["win_rate_ci95"][1]
    (pair,) = data["head_to_head"]
    assert (pair["a"], pair["b"]) == ("greedy", "random")
    assert pair["a_better"] > pair["b_better"] and pair["p_value"] < 0.01


def test_a_tie_for_the_best_score_shares_the_win() -> None:
    ladder = make_ladder("three-thirteen", FAST, deals=1, seed=1, options=["players=3"])
    # three-thirteen: the lowest deadwood wins; levels 0 and 1 tie at 0 in both plays
    tied = PairedDeal(0, 0, 1, "d", ((0, 0, 7), (0, 0, 4), (0, 0, 9)))
    result = rate(ladder, LadderPlay([[tied], [], []], [], 3), 0.0)
    by_level = {level.level: level for level in result.levels}
    assert by_level["random"].wins == by_level["greedy"].wins == 1.5
    assert by_level["greedy@0.1"].wins == 0 and by_level["greedy@0.1"].points == 20
    assert by_level["random"].mu == pytest.approx(by_level["greedy"].mu)
    assert by_level["greedy@0.1"].mu < by_level["greedy"].mu
    (pair,) = [p for p in result.head_to_head if {p.a, p.b} == {"random", "greedy"}]
    assert (pair.a_better, pair.b_better, pair.ties) == (0, 0, 1)


def test_a_game_that_fails_counts_no_deal_and_is_made_up(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def game_0_fails_once_seated(task: GameTask) -> GameOutcome:
        if task.deck == 0 and task.rotation == 1:
            raise RuntimeError("lost")
        return play_task(task)

    monkeypatch.setattr(ladder_play, "play_task", game_0_fails_once_seated)
    args = ["ladder", "gin", "--levels", "random,greedy", "--deals", "2", "--seed", "3"]
    assert main([*args, "--json", "--jobs", "1"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["failures"] == [
        {
            "table": ["random", "greedy"],
            "game": 0,
            "rotation": 1,
            "seats": ["greedy", "random"],
            "error": "RuntimeError: lost",
        }
    ]
    assert data["tables"] == [{"levels": ["random", "greedy"], "deals": 2}]
    assert data["levels"][0]["deals"] == 4
    assert main([*args, "--jobs", "1", "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert "game 0 of greedy, random, rotation 1: RuntimeError: lost" in out


def test_the_report_and_the_out_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    args = ["gin", "--levels", "random,greedy", "--deals", "2", "--seed", "8", "--jobs", "1"]
    assert main(["ladder", *args, "--out", str(out), "--lang", "id"]) == 0
    report = capsys.readouterr().out
    assert "Peringkat Gin Rummy: 2 babak per meja (2 kursi)" in report
    assert "Adu langsung pada kartu yang sama" in report
    written = json.loads(out.read_text())
    assert written == ladder_json(capsys, *args)


BAD = [
    (["remi14d"], "ladder.unknown_variant"),
    (["gin", "--levels", "random,clever"], "bot.unknown_level"),
    (["gin", "--levels", "greedy,random,greedy"], "ladder.same_level"),
    (["gin", "--deals", "0"], "ladder.bad_deals"),
    (["remi13d", "--levels", "random,greedy"], "ladder.too_few"),
    (["three-thirteen", "--levels", "random,greedy", "--option", "players=3"], "ladder.too_few"),
    (["gin", "--levels", "random"], "ladder.too_few"),
    (["gin", "--option", "knock"], "arena.bad_option"),
    (["gin", "--jobs", "-1"], "arena.bad_jobs"),
    (["gin", "--out", "/nonexistent/folder/ladder.json"], "ladder.bad_out"),
]

FIELDS: dict[str, dict[str, object]] = {
    "ladder.unknown_variant": {
        "variant": "remi14d",
        "variants": ", ".join(spec.name for spec in playable()),
    },
    "bot.unknown_level": {"level": "'clever'", "levels": "expert, greedy, random, strong"},
    "ladder.same_level": {"level": "greedy"},
    "ladder.bad_deals": {"deals": 0},
    "arena.bad_option": {"option": "knock"},
    "arena.bad_jobs": {"jobs": -1},
    "ladder.bad_out": {"path": "/nonexistent/folder/ladder.json"},
}


@pytest.mark.parametrize("lang", ["id", "en"])
@pytest.mark.parametrize(("args", "key"), BAD)
def test_bad_arguments_say_why_in_either_language(
    capsys: pytest.CaptureFixture[str], args: list[str], key: str, lang: str
) -> None:
    assert main(["ladder", *args, "--lang", lang]) == 2
    err = capsys.readouterr().err
    assert err.startswith("remi ladder: ")
    if key == "ladder.too_few":
        title = {"remi13d": "Remi 13 D", "three-thirteen": "Three-Thirteen", "gin": "Gin Rummy"}
        variant = title[args[0]]
        players = {"remi13d": 4, "three-thirteen": 3, "gin": 2}[args[0]]
        levels = len(args[2].split(","))
        fields: dict[str, object] = {"variant": variant, "players": players, "levels": levels}
    else:
        fields = FIELDS[key]
    assert err.strip() == f"remi ladder: {t(key, lang, **fields)}"


def test_fewer_levels_than_usual_seats_sit_one_a_seat() -> None:
    """Three-Thirteen is played by four by default; two levels sit at a table of two."""
    ladder = make_ladder("three-thirteen", "random,greedy", deals=1, seed=1)
    assert ladder.players == 2 and ladder.tables() == [(0, 1)]
    more = make_ladder("gin", "random,greedy,strong,expert", deals=1, seed=1)
    assert more.players == 2 and len(more.tables()) == 6
    assert Counter(i for table in more.tables() for i in table) == {0: 3, 1: 3, 2: 3, 3: 3}
