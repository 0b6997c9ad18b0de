"""The organiser's seating tools and what the public sees (docs/competition.md §8): a round
not started re-paired and two players swapped with the seating quality before and after,
pairings to avoid (club-mates every round, named pairs) honoured and reported, a
withdrawal's reason kept from the public, and the round timer stopped once the round is
done."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remikit.competition.seating import Entrant, draw_first_round, seat_round
from remikit.server.clock import ManualClock
from tests.test_competition_api import Event, Json, error, running

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with running(f"sqlite:///{tmp_path / 'remikit.db'}") as client:
        yield client


def seats_of(round_: Json) -> dict[int, list[str | None]]:
    return {t["number"]: [s["player"] for s in t["seats"]] for t in round_["tables"]}


def together(round_: Json) -> set[frozenset[str]]:
    """The pairs of players at one table of the round."""
    return {
        frozenset(pair)
        for players in seats_of(round_).values()
        for pair in itertools.combinations([p for p in players if p], 2)
    }


def audit_of(event: Event, what: str) -> list[Json]:
    return [e for e in event.ok(event.get("/audit", event.org)) if e["what"] == what]


# -- re-pair ------------------------------------------------------------------------------------


def test_a_round_not_started_is_re_paired_and_not_once_it_started(client: TestClient) -> None:
    event = Event(client)
    ids = event.players(8)
    first = event.make_round()
    error(event.post("/rounds/1/repair", {}, event.ref), 403, "organiser_only")
    seeds = set()
    for _ in range(3):
        again = event.ok(event.post("/rounds/1/repair", {}, event.org))
        assert again["round"]["status"] == "seated"
        assert sorted(p for s in seats_of(again["round"]).values() for p in s if p) == ids
        assert again["before"] and again["after"] == again["round"]["quality"]
        seeds.add(audit_of(event, "round.repair")[-1]["after"]["seed"])
    assert len(seeds) == 3  # a new draw each time
    made = audit_of(event, "round.make")[0]["after"]
    assert made["seed"] not in seeds
    repaired = audit_of(event, "round.repair")
    assert repaired[0]["before"]["tables"] == [[t, p] for t, p in seats_of(first).items()]
    # started: a seat draw at a table, and the round stays as it is
    event.draw(1, 1)
    shown = event.round(1)
    error(event.post("/rounds/1/repair", {}, event.org), 409, "round_started")
    assert seats_of(event.round(1)) == seats_of(shown)
    error(event.post("/rounds/2/repair", {}, event.org), 404, "unknown_round")


def test_a_swiss_round_re_paired_seats_who_is_checked_in_now(client: TestClient) -> None:
    event = Event(client)
    ids = event.players(9)
    event.make_round()
    event.play_round(1, {})
    second = event.make_round()
    seated = {p for s in seats_of(second).values() for p in s if p}
    gone = sorted(seated)[0]
    event.ok(event.post(f"/players/{gone}/drop", {"reason": "pulang"}, event.ref))
    again = event.ok(event.post("/rounds/2/repair", {}, event.org))["round"]
    now = {p for s in seats_of(again).values() for p in s if p}
    assert gone not in now and len(now) == 8 and not again["byes"]
    assert now | {gone} == set(ids)


def test_online_tables_are_made_again_unless_someone_sat_down(client: TestClient) -> None:
    event = Event(client)
    event.players(8)
    made = event.make_round(online=[1])
    old = made["tables"][0]["web_table"]
    again = event.ok(event.post("/rounds/1/repair", {}, event.org))["round"]
    new = again["tables"][0]
    assert new["kind"] == "online" and new["web_table"] not in (None, old)
    assert again["online_tables"] == [1]
    physical = event.ok(event.post("/rounds/1/repair", {"online_tables": []}, event.org))
    assert {t["kind"] for t in physical["round"]["tables"]} == {"physical"}
    online = event.ok(event.post("/rounds/1/repair", {"online_tables": [2]}, event.org))
    table = online["round"]["tables"][1]
    person = next(i for i, s in enumerate(table["seats"]) if s["player"])
    joined = client.post(
        f"/api/tables/{table['web_table']}/join", json={"name": "Budi", "seat": person}
    )
    assert joined.status_code < 300, joined.text
    error(event.post("/rounds/1/repair", {}, event.org), 409, "online_joined")
    other = next(p for p in seats_of(online["round"])[2] if p)
    first = next(p for p in seats_of(online["round"])[1] if p)
    body = {"players": [first, other]}
    error(event.post("/rounds/1/swap", body, event.org), 409, "online_joined")


# -- swap -----------------------------------------------------------------------------------------


def repeats(rounds: list[Json], now: Json) -> int:
    """Pairs at a table of ``now`` who met in ``rounds``: counted here, not by the server."""
    met = set().union(*(together(r) for r in rounds))
    return len(together(now) & met)


def test_a_swap_shows_the_quality_before_and_after(client: TestClient) -> None:
    event = Event(client)
    ids = event.players(9)
    first = event.make_round()
    event.play_round(1, {})
    second = event.make_round()
    assert second["quality"]["repeat_meetings"] == repeats([first], second)
    tables = seats_of(second)
    a, b = tables[1][0], tables[2][0]
    assert a and b
    body = {"players": [a, b]}
    preview = event.ok(event.post("/rounds/2/swap/preview", body, event.org))
    assert preview["before"] == second["quality"]
    assert event.round(2) == second  # a preview stores nothing
    assert not audit_of(event, "round.swap")
    done = event.ok(event.post("/rounds/2/swap", body, event.org))
    assert done["before"] == preview["before"] and done["after"] == preview["after"]
    now = done["round"]
    assert now["quality"] == done["after"]
    assert seats_of(now)[1][0] == b and a in seats_of(now)[2]
    assert done["after"]["repeat_meetings"] == repeats([first], now)
    assert now["tables"][0]["seats"][0]["name"] == f"Pemain {ids.index(b) + 1}"
    log = audit_of(event, "round.swap")
    assert len(log) == 1 and log[0]["after"]["players"] == [a, b]
    assert log[0]["before"]["quality"] == second["quality"]
    # a bye swapped with a seated player
    bye = now["byes"][0]
    moved = event.ok(event.post("/rounds/2/swap", {"players": [bye, a]}, event.org))["round"]
    assert moved["byes"] == [a] and bye in seats_of(moved)[2]
    error(event.post("/rounds/2/swap", {"players": [a, a]}, event.org), 400, "bad_swap")
    error(event.post("/rounds/2/swap", {"players": [a, "P99"]}, event.org), 404, "unknown_player")
    late = event.ok(event.post("/players", {"name": "Telat"}, event.org))["player"]["id"]
    error(event.post("/rounds/2/swap", {"players": [a, late]}, event.org), 400, "not_in_round")
    error(event.post("/rounds/2/swap", body, event.ref), 403, "organiser_only")
    error(event.post("/rounds/1/swap", body, event.org), 409, "round_started")


# -- pairings to avoid -----------------------------------------------------------------------------


def test_club_mates_and_named_pairs_are_kept_apart_in_a_later_round(client: TestClient) -> None:
    event = Event(client, clubs_apart=True)
    ids = event.players(8, clubs=["Medan", "Solo", "Binjai", "Deli"])  # two of each club
    club = {pid: ["Medan", "Solo", "Binjai", "Deli"][i % 4] for i, pid in enumerate(ids)}
    first = event.make_round()
    assert first["quality"]["club_clashes"] == 0
    # the two players of clubs Medan and Solo lead at each table: Swiss puts them together
    points = {}
    for number, players in seats_of(first).items():
        scores = [
            {"Medan": 100, "Solo": 50, "Binjai": -50, "Deli": -100}[club[p]] for p in players if p
        ]
        points[(number, 1)] = scores
        points[(number, 2)] = scores
    # (the seat draw puts positions A–D in game seats 0–3)
    event.play_round(1, points)
    second = event.make_round()
    clashes = {p for p in together(second) if len({club[x] for x in p}) == 1}
    assert clashes and second["quality"]["club_clashes"] == 0  # not counted: not asked for
    pair = sorted([ids[0], ids[2]])
    error(event.post("/avoid", {"pairs": [[ids[0], ids[0]]]}, event.org), 400, "bad_pair")
    error(event.post("/avoid", {"pairs": [pair]}, event.ref), 403, "organiser_only")
    body = {"clubs_every_round": True, "pairs": [pair]}
    assert event.ok(event.post("/avoid", body, event.org))["avoid"] == body
    assert event.ok(event.get("/avoid", event.ref))["avoid"] == body
    assert event.ok(event.get(""))["competition"]["clubs_every_round"] is True
    assert audit_of(event, "avoid.set")[0]["after"] == body
    again = event.ok(event.post("/rounds/2/repair", {}, event.org))
    now = again["round"]
    assert not {p for p in together(now) if len({club[x] for x in p}) == 1}
    assert frozenset(pair) not in together(now)
    assert now["quality"]["club_clashes"] == 0 and now["quality"]["avoid_clashes"] == 0
    # no more repeats than the Swiss seating had: two pairs of round 1 at each table
    assert now["quality"]["repeat_meetings"] == second["quality"]["repeat_meetings"] == 4
    # a swap that seats the named pair together is shown as a violation
    where = next(t for t, s in seats_of(now).items() if pair[0] in s)
    other = next(p for p in seats_of(now)[where] if p != pair[0])
    preview = event.ok(
        event.post("/rounds/2/swap/preview", {"players": [other, pair[1]]}, event.org)
    )
    assert preview["before"]["avoid_clashes"] == 0 and preview["after"]["avoid_clashes"] == 1


def entrant(pid: str, club: str | None = None, avoid: str | None = None) -> Entrant:
    return Entrant(pid, club=club, avoid=frozenset([avoid] if avoid else []))


def test_round_1_keeps_named_pairs_apart_in_every_draw() -> None:
    field = [entrant(f"P{i}") for i in range(1, 13)]
    field[0] = entrant("P1", avoid="P2")
    field[4] = entrant("P5", avoid="P6")
    for seed in range(30):
        seating = draw_first_round(field, fill="byes", clubs_apart=False, rng=random.Random(seed))
        assert seating.quality.avoid_clashes == 0
        for table in seating.tables:
            assert not {"P1", "P2"} <= set(table.seats) and not {"P5", "P6"} <= set(table.seats)


def test_a_pair_that_cannot_be_kept_apart_is_reported() -> None:
    four = [entrant("P1", "Medan", avoid="P2"), entrant("P2"), entrant("P3"), entrant("P4")]
    drawn = draw_first_round(four, fill="byes", clubs_apart=True, rng=random.Random(1))
    assert drawn.quality.avoid_clashes == 1
    both = [entrant("P1", "Medan"), entrant("P2", "Medan"), entrant("P3"), entrant("P4")]
    later = seat_round(both, fill="byes", clubs_apart=True)
    assert later.quality.club_clashes == 1 and later.quality.avoid_clashes == 0
    assert seat_round(both, fill="byes").quality.club_clashes == 0  # not asked: not counted


# -- what the public sees --------------------------------------------------------------------------


def test_a_withdrawal_is_shown_without_its_reason_to_the_public(client: TestClient) -> None:
    event = Event(client)
    ids = event.players(5)
    event.make_round()
    event.play_round(1, {})  # played (or a bye): in the standings after withdrawing
    event.ok(event.post(f"/players/{ids[0]}/drop", {"reason": "anak sakit"}, event.ref))
    event.ok(event.post(f"/players/{ids[1]}/disqualify", {"reason": "kartu ditandai"}, event.org))
    public = {r["player"]: r for r in event.standings()["rows"]}
    assert public[ids[0]]["status"] == "dropped" and "reason" not in public[ids[0]]
    assert public[ids[1]]["reason"] == "kartu ditandai"  # a disqualification is announced
    logged = {r["player"]: r for r in event.standings(event.org)["rows"]}
    assert logged[ids[0]]["reason"] == "anak sakit"
    for path in ("/standings", "/standings.csv", "/players"):
        assert "anak sakit" not in event.get(path).text, path
        assert "anak sakit" in event.get(path, event.ref).text, path
    player = next(p for p in event.ok(event.get("/players"))["players"] if p["id"] == ids[0])
    assert player["status"] == "dropped" and player["reason"] is None


def test_the_round_timer_stops_when_the_round_is_done(tmp_path: Path) -> None:
    clock = ManualClock()
    with running(f"sqlite:///{tmp_path / 'remikit.db'}", clock) as client:
        event = Event(client, rounds=2)
        event.players(4)
        event.make_round()
        event.ok(event.post("/rounds/1/timer", {"action": "start", "minutes": 90}, event.org))
        clock.advance(600)
        assert event.round(1)["timer"]["running"] is True
        event.play_round(1, {})
        shown = event.round(1)
        assert shown["status"] == "done"
        timer = shown["timer"]
        assert timer["running"] is False and timer["done"] is True
        assert 0 < timer["left_ms"] <= 90 * 60_000
        clock.advance(3600)
        assert event.round(1)["timer"] == timer  # it stays where it stopped
        public = event.ok(event.get("/rounds/1"))["round"]["timer"]
        assert public == timer  # the projector (the public) sees the same
        # set going again after the round (a break, say), it runs
        again = event.post("/rounds/1/timer", {"action": "start", "minutes": 10}, event.org)
        assert event.ok(again)["timer"] == {"minutes": 10, "running": True, "ends_in_ms": 600_000}
        assert event.round(1)["timer"]["running"] is True
