"""``remi verify`` (docs/contract.md): JSON and Rich output in both languages, exit
statuses, and malformed records refused without a traceback."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from remikit.cli.main import build_parser, main
from remikit.cli.verify import MESSAGES, NOTHING_TO_VERIFY, problem_text
from remikit.fairness import Mismatch
from tests.fair_records import fair_record


@pytest.fixture(scope="module")
def fair() -> dict[str, Any]:
    record = fair_record("remi13d", {"games": 2}, seed=3, contributing=frozenset({0, 1}))
    assert len(record["hands"]) == 2
    return record


def _write(tmp_path: Path, record: object) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def _swapped(fair: dict[str, Any]) -> tuple[dict[str, Any], str, str]:
    """``fair`` with two different cards of the second deal's deck swapped, the first at
    card 17 from the top; the cards found and expected there."""
    record = copy.deepcopy(fair)
    deck = record["hands"][1]["deck"]
    other = next(i for i in range(17, len(deck)) if deck[i] != deck[16])
    deck[16], deck[other] = deck[other], deck[16]
    return record, deck[16], deck[other]


def test_verify_is_a_subcommand() -> None:
    assert "verify" in build_parser().format_help()


def test_a_fair_record_verifies_as_json(
    fair: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", "--json", _write(tmp_path, fair)]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "ok": True,
        "deals": [{"deal": 1, "verified": True}, {"deal": 2, "verified": True}],
    }


def test_a_swapped_card_is_named_as_json_in_each_language(
    fair: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record, found, expected = _swapped(fair)
    path = _write(tmp_path, record)
    assert main(["verify", "--json", "--lang", "en", path]) == 1
    out = json.loads(capsys.readouterr().out)
    message = f"card 17 from the top is {found}; the key gives {expected} (2 cards differ)"
    problem = {
        "code": "deck",
        "position": 17,
        "found": found,
        "expected": expected,
        "differ": 2,
        "message": message,
    }
    assert out == {
        "ok": False,
        "deals": [
            {"deal": 1, "verified": True},
            {"deal": 2, "verified": False, "problems": [problem]},
        ],
    }
    assert main(["verify", "--json", "--lang", "id", path]) == 1
    (problem,) = json.loads(capsys.readouterr().out)["deals"][1]["problems"]
    assert problem["message"] == (
        f"kartu ke-17 dari atas adalah {found}; kuncinya memberi {expected} (2 kartu berbeda)"
    )


def test_the_text_output_in_each_language(
    fair: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, fair)
    assert main(["verify", path, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Fair deals" in out and out.count("│ verified │") == 2
    assert "2 deals checked: every one verifies" in out
    assert main(["verify", path, "--lang", "id"]) == 0
    out = capsys.readouterr().out
    assert "Pembagian kartu yang adil" in out and "2 babak diperiksa: semuanya terverifikasi" in out

    record, found, expected = _swapped(fair)
    record["hands"][0]["fairness"]["secret"] = "0" * 64
    path = _write(tmp_path, record)
    assert main(["verify", path, "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert out.count("│ does not verify │") == 2
    assert (
        "deal 1: the revealed secret does not match the commitment published before the deal"
    ) in out
    assert (
        f"deal 2: card 17 from the top is {found}; the key gives {expected} (2 cards differ)"
    ) in out
    assert "2 deals of 2 do not verify" in out
    assert main(["verify", path, "--lang", "id"]) == 1
    out = capsys.readouterr().out
    assert "babak 1: rahasia yang dibuka tidak cocok dengan komitmen" in out
    assert f"babak 2: kartu ke-17 dari atas adalah {found}" in out
    assert "2 dari 2 babak tidak terverifikasi" in out


@pytest.mark.parametrize(
    ("spoil", "en", "id_"),
    [
        (
            lambda r: r["hands"][1].pop("fairness"),
            "this record has no fairness data (a record from before fair deals",
            "catatan ini tidak punya data keadilan",
        ),
        (
            lambda r: r["hands"][1]["fairness"].update(secret=None),
            "the secret of this deal is not revealed (a deal reveals it when it ends)",
            "rahasia babak ini belum dibuka",
        ),
        (
            lambda r: r["hands"][1]["fairness"].update(table="K7QM2XWD"),
            "this deal names table K7QM2XWD; the first deal names table HTEAG5UY",
            "babak ini menyebut meja K7QM2XWD; babak pertama menyebut meja HTEAG5UY",
        ),
        (
            lambda r: r["hands"][1]["fairness"].update(deal=5),
            "the fairness data names deal 5, but this is deal 2 of the record",
            "data keadilan menyebut babak 5, padahal ini babak 2 dalam catatan",
        ),
        (
            lambda r: r["hands"][1]["fairness"]["contributions"].pop(),
            "the fairness data has contributions for 3 seats; the game has 4",
            "data keadilan berisi kontribusi untuk 3 kursi; permainan ini punya 4 kursi",
        ),
        (
            lambda r: r["hands"][1]["fairness"].update(version=2),
            "the fairness data is not well formed: fairness version 2 is not one remikit knows",
            "data keadilan tidak sah: fairness version 2",
        ),
        (
            lambda r: r["hands"][1].update(deck=r["hands"][1]["deck"][:100]),
            "the deck ends before card 101 from the top; the key gives",
            "dek habis sebelum kartu ke-101 dari atas; kuncinya memberi",
        ),
        (
            lambda r: r["hands"][1]["deck"].append("Jk"),
            "the deck goes on past the key's last card: card 109 from the top is Jk (1 card "
            "differs)",
            "dek lebih panjang dari yang diberikan kunci: kartu ke-109 dari atas adalah Jk",
        ),
    ],
    ids=["no_fairness", "no_secret", "table", "deal_number", "seats", "malformed", "short", "long"],
)
def test_each_mismatch_has_its_message(
    fair: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    spoil: Any,
    en: str,
    id_: str,
) -> None:
    record = copy.deepcopy(fair)
    spoil(record)
    path = _write(tmp_path, record)
    for lang, text in (("en", en), ("id", id_)):
        assert main(["verify", "--json", "--lang", lang, path]) == 1
        out = json.loads(capsys.readouterr().out)
        assert out["ok"] is False and out["deals"][0] == {"deal": 1, "verified": True}
        messages = [p["message"] for p in out["deals"][1]["problems"]]
        assert any(text in m for m in messages), messages
        assert main(["verify", "--lang", lang, path]) == 1
        assert text in capsys.readouterr().out


def test_a_record_without_fairness_data_has_nothing_to_verify(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not from a web table (or from before fair deals): its own exit status, 3."""
    path = str(data / "records" / "t13-round1-out-and-final-turns.json")
    assert main(["verify", "--json", "--lang", "en", path]) == NOTHING_TO_VERIFY == 3
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["nothing_to_verify"] is True
    assert out["reason"].startswith("nothing to verify: no deal of this record")
    assert main(["verify", "--lang", "id", path]) == 3
    assert "tidak ada yang bisa diperiksa" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("not json", "is not JSON"),
        ("[1, 2]", "a record is a JSON object"),
        ('{"variant": "poker", "hands": []}', "unknown variant"),
        ('{"variant": "rummy500", "hands": []}', "hands must be a list"),
        ('{"variant": "rummy500", "hands": [{"deck": ["Zz"]}]}', "deck card 0 is not a card"),
        (None, "cannot read"),
    ],
)
def test_a_malformed_record_is_refused_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | None, reason: str
) -> None:
    path = tmp_path / "record.json"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    assert main(["verify", "--json", str(path)]) == 1
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert set(got) == {"ok", "reason"} and got["ok"] is False and reason in got["reason"]
    assert err == ""
    assert main(["verify", str(path), "--lang", "en"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("the record cannot be checked: ") and reason in err
    assert main(["verify", str(path), "--lang", "id"]) == 1
    assert capsys.readouterr().err.startswith("catatan tidak dapat diperiksa: ")


def test_the_contracts_example_message_is_the_catalogues() -> None:
    contract = (Path(__file__).resolve().parent.parent / "docs" / "contract.md").read_text()
    problem = Mismatch("deck", {"position": 17, "found": "7h", "expected": "9c", "differ": 40})
    text = problem_text(problem, "en")
    assert text == "card 17 from the top is 7h; the key gives 9c (40 cards differ)"
    assert f'"message": "{text}"' in contract
    for code in (*MESSAGES, "deck"):
        assert f"| `{code}` |" in contract
