"""Who sits at which table each round of a Remi 13 D competition.

Tables hold exactly four (R13-1), at positions A–D (the place before the R13-2 seat draw).
Round 1 is a random draw from the bytes of :func:`secrets.token_bytes`, recorded as
:attr:`Seating.seed`; later rounds are Swiss-like, neighbours in the standings sharing a
table, with the fewest repeat meetings first, then the closest totals
(:mod:`remikit.competition.grouping`); each table's positions then go to whoever sat there
least. Pairings to avoid come before all that, where the field allows: club-mates (round 1
with ``clubs_apart``, every round with ``clubs_every_round``) and named pairs
(:attr:`Entrant.avoid`, every round); the quality counts those left. A field that is not a
multiple of four gets 1–3 bot seats at its last table (``fill="bots"``) or 1–3 byes
(``fill="byes"``: at random in round 1, later the lowest-ranked of those with the fewest
byes).
"""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from remikit.competition.grouping import Field, group

Fill = Literal["bots", "byes"]
SEED_BYTES = 16


@dataclass(frozen=True)
class Entrant:
    """A player to seat, with what the earlier rounds left."""

    id: str
    club: str | None = None
    total: float = 0.0
    """Standings points so far."""
    met: frozenset[str] = frozenset()
    """The ids of the players met at a table before."""
    positions: tuple[int, int, int, int] = (0, 0, 0, 0)
    """How many times the player sat at A, B, C and D."""
    byes: int = 0
    avoid: frozenset[str] = frozenset()
    """The ids of the players never to seat this one with (a named pair, either way)."""


@dataclass(frozen=True)
class Table:
    number: int
    """From 1."""
    seats: tuple[str | None, str | None, str | None, str | None]
    """The player ids at positions A–D; ``None`` is a bot seat."""


@dataclass(frozen=True)
class Quality:
    repeat_meetings: int
    """Pairs at one table who met before."""
    seat_imbalance: int
    """The sum over players of (most − fewest) of their position counts after this round."""
    club_clashes: int
    """Pairs of one club at one table (counted where club-mates are kept apart)."""
    spread: float
    """The sum over tables of (highest − lowest) of the totals of the players at it."""
    avoid_clashes: int = 0
    """Named pairs to keep apart at one table."""


@dataclass(frozen=True)
class Seating:
    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    quality: Quality
    seed: str | None
    """Round 1: the hex of the bytes that seeded the draw (``random.Random(bytes.fromhex(seed))``
    draws it again); later rounds: ``None``."""


def draw_first_round(
    entrants: Iterable[Entrant],
    *,
    fill: Fill,
    clubs_apart: bool,
    rng: random.Random | None = None,
    online_capacity: int | None = None,
) -> Seating:
    """Round 1: a random draw; with ``clubs_apart`` club-mates are spread over the tables
    as evenly as can be (none share a table when no club has more players than there are
    tables). ``rng`` (tests) stands in for :mod:`secrets`; ``online_capacity``, the number of
    tables that can be online, must be at least 1 for bot seats."""
    field = sorted(_checked(entrants, fill, online_capacity), key=lambda e: e.id)
    seed = secrets.token_bytes(SEED_BYTES) if rng is None else rng.randbytes(SEED_BYTES)
    draw = random.Random(seed)
    draw.shuffle(field)
    byes, bots = _shortfall(len(field), fill)
    out, field = field[:byes], field[byes:]
    groups = _by_clubs(field, bots, draw) if clubs_apart else _chunks(field)
    _apart(groups, clubs_apart)
    tables = []
    for number, members in enumerate(groups, start=1):
        seats: list[Entrant | None] = [*members, *[None] * (4 - len(members))]
        draw.shuffle(seats)
        tables.append((number, seats))
    return _seating(tables, out, entrants=field + out, clubs=clubs_apart, seed=seed.hex())


def seat_round(
    entrants: Iterable[Entrant],
    *,
    fill: Fill,
    online_capacity: int | None = None,
    clubs_apart: bool = False,
) -> Seating:
    """A later round: tables of neighbours in the standings, fewest pairings to avoid first
    (named pairs, and club-mates with ``clubs_apart``), then fewest repeat meetings, then the
    closest totals; positions to balance each player's A–D counts. Table 1 is the top table;
    bot seats are at the last."""
    field = sorted(_checked(entrants, fill, online_capacity), key=lambda e: (-e.total, e.id))
    byes, bots = _shortfall(len(field), fill)
    rank = {e.id: i for i, e in enumerate(field)}
    resting = {e.id for e in sorted(field, key=lambda e: (e.byes, -rank[e.id]))[:byes]}
    out = [e for e in field if e.id in resting]
    players = [e for e in field if e.id not in resting]
    index = {e.id: i for i, e in enumerate(players)}
    met = [frozenset(index[m] for m in e.met if m in index) for e in players]
    met = [m | {j for j in range(len(players)) if i in met[j]} for i, m in enumerate(met)]
    avoid = [
        frozenset(j for j, y in enumerate(players) if j != i and _clash(x, y, clubs_apart))
        for i, x in enumerate(players)
    ]
    groups = group(Field([e.total for e in players], met, bots, avoid))
    tables = []
    for number, members in enumerate(groups, start=1):
        tables.append((number, _positions([players[i] for i in members], 4 - len(members))))
    return _seating(tables, out, entrants=field, clubs=clubs_apart, seed=None)


def assess(
    tables: Sequence[Sequence[str | None]], entrants: Iterable[Entrant], *, clubs: bool
) -> Quality:
    """The quality of a round's tables (player ids at positions A–D, None a bot seat) for
    ``entrants`` as the earlier rounds left them (every player of the round, byes too);
    ``clubs``: club-mates are to be kept apart this round."""
    by_id = {e.id: e for e in entrants}
    seated = [
        (n, [None if p is None else by_id[p] for p in seats]) for n, seats in enumerate(tables)
    ]
    return _quality(seated, list(by_id.values()), clubs)


