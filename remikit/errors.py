"""Why an action is illegal, in words a player can read, in any language of the catalogue.

A reason's key (``not_your_turn``; docs/protocol.md lists them) is its message id in
:mod:`remikit.i18n`, so the raise sites name every reason extraction must find. Seats in
the texts count from 1, as a person counts them.

>>> str(IllegalAction("not_your_turn", seat=2))
'it is not your turn (seat 2 is to play)'
>>> IllegalAction("not_your_turn", seat=2).text("id")
'bukan giliran Anda (giliran kursi 2)'
>>> str(Reason("reason.or_close")), Reason().text("id")
(' or close', '')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from remikit.cards import Card
from remikit.i18n import t


@runtime_checkable
class Translated(Protocol):
    """Anything that says itself in a language: a reason, a refusal, an option error."""

    def text(self, lang: str) -> str: ...


def localized(value: object, lang: str) -> object:
    """A message's field as a person reads it: translated, and a card with its suit symbol
    (records and the JSON APIs keep the text form ``Qh``; a refusal shows ``Q♥``)."""
    if isinstance(value, Translated):
        return value.text(lang)
    if isinstance(value, Card):
        return value.symbol()
    return value


class Refusal(Exception):
    """An error whose words are a message of :mod:`remikit.i18n`: ``key`` and ``params``
    name it; ``str()`` is the English text, :meth:`text` any language."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return self.text("en")

    def text(self, lang: str) -> str:
        return t(self.key, lang, **{k: localized(v, lang) for k, v in self.params.items()})


class IllegalAction(Refusal, ValueError):
    """An action the rules do not allow now; the state is unchanged.

    ``key`` names the reason (a message id of :mod:`remikit.i18n`); ``params`` fill it in.
    ``str()`` gives the English text, :meth:`text` any language.
    """


class Reason:
    """A piece of a reason that is itself translated (``why`` of a refused close): a
    message id of :mod:`remikit.i18n` and its fields, put in a language when read. A
    field that is itself a :class:`Reason` is put in the same language; no key is no text.

    With ``explain``, the message is worked out only when someone reads it
    (legal-move checks never do).
    """

    def __init__(
        self, key: str = "", /, *, explain: Callable[[], Reason] | None = None, **params: object
    ) -> None:
        self.key = key
        self.params = params
        self._explain = explain

    def _resolve(self) -> Reason:
        if self._explain is not None:
            found = self._explain()._resolve()
            self.key, self.params, self._explain = found.key, found.params, None
        return self

    @property
    def en(self) -> str:
        return self.text("en")

    def text(self, lang: str) -> str:
        found = self._resolve()
        if not found.key:
            return ""
        return t(found.key, lang, **{k: localized(v, lang) for k, v in found.params.items()})

    def __str__(self) -> str:
        return self.en
