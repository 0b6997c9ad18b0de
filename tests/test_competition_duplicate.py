"""Duplicate deals (docs/fairness.md §11, docs/competition.md §3–4): every online table of
a round deals the same decks from one round secret, committed to before the round and
revealed after it; `remi verify` checks a table's record against the round; the
luck-adjusted column compares each hand with the same hand at the other tables."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remikit.cli.main import main
from remikit.competition.duplicate import hand_of, luck_adjusted
from remikit.competition.standings import Competitor, Played, standings
from remikit.fairness import (
    commitment,
    fair_deck,
    round_commitment,
    round_seed,
    seeded_secret,
    verify_record,
)
from remikit.records import new_game
from remikit.server.clock import ManualClock
from tests.test_competition_api import Event, error, running

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Json = dict[str, Any]
HEX64 = 64


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'remikit.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with running(db_url) as client:
        yield client


def hub_of(client: TestClient) -> Any:
    return client.app.state.hub  # type: ignore[attr-defined]


def join_everyone(client: TestClient, table: Json) -> None:
    for seat, s in enumerate(table["seats"]):
        if s["player"]:
            body = {"name": s["name"], "seat": seat}
            joined = client.post(f"/api/tables/{table['web_table']}/join", json=body)
            assert joined.status_code == 200, joined.text


def play_out(event: Event, clock: ManualClock, codes: list[str]) -> list[str | None]:
    """Let the stand-ins and bots play the round's online tables to the end; the secret
    each table's state showed for its first deal while the round was still on."""
    seen: list[str | None] = []
    for _ in range(900):
        states = [event.client.get(f"/api/tables/{code}").json() for code in codes]
        done = event.round(1)  # read after the states: the round was not over before
        if all(g["status"] == "confirmed" for t in done["tables"] for g in t["games"]):
            return seen
        seen += [s["fairness"]["ended"]["secret"] for s in states if s["fairness"]["ended"]]
        clock.advance(120)
        time.sleep(0.02)
    raise AssertionError("the online tables did not finish")


