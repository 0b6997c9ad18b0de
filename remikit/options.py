"""Table options: the fields a variant's ``Options`` declares with :func:`option`, how
their values are read exactly (CONTRACT.md "Table options") and checked, and what
clients are told of them (:meth:`Options.describe`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from typing import Any, Self

from remikit.i18n import N_, brief, t


class OptionError(ValueError):
    """A table option with an unknown name or a value it cannot take. ``str()`` is
    English; :meth:`text` gives either language where the refusal has both
    (:class:`OptionRefused`)."""

    def text(self, lang: str) -> str:
        return str(self)


class OptionRefused(OptionError):
    """An option refused with a message of :mod:`remikit.i18n` (``option.*``): ``key`` and
    ``params`` name it; ``str()`` is the English text, :meth:`text` either language."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return self.text("en")

    def text(self, lang: str) -> str:
        return t(self.key, lang, **self.params)


class OptionText(str):
    """An option value as typed after ``--option KEY=``: text that
    :meth:`Options.from_mapping` parses, where any other value must already have the
    option's type (a JSON value of a record or the web app)."""

    __slots__ = ()


def option(
    default: Any,
    *,
    label: str,
    choices: Sequence[Any] | Mapping[Any, str] | None = None,
    low: int | None = None,
    high: int | None = None,
) -> Any:
    """A table option field: its default, the message id of its label (marked with
    :func:`~remikit.i18n.N_`) and the values it may take (``choices``, or whole numbers
    from ``low`` to ``high``); ``choices`` may map each value to the message id of its
    label. :meth:`Options.check` enforces them and :meth:`Options.describe` tells clients."""
    labels = tuple(choices.values()) if isinstance(choices, Mapping) else None
    meta = {
        "label": label,
        "choices": tuple(choices) if choices is not None else None,
        "choice_labels": labels,
        "low": low,
        "high": high,
    }
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class OptionInfo:
    """What a client needs to offer one option: its kind, default and allowed values, and
    the message ids of its label and of its choices' labels (None: the value shows)."""

    name: str
    kind: str  # "boolean", "integer" or "string"
    default: Any
    choices: tuple[Any, ...] | None = None
    low: int | None = None
    high: int | None = None
    label: str | None = None
    choice_labels: tuple[str, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class Options:
    """Table options (CONTRACT.md names); variants subclass with their fields, declared
    with :func:`option` (and their own default number of ``players``)."""

    players: int = option(4, label=N_("opt.players"), low=2, high=8)
    discard_taken_card: bool = option(False, label=N_("opt.discard_taken_card"))

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> Self:
        """Options from names and values, exact as CONTRACT.md "Table options" asks: a
        value of the option's own type (``true``, not ``1``; ``3``, not ``3.0`` or
        ``true``), or :class:`OptionText` in the same spelling (``true``, ``-3``). Nothing
        is rounded or coerced; a refusal is an :class:`OptionError` naming the option.

        >>> class Table(Options):
        ...     pass
        >>> Table.from_mapping({"players": 3, "discard_taken_card": OptionText("true")})
        Table(players=3, discard_taken_card=True)
        >>> Table.from_mapping({"players": 3.7})
        Traceback (most recent call last):
        ...
        remikit.options.OptionRefused: option players takes a whole number, not 3.7
        """
        infos = {info.name: info for info in cls.describe()}
        parsed: dict[str, Any] = {}
        for name, raw in values.items():
            info = infos.get(name)
            if info is None:
                raise OptionRefused("option.unknown", name=name, names=", ".join(sorted(infos)))
            parsed[name] = _parse(info, raw) if isinstance(raw, OptionText) else _exact(info, raw)
        options = cls(**parsed)
        options.check()
        return options

    @classmethod
    def describe(cls) -> tuple[OptionInfo, ...]:
        """Every option with its kind, default, allowed values and labels, in declaration
        order."""
        defaults = cls()
        out = []
        for f in fields(cls):
            value = getattr(defaults, f.name)
            kind = (
                "boolean"
                if isinstance(value, bool)
                else ("integer" if isinstance(value, int) else "string")
            )
            out.append(
                OptionInfo(
                    f.name,
                    kind,
                    value,
                    f.metadata.get("choices"),
                    f.metadata.get("low"),
                    f.metadata.get("high"),
                    f.metadata.get("label"),
                    f.metadata.get("choice_labels"),
                )
            )
        return tuple(out)

    def check(self) -> None:
        """Raise :class:`OptionError` if a value is not one its field allows; variants
        extend it with checks across options."""
        for info in self.describe():
            value = getattr(self, info.name)
            if info.choices is not None:
                check_choice(info.name, value, info.choices)
            if info.low is not None or info.high is not None:
                low = info.low if info.low is not None else value
                high = info.high if info.high is not None else value
                check_range(info.name, value, low, high)

    @cached_property
    def _as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def as_dict(self) -> dict[str, Any]:
        """The options by name (a fresh copy)."""
        return dict(self._as_dict)


_TYPES: dict[str, type] = {"boolean": bool, "integer": int, "string": str}
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
_MAX_DIGITS = 18
"""Longer whole numbers are beyond every option's range and refused without reading them."""


_KIND_REFUSALS = {
    "boolean": N_("option.boolean"),
    "integer": N_("option.integer"),
    "string": N_("option.string"),
}


def _exact(info: OptionInfo, value: object) -> object:
    """A value that already has the option's type (a bool is no whole number)."""
    wanted = _TYPES[info.kind]
    if isinstance(value, wanted) and not (wanted is int and isinstance(value, bool)):
        return value
    raise OptionRefused(_KIND_REFUSALS[info.kind], name=info.name, value=brief(value))


def _parse(info: OptionInfo, text: str) -> object:
    """The value ``text`` spells: ``true`` or ``false``, decimal digits with an optional
    sign, or the text itself."""
    if info.kind == "string":
        return str(text)
    if info.kind == "boolean" and text in ("true", "false"):
        return text == "true"
    if info.kind == "integer" and _WHOLE_NUMBER.fullmatch(text):
        if len(text.lstrip("+-").lstrip("0")) > _MAX_DIGITS:  # out of range: not read
            raise _beyond(info, text[:_MAX_DIGITS] + "…")
        return int(text)
    raise OptionRefused(_KIND_REFUSALS[info.kind], name=info.name, value=brief(text))


def _beyond(info: OptionInfo, shown: str) -> OptionRefused:
    """The refusal of a whole number beyond every value of ``info`` (its choices or range)."""
    if info.choices is not None:
        allowed = ", ".join(map(str, info.choices))
        return OptionRefused("option.choice", name=info.name, allowed=allowed, value=shown)
    return OptionRefused("option.range", name=info.name, low=info.low, high=info.high, value=shown)


def check_range(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise OptionRefused("option.range", name=name, low=low, high=high, value=brief(value))


def check_choice(name: str, value: object, choices: Sequence[object]) -> None:
    if value not in choices:
        allowed = ", ".join(map(str, choices))
        raise OptionRefused("option.choice", name=name, allowed=allowed, value=brief(value))
