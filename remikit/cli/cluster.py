"""``remi arena --cluster ADDRESS``: the arena's games as Ray tasks (the ``cluster`` extra).

Each game is one task, played on a worker by :func:`play_on_worker`; the games come back
as they end and the arena sorts them into task order, so the results are those of a
local run with the same seed. Every worker needs remikit in the same version as here: a
worker with another version plays nothing and reports its game as failed. Ray is
imported only here, and only once a cluster is asked for; nothing is sent to Ray's usage
statistics (``RAY_USAGE_STATS_ENABLED=0``).

>>> split_address("ray://head.lan:10001"), split_address("[::1]:6379")
(('head.lan', 10001), ('::1', 6379))
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, redirect_stdout
from typing import TYPE_CHECKING

import remikit
from remikit.cli.games import (
    GameFailure,
    GameOutcome,
    GameTask,
    Played,
    Runner,
    attempt,
    error_text,
)
from remikit.i18n import t

if TYPE_CHECKING:
    from ray import ObjectRef

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for the head's port to answer before Ray is asked to connect."""


class ClusterError(Exception):
    """A cluster that cannot be used; the message is in the user's language."""


def play_on_worker(
    play: Callable[[GameTask], GameOutcome], task: GameTask, version: str
) -> Played | str:
    """On a worker: the game, or the worker's remikit version when it is not ``version``."""
    if remikit.__version__ != version:
        return remikit.__version__
    return attempt(play, task)


def split_address(address: str) -> tuple[str, int] | None:
    """The host and port of ``HOST:PORT`` or ``ray://HOST:PORT``; None for anything else
    (``auto``), which Ray resolves."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        return None
    return host.strip("[]"), int(port)


def probe(address: str, lang: str) -> None:
    """A :class:`ClusterError` when nothing answers at the head's port (Ray itself would
    keep trying for minutes)."""
    if address == "auto":
        address = os.environ.get("RAY_ADDRESS", "")
    found = split_address(address)
    if found is None:
        return
    try:
        socket.create_connection(found, timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        why = exc.strerror or error_text(exc)
        raise ClusterError(t("cluster.unreachable", lang, address=address, why=why)) from None


@contextmanager
def connected(address: str, lang: str, play: Callable[[GameTask], GameOutcome]) -> Iterator[Runner]:
    """A runner that plays each game by ``play`` as one task on the Ray cluster at
    ``address``; a :class:`ClusterError` when Ray is not installed or the cluster
    cannot be reached."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    try:
        import ray
    except ImportError:
        raise ClusterError(t("cluster.needs_ray", lang)) from None
    probe(address, lang)
    # what Ray prints of its own (a worker lost) goes to standard error, so that standard
    # output holds only the report
    with redirect_stdout(sys.stderr):
        try:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        except Exception as exc:
            why = error_text(exc)
            raise ClusterError(t("cluster.unreachable", lang, address=address, why=why)) from None
        try:
            play_ref = ray.put(play)
            yield lambda tasks: _games(play_ref, tasks, lang)
        finally:
            ray.shutdown()


def _games(
    play: ObjectRef[Callable[[GameTask], GameOutcome]], tasks: Sequence[GameTask], lang: str
) -> Iterator[Played]:
    """Every task submitted at once, then each game as it ends."""
    import ray

    remote = ray.remote(play_on_worker)
    version = remikit.__version__
    pending = {remote.remote(play, task, version): task for task in tasks}
    while pending:
        [ref], _ = ray.wait(list(pending))
        task = pending.pop(ref)
        try:
            got = ray.get(ref)
        except ray.exceptions.RayError as exc:
            yield GameFailure(task.index, task.seats(), _ray_error_text(exc))
            continue
        if isinstance(got, str):
            error = t("cluster.other_version", lang, worker=got, version=version)
            yield GameFailure(task.index, task.seats(), error)
        else:
            yield got


def _ray_error_text(exc: Exception) -> str:
    """What went wrong with a task: its own error where Ray wraps one (a worker that could
    not load the task), else Ray's (a worker or node lost)."""
    import ray

    if isinstance(exc, ray.exceptions.RayTaskError) and isinstance(exc.cause, BaseException):
        return error_text(exc.cause)
    return error_text(exc)
