"""``remi score`` as CONTRACT.md fixes it, and the message catalogue behind it."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from remikit.cards import Card, CardError
from remikit.cli.main import main
from remikit.i18n import default_lang, t
from remikit.variants import scored
from tests.conftest import DATA

REPO = Path(__file__).resolve().parents[1]
CLOSING_HAND = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk"
JSON_KEYS = {"variant", "points", "can_close", "melds", "dead"}


def vectors(name: str) -> list[str]:
    """The lines of ``tests/data/vectors/NAME``."""
    return (DATA / "vectors" / name).read_text(encoding="utf-8").splitlines()


def score(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["score", *args])
    out, err = capsys.readouterr()
    return status, out, err


# -- one hand -------------------------------------------------------------------


def test_close_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = score(
        capsys, "remi13d", *CLOSING_HAND.split(), "--closing", "Ah", "--lang", "en"
    )
    assert (status, err) == (0, "")
    assert "Points: 135" in out
    assert "A♥" in out and "Remi As" in out
    assert "3♠ 4♠ 5♠ 6♠" in out and "pure run" in out
    assert "Dead cards: none" in out


def test_close_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = score(capsys, "13d", CLOSING_HAND, "--closing", "ah", "--json")
    assert status == 0
    got = json.loads(out)
    assert set(got) == JSON_KEYS
    assert (got["variant"], got["points"], got["can_close"], got["dead"]) == (
        "remi13d",
        135,
        True,
        [],
    )
    assert sorted(map(sorted, got["melds"])) == sorted(
        map(
            sorted,
            [
                ["3s", "4s", "5s", "6s"],
                ["9h", "Th", "Jh"],
                ["7c", "7d", "7s"],
                ["Kc", "Kd", "Jk=Kh" if "Jk=Kh" in out else "Jk=Ks"],
            ],
        )
    )


def test_cards_may_follow_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = score(capsys, "remi13d", "--closing", "Ah", *CLOSING_HAND.split(), "--json")
    assert status == 0 and json.loads(out)["points"] == 135
    status, _, err = score(capsys, "remi13d", "3s", "--bogus", "4s")
    assert status == 2 and "--bogus" in err


def test_hand_without_closing_is_scored_by_r13_12(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = score(capsys, "remi-13d", "2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs", "--json")
    got = json.loads(out)
    assert status == 0 and got["points"] == 25 and got["can_close"] is False
    assert sorted(got["dead"]) == sorted(["9s", "9c", "7d", "8c", "Qs"])
    status, out, _ = score(capsys, "remi13d", "2h 3h Jk 9s 9c 9d Kd Kc Ks 5c 6c 7c Qd", "--json")
    assert json.loads(out)["points"] == -105 and json.loads(out)["melds"] == []
    status, out, _ = score(capsys, "remi13d", CLOSING_HAND, "--json")
    assert json.loads(out)["can_close"] is True  # it would close with an ace or a joker


def test_refused_close_exits_1_with_a_reason(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc 2d"
    status, out, err = score(capsys, "remi13d", hand, "--closing", "Ah", "--lang", "en")
    assert status == 1 and out == ""
    assert "Close refused" in err and "2♦" in err
    status, out, err = score(capsys, "remi13d", hand, "--closing", "Ah", "--json", "--lang", "en")
    got = json.loads(out)
    assert status == 1
    assert (got["can_close"], got["points"]) == (False, None)
    assert "not every card is in a meld" in got["reason"]
    status, out, err = score(capsys, "remi13d", CLOSING_HAND, "--closing", "Kh", "--json")
    assert status == 1 and "ace or a joker" in json.loads(out)["reason"]


def test_three_thirteen(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = score(capsys, "three-thirteen", "3h", "9c", "Kd", "--round", "1", "--json")
    assert status == 0
    assert json.loads(out) == {
        "variant": "three-thirteen",
        "points": 34,
        "can_close": False,
        "melds": [],
        "dead": ["9c", "Kd", "3h"],
    }
    status, out, _ = score(capsys, "3-13", "3h 9c 9d", "--round", "1", "--json")
    got = json.loads(out)
    assert (got["points"], got["can_close"], got["melds"]) == (0, True, [["9c", "9d", "3h=9s"]])
    status, out, _ = score(capsys, "313", "Qc Kc Ac", "--round", "1", "--ace", "high")
    assert status == 0 and "Deadwood: 0" in out
    status, out, _ = score(capsys, "threethirteen", "Qc Kc Ac", "--round", "1", "--json")
    assert json.loads(out)["points"] == 21


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["gin", "As"], "gin: 10 cards"),
        (["gin", "As 2s 3s 4s 5s 6s 7s 8s 9s Jk"], "1 × Jk"),
        (["poker", "As"], "unknown variant: 'poker' (choose one of remi13d, three-thirteen, gin)"),
        (["500", "As Ks"], "does not score rummy500: its score is not that of a hand of cards"),
        (["remi13d", "As Xx"], "not a card: 'Xx'"),
        (["remi13d", "As Ks"], "13 cards"),
        (["remi13d", CLOSING_HAND, "Ah"], "not 14"),
        (["remi13d", "As As As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js"], "3 × As"),
        (["3-13", "3h 9c Kd"], "needs the round"),
        (["3-13", "3h 9c Kd", "--round", "12"], "a round is 1 to 11, not 12"),
        (["3-13", "3h 9c Kd 4d", "--round", "1"], "round 1 deals 3 cards; this hand has 4"),
        (["3-13", "3h 9c Kd", "--round", "1", "--closing", "Ah"], "remi13d only"),
        ([], "give a variant"),
    ],
)
def test_unusable_input_exits_2_naming_the_problem(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, out, err = score(capsys, *args, "--lang", "en")
    assert (status, out) == (2, "")
    assert message in err


def test_bad_card_message_is_the_card_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CardError) as error:
        Card.parse("1x")
    _, _, err = score(capsys, "remi13d", "1x", "--lang", "en")
    assert str(error.value) in err


def test_indonesian_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = score(capsys, "remi13d", CLOSING_HAND, "--closing", "Jk", "--lang", "id")
    assert status == 0 and "Poin: 160" in out and "Kartu mati: tidak ada" in out
    assert "kartu dasar murni" in out and "Remi Joker" in out
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "id_ID.UTF-8")
    _, out, _ = score(capsys, "3-13", "3h 9c Kd", "--round", "1")
    assert "Nilai kartu mati: 34" in out
    _, _, err = score(capsys, "gin", "As")
    assert "gin: 10 kartu" in err


def test_command_line_entry_points(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert main(["--help"]) == 0
    assert "score" in capsys.readouterr().out
    assert main(["score", "--no-such-option"]) == 2


def test_python_dash_m_remikit_runs_score() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "remikit",
            "score",
            "remi13d",
            CLOSING_HAND,
            "--closing",
            "Ah",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["points"] == 135


# -- batches --------------------------------------------------------------------


def batch(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lines: list[str]
) -> tuple[int, list[dict[str, object]]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    status, out, _ = score(capsys, "--batch", "-", "--lang", "en")
    return status, [json.loads(line) for line in out.splitlines()]


@pytest.mark.usefixtures("search")
@pytest.mark.parametrize("name", ["remi13d.jsonl", "three_thirteen.jsonl"])
def test_batch_agrees_with_every_vector(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Both searches, compiled and pure Python, give every vector's points."""
    lines = vectors(name)
    status, results = batch(capsys, monkeypatch, lines)
    assert status == 0
    assert len(results) == len(lines)
    for line, got in zip(lines, results, strict=True):
        want = json.loads(line)
        assert set(got) - {"reason"} == JSON_KEYS
        assert got["points"] == want["points"], line
        if "can_close" in want:
            assert got["can_close"] == want["can_close"], line


