"""The test client's sockets read state changes as the browser does: each ``change`` is
applied to the socket's last state (:func:`remikit.server.transport.changes.apply_change`)
and handed to the test as the whole ``state`` it stands for, so that every server test
checks the changes against the engine too. ``raw`` keeps a socket's messages as sent."""

from __future__ import annotations

from typing import Any

from starlette.testclient import WebSocketTestSession

from remikit.server.transport.changes import apply_change

_receive_json = WebSocketTestSession.receive_json


def receive_json(self: WebSocketTestSession, mode: str = "text") -> Any:
    message = _receive_json(self, mode)
    if getattr(self, "raw", False) or not isinstance(message, dict):
        return message
    if message.get("type") == "state":
        self.last_state = message  # type: ignore[attr-defined]
    elif message.get("type") == "change":
        last = getattr(self, "last_state", None)
        assert last is not None, "a change came before any state"
        message = self.last_state = apply_change(last, message)  # type: ignore[attr-defined]
        message["type"] = "state"
    return message


def install() -> None:
    WebSocketTestSession.receive_json = receive_json  # type: ignore[method-assign]
