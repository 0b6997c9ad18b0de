"""``remi play rummy500``: the person melds, lays off, takes a deep discard, calls Rummy and
is called on, through the terminal table with injected input (RULES.md §2)."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from remikit.actions import Action, Draw, LayOff, MeldCards, Pass, parse_action
from remikit.bots import Bot
from remikit.cards import JOKER, Card
from remikit.cli import play
from remikit.cli.main import build_parser
from remikit.cli.tui.commands import parse_command
from remikit.cli.tui.session import Session
from remikit.cli.tui.table import sorted_hand
from remikit.records import load_record, replay
from remikit.variants import find_variant
from remikit.variants.rummy500.actions import CallRummy, Decline
from remikit.variants.rummy500.game import Rummy500Game
from remikit.variants.rummy500.options import Rummy500Options
from remikit.views import PlayerView
from tests.test_play_cli import EndOfInput, make_console, run_play
from tests.test_rummy500_rules import Stacked, new_game

CALL_PROMPT = "Enter to go on, r K to call Rummy! (t table, h help) > "


def C(text: str) -> Card:
    return Card.parse(text)


class ScriptBot(Bot):
    """Plays record actions from a list, and answers call windows from another (None:
    pass)."""

    def __init__(self, actions: Sequence[str], calls: Sequence[str | None] = ()) -> None:
        self.name = "script"
        self.actions = [parse_action(a) for a in actions]
        self.calls = list(calls)

    def choose(self, view: PlayerView) -> Action:
        if view.phase == "call":
            answer = self.calls.pop(0) if self.calls else None
            call = Pass() if answer is None else parse_action(answer)
            assert call in view.legal_actions
            return call
        action = self.actions.pop(0)
        assert action in view.legal_actions, (action, view.legal_actions)
        return action


class Typist:
    """Types the scripted lines, noting each prompt line it answered."""

    def __init__(self, buffer: object, script: Sequence[str]) -> None:
        self.buffer = buffer
        self.script = list(script)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        text = self.buffer.getvalue()  # type: ignore[attr-defined]
        self.prompts.append(text.rsplit("\n", 1)[-1])
        if not self.script:
            raise EOFError
        return self.script.pop(0)


# The person (seat 0) plays first; Left (seat 1) and Right (seat 2) are scripted.
HANDS = ["5h 6h 7h Kc Ks 9d 2c", "9c 8h 4s Kd Qd 3s 2d", "4d 9h Td 6c Qs 5s Jd"]
STOCK = "4c 7s Ac 3c Th 2h"
LEFT = [
    "draw stock",
    "discard 8h",  # the person calls Rummy on the 8h
    "draw stock",
    "discard Kd",
    "meld 2c 3c 4c",
    "discard Qd",
]  # after calling Rummy on the person's 3c
LEFT_CALLS = [None, "rummy 3"]
RIGHT = ["draw stock", "discard 3c", "draw stock", "discard Th"]
PERSON = [
    "s",
    "m 5h 6h 7h",
    "b 2c",  # a meld; after it, the bots may call on the 2c (they cannot)
    "r 1",
    "l 8h 1",
    "b 4c",  # the pause after Left's 8h: Rummy!, the owed lay-off, a discard
    "",  # the pause after Left's Kd (no call possible)
    "",  # the pause after Right's 3c (a call on the 2c is possible: not taken)
    "d 2",
    "m kc ks kd",
    "b 3c",  # a deep draw owing the Kd; Left calls Rummy on the 3c
    "",  # the pause after Left's Qd
    "",  # the pause after Right's Th
    "s",
    "q",
    "y",
]


def scripted_session(
    stacked: Stacked, script: Sequence[str], *, lang: str = "en"
) -> tuple[Session, Typist, Rummy500Game]:
    game = new_game(stacked, HANDS, up="Js", stock=STOCK)
    console, buffer = make_console()
    typist = Typist(buffer, script)
    ui = find_variant("rummy500").part("tui")()
    assert ui is not None
    session = Session(
        ui=ui,
        game=game,
        bots={1: ScriptBot(LEFT, LEFT_CALLS), 2: ScriptBot(RIGHT, [None])},
        names={0: "Ana", 1: "Budi", 2: "Sari"},
        person=0,
        console=console,
        input_fn=typist,
        lang=lang,
    )
    return session, typist, game


def test_a_scripted_hand_through_the_terminal(stacked: Stacked, tmp_path: Path) -> None:
    session, _, game = scripted_session(stacked, PERSON)
    session.record_path = tmp_path / "r500.json"
    assert session.play() == 0
    out = session.console.file.getvalue()  # type: ignore[attr-defined]
    flat = " ".join(out.split())
    assert "You melded 5♥ 6♥ 7♥ (meld 1)." in flat
    assert "Left (Budi) drew from the stock and discarded 8♥." in flat
    assert "Rummy! You took 8♥; meld 8♥ this turn." in flat
    assert "You laid 8♥ off on meld 1." in flat
    assert "You took K♦ 3♣ from the discard pile. Meld K♦ this turn." in flat
    assert "You melded K♣ K♠ K♦ (meld 2)." in flat
    assert (
        "Left (Budi) called Rummy! on your discard and took 2♣ 4♣ 3♣, melded 2♣ 3♣ 4♣ "
        "and discarded Q♦."
    ) in flat
    assert "Right (Sari) drew from the stock and discarded 10♥." in flat
    # the table: melds numbered with who laid each card, the pile spread with positions
    assert "1 5♥ 6♥ 7♥ 8♥ Ana 5♥ 6♥ 7♥ 8♥" in flat
    assert "3 2♣ 3♣ 4♣ Budi 2♣ 3♣ 4♣" in flat
    assert "Discard pile (1 = top): 1 10♥ 2 Q♦ 3 J♠" in flat
    assert "Melds on the table (l CARD M lays off onto meld M)" in flat
    assert "Meld K♦ first: m CARDS or l CARD M" in flat
    # Right lost its turn to the person's call: Left drew right after the person's discard
    deal = game.deals[0]
    assert [str(p) for p in deal.log[:15]] == [
        "p0 draw stock",
        "p0 meld 5h 6h 7h",
        "p0 discard 2c",
        "p1 draw stock",
        "p1 discard 8h",
        "p2 pass",
        "p0 rummy 1",
        "p0 layoff 8h to 1",
        "p0 discard 4c",
        "p1 draw stock",
        "p1 discard Kd",
        "p2 draw stock",
        "p2 discard 3c",
        "p0 pass",
        "p1 pass",
    ]
    assert "p1 rummy 3" in [str(p) for p in deal.log]
    result = replay(load_record(tmp_path / "r500.json"))
    assert result.ok and not result.finished


def test_the_prompt_after_a_discard_gives_nothing_away(stacked: Stacked) -> None:
    session, typist, _ = scripted_session(stacked, PERSON)
    session.play()
    out = session.console.file.getvalue()  # type: ignore[attr-defined]
    pauses = [p for p in typist.prompts if "call Rummy" in p]
    assert len(pauses) == 5 and set(pauses) == {CALL_PROMPT}
    # between a bot's turn and the pause only the pile is shown, in the same form, whether
    # a call was possible (the 8h at the first pause, the 2c under 4c 3c at the third) or not
    before = [part.rstrip("\n").split("\n")[-2:] for part in out.split(CALL_PROMPT)[:-1]]
    assert len(before) == 5
    for narration, pile in before:
        assert re.fullmatch(r"(Left|Right) \(\w+\) .* discarded \S+\.", narration), narration
        assert re.fullmatch(r"Discard pile \(1 = top\):( \d+ \S+)+", " ".join(pile.split()))


def test_a_wrong_call_gets_the_engines_reason_and_the_same_prompt(stacked: Stacked) -> None:
    script = ["s", "m 5h 6h 7h", "b 2c", "r 3", "r x", "t", "h", "q", "y"]
    session, typist, _ = scripted_session(stacked, script)
    session.play()
    flat = " ".join(session.console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "the card at position 3 cannot be melded at once" in flat
    assert "Press Enter to go on, or r K to call Rummy! on the K-th discard" in flat
    assert "the nearest after the discarder wins" in flat
    assert typist.prompts.count(CALL_PROMPT) == 5  # the same pause until it is answered


def test_warn_playable_asks_before_a_playable_discard(stacked: Stacked) -> None:
    script = [
        "s",
        "m 5h 6h 7h",
        "b 2c",
        "r 1",
        "l 8h 1",
        "b 4c",
        "",
        "",
        "d 2",
        "b kd",
        "m kc ks kd",
        "b 8h",
        "b 3c",
        "n",
        "q",
        "y",
    ]
    session, _, _ = scripted_session(stacked, script)
    session.warn_playable = True
    session.play()
    flat = " ".join(session.console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "you must meld K♦ (taken from the discard pile) before you discard" in flat
    assert "8♥ is not in your hand" in flat and flat.count("Discard it anyway?") == 1
    assert "With 3♣ on the pile the others could call Rummy!. Discard it anyway? (y/n)" in flat


def test_commands_are_short() -> None:
    game = Rummy500Game(Rummy500Options(), auto_deal=False)
    game.start_deal(game.full_deck())
    ui = find_variant("rummy500").part("tui")()
    view = game.view(0)

    def parsed(text: str) -> object:
        command = parse_command(text, view, "en", ui)
        return command.action if command.kind == "action" else command.kind

    assert parsed("s") == Draw("stock")
    assert parsed("d") == Draw("discard")
    assert parsed("d 3") == Draw("discard", 3)
    assert parsed("draw discard 3") == Draw("discard", 3)
    assert parsed("r 2") == CallRummy(2) and parsed("r") == CallRummy(1)
    assert parsed("rummy 2") == CallRummy(2)
    assert parsed("decline") == Decline()
    assert parsed("m") == "melds"
    hand = sorted_hand(view.hand)
    assert parsed("m 7h 8h 9h") == MeldCards((C("7h"), C("8h"), C("9h")), (None, None, None))
    assert parsed("m 1 2 jk=8h") == MeldCards((hand[0], hand[1], JOKER), (None, None, C("8h")))
    assert parsed("l 7h 2") == LayOff(C("7h"), 2)
    assert parsed("l jk=th 2") == LayOff(JOKER, 2, C("Th"))
    assert parsed("layoff 7h to 2") == LayOff(C("7h"), 2)
    assert parsed("l 7h to 2") == LayOff(C("7h"), 2)
    assert parsed("d x") == "error" and parsed("l 7h") == "error"
    assert parsed("m 7h=8h 9h") == "error"


@pytest.mark.parametrize(
    ("players", "sides"),
    [
        (2, ["Top"]),
        (5, ["Left", "Top left", "Top right", "Right"]),
        (8, ["Lower left", "Left", "Top left", "Top", "Top right", "Right", "Lower right"]),
    ],
)
def test_whole_games_at_any_table_size(players: int, sides: list[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    status, out = run_lazy(
        [
            "500",
            "--players",
            str(players),
            "--seed",
            "11",
            "--lang",
            "en",
            "--option",
            "target=120",
            "--bots",
            "greedy",
            "--record",
            str(record),
        ]
    )
    assert status == 0
    assert "Hand 1 · the first to 120 points wins" in out
    order = out.split("Play runs clockwise: You → ")[1].split(" → You.")[0]
    assert [s.split(" (")[0] for s in order.split(" → ")] == sides
    assert "Scores of hand 1 (laid down − left in hand)" in out
    assert "Scores by hand (target 120)" in out
    assert "Winner:" in out
    result = replay(load_record(record))
    assert result.ok and result.finished


class LazyPerson:
    """Draws from the stock, discards its first card, goes on at every pause."""

    def __init__(self, buffer: io.StringIO) -> None:
        self.buffer = buffer
        self.prompts = 0

    def __call__(self, prompt: str) -> str:
        self.prompts += 1
        assert self.prompts < 5_000, "the game does not end"
        last = self.buffer.getvalue().rsplit("\n", 1)[-1]
        for start, answer in (("Draw:", "s"), ("Play:", "b 1"), ("The stock is empty", "decline")):
            if last.startswith(start):
                return answer
        return ""


def run_lazy(argv: Sequence[str]) -> tuple[int, str]:
    console, buffer = make_console()
    args = build_parser().parse_args(["play", *argv])
    status = play.run(args, console=console, input_fn=LazyPerson(buffer))
    return status, " ".join(buffer.getvalue().split())


def test_indonesian_table(stacked: Stacked) -> None:
    session, _, _ = scripted_session(stacked, ["h", "s", "m", "q", "y"], lang="id")
    session.play()
    flat = " ".join(session.console.file.getvalue().split())  # type: ignore[attr-defined]
    for text in (
        "Ambil: s tumpukan",
        "Buangan (1 = teratas):",
        "Belum ada kartu jadi di meja.",
        "Perintah",
        "panggil Rummy!",
        "Sampai jumpa",
        "Babak ini",
    ):
        assert text in flat, text


def test_bad_players_say_why(capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = run_play(["500", "--players", "1", "--lang", "en"], input_fn=EndOfInput())
    assert status == 2
    assert "players must be from 2 to 8, not 1" in capsys.readouterr().err