def test_every_online_table_of_a_round_deals_the_same_decks(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = ManualClock()
    with running(db_url, clock) as client:
        event = Event(
            client,
            fill="bots",
            bot_level="random",
            rounds=1,
            games=2,
            duplicate=True,
            tie_breaks=["luck_adjusted"],
        )
        shown = event.ok(event.get(""))["competition"]
        assert shown["duplicate"] is True and shown["tie_breaks"] == ["luck_adjusted"]
        event.players(6)
        made = event.make_round(online=[1, 2])
        committed = made["duplicate"]
        assert len(committed["commitment"]) == HEX64 and committed["secret"] is None
        codes = [t["web_table"] for t in made["tables"]]
        assert len(codes) == 2 and all(t["kind"] == "online" for t in made["tables"])
        assert set(codes) <= hub_of(client).held
        public = event.ok(event.get("/rounds/1"))["round"]
        assert public["duplicate"] == committed  # published before the round starts
        for table in made["tables"]:
            join_everyone(client, table)
        seen = play_out(event, clock, codes)
        assert seen and all(secret is None for secret in seen)  # held back meanwhile
        final = event.ok(event.get("/rounds/1"))["round"]
        revealed = final["duplicate"]
        assert revealed["commitment"] == committed["commitment"]
        secret = bytes.fromhex(revealed["secret"])
        assert round_commitment(secret).hex() == committed["commitment"]
        assert not set(codes) & hub_of(client).held
        records = [client.get(f"/api/games/{code}/record").json() for code in codes]
        entries = [[g["entry"] for g in t["games"]] for t in final["tables"]]
        rows = event.standings()["rows"]
    decks = [[hand["deck"] for hand in record["hands"]] for record in records]
    assert decks[0] == decks[1] and len(decks[0]) == 2  # game for game, the same deck
    assert decks[0][0] != decks[0][1]
    for record in records:
        assert all(check.verified for check in verify_record(record))  # as any table
        assert all(check.verified for check in verify_record(record, secret))
    path = tmp_path / "table.record.json"
    path.write_text(json.dumps(records[0]))
    args = ["verify", str(path), "--json", "--round-secret", secret.hex()]
    assert main([*args, "--round-commitment", committed["commitment"]]) == 0
    assert json.loads(capsys.readouterr().out)["round"] == {"verified": True, "problems": []}
    wrong = round_commitment(bytes(32)).hex()
    assert main([*args, "--round-commitment", wrong]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["round"]["problems"][0]["code"] == "round_commitment"
    other = bytes(32).hex()
    assert (
        main(["verify", str(path), "--json", "--round-secret", other, "--round-commitment", wrong])
        == 1
    )
    out = json.loads(capsys.readouterr().out)
    assert out["round"]["verified"] and not out["ok"]
    assert {p["code"] for d in out["deals"] for p in d["problems"]} == {"round_secret"}
    # the luck column: each seat against the same hand at the other table
    expected: dict[str, float] = {}
    for me, them in ((0, 1), (1, 0)):
        mine, theirs = entries[me], entries[them]
        dealer_mine, dealer_theirs = 3, 3  # R13-2, then the loser deals (R13-3)
        for game, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            assert records[me]["hands"][game]["dealer"] == dealer_mine
            for seat, player in enumerate(a["players"]):
                hand = hand_of(seat, dealer_mine, 4)
                other_seat = (hand + dealer_theirs + 1) % 4
                if player is not None:
                    gain = a["points"][seat] - b["points"][other_seat]
                    expected[player] = expected.get(player, 0.0) + gain
            dealer_mine = loser(a["points"], dealer_mine)
            dealer_theirs = loser(b["points"], dealer_theirs)
    assert {r["player"]: r["luck"] for r in rows} == expected


def loser(points: list[int], dealer: int) -> int:
    """R13-3: the lowest score deals next; of equal lowest, the first after the dealer."""
    low = min(points)
    return next((dealer + s) % 4 for s in range(1, 5) if points[(dealer + s) % 4] == low)


def test_the_luck_column_by_hand() -> None:
    """Two tables, two games. Game 1: seat 3 deals at both (R13-2), so hand h is seat h.
    Table 1's game 1 loser is seat 2 (-60), table 2's seat 1 (-70): in game 2, hand 0 is
    seat 3 at table 1 and seat 2 at table 2 (R13-3)."""
    games = [
        Played(1, 1, 1, ("a", "b", "c", None), (40, 0, -60, 20)),
        Played(1, 2, 1, ("e", "f", "g", "h"), (10, -70, 30, 30)),
        Played(1, 1, 2, ("a", "b", "c", None), (5, 15, 25, 35)),
        Played(1, 2, 2, ("e", "f", "g", "h"), (1, 2, 3, 4)),
        Played(1, 3, 1, ("x", "y", "z", "w"), (99, 0, 0, 0)),  # a physical table
    ]
    luck = luck_adjusted(games, {(1, 1), (1, 2)}, 2)
    # game 2, table 1 (dealer 2): hands 0-3 are seats 3, 0, 1, 2 -> 35, 5, 15, 25
    # game 2, table 2 (dealer 1): hands 0-3 are seats 2, 3, 0, 1 -> 3, 4, 1, 2
    assert luck == {
        "a": (40 - 10) + (5 - 4),
        "b": (0 + 70) + (15 - 1),
        "c": (-60 - 30) + (25 - 2),
        "e": (10 - 40) + (1 - 15),
        "f": (-70 - 0) + (2 - 25),
        "g": (30 + 60) + (3 - 35),
        "h": (30 - 20) + (4 - 5),
    }
    third = luck_adjusted(
        [*games, Played(1, 4, 1, ("p", "q", "r", "s"), (0, 0, 0, 0))], {(1, 1), (1, 2), (1, 4)}, 2
    )
    assert third["p"] == 0 - (40 + 10) / 2 and third["a"] == (40 - (10 + 0) / 2) + (5 - 4)
    rows = standings(
        [Competitor(p, p.upper()) for p in "abc"],
        [games[0]],
        games_per_round=2,
        tie_breaks=["luck_adjusted"],
        luck={"a": -1.5, "b": 2.5},
    )
    assert [(r.player, r.luck) for r in rows] == [("a", -1.5), ("b", 2.5), ("c", 0.0)]


def test_luck_as_a_tie_break_needs_duplicate_deals(client: TestClient) -> None:
    body = {
        "name": "Piala",
        "date": "2026-12-05",
        "rounds": 1,
        "tie_breaks": ["luck_adjusted"],
        "organiser_password": "panitia-medan",
        "referee_password": "wasit-bersama",
    }
    error(client.post("/api/competitions", json=body), 422, "bad_request")
    made = client.post("/api/competitions", json=body | {"duplicate": True})
    assert made.status_code == 201, made.text
    plain = client.post("/api/competitions", json=body | {"tie_breaks": []}).json()
    assert plain["competition"]["duplicate"] is False


def test_a_held_table_keeps_its_record_and_a_restart_holds_it_again(db_url: str) -> None:
    with running(db_url) as client:
        event = Event(client, fill="bots", bot_level="random", rounds=1, duplicate=True)
        event.players(5)
        made = event.make_round(online=[2])
        code = next(t["web_table"] for t in made["tables"] if t["kind"] == "online")
        assert code in hub_of(client).held
    with running(db_url) as client:
        assert code in hub_of(client).held


def test_the_duplicate_vector_of_the_fairness_page() -> None:
    """docs/fairness.md §11: the round's commitment and the table's deal from the round
    secret, as the page writes them."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "fairness.md").read_text()
    block = page.split("## 11.")[1].split("```text")[1].split("```")[0]
    lines = {line[:18].strip(): line[18:].strip() for line in block.strip().splitlines()}
    secret = hashlib.sha256(b"remikit test vector duplicate round").digest()
    assert lines["round secret"] == secret.hex()
    assert lines["as decimal"] == round_seed(secret)
    assert lines["round commitment"] == round_commitment(secret).hex()
    deal = seeded_secret(round_seed(secret), 1)
    assert lines["deal 1 secret"] == deal.hex()
    assert lines["commitment"] == commitment("HTEAG5UY", 1, deal).hex()
    deck = fair_deck(new_game({"variant": "remi13d"}).full_deck(), deal, [None] * 4)
    assert lines["deck (Remi 13 D)"] == " ".join(map(str, deck[:18])) + " …"
