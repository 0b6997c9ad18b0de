"""The pure parts of a competition (docs/competition.md): a physical table's game scored
and checked (R13-7, R13-11, R13-12, R13-13), who deals (R13-3), the seat draw as
entered (R13-2), the standings with their tie-breaks, byes, bots, drops and
disqualifications (R13-24), and the CSV exports."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import remikit
from remikit.competition.exports import (
    SCORES_HEADER,
    STANDINGS_HEADER,
    ScoreLine,
    scores_csv,
    standings_csv,
)
from remikit.competition.results import (
    EntryRefused,
    dealers,
    next_dealer,
    points_result,
    score_cards,
)
from remikit.competition.seat_draw import Redraw, drawn_cards, seats
from remikit.competition.standings import (
    Bye,
    Competitor,
    Played,
    Row,
    TieBreak,
    bye_score,
    standings,
)


def cards(text: str) -> list[str]:
    return text.split()


# docs/rules.md §5: 135 closing with Ah (R13-7/11); 25 (R13-12, the ace low); -105 (no pure run)
CLOSES_ACE = cards("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk")
ACE_LOW = cards("2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs")
ALL_DEAD = cards("2h 3h Jk 9s 9c 9d Kd Kc Ks 5c 6c 7c Qd")
SPREAD = cards("2d 3d 4d 5d 6d 8s 8h 8c Td Jd Qd 2s 4c")
OTHER = cards("Jk 9s 9d 2c 3c 4c Qh Qd Qs 5d 6d 8h 4s")
LOOSE = cards("As 2s 3s 4s 5h 6h 7h 8d 9d Tc Jc Qc Kh")


@contextmanager
def refused(code: str) -> Iterator[pytest.ExceptionInfo[EntryRefused]]:
    """The block raises :class:`EntryRefused` with ``code``."""
    with pytest.raises(EntryRefused) as caught:
        yield caught
    assert caught.value.code == code


# -- scoring a game (R13-11, R13-12, R13-13) ---------------------------------------------------


def test_a_closed_game_scores_the_closer_by_r13_11_and_the_others_by_r13_12() -> None:
    game = score_cards([CLOSES_ACE, ACE_LOW, OTHER, SPREAD], closer=0, closing="Ah")
    assert game.points[:2] == (135, 25)  # the worked examples of docs/rules.md §5
    assert game.points == (
        remikit.score("remi13d", CLOSES_ACE, closing="Ah").points,
        remikit.score("remi13d", ACE_LOW).points,
        remikit.score("remi13d", OTHER).points,
        remikit.score("remi13d", SPREAD).points,
    )
    assert (game.closer, game.closing, game.stock_out) == (0, "Ah", False)
    assert game.arrangements[0].dead == ()
    assert ("Ah", "2h", "3h", "4h", "5h") in game.arrangements[1].melds  # the ace low (R13-9)
    assert game.arrangements[1].points == 25


def test_a_game_whose_stock_ran_out_scores_everyone_by_r13_12() -> None:
    game = score_cards([ALL_DEAD, CLOSES_ACE, SPREAD, LOOSE], closer=None, closing=None)
    assert game.points[0] == -105  # docs/rules.md §5: no pure run, every card dead
    assert game.points[1] == 85  # the closing hand without its close: no bonus (R13-13)
    assert game.points[3] == remikit.score("remi13d", LOOSE).points
    assert game.stock_out and game.closer is None and game.closing is None
    assert game.arrangements[0].melds == ()


def test_a_joker_close_scores_the_remi_joker_bonus() -> None:
    hand = cards("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Ks")
    game = score_cards([SPREAD, hand, OTHER, ACE_LOW], closer=1, closing="Jk")
    assert game.points[1] == remikit.score("remi13d", hand, closing="Jk").points == 75 + 85


def test_cards_that_do_not_exist_are_refused() -> None:
    with refused("bad_card") as caught:
        score_cards([["Xx", *CLOSES_ACE[1:]], ACE_LOW, OTHER, SPREAD], closer=None, closing=None)
    assert "Xx" in str(caught.value)


@pytest.mark.parametrize("size", [12, 14])
def test_a_hand_of_other_than_13_cards_is_refused(size: int) -> None:
    hand = [*SPREAD, "Ac"][:size]
    with refused("hand_size") as caught:
        score_cards([CLOSES_ACE, ACE_LOW, hand, OTHER], closer=None, closing=None)
    assert caught.value.params == {"seat": 3, "count": size}


def test_more_copies_than_two_decks_hold_are_refused_naming_the_card() -> None:
    with refused("too_many_copies") as caught:  # Kd and Kc: a third copy of each
        score_cards([CLOSES_ACE, ACE_LOW, ALL_DEAD, SPREAD], closer=None, closing=None)
    assert str(caught.value.params["card"]) in {"Kd", "Kc"}
    assert "K♦" in str(caught.value) or "K♣" in str(caught.value)
    jokers = cards("Jk Jk Jk 2c 3c 4c 5c Qh Qd Qs 5d 6d 8h")  # with ACE_LOW's: 5 of 4
    with refused("too_many_copies"):
        score_cards([CLOSES_ACE, ACE_LOW, jokers, SPREAD], closer=None, closing=None)


def test_the_closing_card_counts_among_the_copies() -> None:
    two_aces = cards("Ah Ah 2h 3h 4h Kc Kd 9s 9c 5h 7d 8c Qs")
    with refused("too_many_copies"):  # the closing Ah is a third
        score_cards([CLOSES_ACE, two_aces, OTHER, SPREAD], closer=0, closing="Ah")


def test_an_invalid_close_is_refused_with_the_scorers_reason() -> None:
    with refused("close_refused") as caught:  # R13-7: an ace or a joker closes
        score_cards([CLOSES_ACE, ACE_LOW, OTHER, SPREAD], closer=0, closing="7h")
    assert "7♥" in caught.value.text("en")
    with refused("close_refused") as caught:  # R13-7: the 13 cards must all be melds
        score_cards([SPREAD, ACE_LOW, OTHER, CLOSES_ACE], closer=0, closing="As")
    assert caught.value.params["seat"] == 1
    assert caught.value.text("id") != caught.value.text("en")
    with refused("close_refused"):  # a closer needs the closing card
        score_cards([CLOSES_ACE, ACE_LOW, OTHER, SPREAD], closer=0, closing=None)
    with refused("close_refused"):  # and a closing card a closer
        score_cards([CLOSES_ACE, ACE_LOW, OTHER, SPREAD], closer=None, closing="Ah")


def test_two_closers_in_one_entry_are_refused() -> None:
    with refused("closed_twice"):
        score_cards([CLOSES_ACE, ACE_LOW, OTHER, SPREAD], closer=[0, 2], closing="Ah")
    with refused("closed_twice"):
        points_result([10, 20, 30, 40], closer=[1, 3], closing="Ah")
    assert score_cards([CLOSES_ACE, ACE_LOW, OTHER, SPREAD], closer=[0], closing="Ah").closer == 0


def test_scores_entered_directly_are_checked() -> None:
    assert points_result([135, 25, -100, 55], closer=0, closing="Jk").points == (135, 25, -100, 55)
    with refused("bad_points"):
        points_result([1, 2, 3])
    with refused("bad_points"):
        points_result([1, 2, 3, 5000])
    with refused("bad_seat"):
        points_result([1, 2, 3, 4], closer=4, closing="Ah")


# -- who deals (R13-3) -------------------------------------------------------------------------


def test_the_loser_deals_the_next_game_ties_going_to_the_first_after_the_dealer() -> None:
    assert next_dealer([50, -20, 10, 0], dealer=3) == 1
    assert next_dealer([-20, 5, -20, 0], dealer=3) == 0  # after seat 3: seat 0 first
    assert next_dealer([-20, 5, -20, 0], dealer=0) == 2  # after seat 0: seat 2 before seat 0
    assert next_dealer([7, 7, 7, 7], dealer=1) == 2
    assert dealers([], 2) == [3, None]  # R13-2: the lowest seat-draw card deals game 1
    assert dealers([[50, -20, 10, 0], [0, 0, -5, 9]], 3) == [3, 1, 2]


# -- the seat draw (R13-2) ---------------------------------------------------------------------


def test_the_highest_card_plays_first_and_the_lowest_deals() -> None:
    assert seats([{"A": "2c", "B": "As", "C": "Kh", "D": "Ah"}]) == {"A": 3, "B": 0, "C": 2, "D": 1}


def test_identical_cards_draw_again_in_their_shared_place() -> None:
    first = {"A": "Ks", "B": "7h", "C": "Ks", "D": "2c"}
    with pytest.raises(Redraw) as caught:
        seats([first])
    assert caught.value.positions == ("A", "C")
    assert seats([first, {"A": "2d", "C": "3d"}]) == {"C": 0, "A": 1, "B": 2, "D": 3}
    assert drawn_cards([first, {"A": "2d", "C": "3d"}])["A"] == ["Ks", "2d"]


def test_a_joker_is_drawn_again_and_a_draw_names_exactly_those_who_draw() -> None:
    with pytest.raises(Redraw) as caught:
        seats([{"A": "Jk", "B": "7h", "C": "5d", "D": "2c"}])
    assert caught.value.positions == ("A",)
    with refused("bad_seat_draw"):
        seats([{"A": "Jk", "B": "7h", "C": "5d", "D": "2c"}, {"A": "3s", "B": "4s"}])
    with refused("bad_seat_draw"):
        seats([{"A": "Qs", "B": "7h", "C": "5d"}])
    with refused("bad_seat_draw"):  # nobody tied: no redraw to enter
        seats([{"A": "Qs", "B": "7h", "C": "5d", "D": "2c"}, {"A": "3s"}])
    with refused("bad_card"):
        seats([{"A": "Qx", "B": "7h", "C": "5d", "D": "2c"}])


# -- standings ----------------------------------------------------------------------------------

EIGHT = [Competitor(f"P{i}", name, club) for i, (name, club) in enumerate(
    [("Ani", "Medan"), ("Budi", "Medan"), ("Citra", "Solo"), ("Dedi", "Solo"),
     ("Eka", None), ("Fajar", None), ("Gita", "Medan"), ("Hadi", "Solo")], start=1)]  # fmt: skip
EVENT = [
    # round 1, table 1: P1 P2 P3 P4; table 2: P5 P6 P7 P8 (two games each)
    Played(1, 1, 1, ("P1", "P2", "P3", "P4"), (135, 25, -100, 55), closer=0, closing="Ah"),
    Played(1, 1, 2, ("P1", "P2", "P3", "P4"), (-30, 165, 40, 40), closer=1, closing="Jk"),
    Played(1, 2, 1, ("P5", "P6", "P7", "P8"), (60, 55, -20, -5)),
    Played(1, 2, 2, ("P5", "P6", "P7", "P8"), (40, 45, 10, -15)),
    # round 2, table 1: P2 P1 P5 P6; table 2: P3 P4 P7 P8
    Played(2, 1, 1, ("P2", "P1", "P5", "P6"), (-10, 100, 30, 30), closer=1, closing="As"),
    Played(2, 1, 2, ("P2", "P1", "P5", "P6"), (-50, -45, -30, -30)),
    Played(2, 2, 1, ("P3", "P4", "P7", "P8"), (150, 0, -20, 5), closer=0, closing="Jk"),
    Played(2, 2, 2, ("P3", "P4", "P7", "P8"), (-10, 5, 25, 0)),
]
"""A hand-made event of 8 players, 2 rounds of 2 games (worked by hand below)."""


def numbers(rows: list[Row]) -> dict[str, tuple[int | None, ...]]:
    return {
        r.player: (
            r.rank,
            r.total,
            r.games,
            r.won,
            r.ace_closes,
            r.joker_closes,
            r.best_game,
            r.dead,
        )
        for r in rows
    }


def test_the_standings_of_a_hand_made_event() -> None:
    rows = standings(EIGHT, EVENT, games_per_round=2, tie_breaks=["games_won"])
    assert numbers(rows) == {  # rank, total, games, won, Ace closes, Joker closes, best, dead
        "P1": (1, 160, 4, 2, 2, 0, 135, 75),  # 135 - 30 + 100 - 45
        "P2": (2, 130, 4, 1, 0, 1, 165, 60),  # 25 + 165 - 10 - 50
        "P5": (3, 100, 4, 2, 0, 0, 60, 30),  # 60 + 40 + 30 - 30; the -30 win shared
        "P6": (3, 100, 4, 2, 0, 0, 55, 30),  # 55 + 45 + 30 - 30: as many wins as P5
        "P4": (5, 100, 4, 0, 0, 0, 55, 0),  # 55 + 40 + 0 + 5: no win
        "P3": (6, 80, 4, 1, 0, 1, 150, 110),  # -100 + 40 + 150 - 10
        "P7": (7, -5, 4, 1, 0, 0, 25, 40),
        "P8": (8, -15, 4, 0, 0, 0, 5, 20),
    }
    assert [r.player for r in rows] == ["P1", "P2", "P5", "P6", "P4", "P3", "P7", "P8"]


def test_the_declared_tie_breaks_order_equal_totals_in_turn() -> None:
    def ranks(*tie_breaks: TieBreak) -> list[tuple[str, int | None]]:
        rows = standings(EIGHT, EVENT, games_per_round=2, tie_breaks=tie_breaks)
        return [(r.player, r.rank) for r in rows if r.total == 100]

    assert ranks("games_won", "best_game") == [("P5", 3), ("P6", 4), ("P4", 5)]
    assert ranks("fewest_dead") == [("P4", 3), ("P5", 4), ("P6", 4)]
    assert ranks("best_game") == [("P5", 3), ("P4", 4), ("P6", 4)]
    assert ranks() == [("P4", 3), ("P5", 3), ("P6", 3)]  # total points only: equal ranks
    assert next(r for r in standings(EIGHT, EVENT, games_per_round=2) if r.player == "P3").rank == 6
    closes = [Played(1, 1, 1, ("P1", "P2", "P3", "P4"), (100, 100, 0, 0), 0, "Ah")]
    rows = standings(
        EIGHT[:4], closes, games_per_round=1, tie_breaks=["joker_closes", "ace_closes"]
    )
    assert [(r.player, r.rank) for r in rows][:2] == [("P1", 1), ("P2", 2)]


def test_disqualified_players_come_last_without_a_rank_and_dropped_ones_keep_theirs() -> None:
    players = [
        Competitor(p.id, p.name, p.club, "disqualified", "marked cards") if p.id == "P1"
        else Competitor(p.id, p.name, p.club, "dropped", "ill") if p.id == "P2"
        else p
        for p in EIGHT
    ]  # fmt: skip
    rows = standings(players, EVENT, games_per_round=2, tie_breaks=["games_won"])
    assert rows[-1].player == "P1" and rows[-1].rank is None
    assert rows[-1].json()["reason"] == "marked cards" and rows[-1].total == 160
    dropped = rows[0]
    assert (dropped.player, dropped.rank, dropped.total, dropped.status) == (
        "P2",
        1,
        130,
        "dropped",
    )


def test_a_bots_results_never_count_but_its_score_can_beat_a_player() -> None:
    games = [Played(1, 1, 1, ("P1", None, "P2", None), (10, 90, -5, 20))]
    rows = standings(EIGHT[:2], games, games_per_round=1)
    assert {r.player for r in rows} == {"P1", "P2"}
    assert [r.won for r in rows] == [0, 0]


def test_a_bye_scores_the_players_average_or_nothing() -> None:
    games = [
        Played(1, 1, 1, ("P1", "P2", "P3", "P4"), (30, 10, -20, 0)),
        Played(1, 1, 2, ("P1", "P2", "P3", "P4"), (11, 10, -20, 0)),
    ]
    five = [*EIGHT[:4], Competitor("P5", "Eka")]
    average = standings(
        five, games, [Bye(2, "P1"), Bye(1, "P5")], games_per_round=2, bye_points="average"
    )
    by_id = {r.player: r for r in average}
    assert by_id["P1"].total == 41 + 41  # (30 + 11) / 2 × 2 games
    assert (by_id["P5"].total, by_id["P5"].byes, by_id["P5"].games) == (0, 1, 0)  # none played
    zero = standings(five, games, [Bye(2, "P1")], games_per_round=2, bye_points="zero")
    assert {r.player: r.total for r in zero}["P1"] == 41
    assert bye_score([1, 2], 4, "average") == 6 and bye_score([1, 2], 3, "average") == 5


def test_registered_players_who_never_played_are_left_out() -> None:
    players = [*EIGHT[:4], Competitor("P9", "Ira", status="registered")]
    rows = standings(players, EVENT[:2], games_per_round=2)
    assert "P9" not in {r.player for r in rows}


# -- exports ---------------------------------------------------------------------------------


def test_the_standings_export_is_csv_with_a_row_per_player() -> None:
    rows = standings(EIGHT, EVENT, games_per_round=2, tie_breaks=["games_won"])
    read = list(csv.reader(io.StringIO(standings_csv(rows))))
    assert tuple(read[0]) == STANDINGS_HEADER
    assert read[1][:5] == ["1", "P1", "Ani", "Medan", "160"]
    assert len(read) == 9


def test_the_scores_export_has_a_line_per_seat_with_names_quoted() -> None:
    lines = [
        ScoreLine(1, 2, 1, 0, "P1", 'Ani "Ratu", Medan', 135, True, "Ah", 7, "confirmed"),
        ScoreLine(1, 2, 1, 1, None, "Bot", -20, False, "Ah", 7, "confirmed"),
    ]
    read = list(csv.reader(io.StringIO(scores_csv(lines))))
    assert tuple(read[0]) == SCORES_HEADER
    assert read[1] == [
        "1",
        "2",
        "1",
        "0",
        "P1",
        'Ani "Ratu", Medan',
        "135",
        "1",
        "Ah",
        "7",
        "confirmed",
    ]
    assert read[2][4] == "" and read[2][8] == ""
