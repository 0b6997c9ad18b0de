"""Playing many seeded games, as the arena and the ladder do (CONTRACT.md).

Game ``i`` seats bot ``j`` (in the order given) at seat ``(j + i) mod n``, so
over ``n`` games every bot has sat everywhere once. Every game's deck seed
and bot seeds are derived from the seed and the game's place alone, so the
results are the same however many worker processes, or machines of a Ray
cluster (:mod:`remikit.cli.cluster`), play them. A game whose play raises is
reported as a :class:`GameFailure` and the others go on.

>>> [round(x, 4) for x in wilson_interval(88, 200)]
[0.373, 0.5093]
>>> seat_order(4, 1)  # game 1: bot 3 at seat 0, bot 0 at seat 1, …
(3, 0, 1, 2)
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from remikit.bots import play_game
from remikit.bots.cheater import make_arena_bot
from remikit.variants import find_playable

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal


def seat_order(players: int, game_index: int) -> tuple[int, ...]:
    """For each seat, the index of the bot sitting there in game ``game_index``."""
    return tuple((seat - game_index) % players for seat in range(players))


def derive_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed from the arena's (or ladder's) seed and a path (game index, bot index)."""
    text = "|".join(str(p) for p in ("remi-arena", seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); a deal shared by a tie
    may count a fraction of a win."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


# -- playing ----------------------------------------------------------------------


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game (picklable)."""

    variant: str
    options: Mapping[str, Any]
    index: int
    seed: int
    bots: tuple[str, ...]  # bot names in the order given
    deck: int | None = None
    """The game whose decks it deals: tasks with the same seed and ``deck`` deal the same
    decks (the ladder's paired deals); None: its own ``index``."""
    rotation: int | None = None
    """How far the bots are turned round the seats; None: by ``index``."""

    def seats(self) -> tuple[int, ...]:
        return seat_order(len(self.bots), self.index if self.rotation is None else self.rotation)

    def deck_seed(self) -> int:
        """The seed of the game's own random numbers, which shuffle its decks."""
        return derive_seed(self.seed, self.index if self.deck is None else self.deck)


@dataclass(frozen=True)
class GameOutcome:
    """One finished game: by seat, the bot sitting there, its total and its deal scores;
    by deal, a fingerprint of its deck and its dealer."""

    index: int
    seats: tuple[int, ...]
    totals: tuple[int, ...]
    winner: int | None
    deals: tuple[tuple[int, ...], ...]
    decks: tuple[str, ...] = ()
    dealers: tuple[int, ...] = ()


def deck_fingerprint(deck: Sequence[object]) -> str:
    """A short hash of a deck in its order (two deals with the same one got the same cards)."""
    return hashlib.sha256(" ".join(map(str, deck)).encode()).hexdigest()[:16]


def play_task(task: GameTask) -> GameOutcome:
    """Play one game of the arena or the ladder."""
    info = find_playable(task.variant)
    options = info.game_class().options_type.from_mapping(task.options)
    game = info.game_class()(options, rng=random.Random(task.deck_seed()))
    seats = task.seats()
    bots = [
        make_arena_bot(task.bots[j], seed=derive_seed(task.seed, task.index, j), game=game)
        for j in seats
    ]
    play_game(game, bots)
    done = [(deal, deal.summary) for deal in game.deals if deal.summary is not None]
    return GameOutcome(
        task.index,
        seats,
        tuple(game.totals),
        game.winner,
        tuple(summary.points for _, summary in done),
        tuple(deck_fingerprint(deal.deck) for deal, _ in done),
        tuple(deal.dealer for deal, _ in done),
    )


@dataclass(frozen=True)
class GameFailure:
    """A game whose play raised: by seat the bot sitting there, and the error's text."""

    index: int
    seats: tuple[int, ...]
    error: str

    def as_json(self, bots: Sequence[str]) -> dict[str, Any]:
        return {"game": self.index, "seats": [bots[j] for j in self.seats], "error": self.error}


Played = GameOutcome | GameFailure
"""What playing one game gives: the finished game, or why it did not finish."""

Runner = Callable[[Sequence[GameTask]], Iterator[Played]]
"""Plays the tasks, yielding each game as it ends (in any order)."""


def error_text(exc: BaseException) -> str:
    """``Type: message``, as a failed game reports its error."""
    message = str(exc).strip()
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def attempt(play: Callable[[GameTask], GameOutcome], task: GameTask) -> Played:
    """``play(task)``, or the failure when it raises."""
    try:
        return play(task)
    except Exception as exc:
        return GameFailure(task.index, task.seats(), error_text(exc))