def test_batch_from_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps({"variant": "3-13", "hand": "3h 9c Kd", "round": 1}) + "\n")
    status, out, _ = score(capsys, "--batch", str(path))
    assert status == 0 and json.loads(out)["points"] == 34
    status, out, err = score(capsys, "--batch", str(tmp_path / "missing.jsonl"))
    assert status == 2 and "missing.jsonl" in err


def test_malformed_batch_lines_give_errors_and_the_batch_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    good = json.dumps({"variant": "remi13d", "hand": CLOSING_HAND.split(), "closing": "Ah"})
    refused = json.dumps({"variant": "remi13d", "hand": CLOSING_HAND.split(), "closing": "7h"})
    lines = [
        good,
        '{"variant": "remi13d", "hand": [',
        json.dumps({"hand": ["As"]}),
        json.dumps({"variant": "canasta", "hand": ["As"]}),
        json.dumps({"variant": "remi13d", "hand": ["As", "Qx"]}),
        json.dumps({"variant": "remi13d", "hand": ["As", "Ks"]}),
        json.dumps({"variant": "three-thirteen", "hand": ["3h", "9c", "Kd"], "round": 0}),
        json.dumps({"variant": "three-thirteen", "hand": ["3h", "9c", "Kd"]}),
        refused,
        "[1, 2]",
        good,
    ]
    status, results = batch(capsys, monkeypatch, lines)
    assert status == 1
    assert len(results) == len(lines)
    assert results[0]["points"] == results[-1]["points"] == 135
    errors = [str(r.get("error", "")) for r in results]
    assert "broken JSON" in errors[1] and errors[1].startswith("line 2:")
    assert "missing key 'variant'" in errors[2]
    assert "unknown variant: 'canasta'" in errors[3]
    assert "not a card: 'Qx'" in errors[4]
    assert "13 cards" in errors[5]
    assert "a round is 1 to 11, not 0" in errors[6]
    assert "needs the round" in errors[7]
    assert results[8]["points"] is None and results[8]["can_close"] is False
    assert "error" not in results[8]
    assert "JSON object" in errors[9]


