"""Tables of four from a field in standings order: fewest pairings to avoid (club-mates,
named pairs), then fewest repeat meetings, then closest totals.

The field is first grouped by two maximum-weight matchings (:func:`networkx.max_weight_matching`):
players into pairs, then pairs into tables, each edge weighed by the pairings to avoid, the
repeat meetings and the spread of totals it brings; the matchings see only neighbours in the
standings, and a large field is matched in blocks of neighbours, as a Swiss round seats
neighbours anyway. Then
every table is improved by the best re-split of its players with another table's, until no
re-split lowers the cost: pairings to avoid first, then repeats, then spread.

A table of bots (``bots`` seats, 1–3) holds the other players; its spread counts the lowest
total of the field for the bots, so it gathers the lowest-ranked players.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import networkx as nx

MATCH_WINDOW = 8
"""How many neighbours in the standings (each side) a player or pair may be matched with."""

MATCH_BLOCK = 32
"""The most players matched at once; a larger field is matched in blocks of neighbours."""

NEAR_TABLES = 3
"""In a field of more tables than :data:`ALL_PAIRS`, each table is re-split with its
neighbours this far away in the standings (and a table with a repeat meeting or a pairing to
avoid with every table)."""

ALL_PAIRS = 16
"""Up to this many tables, every two tables are tried for a re-split."""

ALL_TRIPLES = 4
"""Up to this many tables, every three tables are tried for a re-split."""

WEIGHT_UNIT = 1000
"""Totals in the matchings' integer weights are rounded to a thousandth."""

EPSILON = 1e-9
"""The least spread that counts as an improvement (totals are floats)."""

Cost = tuple[int, int, float]
"""A table's cost: pairings to avoid at it, repeat meetings, then the spread of its totals."""


class Field:
    """The players to group, by their place in the standings (0 is the leader); ``avoid``
    names, for each, the players never to seat with (both ways)."""

    def __init__(
        self,
        totals: Sequence[float],
        met: Sequence[frozenset[int]],
        bots: int,
        avoid: Sequence[frozenset[int]] = (),
    ) -> None:
        self.totals = list(totals)
        self.met = list(met)
        self.bots = bots
        self.avoid = list(avoid) or [frozenset()] * len(self.totals)
        self.floor = min(self.totals) if self.totals else 0.0
        span = max(self.totals) - self.floor if self.totals else 0.0
        self.repeat_weight = int(span * WEIGHT_UNIT) * len(self.totals) + 1
        """A repeat meeting's weight in the matchings: more than any spread of the field."""
        self.avoid_weight = self.repeat_weight * (3 * len(self.totals) + 1)
        """A pairing to avoid's weight: more than every repeat meeting the field can have."""

    def repeats(self, group: Sequence[int]) -> int:
        """The pairs at one table who met before."""
        return sum(1 for i, j in itertools.combinations(group, 2) if j in self.met[i])

    def clashes(self, group: Sequence[int]) -> int:
        """The pairs at one table who are to be kept apart."""
        return sum(1 for i, j in itertools.combinations(group, 2) if j in self.avoid[i])

    def bad(self, group: Sequence[int]) -> bool:
        """A pairing to avoid or a repeat meeting at the table."""
        return self.clashes(group) > 0 or self.repeats(group) > 0

    def spread(self, group: Sequence[int], bots: bool) -> float:
        """The range of totals at a table; bots count as the field's lowest total."""
        values = [self.totals[i] for i in group]
        if bots:
            values.append(self.floor)
        return max(values) - min(values) if values else 0.0

    def cost(self, group: Sequence[int], bots: bool) -> Cost:
        return (self.clashes(group), self.repeats(group), self.spread(group, bots))


def group(field: Field) -> list[list[int]]:
    """The tables (player indices, each sorted), by their best-placed player; the bot table
    (if any) last."""
    n = len(field.totals)
    humans_at_bots = 4 - field.bots if field.bots else 0
    matched = n - humans_at_bots
    tables: list[list[int]] = []
    for start in range(0, matched, MATCH_BLOCK):
        block = list(range(start, min(start + MATCH_BLOCK, matched)))
        tables.extend(_match(field, block))
    if field.bots:
        tables.append(list(range(matched, n)))
    _improve(field, tables)
    seated = [sorted(t) for t in tables]
    if not field.bots:
        return sorted(seated)
    return [*sorted(seated[:-1]), seated[-1]]


def _weight(field: Field, members: Sequence[int]) -> int:
    """The integer weight of seating ``members`` together, in the matchings."""
    spread = round(field.spread(members, False) * WEIGHT_UNIT)
    clashes = field.avoid_weight * field.clashes(members)
    return clashes + field.repeat_weight * field.repeats(members) + spread


