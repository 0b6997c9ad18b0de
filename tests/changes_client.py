"""The test client's sockets read state changes as the browser does: each ``change`` is
applied to the socket's last state (:func:`remikit.server.transport.changes.apply_change`)
and handed to the test as the whole ``state`` it stands for, so that every server test
checks the changes against the engine too. ``raw`` keeps a socket's messages as sent."""

from __future__ import annotations

from typing import Any, Literal
from weakref import WeakKeyDictionary

from starlette.testclient import WebSocketTestSession

from remikit.server.transport.changes import apply_change

_receive_json = WebSocketTestSession.receive_json


class Kept:
    """The state one socket holds, as the browser keeps it."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None

    def read(self, message: Any) -> Any:
        """``message`` as the test reads it: a change becomes the whole state it makes."""
        if not isinstance(message, dict):
            return message
        if message.get("type") == "welcome":
            self.state = None
        elif message.get("type") == "state":
            self.state = message
        elif message.get("type") == "change":
            assert self.state is not None, "a change came before any state"
            message = self.state = apply_change(self.state, message)
            message["type"] = "state"
        return message


_KEPT: WeakKeyDictionary[Any, Kept] = WeakKeyDictionary()


def read(socket: Any, message: Any) -> Any:
    """``message`` received on ``socket``, a change read as the state it makes."""
    kept = _KEPT.get(socket)
    if kept is None:
        kept = _KEPT[socket] = Kept()
    return kept.read(message)


def receive_json(self: WebSocketTestSession, mode: Literal["text", "binary"] = "text") -> Any:
    message = _receive_json(self, mode)
    return message if getattr(self, "raw", False) else read(self, message)


def install() -> None:
    WebSocketTestSession.receive_json = receive_json  # type: ignore[method-assign]
