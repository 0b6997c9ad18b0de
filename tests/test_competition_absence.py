"""Absences scored by rules declared up front (docs/competition.md §1, §4): an event
replayed where a withdrawn player would climb under raw totals, the value of an absence
fixed once given, a late entry, a bye, the older ``bye_points``, and ranking by points per
game with a minimum."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from remikit.competition.absence import (
    AbsenceRule,
    Absences,
    Attendance,
    declare,
    due,
    score,
    stored_rules,
)
from remikit.competition.standings import Competitor, Played, standings
from remikit.storage import Store
from remikit.storage.competition import AbsenceRow
from tests.test_competition_api import Event, error, running

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Json = dict[str, Any]
Scores = Callable[[int, int, str], int]
"""The points of a player in a round's game: (round, game, player) → points."""


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'remikit.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with running(db_url) as client:
        yield client


class Games(Event):
    """An event whose games per round are known to :func:`play`."""

    def __init__(self, client: TestClient, **options: Any) -> None:
        super().__init__(client, **options)
        self.games: int = options.get("games", 2)


def play(event: Games, number: int, scores: Scores, closer: int | None = None) -> None:
    """Every table's seat draw (positions A–D in game seats 0–3), then each game's points
    entered and confirmed; ``closer``: the game seat that closed with Ah, if any."""
    for table in event.round(number)["tables"]:
        event.draw(number, table["number"])
        players = [seat["player"] for seat in table["seats"]]
        for game in range(1, event.games + 1):
            points = [scores(number, game, pid) for pid in players]
            body: Json = {"points": points, "reason": "score sheet"}
            if closer is not None:
                body |= {"closer": closer, "closing": "Ah"}
            entry = event.enter(number, table["number"], game, body)
            event.confirm(entry["id"])


def rows_by_id(event: Event) -> dict[str, Json]:
    return {r["player"]: r for r in event.standings()["rows"]}


def stored(db_url: str) -> dict[tuple[int, str], tuple[str, str, int]]:
    store = Store(db_url)
    try:
        with store.session() as session:
            rows = session.scalars(select(AbsenceRow)).all()
            return {(a.round, a.player): (a.kind, a.rule, a.points) for a in rows}
    finally:
        store.close()


# -- the event replayed ------------------------------------------------------------------------


def withdrawal(client: TestClient, **options: Any) -> tuple[Games, str]:
    """Nine players over three rounds of two games, each scoring the same every game:
    the withdrawn player W -40 (the fourth best), the others -10, -20, -30, -50 … -90.
    Round 1 has a bye; W withdraws after it. Answers the event and W."""
    event = Games(client, rounds=3, **options)
    ids = event.players(9)
    first = event.make_round()
    seated = [s["player"] for t in first["tables"] for s in t["seats"]]
    withdrawn = seated[0]
    others = [pid for pid in ids if pid != withdrawn]
    per_game = {withdrawn: -40} | dict(
        zip(others, (-10, -20, -30, -50, -60, -70, -80, -90), strict=True)
    )

    def scores(_round: int, _game: int, pid: str) -> int:
        return per_game[pid]

    play(event, 1, scores)
    event.ok(event.post(f"/players/{withdrawn}/drop", {"reason": "pulang"}, event.ref))
    for number in (2, 3):
        event.make_round()
        play(event, number, scores)
    return event, withdrawn


def test_a_withdrawn_player_stays_where_their_games_put_them(client: TestClient) -> None:
    raw, climber = withdrawal(client, absences={"missed": {"rule": "zero"}})
    assert raw.ok(raw.get(""))["competition"]["absences"]["withdrawn"] == {"rule": "zero"}
    rows = rows_by_id(raw)
    assert rows[climber]["total"] == -80 and rows[climber]["rank"] <= 2  # climbs on -80
    declared, withdrawn = withdrawal(client)  # the default: the round's mean
    rows = rows_by_id(declared)
    # rounds 2 and 3: the mean of the eight others, -51.25 a game, -102 for two games
    assert rows[withdrawn]["total"] == -80 - 102 - 102
    assert (rows[withdrawn]["games"], rows[withdrawn]["absent"]) == (2, 2)
    assert rows[withdrawn]["given"] == -204 and rows[withdrawn]["per_game"] == -40.0
    by_game = sorted(rows.values(), key=lambda r: -r["per_game"])
    assert rows[withdrawn]["rank"] == 4 == by_game.index(rows[withdrawn]) + 1
    games = declared.ok(declared.get(f"/players/{withdrawn}/games"))["games"]
    assert [g.get("absent") for g in games] == [None, None, "withdrawn", "withdrawn"]
    assert sum(g["points"] for g in games) == rows[withdrawn]["total"]


