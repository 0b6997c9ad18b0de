"""``remi replay`` on the records in tests/data (docs/contract.md), human and JSON output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from remikit.cli.main import main

RECORDS = [
    "r13-close-with-ace",
    "r13-stock-runs-out",
    "r500-basic-going-out",
    "t13-round1-out-and-final-turns",
]


@pytest.mark.usefixtures("search")
@pytest.mark.parametrize("name", RECORDS)
def test_shared_records_replay_to_their_expectations(
    data: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--json", str(data / "records" / f"{name}.json")]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == json.loads((data / "records" / f"{name}.expect.json").read_text())


def test_human_output_in_both_languages(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(data / "records" / "r13-close-with-ace.json")
    assert main(["replay", path, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "135" in out and "Winner: seat 0" in out
    assert main(["replay", path, "--lang", "id"]) == 0
    assert "Pemenang: kursi 0" in capsys.readouterr().out


def test_illegal_action_stops_with_index_and_reason(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads((data / "records" / "r13-close-with-ace.json").read_text())
    record["hands"][0]["actions"][1] = "p2 draw stock"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["replay", "--json", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "ok": False,
        "index": 1,
        "action": "p2 draw stock",
        "reason": "you have already drawn this turn: discard a card or close",
    }


@pytest.mark.parametrize(
    "text, reason",
    [
        ("not json", "not JSON"),
        ('{"variant": "poker", "hands": []}', "unknown variant"),
        ('{"variant": "remi13d", "options": {"games": 0}, "hands": []}', "games"),
        ('{"variant": "remi13d", "hands": [{"deck": ["As"], "actions": []}]}', "missing"),
    ],
)
def test_malformed_records_say_what_is_wrong(
    tmp_path: Path, text: str, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.json"
    path.write_text(text)
    assert main(["replay", "--json", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and reason in out["reason"]


def _r500(data: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(
        (data / "records" / "r500-basic-going-out.json").read_text()
    )
    return record


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("deck", "7h 5c Ah", "hand 1: deck must be a list of card strings"),
        ("deck", [7, 5], "hand 1: deck must be a list of card strings"),
        ("dealer", True, "hand 1: dealer must be a seat from 0 to 2, not true"),
        ("dealer", 0.0, "hand 1: dealer must be a seat from 0 to 2, not 0.0"),
        ("first", True, "hand 1: first must be a seat from 0 to 2, not true"),
        ("first", 1.5, "hand 1: first must be a seat from 0 to 2, not 1.5"),
        ("first", 2, "hand 1: first must be seat 1, the seat after the dealer, not 2"),  # RULES §0
        ("actions", "p1 draw stock", "hand 1: actions must be a list of strings"),
        ("actions", [["p1", "draw", "stock"]], "hand 1: actions must be a list of strings"),
        ("dealer", 10**4000, "hand 1: dealer must be a seat from 0 to 2, not 1000"),
    ],
)
def test_a_malformed_hand_is_refused_naming_the_field(
    data: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    field: str,
    value: object,
    reason: str,
) -> None:
    """CONTRACT.md "Record rules": ``{"ok": false, "reason": ...}``, exit status 1, never a
    traceback."""
    record = _r500(data)
    record["hands"][0][field] = value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["replay", "--json", str(path)]) == 1
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert set(got) == {"ok", "reason"} and got["ok"] is False and err == ""
    assert reason in got["reason"]
    assert main(["replay", str(path), "--lang", "en"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and reason in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"players": 3.7}, "option players takes a whole number, not 3.7"),
        ({"players": True}, "option players takes a whole number, not true"),
        ({"jokers": 0}, "option jokers takes true or false, not 0"),
        ({"players": 10**4000}, "option players must be from 2 to 8, not 1000"),
    ],
)
def test_option_values_in_a_record_are_exact(
    data: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    options: dict[str, object],
    reason: str,
) -> None:
    """CONTRACT.md "Table options": a value of the wrong type is refused, never coerced."""
    record = _r500(data)
    record["options"] = options
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["replay", "--json", str(path)]) == 1
    got = json.loads(capsys.readouterr().out)
    assert got["ok"] is False and reason in got["reason"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'{"variant": "rummy500", "hands": {}}', "hands must be a list"),
        (b'{"variant": "rummy500", "hands": [[]]}', "hand 1 is not an object"),
        (
            b'{"variant": "rummy500", "hands": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
            "nests too deeply",
        ),
        (
            b'{"variant": "rummy500", "options": {"players": ' + b"7" * 5000 + b'}, "hands": []}',
            "a number too long to read",
        ),
        (b'{"variant": "rummy500", "hands": [], "title": "caf\xe9"}', "is not UTF-8 text"),
    ],
)
def test_a_file_that_is_no_record_gets_a_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, reason: str
) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    assert main(["replay", "--json", str(path)]) == 1
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert set(got) == {"ok", "reason"} and reason in got["reason"] and err == ""


def test_a_record_names_its_players_in_the_replay(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads((data / "records" / "r13-close-with-ace.json").read_text())
    named = tmp_path / "named.json"
    named.write_text(json.dumps(record | {"players": ["Ana", "Budi", "Citra", "Dewi"]}))
    assert main(["replay", str(named), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Winner: Ana" in out and "Budi" in out
    assert main(["replay", "--json", str(named)]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == ["Ana", "Budi", "Citra", "Dewi"]
    for bad in (["Ana"], ["Ana", "Budi", "Citra", ""], ["Ana", "Budi", "Citra", 4], "Ana"):
        named.write_text(json.dumps(record | {"players": bad}))
        assert main(["replay", "--json", str(named)]) == 1
        assert "players must be a list of 4 names" in json.loads(capsys.readouterr().out)["reason"]