def _clash(x: Entrant, y: Entrant, clubs: bool) -> bool:
    """Two players to keep apart: a named pair, or club-mates when ``clubs``."""
    return y.id in x.avoid or x.id in y.avoid or (clubs and x.club is not None and x.club == y.club)


def _apart(groups: list[list[Entrant]], clubs: bool) -> None:
    """Swap players between tables while that seats fewer named pairs together, then fewer
    club-mates (with ``clubs``): round 1's draw, its pairings to avoid undone where they can be."""

    def clashes(members: Sequence[Entrant]) -> tuple[int, int]:
        pairs = list(itertools.combinations(members, 2))
        named = sum(_clash(x, y, False) for x, y in pairs)
        return (named, sum(clubs and _clash(x, y, True) for x, y in pairs) - named)

    def both(a: int, b: int) -> tuple[int, int]:
        x, y = clashes(groups[a]), clashes(groups[b])
        return (x[0] + y[0], x[1] + y[1])

    changed = True
    while changed:
        changed = False
        for a, b in itertools.combinations(range(len(groups)), 2):
            now = both(a, b)
            if now == (0, 0):
                continue
            for i, j in itertools.product(range(len(groups[a])), range(len(groups[b]))):
                groups[a][i], groups[b][j] = groups[b][j], groups[a][i]
                after = both(a, b)
                if after < now:
                    now, changed = after, True
                else:
                    groups[a][i], groups[b][j] = groups[b][j], groups[a][i]


def _checked(entrants: Iterable[Entrant], fill: Fill, online: int | None) -> list[Entrant]:
    field = list(entrants)
    ids = [e.id for e in field]
    if len(set(ids)) != len(ids):
        raise ValueError("two entrants have the same id")
    if fill == "byes" and len(field) < 4:
        raise ValueError(f"a round needs at least 4 players, not {len(field)}")
    if not field:
        raise ValueError("a round needs at least one player")
    if fill == "bots" and len(field) % 4 and online is not None and online < 1:
        raise ValueError("bot seats need an online table")
    return field


def _shortfall(players: int, fill: Fill) -> tuple[int, int]:
    """The byes and the bot seats a field of ``players`` needs."""
    return (players % 4, 0) if fill == "byes" else (0, -players % 4)


def _chunks(field: Sequence[Entrant]) -> list[list[Entrant]]:
    return [list(field[i : i + 4]) for i in range(0, len(field), 4)]


def _by_clubs(field: Sequence[Entrant], bots: int, draw: random.Random) -> list[list[Entrant]]:
    """Deal the field round the tables, the largest club first and the club-less last, so
    each club's players go to tables in turn; the bot table (last) holds ``4 - bots``."""
    count = (len(field) + bots) // 4
    room = [4] * count
    if bots:
        room[-1] = 4 - bots
    clubs: dict[str, list[Entrant]] = {}
    for e in field:
        if e.club:
            clubs.setdefault(e.club, []).append(e)
    order = sorted(clubs.values(), key=lambda members: -len(members))
    dealt = [e for members in order for e in members] + [e for e in field if not e.club]
    tables: list[list[Entrant]] = [[] for _ in range(count)]
    t = 0
    for e in dealt:
        while len(tables[t]) == room[t]:
            t = (t + 1) % count
        tables[t].append(e)
        t = (t + 1) % count
    head = tables[: count - 1] if bots else tables
    draw.shuffle(head)
    return head + tables[len(head) :]


def _positions(members: Sequence[Entrant], bots: int) -> list[Entrant | None]:
    """The players (and bots) at positions A–D, each where they sat least: the least
    imbalance after this round of the worst-off player, then of all, then the least-used
    positions, then the first such order (players in standings order)."""
    slots: list[Entrant | None] = [*members, *[None] * bots]

    def key(order: Iterable[Entrant | None]) -> tuple[int, int, int]:
        imbalances = [0]
        used = 0
        for position, e in enumerate(order):
            if e is not None:
                counts = list(e.positions)
                used += counts[position]
                counts[position] += 1
                imbalances.append(max(counts) - min(counts))
        return (max(imbalances), sum(imbalances), used)

    return list(min(itertools.permutations(slots), key=key))


def _seating(
    tables: Sequence[tuple[int, Sequence[Entrant | None]]],
    byes: Sequence[Entrant],
    *,
    entrants: Sequence[Entrant],
    clubs: bool,
    seed: str | None,
) -> Seating:
    """The seating and its quality."""
    return Seating(
        tables=tuple(
            Table(number, tuple(e.id if e else None for e in seats))  # type: ignore[arg-type]
            for number, seats in tables
        ),
        byes=tuple(e.id for e in byes),
        quality=_quality(tables, entrants, clubs),
        seed=seed,
    )


def _quality(
    tables: Sequence[tuple[int, Sequence[Entrant | None]]],
    entrants: Sequence[Entrant],
    clubs: bool,
) -> Quality:
    repeats = clashes = named = 0
    spread = 0.0
    after = {e.id: list(e.positions) for e in entrants}
    for _, seats in tables:
        people = [e for e in seats if e is not None]
        for x, y in itertools.combinations(people, 2):
            repeats += y.id in x.met or x.id in y.met
            clashes += clubs and x.club is not None and x.club == y.club
            named += _clash(x, y, False)
        if people:
            spread += max(e.total for e in people) - min(e.total for e in people)
        for position, e in enumerate(seats):
            if e is not None:
                after[e.id][position] += 1
    imbalance = sum(max(c) - min(c) for c in after.values())
    return Quality(repeats, imbalance, clashes, spread, named)
