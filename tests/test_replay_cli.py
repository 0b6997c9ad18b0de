"""``remi replay`` on the shared records (CONTRACT.md), human and JSON output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from remikit.cli.main import main

RECORDS = ["r13-close-with-ace", "r13-stock-runs-out", "r500-basic-going-out",
           "t13-round1-out-and-final-turns"]


@pytest.mark.parametrize("name", RECORDS)
def test_shared_records_replay_to_their_expectations(
        shared: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--json", str(shared / "records" / f"{name}.json")]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == json.loads((shared / "records" / f"{name}.expect.json").read_text())


def test_human_output_in_both_languages(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(shared / "records" / "r13-close-with-ace.json")
    assert main(["replay", path, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "135" in out and "Winner: seat 0" in out
    assert main(["replay", path, "--lang", "id"]) == 0
    assert "Pemenang: kursi 0" in capsys.readouterr().out


def test_illegal_action_stops_with_index_and_reason(
        shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads((shared / "records" / "r13-close-with-ace.json").read_text())
    record["hands"][0]["actions"][1] = "p2 draw stock"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["replay", "--json", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out == {"ok": False, "index": 1, "action": "p2 draw stock",
                   "reason": "you have already drawn this turn: discard a card or close"}


@pytest.mark.parametrize("text, reason", [
    ("not json", "not JSON"),
    ('{"variant": "poker", "hands": []}', "unknown variant"),
    ('{"variant": "remi13d", "options": {"games": 0}, "hands": []}', "games"),
    ('{"variant": "remi13d", "hands": [{"deck": ["As"], "actions": []}]}', "missing"),
])
def test_malformed_records_say_what_is_wrong(
        tmp_path: Path, text: str, reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text(text)
    assert main(["replay", "--json", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and reason in out["reason"]