# -- a value fixed once given -----------------------------------------------------------------


def test_an_absence_keeps_its_value_as_later_rounds_are_entered(
    client: TestClient, db_url: str
) -> None:
    event = Games(client, rounds=3, absences={"bye": {"rule": "average"}})
    event.players(5)
    per_game = {f"P{n}": -10 * n for n in range(1, 6)}

    def scores(number: int, _game: int, pid: str) -> int:
        return per_game[pid] * number  # each round worse than the last

    byes = []
    for number in (1, 2, 3):
        byes.append(event.make_round()["byes"][0])
        play(event, number, scores)
        if number == 2:
            given = stored(db_url)
    first, second, third = byes
    # given when each round was done: the bye's average so far × 2 games (0 before any)
    assert given == {
        (1, first): ("bye", "average", 0),
        (2, second): ("bye", "average", 2 * per_game[second]),
    }
    assert stored(db_url) == given | {(3, third): ("bye", "average", 3 * per_game[third])}
    rows = rows_by_id(event)
    # worked out again from every game, the two byes would be 6 and 4 × their per_game
    assert (rows[first]["given"], rows[second]["given"]) == (0, 2 * per_game[second])
    for pid in byes:
        games = event.ok(event.get(f"/players/{pid}/games"))["games"]
        assert rows[pid]["total"] == sum(g["points"] for g in games)
    audit = event.ok(event.get("/audit", event.org))
    targets = [a["target"] for a in audit if a["what"] == "absence.give"]
    assert targets == ["round:1", "round:2", "round:3"]


def test_a_correction_after_the_round_leaves_the_value_given(
    client: TestClient, db_url: str
) -> None:
    event = Games(client, rounds=2)
    event.players(5)
    bye = event.make_round()["byes"][0]
    play(event, 1, lambda _r, _g, _p: -30)
    assert stored(db_url) == {(1, bye): ("bye", "round_mean", -60)}
    entry = event.round(1)["tables"][0]["games"][0]["entry"]
    body = {"points": [-90, -90, -90, -90], "reason": "salah tulis"}
    event.ok(event.post(f"/entries/{entry['id']}/correct", body, event.ref))
    assert rows_by_id(event)[bye]["total"] == -60
    assert stored(db_url) == {(1, bye): ("bye", "round_mean", -60)}


# -- a late entry, a bye ----------------------------------------------------------------------


def test_a_late_entry_scores_the_rounds_before_they_joined(client: TestClient, db_url: str) -> None:
    event = Games(client, rounds=2, absences={"late": {"rule": "round_lowest"}})
    ids = event.players(8)
    event.make_round()
    play(event, 1, lambda _r, game, pid: -10 * game - int(pid[1:]))  # lowest: -28 in game 2
    late = event.ok(event.post("/players", {"name": "Telat"}, event.org))["player"]
    assert late["late"] is True
    event.ok(event.post(f"/players/{late['id']}/check-in", None, event.ref))
    event.ok(event.post(f"/players/{ids[0]}/drop", {"reason": "sakit"}, event.ref))
    rows = rows_by_id(event)  # before round 2 is made: already counted, not yet stored
    assert (rows[late["id"]]["total"], rows[late["id"]]["absent"]) == (-56, 1)
    assert stored(db_url) == {}
    event.make_round()
    assert stored(db_url) == {(1, late["id"]): ("late", "round_lowest", -56)}
    play(event, 2, lambda _r, _g, _p: -20)
    given = stored(db_url)
    assert given[(2, ids[0])] == ("withdrawn", "round_mean", -40)
    assert rows_by_id(event)[late["id"]]["total"] == -56 - 40


def test_a_bye_scores_the_rounds_mean_without_the_closers(client: TestClient) -> None:
    event = Games(client, rounds=1, games=1, tie_breaks=["games_won"])
    event.players(5)
    bye = event.make_round()["byes"][0]
    # seat 0 closes with Ah: 120; the others -30, -60, -60 → a mean of -50 a game
    points = iter([120, -30, -60, -60])
    play(event, 1, lambda _r, _g, _p: next(points), closer=0)
    rows = rows_by_id(event)
    assert (rows[bye]["total"], rows[bye]["byes"], rows[bye]["absent"]) == (-50, 1, 0)
    assert rows[bye]["rank"] == 3  # behind those who scored above the mean, ahead of the rest


# -- declaring the rules ----------------------------------------------------------------------