def _perfect(nodes: Sequence[Sequence[int]], field: Field) -> list[tuple[int, int]]:
    """A perfect matching of ``nodes`` (groups of players, in standings order) of least
    total weight, each node matched only with its :data:`MATCH_WINDOW` next ones."""
    graph: nx.Graph[int] = nx.Graph()
    weights = {}
    for a in range(len(nodes)):
        for b in range(a + 1, min(len(nodes), a + MATCH_WINDOW + 1)):
            weights[a, b] = _weight(field, [*nodes[a], *nodes[b]])
    top = max(weights.values(), default=0) + 1
    for (a, b), w in weights.items():
        graph.add_edge(a, b, weight=top - w)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in matching)


def _match(field: Field, block: list[int]) -> list[list[int]]:
    """Tables of four from ``block`` (a multiple of four players) by the two matchings."""
    pairs = [[block[a], block[b]] for a, b in _perfect([[i] for i in block], field)]
    pairs.sort()
    return sorted(pairs[a] + pairs[b] for a, b in _perfect(pairs, field))


def _improve(field: Field, tables: list[list[int]]) -> None:
    """Re-split two, then three tables at a time while that lowers the cost; after the
    first pass, only sets of tables of which one changed in the pass before."""
    bots = len(tables) - 1 if field.bots else -1
    changed = set(range(len(tables)))
    while changed:
        dirty, changed = changed, set()
        for chosen in _candidates(field, tables):
            if not dirty.isdisjoint(chosen) and _resplit(field, tables, chosen, bots):
                changed.update(chosen)


def _candidates(field: Field, tables: list[list[int]]) -> list[tuple[int, ...]]:
    """The sets of tables to re-split, in a fixed order: every two tables (in a field of
    more than :data:`ALL_PAIRS` tables, those near in the standings, and a table with a
    repeat meeting with any), then three tables: a table with a repeat meeting (or any, in
    a field of up to :data:`ALL_TRIPLES` tables) with two of its near ones; in a field of
    13 (three full tables and one player with three bots) with a repeat meeting left, then
    all four, so that it is seated with the fewest repeats there can be."""
    count = len(tables)
    order = sorted(range(count), key=lambda t: (sum(tables[t]) / len(tables[t]), t))
    near = {
        t: order[max(0, x - NEAR_TABLES) : x] + order[x + 1 : x + NEAR_TABLES + 1]
        for x, t in enumerate(order)
    }
    pairs: set[tuple[int, ...]] = set()
    triples: set[tuple[int, ...]] = set()
    for t in range(count):
        repeats = field.bad(tables[t])
        others = range(count) if repeats or count <= ALL_PAIRS else near[t]
        pairs.update(_together(t, u) for u in others if u != t)
        if repeats or count <= ALL_TRIPLES:
            triples.update(_together(t, u, v) for u, v in itertools.combinations(near[t], 2))
    # who sits alone with three bots changes every other table: all four at once (75,075
    # splits of 13 players; with two or three players at the bot table it is too many)
    stuck = field.bots == 3 and count == 4 and any(field.bad(t) for t in tables)
    every = [tuple(range(count))] if stuck else []
    return sorted(pairs) + sorted(triples) + every


def _together(*tables: int) -> tuple[int, ...]:
    return tuple(sorted(tables))


def _add(a: Cost, b: Cost) -> Cost:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _better(a: Cost, b: Cost) -> bool:
    return a[:2] < b[:2] or (a[:2] == b[:2] and a[2] < b[2] - EPSILON)


def _resplit(field: Field, tables: list[list[int]], chosen: tuple[int, ...], bots: int) -> bool:
    """Give the ``chosen`` tables the best split of their players; whether it changed.

    The bot table (fixed size) is filled first; the others, all of four and alike, each
    take the best-placed player left, so each split is seen once. A partial split that
    already costs no less than the best is not completed."""
    order = sorted(chosen, key=lambda t: t != bots)
    sizes = [len(tables[t]) for t in order]
    players = sorted(p for t in chosen for p in tables[t])
    current: Cost = (0, 0, 0.0)
    for t in order:
        current = _add(current, field.cost(tables[t], t == bots))
    best: list[Cost] = [current]
    found: list[list[tuple[int, ...]]] = []

    def fill(k: int, left: list[int], cost: Cost, groups: list[tuple[int, ...]]) -> None:
        if not _better(cost, best[0]):
            return
        if k == len(order):
            best[0] = cost
            found[:] = [list(groups)]
            return
        head = order[k] == bots
        pool = left if head else left[1:]
        need = sizes[k] if head else sizes[k] - 1
        for rest in itertools.combinations(pool, need):
            members = rest if head else (left[0], *rest)
            remaining = [p for p in left if p not in members]
            more = field.cost(members, order[k] == bots)
            fill(k + 1, remaining, _add(cost, more), [*groups, members])

    fill(0, players, (0, 0, 0.0), [])
    if not found:
        return False
    for t, members in zip(order, found[0], strict=True):
        tables[t] = list(members)
    return True
