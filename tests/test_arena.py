"""``remi arena``: the JSON of CONTRACT.md, seat rotation, --jobs, Wilson intervals, --deals,
games whose play raises."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from remikit.cli import arena
from remikit.cli.arena import failure_report, make_arena
from remikit.cli.arena_results import ArenaResult, tally, unique_best
from remikit.cli.arguments import ArenaError
from remikit.cli.games import (
    GameFailure,
    GameOutcome,
    GameTask,
    attempt,
    derive_seed,
    play_task,
    seat_order,
    wilson_interval,
)
from remikit.cli.main import main
from remikit.variants import playable

BOT_KEYS = {"bot", "wins", "win_rate", "win_rate_ci95", "mean_points"}


def arena_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["arena", *args, "--json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_json_has_the_contract_shape(capsys: pytest.CaptureFixture[str]) -> None:
    data = arena_json(
        capsys,
        "remi13d",
        "--bots",
        "greedy,random,random,random",
        "--games",
        "4",
        "--seed",
        "1",
        "--option",
        "games=1",
    )
    assert set(data) == {"variant", "games", "seed", "seconds", "bots"}
    assert data["variant"] == "remi13d" and data["games"] == 4 and data["seed"] == 1
    assert isinstance(data["seconds"], float)
    bots = data["bots"]
    assert isinstance(bots, list) and [b["bot"] for b in bots] == [
        "greedy",
        "random",
        "random",
        "random",
    ]
    for b in bots:
        assert set(b) == BOT_KEYS
        low, high = b["win_rate_ci95"]
        assert 0 <= low <= b["win_rate"] <= high <= 1
        assert b["win_rate"] == b["wins"] / 4
        assert isinstance(b["mean_points"], float | int)
    assert sum(b["wins"] for b in bots) <= 4


def test_same_results_with_one_or_two_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("three-thirteen", "--bots", "greedy,random,random", "--games", "3", "--seed", "9")
    one = arena_json(capsys, *args, "--jobs", "1")
    two = arena_json(capsys, *args, "--jobs", "2")
    one.pop("seconds")
    two.pop("seconds")
    assert one == two


def test_seats_rotate_so_every_bot_sits_everywhere() -> None:
    seen: Counter[tuple[int, int]] = Counter()
    for game in range(8):
        order = seat_order(4, game)
        assert sorted(order) == [0, 1, 2, 3]
        seen.update((bot, seat) for seat, bot in enumerate(order))
    assert seen == Counter({(b, s): 2 for b in range(4) for s in range(4)})
    arena = make_arena(
        "remi13d", "greedy,random,random,random", games=4, seed=3, options=["games=1"]
    )
    outcomes = [play_task(task) for task in arena.tasks()]
    assert [o.seats for o in outcomes] == [(0, 1, 2, 3), (3, 0, 1, 2), (2, 3, 0, 1), (1, 2, 3, 0)]


def test_wins_and_points_follow_the_bot_not_the_seat() -> None:
    outcomes = [
        GameOutcome(0, (0, 1, 2), (10, 5, 1), winner=0, deals=((10, 5, 1),)),
        GameOutcome(1, (2, 0, 1), (10, 5, 1), winner=0, deals=((10, 5, 1),)),
        GameOutcome(2, (1, 2, 0), (3, 3, 1), winner=None, deals=((3, 3, 1),)),
    ]
    stats = tally(outcomes, ["a", "b", "c"], per_deal=False, lower_is_better=False)
    assert [s.wins for s in stats] == [1, 0, 1]
    assert [s.points for s in stats] == [10 + 5 + 1, 5 + 1 + 3, 1 + 10 + 3]
    lower = tally(outcomes, ["a", "b", "c"], per_deal=True, lower_is_better=True)
    assert [s.wins for s in lower] == [1, 1, 1]  # the unique lowest of each deal


def test_unique_best() -> None:
    assert unique_best([3, 1, 2], lower_is_better=True) == 1
    assert unique_best([3, 1, 1, 5], lower_is_better=True) is None
    assert unique_best([3, 1, 3], lower_is_better=False) is None
    assert unique_best([3, 1, 4], lower_is_better=False) == 2


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [
        (88, 200, 0.3730, 0.5093),
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (1, 4, 0.0456, 0.6994),
    ],
)
def test_wilson_interval_known_values(wins: int, n: int, low: float, high: float) -> None:
    got = wilson_interval(wins, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_of_nothing() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_deals_counts_each_three_thirteen_round(capsys: pytest.CaptureFixture[str]) -> None:
    data = arena_json(
        capsys, "3-13", "--bots", "greedy,random", "--games", "2", "--seed", "4", "--deals"
    )
    assert data["deals"] == 22
    bots = data["bots"]
    assert isinstance(bots, list)
    assert sum(b["wins"] for b in bots) <= 22
    greedy, rand = bots
    assert greedy["mean_points"] < rand["mean_points"]  # deadwood per round: lower is better


def test_seeds_depend_on_the_seed_and_the_game() -> None:
    assert derive_seed(1, 0) == derive_seed(1, 0)
    assert len({derive_seed(1, 0), derive_seed(1, 1), derive_seed(2, 0), derive_seed(1, 0, 0)}) == 4


def test_human_output_is_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "arena",
                "3-13",
                "--bots",
                "greedy,random",
                "--games",
                "1",
                "--seed",
                "2",
                "--lang",
                "en",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Three-Thirteen: 1 game, seed 2" in out and "Win rate" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["remi13d", "--bots", "greedy,random"], "give 4 bots, not 2"),
        (["remi13d", "--bots", "greedy,random,random,clever"], "unknown bot level 'clever'"),
        (
            ["remi13d", "--bots", "random,random,random,random", "--option", "jokers=2"],
            "unknown option 'jokers'",
        ),
        (["remi13d", "--bots", "random,random,random,random", "--option", "games"], "KEY=VALUE"),
        (["remi13d", "--bots", "random,random,random,random", "--option", "games=0"], "games"),
        (["remi13d", "--bots", "random,random,random,random", "--games", "0"], "--games"),
        (["3-13", "--bots", "random,random", "--option", "ace=middle"], "ace"),
        (["canasta", "--bots", "random,random"], "unknown variant"),
    ],
)
def test_bad_arguments_say_why(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["arena", *args, "--lang", "en"]) == 2
    assert message in capsys.readouterr().err


def test_deals_bots_cannot_finish_end_at_the_action_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # purely random discards almost never complete a hand of 10+ cards (round 8 on): such a
    # round ends at the limit, scored as when the stock runs out (RULES.md §0)
    assert (
        main(["arena", "3-13", "--bots", "random,random", "--games", "1", "--seed", "2", "--json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["games"] == 1


def test_make_arena_picks_a_seed_when_none_is_given() -> None:
    arena = make_arena("3-13", "random,random", games=1, seed=None)
    assert isinstance(arena.seed, int)
    with pytest.raises(ArenaError):
        make_arena("3-13", "", games=1, seed=1)


EIGHT = ",".join(["greedy"] * 8)


@pytest.mark.parametrize(
    ("variant", "bots", "options", "lang", "message"),
    [
        # R3-1: round 11 deals 8 × 13 cards plus the turned-up card, 105 of 104 without jokers
        (
            "three-thirteen",
            EIGHT,
            [],
            "en",
            "Three-Thirteen with these table options is played by 2 to 7 players: "
            "give 2 to 7 bots, not 8. Three-Thirteen is for 2 to 7 players without jokers "
            "and 2 to 8 with jokers=2 or jokers=4",
        ),
        (
            "three-thirteen",
            EIGHT,
            [],
            "id",
            "Three-Thirteen dengan opsi meja ini dimainkan oleh 2 sampai 7 pemain: "
            "berikan 2 sampai 7 bot, bukan 8. "
            "Three-Thirteen dimainkan 2 sampai 7 pemain tanpa joker",
        ),
        (
            "3-13",
            EIGHT + ",greedy",
            ["jokers=0"],
            "en",
            "is played by 2 to 7 players: give 2 to 7 bots, not 9. Three-Thirteen is for 2 to 7",
        ),
        (
            "3-13",
            EIGHT + ",greedy",
            ["jokers=2"],
            "en",
            "Three-Thirteen is played by 2 to 8 players: give 2 to 8 bots, not 9",
        ),
        # R13-1: exactly 4 players
        (
            "remi13d",
            "greedy,greedy,greedy",
            [],
            "en",
            "Remi 13 D is played by exactly 4 players: give 4 bots, not 3",
        ),
        (
            "remi13d",
            "greedy,greedy,greedy",
            [],
            "id",
            "Remi 13 D dimainkan oleh tepat 4 pemain: berikan 4 bot, bukan 3",
        ),
        # R5-1: 2 to 8 players
        ("rummy500", "greedy", [], "en", "Rummy 500 is played by 2 to 8 players: give 2 to 8 bots"),
        (
            "rummy500",
            "greedy,greedy",
            ["players=3"],
            "en",
            "the table has 3 seats (option players=3): give 3 bots, not 2",
        ),
        (
            "rummy500",
            "greedy,greedy",
            ["players=3"],
            "id",
            "meja ini punya 3 kursi (opsi players=3): berikan 3 bot, bukan 2",
        ),
        ("three-thirteen", EIGHT, ["players=8"], "en", "option players cannot be 8 with jokers=0"),
    ],
)
def test_a_player_count_the_table_cannot_seat_says_what_it_allows_and_why(
    variant: str, bots: str, options: list[str], lang: str, message: str
) -> None:
    with pytest.raises(ArenaError) as refused:
        make_arena(variant, bots, games=1, seed=1, options=options, lang=lang)
    assert message in str(refused.value)


def test_eight_bots_play_three_thirteen_with_jokers() -> None:
    arena = make_arena("three-thirteen", EIGHT, games=1, seed=1, options=["jokers=2"])
    assert arena.options.players == 8 and arena.options.as_dict()["jokers"] == 2


@pytest.mark.parametrize(
    ("variant", "option", "message"),
    [
        # CONTRACT.md "Table options": --option values are parsed strictly, never coerced
        ("rummy500", "players=3.7", 'option players takes a whole number, not "3.7"'),
        ("rummy500", "players=²", 'option players takes a whole number, not "²"'),
        ("rummy500", "target=1e3", 'option target takes a whole number, not "1e3"'),
        ("rummy500", "jokers=yes", 'option jokers takes true or false, not "yes"'),
        ("rummy500", "jokers=1", 'option jokers takes true or false, not "1"'),
        ("three-thirteen", "jokers=true", 'option jokers takes a whole number, not "true"'),
        ("three-thirteen", "jokers=2.5", 'option jokers takes a whole number, not "2.5"'),
        ("remi13d", "games=" + "9" * 5000, "option games must be from 1 to 100, not 99999"),
    ],
)
def test_option_text_is_parsed_strictly(variant: str, option: str, message: str) -> None:
    bots = "greedy,greedy,greedy,greedy"
    with pytest.raises(ArenaError) as refused:
        make_arena(variant, bots, games=1, seed=1, options=[option], lang="en")
    assert message in str(refused.value)


def game_1_raises(task: GameTask) -> GameOutcome:
    """:func:`play_task`, except that game 1's bot raises."""
    if task.index == 1:
        raise RuntimeError("the bot gave up [at move 3]")
    return play_task(task)


