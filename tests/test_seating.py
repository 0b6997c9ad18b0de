"""The seating of a Remi 13 D competition (R13-1: tables of four): round 1 draws, later
rounds against an exhaustive search of every way to seat a small field."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence

import pytest

from remikit.competition.seating import (
    Entrant,
    Fill,
    Seating,
    draw_first_round,
    seat_round,
)

FILLS: tuple[Fill, ...] = ("bots", "byes")


def field(size: int, clubs: int = 0) -> list[Entrant]:
    return [Entrant(f"p{i:02}", club=f"c{i % clubs}" if clubs else None) for i in range(size)]


def after(entrants: Sequence[Entrant], seating: Seating, rng: random.Random) -> list[Entrant]:
    """The entrants after a round played at ``seating``, each game scored at random."""
    by_id = {e.id: e for e in entrants}
    out = dict(by_id)
    for table in seating.tables:
        people = [p for p in table.seats if p is not None]
        for position, p in enumerate(table.seats):
            if p is None:
                continue
            e = by_id[p]
            counts = list(e.positions)
            counts[position] += 1
            out[p] = Entrant(
                p,
                e.club,
                e.total + sum(rng.randint(-150, 250) for _ in range(4)),
                e.met | {q for q in people if q != p},
                (counts[0], counts[1], counts[2], counts[3]),
                e.byes,
            )
    for p in seating.byes:
        e = by_id[p]
        out[p] = Entrant(p, e.club, e.total, e.met, e.positions, e.byes + 1)
    return [out[e.id] for e in entrants]


def rounds(size: int, count: int, fill: Fill, seed: int) -> Iterator[tuple[list[Entrant], Seating]]:
    """``count`` rounds of a field of ``size``: the entrants before each and its seating."""
    rng = random.Random(seed)
    entrants = field(size, clubs=3)
    for number in range(count):
        if number == 0:
            seating = draw_first_round(entrants, fill=fill, clubs_apart=True, rng=rng)
        else:
            seating = seat_round(entrants, fill=fill)
        yield entrants, seating
        entrants = after(entrants, seating, rng)


def seated(seating: Seating) -> list[str]:
    return [p for t in seating.tables for p in t.seats if p is not None]


def check_shape(entrants: Sequence[Entrant], seating: Seating, fill: Fill) -> None:
    """Every entrant seated exactly once or resting; tables of four numbered from 1; the
    bot seats (1–3) all at the last table, or 1–3 byes."""
    players = seated(seating)
    assert sorted(players + list(seating.byes)) == sorted(e.id for e in entrants)
    assert len(set(players)) == len(players)
    assert [t.number for t in seating.tables] == list(range(1, len(seating.tables) + 1))
    assert all(len(t.seats) == 4 for t in seating.tables)
    bots = [i for i, t in enumerate(seating.tables) for p in t.seats if p is None]
    if fill == "bots":
        assert not seating.byes
        assert len(bots) == -len(entrants) % 4
        assert set(bots) <= {len(seating.tables) - 1}
    else:
        assert not bots
        assert len(seating.byes) == len(entrants) % 4


@pytest.mark.parametrize("fill", FILLS)
@pytest.mark.parametrize("size", range(1, 14))
def test_everyone_seated_once_or_resting(size: int, fill: Fill) -> None:
    if fill == "byes" and size < 4:
        with pytest.raises(ValueError, match="at least 4 players"):
            draw_first_round(field(size), fill=fill, clubs_apart=False)
        return
    for entrants, seating in rounds(size, 4, fill, seed=size):
        check_shape(entrants, seating, fill)


def first(entrants: list[Entrant], online: int | None) -> Seating:
    return draw_first_round(entrants, fill="bots", clubs_apart=False, online_capacity=online)


def later(entrants: list[Entrant], online: int | None) -> Seating:
    return seat_round(entrants, fill="bots", online_capacity=online)


@pytest.mark.parametrize("work", [first, later])
def test_a_field_that_cannot_be_seated_is_refused(
    work: Callable[[list[Entrant], int | None], Seating],
) -> None:
    with pytest.raises(ValueError, match="at least one player"):
        work([], None)
    with pytest.raises(ValueError, match="same id"):
        work([Entrant("a"), Entrant("a")], None)
    with pytest.raises(ValueError, match="online table"):
        work(field(5), 0)
    assert len(work(field(5), 1).tables) == 2
    seating = draw_first_round(field(8), fill="bots", clubs_apart=False, online_capacity=0)
    assert len(seating.tables) == 2  # no bot seats: no online table needed


def partitions(items: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to split ``items`` into tables of four."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for others in itertools.combinations(rest, 3):
        left = [x for x in rest if x not in others]
        for tail in partitions(left):
            yield [(first, *others), *tail]


def made_up(size: int, history: int, rng: random.Random) -> list[Entrant]:
    """A field after ``history`` random rounds (random tables, random totals)."""
    ids = [f"p{i:02}" for i in range(size)]
    met: dict[str, set[str]] = {p: set() for p in ids}
    for _ in range(history):
        order = rng.sample(ids, size)
        for t in range(0, size, 4):
            for p in order[t : t + 4]:
                met[p].update(q for q in order[t : t + 4] if q != p)
    return [Entrant(p, total=float(rng.randint(-300, 600)), met=frozenset(met[p])) for p in ids]


def exhaustive(entrants: Sequence[Entrant]) -> tuple[int, float]:
    """The fewest repeat meetings of any seating, and the least spread among those."""

    def cost(tables: list[tuple[int, ...]]) -> tuple[int, float]:
        repeats, spread = 0, 0.0
        for table in tables:
            people = [entrants[i] for i in table]
            repeats += sum(b.id in a.met for a, b in itertools.combinations(people, 2))
            spread += max(e.total for e in people) - min(e.total for e in people)
        return repeats, spread

    return min(cost(p) for p in partitions(range(len(entrants))))


@pytest.mark.parametrize("size", [8, 12])
def test_later_rounds_meet_the_exhaustive_minimum(size: int) -> None:
    rng = random.Random(size)
    for case in range(12 if size == 8 else 6):
        entrants = made_up(size, history=1 + case % 4, rng=rng)
        repeats, spread = exhaustive(entrants)
        quality = seat_round(entrants, fill="byes").quality
        assert quality.repeat_meetings == repeats
        assert quality.spread == pytest.approx(spread)


def test_no_history_seats_neighbours_in_the_standings() -> None:
    entrants = [Entrant(f"p{i:02}", total=float(100 - i)) for i in range(13)]
    seating = seat_round(entrants, fill="bots")
    assert [sorted(p for p in t.seats if p) for t in seating.tables] == [
        ["p00", "p01", "p02", "p03"],
        ["p04", "p05", "p06", "p07"],
        ["p08", "p09", "p10", "p11"],
        ["p12"],  # the bot table holds the lowest-ranked
    ]
    assert seating.quality.repeat_meetings == 0
    assert seating.quality.spread == 9.0
    assert seating.seed is None


def club_clashes(entrants: Sequence[Entrant], tables: Sequence[Sequence[int]]) -> int:
    return sum(
        1
        for table in tables
        for a, b in itertools.combinations(table, 2)
        if entrants[a].club is not None and entrants[a].club == entrants[b].club
    )


@pytest.mark.parametrize(
    "clubs",
    [
        ["x", "x", "x", "y", "y", "y", "z", "z", "z", None, None, None],
        ["x", "x", "x", "x", "x", "y", "y", "y", "y", "z", "z", None],
        ["x"] * 7 + ["y"] * 5,
    ],
)
def test_round_one_keeps_club_mates_apart_where_it_can(clubs: list[str | None]) -> None:
    entrants = [Entrant(f"p{i:02}", club=c) for i, c in enumerate(clubs)]
    fewest = min(club_clashes(entrants, p) for p in partitions(range(len(entrants))))
    for seed in range(20):
        seating = draw_first_round(entrants, fill="byes", clubs_apart=True, rng=random.Random(seed))
        assert seating.quality.club_clashes == fewest
    assert fewest == 0 or clubs[0] == clubs[4]


def test_round_one_with_bots_keeps_club_mates_apart() -> None:
    entrants = [Entrant(f"p{i:02}", club=f"c{i % 4}") for i in range(15)]
    for seed in range(20):
        seating = draw_first_round(entrants, fill="bots", clubs_apart=True, rng=random.Random(seed))
        assert seating.quality.club_clashes == 0
        check_shape(entrants, seating, "bots")


def test_round_one_draws_at_random_from_a_recorded_seed() -> None:
    entrants = field(16)
    seatings = [draw_first_round(entrants, fill="bots", clubs_apart=False) for _ in range(3)]
    seeds = {s.seed for s in seatings}
    assert len(seeds) == 3 and all(s and len(s) == 32 for s in seeds)
    assert len({s.tables for s in seatings}) == 3
    again = [draw_first_round(entrants, fill="bots", clubs_apart=False, rng=random.Random(5))]
    again.append(
        draw_first_round(entrants[::-1], fill="bots", clubs_apart=False, rng=random.Random(5))
    )
    assert again[0] == again[1]


@pytest.mark.parametrize("fill", FILLS)
@pytest.mark.parametrize("size", [4, 5, 9, 12, 14, 23, 32])
def test_positions_balance_over_six_rounds(size: int, fill: Fill) -> None:
    """After every round each player's A–D counts differ by at most 2 (the table's
    seats go first to the worst-off); after six rounds nearly all by at most 1."""
    spreads: list[int] = []
    for entrants, seating in rounds(size, 7, fill, seed=size):
        spreads = [max(e.positions) - min(e.positions) for e in entrants]
        assert max(spreads) <= 2
        assert seating.quality.seat_imbalance <= 2 * size
    assert sum(s <= 1 for s in spreads) >= 0.9 * size


def test_four_players_sit_once_at_each_position_in_four_rounds() -> None:
    *_, (entrants, _) = rounds(4, 5, "byes", seed=1)
    assert all(e.positions == (1, 1, 1, 1) for e in entrants)


def test_byes_go_to_the_lowest_ranked_with_the_fewest_byes() -> None:
    entrants = [
        Entrant(f"p{i}", total=float(10 - i), byes=1 if i in (8, 6) else 0) for i in range(10)
    ]
    seating = seat_round(entrants, fill="byes")
    assert set(seating.byes) == {"p9", "p7"}
    check_shape(entrants, seating, "byes")
    everyone_rested = [Entrant(e.id, total=e.total, byes=1) for e in entrants]
    assert set(seat_round(everyone_rested, fill="byes").byes) == {"p9", "p8"}


def test_round_one_byes_at_random() -> None:
    entrants = field(10)
    rested = {
        draw_first_round(entrants, fill="byes", clubs_apart=False, rng=random.Random(s)).byes
        for s in range(10)
    }
    assert len(rested) > 5 and all(len(b) == 2 for b in rested)


def test_the_same_input_seats_the_same() -> None:
    entrants = made_up(24, history=3, rng=random.Random(3))
    first = seat_round(entrants, fill="bots")
    assert seat_round(list(reversed(entrants)), fill="bots") == first
    assert first == seat_round(entrants, fill="bots")


def test_quality_counts_what_the_seating_did() -> None:
    entrants = [
        Entrant("a", club="x", total=10, met=frozenset({"b"}), positions=(1, 0, 0, 0)),
        Entrant("b", club="x", total=8, met=frozenset({"a"}), positions=(1, 0, 0, 0)),
        Entrant("c", total=3, positions=(0, 1, 0, 0)),
        Entrant("d", total=1, positions=(0, 0, 1, 0)),
    ]
    seating = seat_round(entrants, fill="byes")
    assert seating.tables[0].seats == ("c", "a", "b", "d")  # nobody where they sat before
    assert seating.quality.repeat_meetings == 1
    assert seating.quality.spread == 9.0
    assert seating.quality.club_clashes == 0  # counted only in round 1 with clubs apart
    assert seating.quality.seat_imbalance == 4
    drawn = draw_first_round(entrants, fill="byes", clubs_apart=True, rng=random.Random(1))
    assert drawn.quality.club_clashes == 1
