"""How one web table runs, chosen when it is created and shown to everyone at it: the
turn time, how long a person who left keeps their seat before a bot plays it, which
bot that is, how fast the bots move and whether the table gives hints.

>>> TableSettings.from_mapping({"turn_time": None, "bot_speed": "fast"}).as_dict()["turn_time"]
>>> TableSettings.from_mapping({"turn_time": 5})  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
remikit.server.tables.table_settings.SettingRefused: turn_time: 5
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from remikit.i18n import N_

TURN_TIME = (10, 600)  # seconds, or None: no timer
GRACE = (0, 600)  # seconds
BOT_SPEEDS: dict[str, float] = {"slow": 2.0, "normal": 1.0, "fast": 0.25}
"""Each speed's factor on the server's bot pause (``remi serve --bot-delay``)."""

BotSpeed = Literal["slow", "normal", "fast"]


class SettingRefused(ValueError):
    """A table setting out of its range or of the wrong type: ``key`` names it."""

    def __init__(self, name: str, value: object, key: str = N_("server.bad_setting")) -> None:
        super().__init__(f"{name}: {value!r}")
        self.name = name
        self.value = value
        self.key = key


@dataclass(frozen=True)
class TableSettings:
    turn_time: int | None = 60
    """Seconds a person has for each turn (a call window's answer too); None: no timer."""
    grace: int = 60
    """Seconds a person who left keeps their seat before the stand-in bot plays it."""
    stand_in: str = "greedy"
    """The bot level that plays a seat whose person ran out of time or left."""
    bot_speed: BotSpeed = "normal"
    hints: bool = True
    """"You can close", the meld counter and discard warnings (off for competitions)."""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> TableSettings:
        """Settings from JSON values: unknown names, wrong types and values out of
        range raise :class:`SettingRefused`; missing ones take their defaults."""
        known = {f.name for f in fields(cls)}
        for name in data:
            if name not in known:
                raise SettingRefused(name, data[name], N_("server.unknown_setting"))
        return cls(**{name: _checked(name, value) for name, value in data.items()})

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def bot_delay(self, server_delay: float) -> float:
        """Seconds a bot's move takes at least at this table."""
        return server_delay * BOT_SPEEDS[self.bot_speed]


def _checked(name: str, value: Any) -> Any:
    whole = isinstance(value, int) and not isinstance(value, bool)
    if name == "turn_time":
        if value is None or (whole and TURN_TIME[0] <= value <= TURN_TIME[1]):
            return value
    elif name == "grace":
        if whole and GRACE[0] <= value <= GRACE[1]:
            return value
    elif name == "stand_in":
        if isinstance(value, str) and 0 < len(value) <= 40:
            return value.strip().lower()
    elif name == "bot_speed":
        if value in BOT_SPEEDS:
            return value
    elif name == "hints" and isinstance(value, bool):
        return value
    raise SettingRefused(name, value)