def test_the_rules_are_declared_at_creation_and_shown(client: TestClient) -> None:
    event = Games(
        client,
        bye_points="zero",
        absences={"missed": {"rule": "fixed", "points": -60}, "late": {"rule": "round_lowest"}},
        rank_by="per_game",
        min_games=3,
    )
    comp = event.ok(event.get(""))["competition"]
    assert comp["absences"] == {
        "bye": {"rule": "zero"},
        "late": {"rule": "round_lowest"},
        "withdrawn": {"rule": "fixed", "points": -60},
        "missed": {"rule": "fixed", "points": -60},
    }
    assert (comp["bye_points"], comp["rank_by"], comp["min_games"]) == ("zero", "per_game", 3)
    plain = Games(client)
    default = plain.ok(plain.get(""))["competition"]
    assert default["absences"]["bye"] == {"rule": "round_mean"} and default["bye_points"] == "rule"
    assert default["rank_by"] == "total"
    base = {"name": "X", "date": "2026-12-05", "rounds": 1, "organiser_password": "panitia"}
    base |= {"referee_password": "wasit"}
    for absences in ({"bye": {"rule": "fixed"}}, {"bye": {"rule": "zero", "points": 5}}):
        answer = client.post("/api/competitions", json=base | {"absences": absences})
        error(answer, 422, "bad_request")
    answer = client.post("/api/competitions", json=base | {"rank_by": "games"})
    error(answer, 422, "bad_request")


def test_a_competition_made_before_the_rules_keeps_its_bye_points() -> None:
    assert stored_rules(None, "average") == Absences(
        AbsenceRule("average"), AbsenceRule("zero"), AbsenceRule("zero"), AbsenceRule("zero")
    )
    assert declare({}, None) == Absences()  # the default: the round's mean throughout
    assert declare({"missed": {"rule": "zero"}}, "average").bye == AbsenceRule("average")


# -- the pure rules ---------------------------------------------------------------------------

FIVE = [Competitor(f"P{n}", f"Pemain {n}") for n in range(1, 6)]
ROUND_1 = [
    Played(1, 1, 1, ("P1", "P2", "P3", "P4"), (100, -30, -41, -50), closer=0, closing="Ah"),
    Played(1, 1, 2, ("P1", "P2", "P3", "P4"), (-20, -25, -10, 90), closer=3, closing="Jk"),
]


def test_each_rule_scores_the_games_missed() -> None:
    # non-closing scores of round 1: -30 -41 -50 -20 -25 -10 → mean -29.33 a game
    results = {
        rule: score(AbsenceRule(rule, -45), 1, "P1", ROUND_1, 2)
        for rule in ("round_mean", "round_lowest", "fixed", "zero", "average")
    }
    assert results == {
        "round_mean": -59,
        "round_lowest": -100,
        "fixed": -90,
        "zero": 0,
        "average": 80,
    }


def test_who_is_absent_from_which_round() -> None:
    rounds = [
        Attendance(1, True, frozenset({"P1", "P2", "P3", "P4"}), frozenset({"P5"})),
        Attendance(2, True, frozenset({"P2", "P3", "P4", "P5"}), frozenset({"P6"})),
        Attendance(3, False, frozenset({"P2", "P3", "P4", "P6"}), frozenset()),
    ]
    players = [
        Competitor("P1", "Ani", status="dropped"),
        *FIVE[1:],
        Competitor("P6", "Telat"),
        Competitor("P7", "Nanti"),  # checked in, not seated yet: late for every round done
        Competitor("P8", "Curang", status="disqualified"),
        Competitor("P9", "Batal", status="dropped"),  # withdrew before playing: nothing
    ]
    found = {(a.round, a.player): a.kind for a in due(Absences(), rounds, players, ROUND_1, 2)}
    assert found == {
        (1, "P5"): "bye",
        (2, "P1"): "withdrawn",
        (1, "P6"): "late",
        (2, "P6"): "bye",
        (1, "P7"): "late",
        (2, "P7"): "late",
    }
    given = {(1, "P5"), (2, "P1")}
    assert {(a.round, a.player) for a in due(Absences(), rounds, players, ROUND_1, 2, given)} == (
        set(found) - given
    )


def test_ranking_by_points_per_game_with_a_minimum() -> None:
    games = [
        *ROUND_1,
        Played(2, 1, 1, ("P1", "P2", "P3", "P5"), (-5, -60, -70, 150), closer=3, closing="As"),
    ]
    rows = standings(FIVE, games, games_per_round=2, rank_by="per_game", min_games=3)
    order = [(r.player, r.rank, r.games) for r in rows]
    # P1 25/game, P3 -40.3, P2 -38.3 over three games; P4 20 and P5 150 over fewer, after them
    assert order == [
        ("P1", 1, 3),
        ("P2", 2, 3),
        ("P3", 3, 3),
        ("P5", 4, 1),
        ("P4", 5, 2),
    ]
    by_total = standings(FIVE, games, games_per_round=2)
    assert [r.player for r in by_total][:2] == ["P5", "P1"]