def test_deep_or_huge_batch_lines_give_error_lines(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """CONTRACT.md ``--batch``: a malformed line gives ``{"error": ...}`` and the batch goes
    on, however deep its nesting or long its numbers."""
    hand = '"variant": "three-thirteen", "hand": "3h 9c Kd"'
    lines = [
        "[" * 100_000 + "]" * 100_000,
        '{"variant": "gin", "hand": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "{" + hand + ', "round": ' + "9" * 5000 + "}",
        "{" + hand + ', "round": ' + "9" * 4000 + "}",
        "{" + hand + ', "round": 1e999}',
        "{" + hand + ', "round": 1.0}',
        "{" + hand + ', "round": true}',
        "{" + hand + ', "round": 1}',
    ]
    status, results = batch(capsys, monkeypatch, lines)
    assert status == 1 and len(results) == len(lines)
    errors = [str(r.get("error", "")) for r in results]
    assert errors[0] == "line 1: broken JSON (nested too deeply)"
    assert errors[1] == "line 2: broken JSON (nested too deeply)"
    assert "a number too long to read" in errors[2]
    assert errors[3] == "line 4: a round is 1 to 11, not 99999999999999999999…"
    assert "not inf" in errors[4] and "not 1.0" in errors[5] and "not true" in errors[6]
    assert results[7]["points"] == 34


def test_refused_close_alone_does_not_fail_a_batch(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    line = json.dumps(
        {
            "variant": "remi13d",
            "hand": CLOSING_HAND.split(),
            "closing": "7h",
            "points": None,
            "can_close": False,
        }
    )
    status, results = batch(capsys, monkeypatch, [line, ""])
    assert status == 0 and len(results) == 1 and results[0]["points"] is None


# -- the message catalogue ------------------------------------------------------


def test_default_language_follows_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert default_lang() == "en"
    monkeypatch.setenv("LANG", "id_ID.UTF-8")
    assert default_lang() == "id"
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert default_lang() == "en"
    monkeypatch.setenv("LC_ALL", "id")
    assert default_lang() == "id"
    assert t("score.bad_round", "xx", round=0) == "a round is 1 to 11, not 0"


def test_gin_minimum_deadwood_and_best_discard(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md §4: ten cards score their minimum deadwood, eleven after the best discard."""
    status, out, _ = score(capsys, "gin", "As 2s 3s 7h 7d 7c Kd Kc Ks 9h", "--json")
    assert status == 0 and json.loads(out)["points"] == 9
    status, out, _ = score(capsys, "gin", "As 2s 3s 7h 7d 7c Kd Kc Ks 9h Qh")
    assert status == 0 and "Q♥" in out and "Deadwood: 9" in out
    status, out, _ = score(capsys, "gin", "As 2s 3s 4s 7d 7c 7h Qd Qc Qh", "--json")
    assert json.loads(out)["points"] == 0 and json.loads(out)["can_close"] is True


def test_the_variants_scored_are_the_registrys(capsys: pytest.CaptureFixture[str]) -> None:
    """``remi score`` scores every variant with a scorer, and names them from the registry;
    one without (Rummy 500, R5-12: melded cards less those left) is refused, exit 2."""
    assert [spec.name for spec in scored()] == ["remi13d", "three-thirteen", "gin"]
    status, out, _ = score(capsys, "--help")
    assert status == 0 and "remi13d, three-thirteen, gin" in " ".join(out.split())
    status, _, err = score(capsys, "rummy500", "As Ks", "--json")
    assert status == 2 and "does not score rummy500" in err
