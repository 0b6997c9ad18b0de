"""``remi play``: whole games scripted through the terminal table with injected input."""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from rich.console import Console

from remikit.actions import Discard, Draw
from remikit.bots import make_bot
from remikit.cards import Card, format_cards, parse_cards
from remikit.cli import play
from remikit.cli.main import build_parser
from remikit.cli.tui.commands import parse_command
from remikit.cli.tui.session import Session
from remikit.cli.tui.table import sorted_hand
from remikit.records import load_record, replay
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
from remikit.variants.remi13d.tui import Remi13DUI

Stack = Callable[..., list[Card]]
PROMPT_LIMIT = 5_000


def make_console() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    console = Console(
        file=buffer, width=120, color_system=None, highlight=False, force_terminal=False
    )
    return console, buffer


def flat(text: str) -> str:
    """The output with runs of spaces and line breaks made single spaces (no wrapping)."""
    return " ".join(text.split())


class Person:
    """Answers like a person who always draws from the stock and discards the first card,
    after saying the scripted lines first."""

    def __init__(self, buffer: io.StringIO, script: Sequence[str] = ()) -> None:
        self.buffer = buffer
        self.script = list(script)
        self.prompts = 0

    def __call__(self, prompt: str) -> str:
        self.prompts += 1
        assert self.prompts < PROMPT_LIMIT, "the game does not end"
        if self.script:
            return self.script.pop(0)
        last = self.buffer.getvalue().rsplit("\n", 1)[-1]
        if "Draw:" in last or "Ambil kartu:" in last:
            return "s"
        if "Discard:" in last or "Buang:" in last:
            return "b 1"
        return ""  # "Press Enter to go on"


class EndOfInput:
    def __call__(self, prompt: str) -> str:
        raise EOFError


def run_play(
    argv: Sequence[str], input_fn: Callable[[str], str] | None = None, script: Sequence[str] = ()
) -> tuple[int, str]:
    console, buffer = make_console()
    args = build_parser().parse_args(["play", *argv])
    status = play.run(args, console=console, input_fn=input_fn or Person(buffer, script))
    return status, flat(buffer.getvalue())


