"""What runs inside a bot worker process: its loop, and the decisions it is asked for."""

from __future__ import annotations

import os
import pickle
import signal
import traceback
from collections.abc import Callable
from dataclasses import fields
from multiprocessing.connection import Connection
from typing import Any

from remikit.actions import Action, Play
from remikit.bots import make_bot
from remikit.cards import Card
from remikit.variants import playable
from remikit.variants.spec import Part
from remikit.views import DealSummary, PlayerView, PlayLog

BOT_PARTS: tuple[Part, ...] = ("greedy", "tactics")
"""The parts of a variant (:meth:`~remikit.variants.spec.VariantSpec.part`) its bots use."""


def decide(level: str, seed: int, view: PlayerView, timed: bool = True) -> Action:
    """The action a new bot of ``level`` seeded with ``seed`` takes in ``view``.

    A new bot each time (making one is cheap; what warms up is the solver's memo, which
    the whole process shares), so that the answer depends on the arguments alone (and,
    ``timed``, on how far a search gets in its budget of seconds): any worker gives it.
    """
    return make_bot(level, seed=seed, timed=timed).choose(view)


_PLAYS: dict[str, Play] = {}
"""The plays read in this worker, by record line: a table's log comes back with every
job, a few plays longer each time, so each line is read once."""
PLAYS_KEPT = 1 << 14


def log_of_lines(lines: list[str]) -> PlayLog:
    """A view's log read back from its record lines (how a job carries it: the lines are
    made once per play, so the server pickles a list of texts)."""
    if len(_PLAYS) >= PLAYS_KEPT:
        _PLAYS.clear()
    plays = [_PLAYS.get(line) or _PLAYS.setdefault(line, Play.parse(line)) for line in lines]
    return PlayLog(plays, len(plays))


CARD_FIELDS = ("hand", "discard_pile", "taken_from_discard")
"""A view's fields of cards, which a job carries as bytes (a card's index, a seat)."""
OTHER_FIELDS = tuple(f.name for f in fields(PlayerView) if f.name not in CARD_FIELDS)


def view_of_parts(others: tuple[Any, ...], hand: bytes, pile: bytes, taken: bytes) -> PlayerView:
    """A view read back from how a job carries it: its other fields' values in
    :data:`OTHER_FIELDS` order, its hand and pile as card indexes, and the cards taken from
    the pile as (seat, card index) pairs."""
    return PlayerView(
        **dict(zip(OTHER_FIELDS, others, strict=True)),
        hand=tuple(map(Card, hand)),
        discard_pile=tuple(map(Card, pile)),
        taken_from_discard=tuple(zip(taken[::2], map(Card, taken[1::2]), strict=True)),
    )


_SUMMARIES: dict[bytes, DealSummary] = {}
"""The finished deals read in this worker, by their pickle: every later job of a table
carries them again."""
SUMMARIES_KEPT = 1 << 10


def summary_of_bytes(data: bytes) -> DealSummary:
    """A finished deal read back from its pickle (once per worker)."""
    summary = _SUMMARIES.get(data)
    if summary is None:
        if len(_SUMMARIES) >= SUMMARIES_KEPT:
            _SUMMARIES.clear()
        summary = _SUMMARIES[data] = pickle.loads(data)
    return summary


def preloads() -> list[str]:
    """The modules to import once for every worker: this one (the bots, the variants)
    and each variant's bot parts."""
    targets = (s.parts[p] for s in playable() for p in BOT_PARTS if s.has(p))
    return [__name__, *sorted({target.partition(":")[0] for target in targets})]


def serve(
    conn: Connection,
    niceness: int,
    initializer: Callable[..., object] | None,
    initargs: tuple[Any, ...],
) -> None:
    """A worker's life: get ready, then answer each job sent until the server goes.

    It sends ``("ready", 0, None)`` (or ``("failed", 0, exception)``), then for each
    ``(number, pickled (fn, args))`` it receives ``("result", number, fn(*args))`` or
    ``("error", number, exception)``.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the server's to handle
    try:
        os.nice(niceness)
        for spec in playable():  # imported now, so that a first decision is not slow
            for part in BOT_PARTS:
                if spec.has(part):
                    spec.part(part)
        if initializer is not None:
            initializer(*initargs)
    except Exception as exc:
        conn.send_bytes(_portable(("failed", 0, exc)))
        return
    conn.send(("ready", 0, None))
    while True:
        try:
            number, payload = conn.recv()
        except (EOFError, OSError):  # the server is gone (ended, or killed)
            return
        try:
            fn, args = pickle.loads(payload)
            reply: tuple[str, int, object] = ("result", number, fn(*args))
        except Exception as exc:
            exc.add_note(f"in bot worker {os.getpid()}:\n{traceback.format_exc()}")
            reply = ("error", number, exc)
        try:
            conn.send_bytes(_portable(reply))
        except OSError:  # the server is gone
            return


def _portable(reply: tuple[str, int, object]) -> bytes:
    """``reply`` pickled, once checked that the server can read it back; else an error."""
    try:
        data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        pickle.loads(data)
    except Exception as exc:
        kind, number, value = reply
        error = RuntimeError(f"the bot job's {kind} cannot be sent: {value!r} ({exc!r})")
        data = pickle.dumps(("error", number, error))
    return data