GIN = ("gin", "--bots", "random,greedy", "--games", "4", "--seed", "3")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_game_that_raises_is_reported_and_the_others_are_counted(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    monkeypatch.setattr(arena, "play_task", game_1_raises)
    assert main(["arena", *GIN, "--jobs", jobs, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 4
    assert data["failures"] == [
        {
            "game": 1,
            "seats": ["greedy", "random"],
            "error": "RuntimeError: the bot gave up [at move 3]",
        }
    ]
    finished = [
        play_task(task) for task in make_arena("gin", "random,greedy", games=4, seed=3).tasks()
    ]
    del finished[1]
    stats = tally(finished, ["random", "greedy"], per_deal=False, lower_is_better=False)
    assert data["bots"] == [s.as_json() for s in stats]


@pytest.mark.parametrize(
    ("lang", "heading", "line"),
    [
        (
            "en",
            "1 game did not finish and is not counted (games are numbered from 0):",
            "game 1 (greedy, random): RuntimeError: the bot gave up [at move 3]",
        ),
        (
            "id",
            "1 permainan tidak selesai dan tidak dihitung (nomor permainan mulai dari 0):",
            "permainan 1 (greedy, random): RuntimeError: the bot gave up [at move 3]",
        ),
    ],
)
def test_the_report_lists_the_games_that_did_not_finish(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
    heading: str,
    line: str,
) -> None:
    monkeypatch.setattr(arena, "play_task", game_1_raises)
    assert main(["arena", *GIN, "--jobs", "1", "--lang", lang]) == 1
    out = capsys.readouterr().out
    assert f"{heading}\n{line}\n" in out
    assert ("4 games, seed 3" if lang == "en" else "4 permainan, benih 3") in out


def test_a_failure_keeps_the_game_seats_and_error() -> None:
    task = make_arena("3-13", "greedy,random,random", games=3, seed=1).tasks()[1]
    failed = attempt(game_1_raises, task)
    assert failed == GameFailure(1, (2, 0, 1), "RuntimeError: the bot gave up [at move 3]")
    assert failed.as_json(["a", "b", "c"]) == {
        "game": 1,
        "seats": ["c", "a", "b"],
        "error": "RuntimeError: the bot gave up [at move 3]",
    }
    stats = tally([], ["a", "b", "c"], per_deal=False, lower_is_better=True)
    failures = [failed, GameFailure(2, (1, 2, 0), "ValueError")]
    result = ArenaResult("three-thirteen", 3, 1, 0.5, False, 0, stats, failures)
    assert result.as_json()["failures"][1] == {
        "game": 2,
        "seats": ["b", "c", "a"],
        "error": "ValueError",
    }
    assert failure_report(result, "en").plain.splitlines() == [
        "2 games did not finish and are not counted (games are numbered from 0):",
        "game 1 (c, a, b): RuntimeError: the bot gave up [at move 3]",
        "game 2 (b, c, a): ValueError",
    ]


@pytest.mark.parametrize("command", ["arena", "ladder"])
def test_the_help_names_every_registered_variant(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    assert main([command, "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    names = ", ".join(spec.name for spec in playable())
    assert "gin" in names and f"{names} (or one of their aliases)" in out
