"""What a client is told when a request or a message is refused.

A :class:`Problem` has a stable ``code`` (docs/protocol.md lists them), an
HTTP status for the JSON API, and a message in the client's language: either
a message of :mod:`remikit.i18n` or the engine's reason for an illegal action. Seats in
the messages count from 1, as the people at the table count them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from remikit.errors import IllegalAction, localized
from remikit.i18n import pick_lang as pick_lang
from remikit.i18n import t


class Problem(Exception):
    """A refused request; nothing changed."""

    def __init__(
        self,
        code: str,
        key: str | None = None,
        *,
        status: int = 400,
        illegal: IllegalAction | None = None,
        detail: str | None = None,
        headers: Mapping[str, str] | None = None,
        extra: Mapping[str, object] | None = None,
        **params: object,
    ) -> None:
        super().__init__(code)
        self.code = code
        self.key = key
        self.status = status
        self.illegal = illegal
        self.detail = detail
        self.headers = dict(headers or {})  # of the HTTP answer (Retry-After)
        self.extra = dict(extra or {})  # fields of the JSON error beside code and message
        self.params = params

    @classmethod
    def from_illegal(cls, exc: IllegalAction) -> Problem:
        return cls("illegal", illegal=exc, status=409)

    def text(self, lang: str) -> str:
        if self.illegal is not None:
            return self.illegal.text(lang)
        if self.key is not None:
            return t(
                self.key,
                lang,
                **{k: localized(v, lang) for k, v in self.params.items()},
            )
        return self.detail or self.code

    def json(self, lang: str) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.text(lang)}
        if self.illegal is not None:
            out["reason"] = self.illegal.key
        return out | self.extra

    def __str__(self) -> str:
        return self.text("en")
