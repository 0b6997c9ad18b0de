"""What a table tells those who follow it: the transport (what to send to whom), the bot
driver (whose turn it is), the registry (the lobby, competitions). A table calls its
listeners in order, on the event loop, with the lock held where it changed something."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from remikit.server.problems import Problem
    from remikit.server.tables.service import Table
    from remikit.server.tables.window import CallWindow


@dataclass(frozen=True)
class Changed:
    """The table's state changed: every seat's view (``seat``: only that seat's)."""

    seat: int | None = None


@dataclass(frozen=True)
class Presence:
    """Who is connected, away or thinking changed, or how many watch."""


@dataclass(frozen=True)
class Notice:
    """Something to tell everyone at the table: ``key`` is a message id with ``params``."""

    key: str
    seat: int
    params: dict[str, Any]


@dataclass(frozen=True)
class CallLost:
    """``seat`` called ``action`` in a call window that another seat's call won."""

    seat: int
    action: str
    winner: int


@dataclass(frozen=True)
class Reseated:
    """The seat draw moved everyone: ``moved[old seat]`` is the new one."""

    moved: dict[int, int]


@dataclass(frozen=True)
class SeatMoved:
    """A person's seat went to another device: the old one's sockets are let go."""

    seat: int


@dataclass(frozen=True)
class Ended:
    """The table stopped for good in this process (``problem`` says why): broken, or closed
    after waiting too long."""

    problem: Problem


@dataclass(frozen=True)
class WindowOpened:
    """A call window opened: the bots it asks answer."""

    window: CallWindow


@dataclass(frozen=True)
class DealEnded:
    """A deal ended and the game goes on."""


@dataclass(frozen=True)
class Finished:
    """The game is over."""


@dataclass(frozen=True)
class SeatsChanged:
    """A seat was freed or taken during play."""


@dataclass(frozen=True)
class Idle:
    """Nobody is at or watching the table any more."""


Event = (
    Changed
    | Presence
    | Notice
    | CallLost
    | Reseated
    | SeatMoved
    | Ended
    | WindowOpened
    | DealEnded
    | Finished
    | SeatsChanged
    | Idle
)
Listener = Callable[["Table", Event], None]
