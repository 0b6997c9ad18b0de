"""The loop that lets bots play a game: each bot is handed only its own seat's view.

Whoever the engine asks acts: the seat to play, or in a Rummy call window
(R5-10) the seat whose answer is awaited, nearest after the discarder first.
:func:`play_all` plays many tasks (games, reviewed decisions) on several processes.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from remikit.bots.base import Bot
from remikit.engine import Game


def play_game(game: Game, bots: Sequence[Bot]) -> Game:
    """Let ``bots`` (one per seat, in seat order) play ``game`` to its end.

    Each bot only ever receives ``game.view(seat)`` of its own seat.
    """
    if len(bots) != game.players:
        raise ValueError(f"{game.players} seats need {game.players} bots, not {len(bots)}")
    while not game.over:
        if game.needs_deal:
            game.start_deal()
        seat = game.to_play
        if seat is None:
            raise RuntimeError("no seat is to play in a running deal")
        game.apply(seat, bots[seat].choose(game.view(seat)))
    return game


T = TypeVar("T")
R = TypeVar("R")


def play_all(play: Callable[[T], R], tasks: Sequence[T], jobs: int) -> Iterator[R]:
    """``play`` of each task, in task order, by ``jobs`` processes (1: in this process)."""
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield play(task)
        return
    with multiprocessing.Pool(min(jobs, len(tasks))) as pool:
        yield from pool.imap(play, tasks, chunksize=1)
