"""Jobs for the bot workers' tests (tests/test_bot_workers.py): module-level, so that a
worker process can unpickle them. Each worker numbers the jobs it runs, in order."""

from __future__ import annotations

import itertools
import os
from multiprocessing.connection import Connection
from pathlib import Path

from remikit.variants import VARIANTS, register
from tests.toy import SPEC as TOY

_ORDER = itertools.count()
_GATE: Connection | None = None
_STARTED: Connection | None = None


def prepare(gate: Connection, started: Connection) -> None:
    """A worker's initializer: the toy variant, the test's gate (open once anything was
    sent on it) and where held jobs report their start. Pipes, not locks: a worker may be
    killed at any moment."""
    global _GATE, _STARTED
    if TOY.name not in VARIANTS:
        register(TOY)
    _GATE, _STARTED = gate, started


def fail_to_start() -> None:
    """An initializer that fails."""
    raise ValueError("this worker cannot start")


def tagged(tag: str) -> tuple[str, int, int]:
    """``tag``, this job's number in its worker's order, and the worker's pid."""
    return tag, next(_ORDER), os.getpid()


def held(tag: str) -> tuple[str, int, int]:
    """:func:`tagged`, once the test opens the gate; reports the worker's pid first."""
    assert _GATE is not None and _STARTED is not None
    _STARTED.send(os.getpid())
    if not _GATE.poll(300):
        raise TimeoutError("the test never opened the gate")
    return tagged(tag)


def exit_once(marker: str) -> str:
    """Ends its worker the first time (leaving ``marker``), answers the second."""
    path = Path(marker)
    if path.exists():
        return "tried again"
    path.touch()
    os._exit(3)


def exit_always() -> str:
    """Ends its worker every time."""
    os._exit(3)
