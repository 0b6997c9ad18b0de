"""``remi play gin``: whole games at the terminal against the random bot (RULES.md §4)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from remikit.cards import parse_cards
from remikit.cli import play
from remikit.cli.main import build_parser, main
from remikit.cli.tui.session import Session
from remikit.deal import Phase
from remikit.records import load_record, replay
from remikit.variants.gin.laydown import best_melds, split
from remikit.variants.gin.scoring import deadwood
from remikit.variants.gin.state import GinPhase, GinViewPart

PROMPT_LIMIT = 20_000


class Knocker:
    """A person who passes the upcard, draws from the stock, knocks as soon as the
    best discard allows it (G-5), passes at the wall and lays down with ``lay``."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.prompts = 0
        self.typed: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts += 1
        assert self.prompts < PROMPT_LIMIT, "the game does not end"
        self.typed.append(self.answer())
        return self.typed[-1]

    def answer(self) -> str:
        session = self.session
        assert session is not None
        if session.game.over or session.game.to_play != session.person:
            return ""
        view = session.game.view(session.person)
        if view.phase in (GinPhase.OFFER, GinPhase.WALL):
            return "p"
        if view.phase is Phase.DRAW:
            return "s"
        if view.phase is Phase.DISCARD:
            found = deadwood(view.hand)
            limit = GinViewPart.of(view).knock_limit
            assert found.discard is not None and limit is not None
            verb = "k" if found.points <= limit else "b"
            return f"{verb} {found.discard}"
        return "lay"


def play_gin(lang: str, seed: int, record: Path) -> tuple[str, Knocker]:
    buffer = io.StringIO()
    console = Console(file=buffer, width=140, color_system=None, highlight=False)
    person = Knocker()
    argv = ["play", "gin", "--seed", str(seed), "--lang", lang, "--bots", "random"]
    args = build_parser().parse_args([*argv, "--record", str(record)])
    session = play.make_session(args, console=console, input_fn=person, lang=lang)
    person.session = session
    assert session.play() == 0
    return " ".join(buffer.getvalue().split()), person


def test_G5_G6_G7_G10_a_whole_game_knocking_and_laying_down_at_the_terminal(
    tmp_path: Path,
) -> None:
    record = tmp_path / "gin.json"
    out, person = play_gin("en", 3, record)
    assert "You play against Top (Budi)" in out
    assert "Hand 1 · a game to 100 points" in out
    assert "knock limit: 10" in out
    assert "You knock, discarding" in out  # G-5
    assert "You laid down" in out and "lay" in person.typed  # G-6: the best lay-down
    assert "Melds (+ laid off)" in out and "Deadwood cards" in out  # G-7
    assert "Points by hand · a game to 100" in out
    assert "Bonuses (G-10) of" in out and "the game bonus" in out  # G-10
    assert "Winner:" in out
    result = replay(load_record(record))
    assert result.ok and result.finished


def test_the_gin_table_speaks_indonesian(tmp_path: Path) -> None:
    out, _ = play_gin("id", 3, tmp_path / "gin.json")
    assert "Anda bermain melawan" in out
    assert "batas knock: 10" in out
    assert "Anda knock dengan membuang" in out
    assert "Kartu jadi (+ tempelan)" in out
    assert "Bonus (G-10)" in out


def test_G2_a_long_run_is_laid_as_melds_of_at_most_five() -> None:
    run = parse_cards("As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js")
    assert [len(m) for m in split(run)] == [5, 3, 3]
    assert [len(m) for m in split(run[:6])] == [3, 3]
    hand = parse_cards("2h 3h 4h 5h 6h 7h 8h 9h 9d 9c")
    assert sorted(len(m) for m in best_melds(hand)) == [3, 3, 4]


def test_remi_replay_reads_a_gin_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "gin.json"
    play_gin("en", 5, record)
    capsys.readouterr()
    assert main(["replay", str(record), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Replay: gin" in out and "Winner: You" in out  # the record names its seats
