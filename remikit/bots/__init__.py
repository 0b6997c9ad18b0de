"""Bots: players that see only their own seat's view (DESIGN.md decision 5).

>>> bot = make_bot("greedy@0.1", seed=1)
>>> bot.name, bot.budget
('greedy@0.1', 0.1)
>>> make_bot("clever", seed=1)
Traceback (most recent call last):
...
remikit.bots.BotError: unknown bot level 'clever'; levels: expert, greedy, random, strong
"""

from __future__ import annotations

from collections.abc import Callable

from remikit.bots.base import Bot, check_view
from remikit.bots.greedy import GreedyBot
from remikit.bots.random_bot import RandomBot
from remikit.bots.runner import play_game
from remikit.bots.strong import StrongBot, make_expert, make_strong
from remikit.errors import Refusal
from remikit.i18n import N_, t

BotFactory = Callable[[str, int | None, float | None], Bot]


def _random(name: str, seed: int | None, budget: float | None) -> Bot:
    return RandomBot(seed=seed, name=name)


def _greedy(name: str, seed: int | None, budget: float | None) -> Bot:
    return GreedyBot(seed=seed, budget=budget, name=name)


LEVELS: dict[str, BotFactory] = {
    "random": _random,
    "greedy": _greedy,
    "strong": make_strong,
    "expert": make_expert,
}
"""Bot levels by name, from random (any legal move) to expert (the longest search), the
order the lobby offers them in; a new level registers its factory here."""

LEVEL_NAMES = {
    "random": N_("level.random"),
    "greedy": N_("level.greedy"),
    "strong": N_("level.strong"),
    "expert": N_("level.expert"),
}
"""The message id of each level's name, as a table shows it (``acak`` for ``random``)."""


def level_title(name: str, lang: str) -> str:
    """A bot's name as a person reads it: its level in ``lang``, with any budget.

    >>> level_title("greedy", "id"), level_title("strong@0.5", "en"), level_title("odd", "id")
    ('serakah', 'strong@0.5', 'odd')
    """
    level, at, budget = name.partition("@")
    key = LEVEL_NAMES.get(level)
    return (t(key, lang) if key is not None else level) + at + budget


class BotError(Refusal, ValueError):
    """A bot name that names no bot, or a bot that does not play the variant; ``str()`` is
    English, :meth:`text` any language."""


def parse_bot_name(name: str) -> tuple[str, float | None]:
    """Split ``level@budget`` into the level and the thinking budget in seconds."""
    text = name.strip().lower()
    level, at, budget_text = text.partition("@")
    if level not in LEVELS:
        raise BotError("bot.unknown_level", level=repr(level), levels=", ".join(sorted(LEVELS)))
    return level, parse_budget(level, budget_text) if at else None


def parse_budget(level: str, text: str) -> float:
    """The thinking budget after ``level@``: a positive, finite number of seconds."""
    try:
        budget = float(text)
    except ValueError:
        raise BotError("bot.budget_seconds", level=level, text=repr(text)) from None
    if not budget > 0 or budget == float("inf"):
        raise BotError("bot.budget_positive", text=repr(text))
    return budget


def levels_for(variant: str) -> list[str]:
    """The levels that play ``variant``, in :data:`LEVELS`' order."""
    return [n for n, factory in LEVELS.items() if factory(n, 0, None).plays(variant)]


def check_bot(name: str, variant: str) -> None:
    """Raise ValueError unless ``name`` is a bot level that plays ``variant``."""
    if not make_bot(name, seed=0).plays(variant):
        level, _ = parse_bot_name(name)
        players = ", ".join(sorted(levels_for(variant)))
        raise BotError("bot.not_for_variant", level=level, variant=variant, bots=players)


def make_bot(name: str, *, seed: int | None, timed: bool = False) -> Bot:
    """The bot called ``name`` (``random``, ``greedy``, ``greedy@0.1``), seeded with ``seed``.

    ``timed``: a searching bot also stops thinking when its budget of wall-clock time
    is spent (a table with people waiting); without it a seeded bot's decisions are
    the same on any machine and under any load (the arena).
    """
    level, budget = parse_bot_name(name)
    bot = LEVELS[level](name.strip().lower(), seed, budget)
    if timed and isinstance(bot, StrongBot):
        bot.timed = True
    return bot


__all__ = [
    "LEVELS",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "StrongBot",
    "check_bot",
    "check_view",
    "levels_for",
    "make_bot",
    "parse_bot_name",
    "parse_budget",
    "play_game",
]