def test_a_whole_remi13d_match_through_the_terminal(tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    status, out = run_play(
        [
            "remi13d",
            "--seed",
            "5",
            "--games",
            "2",
            "--lang",
            "en",
            "--record",
            str(record),
            "--name",
            "Ana",
        ]
    )
    assert status == 0
    assert "Seat draw (R13-2)" in out
    assert "Game 1 of 2" in out and "Game 2 of 2" in out
    assert "Scores of game 1" in out and "Scores of game 2" in out
    assert "Match scores" in out
    assert "Winner:" in out or "No single winner" in out
    assert "drew from the stock and discarded" in out
    assert "You drew" in out and "You discarded" in out
    assert "Game record saved" in out
    result = replay(load_record(record))
    assert result.ok and result.finished
    assert result.game is not None and len(result.game.deals) == 2
    assert result.players is not None and "Ana" in result.players  # the record names the seats


def test_the_person_takes_the_discard_of_the_left_seat() -> None:
    # seed 3: the seat draw puts the person after Left, who discards before the person plays
    status, out = run_play(["remi13d", "--seed", "3", "--lang", "en"], script=["q", "y"])
    assert status == 0
    assert "Play runs to the right: you may take the discards of Left (" in out
    assert "discard of Left (" in out


def test_quit_saves_the_record(tmp_path: Path) -> None:
    record = tmp_path / "quit.json"
    status, out = run_play(
        ["remi13d", "--seed", "2", "--record", str(record), "--lang", "en"],
        script=["s", "b 1", "q", "n", "q", "y"],
    )
    assert status == 0
    assert "Really quit?" in out and "Goodbye!" in out
    data = json.loads(record.read_text())
    assert data["variant"] == "remi13d" and len(data["hands"]) == 1
    assert any(a.startswith("p") and "discard" in a for a in data["hands"][0]["actions"])
    result = replay(data)
    assert result.ok and not result.finished


def test_end_of_input_also_saves_the_record(tmp_path: Path) -> None:
    record = tmp_path / "eof.json"
    status, _ = run_play(
        ["remi13d", "--seed", "3", "--record", str(record), "--lang", "en"], input_fn=EndOfInput()
    )
    assert status == 0 and record.exists()
    assert replay(load_record(record)).ok


def test_indonesian_table() -> None:
    status, out = run_play(
        ["remi13d", "--seed", "4", "--lang", "id"], script=["h", "s", "m", "q", "y"]
    )
    assert status == 0
    for text in (
        "Undian kursi",
        "Permainan 1 dari 4",
        "Tumpukan:",
        "Kartu Anda",
        "Perintah",
        "Sampai jumpa",
        "Kiri",
        "mengambil",
    ):
        assert text in out, text


def seat_person(stacked: Stack, hand: str, stock: str, script: Sequence[str]) -> tuple[int, str]:
    """Play a stacked Remi 13 D game where the person sits at seat 0 (first to play)."""
    game = Remi13DGame(Remi13DOptions(games=1), auto_deal=False)
    full = game.full_deck()
    rest = Counter(full)
    rest.subtract(Counter(parse_cards(hand) + parse_cards(stock)))
    spare = []
    for card in full:
        if not card.is_joker and rest[card] > 0:
            rest[card] -= 1
            spare.append(card)
    others = [format_cards(spare[i * 13 : (i + 1) * 13]) for i in range(3)]
    game.start_deal(stacked(full, [hand, *others], dealer=3, stock=stock))
    console, buffer = make_console()
    session = Session(
        ui=Remi13DUI(),
        game=game,
        bots={s: make_bot("greedy", seed=s) for s in (1, 2, 3)},
        names={0: "Ana", 1: "Budi", 2: "Sari", 3: "Wayan"},
        person=0,
        console=console,
        input_fn=Person(buffer, script),
        lang="en",
    )
    return session.play(), flat(buffer.getvalue())


def test_a_refused_close_says_why(stacked: Stack) -> None:
    status, out = seat_person(
        stacked,
        "Ah 5s 9h 3s 7d 7c Jh 2c 4d 6c 2h 3d 5c",
        "7s",
        ["s", "t ah", "t", "t 7h", "q", "y"],
    )
    assert status == 0
    assert out.count("cannot close: not every card is in a meld (dead:") == 2
    assert "7♥ is not in your hand" in out  # a refusal shows cards as the table does


def test_a_close_without_a_pure_run_is_refused_with_that_reason(stacked: Stack) -> None:
    _, out = seat_person(
        stacked, "2c 3c 4c 2d 3d 4d 2h 3h 4h Jk 6s 6h Ah", "6d", ["s", "t Ah", "m", "q", "y"]
    )
    assert "cannot close: the melds need a pure run of 4 or more cards" in out


def test_the_person_closes_and_the_table_shows_every_arrangement(stacked: Stack) -> None:
    status, out = seat_person(
        stacked, "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Qd Kd Ad", "Jk", ["s", "m", "t"]
    )
    assert status == 0
    assert "You can close: t Jk for 165 points" in out
    assert "You closed with Jk!" in out
    assert "Ana closed with Jk (bonus 75)!" in out
    assert "Scores of game 1" in out and "Match scores" in out
    assert "Ana" in out.split("Match scores")[1]


def test_commands_are_read_like_a_person_types_them() -> None:
    game = Remi13DGame(Remi13DOptions(games=1), auto_deal=False)
    game.start_deal(game.full_deck())
    view = game.view(0)
    assert parse_command("s", view, "en").action == Draw("stock")
    assert parse_command("stock", view, "en").action == Draw("stock")
    assert parse_command("d", view, "en").action == Draw("discard")
    assert parse_command("ambil", view, "en").action == Draw("discard")
    assert parse_command("draw stock", view, "en").action == Draw("stock")
    assert parse_command("p0 draw discard", view, "en").action == Draw("discard")
    assert parse_command("p1 draw stock", view, "en").kind == "error"
    assert parse_command("", view, "en").kind == "show"
    assert parse_command("?", view, "en").kind == "help"
    assert parse_command("keluar", view, "en").kind == "quit"
    assert parse_command("hello", view, "en").kind == "error"
    game.apply(0, Draw("stock"))
    view = game.view(0)
    shown = sorted_hand(view.hand)
    assert parse_command("b 3", view, "en").action == Discard(shown[2])
    assert parse_command("buang 10h", view, "en").action == Discard(Card.parse("Th"))
    assert parse_command("discard 7h", view, "en").action == Discard(Card.parse("7h"))
    assert parse_command("7h", view, "en").action == Discard(Card.parse("7h"))
    assert parse_command("14", view, "en").action == Discard(shown[13])
    ui = Remi13DUI()  # closing is Remi 13 D's own command
    assert parse_command("t ah", view, "en", ui).action == Close(Card.parse("Ah"))
    assert parse_command("close Jk", view, "en", ui).action == Close(Card.parse("Jk"))
    assert parse_command("t", view, "en", ui).kind == "close_best"
    bad = parse_command("b 15", view, "en")
    assert bad.kind == "error" and "pick 1 to 14" in bad.message
    assert "not a card" in parse_command("b zz", view, "en").message


def test_a_whole_three_thirteen_game_through_the_terminal(tmp_path: Path) -> None:
    record = tmp_path / "t13.json"
    status, out = run_play(["3-13", "--seed", "6", "--lang", "en", "--record", str(record)])
    assert status == 0
    assert "Round 1 of 11: 3 cards, wild rank 3" in out
    assert "Round 11 of 11: 13 cards, wild rank K" in out
    assert "Play runs clockwise: you may take the discards of Right (" in out
    assert "Deadwood of round 11" in out
    assert "Deadwood by round (the lowest total wins)" in out
    assert "Winner:" in out or "No winner" in out
    result = replay(load_record(record))
    assert result.ok and result.finished


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["remi13d", "--bots", "clever"], "unknown bot level 'clever'"),
        (["remi13d", "--bots", "random,greedy"], "exactly 3, not 2"),
        (["3-13", "--games", "2"], "--games is for Remi 13 D only"),
        (["3-13", "--option", "players=3"], "seats 4 players"),
        (["500", "--players", "9"], "option players must be from 2 to 8, not 9"),
        (["500", "--players", "5", "--bots", "random,greedy"], "exactly 4, not 2"),
        (["remi13d", "--players", "3"], "players must be from 4 to 4, not 3"),
        (["nonsense"], "unknown variant"),
    ],
)
def test_bad_arguments_say_why(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = run_play([*argv, "--lang", "en"], input_fn=EndOfInput())
    assert status == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "option players cannot be 8 with jokers=0"),
        ("id", "opsi players tidak bisa 8 dengan jokers=0"),
    ],
)
def test_R3_1_eight_players_without_jokers_are_refused_in_the_users_language(
    lang: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = run_play(["3-13", "--players", "8", "--lang", lang], input_fn=EndOfInput())
    assert status == 2
    assert message in capsys.readouterr().err
