"""The ladder's games: which levels sit together, and deals played in every seat rotation.

With ``k`` levels and a table of ``p`` seats, every combination of ``p`` levels (in the
order given) is a table. A table plays each of its games in the ``p`` cyclic rotations of
its levels round the seats, and game ``g`` of a table deals the same decks in every
rotation (the ``deck`` of :class:`~remikit.cli.games.GameTask`). A deal is *paired* when
every rotation played it from the same deck with the same dealer: then every level held
every seat's cards once. Only paired deals count (where the play decides who deals next,
a later deal is paired only when every rotation's play chose the same dealer).

Games are played in rounds until each table has its deals: the first round plays one
game per table, each later one as many as the deals still wanted need at the rate seen
so far (a table whose games failed twice in a row stops short). What is played, and so
the result, depends on the seed alone, not on how many processes play it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from remikit.bots.runner import play_all
from remikit.cli.games import (
    GameFailure,
    GameOutcome,
    GameTask,
    Played,
    attempt,
    derive_seed,
    play_task,
)
from remikit.engine import Options
from remikit.variants import VariantSpec


@dataclass(frozen=True)
class PairedDeal:
    """One deal of a table, played from the same deck in each seat rotation."""

    table: int
    game: int
    number: int
    """The deal's number in its game, from 1."""
    deck: str
    """The fingerprint of its deck (:func:`~remikit.cli.games.deck_fingerprint`)."""
    scores: tuple[tuple[int, ...], ...]
    """By rotation, the deal's score of each of the table's levels (in the table's order)."""


@dataclass(frozen=True)
class TableFailure:
    """A game of a table that did not finish in one rotation; that game counts no deal."""

    table: int
    game: int
    failure: GameFailure

    def as_json(self, levels: Sequence[str]) -> dict[str, Any]:
        """The failure as the ladder's JSON lists it; ``levels`` are the table's."""
        players = len(self.failure.seats)
        return {
            "table": list(levels),
            "game": self.game,
            "rotation": self.failure.index % players,
            "seats": [levels[j] for j in self.failure.seats],
            "error": self.failure.error,
        }


@dataclass(frozen=True)
class LadderPlay:
    """What the ladder's games gave: each table's paired deals (at most the deals asked
    for, in game and deal order), the failures, and how many games were played."""

    deals: list[list[PairedDeal]]
    failures: list[TableFailure]
    games: int


def level_scores(outcome: GameOutcome, number: int) -> tuple[int, ...]:
    """The scores of deal ``number`` (from 0) of a game, by the table's order of levels."""
    points = [0] * len(outcome.seats)
    for seat, level in enumerate(outcome.seats):
        points[level] = outcome.deals[number][seat]
    return tuple(points)


def paired_deals(table: int, game: int, rotations: Sequence[GameOutcome]) -> list[PairedDeal]:
    """The deals of a game that every rotation played from the same deck and dealer."""
    out = []
    for number in range(min(len(o.deals) for o in rotations)):
        if len({(o.decks[number], o.dealers[number]) for o in rotations}) != 1:
            continue
        scores = tuple(level_scores(o, number) for o in rotations)
        out.append(PairedDeal(table, game, number + 1, rotations[0].decks[number], scores))
    return out


@dataclass(frozen=True)
class Ladder:
    """A checked ladder: the variant and its options, the levels, the deals each table
    plays, the seed."""

    info: VariantSpec
    options: Options
    levels: tuple[str, ...]
    deals: int
    seed: int

    @property
    def players(self) -> int:
        return self.options.players

    def tables(self) -> list[tuple[int, ...]]:
        """Each table's levels (indices into :attr:`levels`): every combination of seats."""
        return list(itertools.combinations(range(len(self.levels)), self.players))

    def table_levels(self, table: int) -> tuple[str, ...]:
        """The names of table ``table``'s levels, in its order."""
        return tuple(self.levels[i] for i in self.tables()[table])

    def task(self, table: int, game: int, rotation: int) -> GameTask:
        """Game ``game`` of table ``table`` with its levels turned ``rotation`` seats."""
        return GameTask(
            self.info.name,
            self.options.as_dict(),
            game * self.players + rotation,
            derive_seed(self.seed, "ladder-table", table),
            self.table_levels(table),
            deck=game,
            rotation=rotation,
        )

    def play(
        self,
        *,
        jobs: int = 1,
        on_round: Callable[[int], None] | None = None,
        on_game: Callable[[Played], None] | None = None,
    ) -> LadderPlay:
        """Play rounds of games by ``jobs`` processes until every table has its deals (or
        gave up, :meth:`more_games`); ``on_round`` is told how many games a round plays,
        ``on_game`` of each game as it ends."""
        count = len(self.tables())
        found: list[list[PairedDeal]] = [[] for _ in range(count)]
        failures: list[TableFailure] = []
        started = [0] * count  # games of each table played so far
        wanted = [1] * count  # games of each table the next round plays
        idle = [0] * count  # rounds in a row in which a table gained no deal
        played = 0
        while any(wanted):
            games = [
                (table, game)
                for table in range(count)
                for game in range(started[table], started[table] + wanted[table])
            ]
            tasks = [self.task(t, g, r) for t, g in games for r in range(self.players)]
            if on_round is not None:
                on_round(len(tasks))
            results: list[Played] = []
            for result in play_all(partial(attempt, play_task), tasks, jobs):
                results.append(result)
                if on_game is not None:
                    on_game(result)
            played += len(tasks)
            for i, (table, game) in enumerate(games):
                rotations = results[i * self.players : (i + 1) * self.players]
                broken = [r for r in rotations if isinstance(r, GameFailure)]
                failures.extend(TableFailure(table, game, f) for f in broken)
                outcomes = [r for r in rotations if isinstance(r, GameOutcome)]
                if not broken:
                    found[table].extend(paired_deals(table, game, outcomes))
            for table in range(count):
                if not wanted[table]:
                    continue
                gained = any(d.game >= started[table] for d in found[table])
                idle[table] = 0 if gained else idle[table] + 1
                started[table] += wanted[table]
                wanted[table] = self.more_games(len(found[table]), started[table], idle[table])
        return LadderPlay([f[: self.deals] for f in found], failures, played)

    def more_games(self, deals: int, games: int, idle: int) -> int:
        """How many more games a table plays to reach its deals, having ``deals`` from
        ``games``: none once it has them, or after two rounds in a row (``idle``) that
        gave it none; one while it has none."""
        if deals >= self.deals or idle >= 2:
            return 0
        if deals == 0:
            return 1
        return math.ceil((self.deals - deals) * games / deals)
