"""Ratings (docs/ratings.md): openskill's Plackett–Luce model per variant, one update per
finished game with at least two profiles, and the bot levels on the same scale, fixed at
what their variant's ladder measured.

A rating is shown as openskill's ordinal, ``mu - 3 sigma`` (the ladder's ``ordinal``):
what the player is, with high confidence, at least. A profile with fewer rated games than
the server's ``provisional_games`` is provisional: listed, not ranked.

>>> round(shown(Rating(25.0, 25 / 3, 0)), 6)
0.0
>>> places([10, 30, 30, 5], lower_is_better=False, quit=[False, False, False, False])
[3, 1, 1, 4]
>>> places([10, 30, 30, 5], lower_is_better=False, quit=[False, True, False, False])
[2, 4, 1, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from remikit.server.tables.build import level_strength
from remikit.storage.profiles import Rating
from remikit.variants import VariantSpec

MODEL = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (a person's skill drifts)."""
ORDINAL_SIGMAS = 3.0
NEW = Rating(MODEL.mu, MODEL.sigma, 0)


def shown(rating: Rating) -> float:
    """The rating shown and ranked: ``mu - 3 sigma``."""
    return rating.mu - ORDINAL_SIGMAS * rating.sigma


def places(points: Sequence[int], *, lower_is_better: bool, quit: Sequence[bool]) -> list[int]:
    """Each seat's place for the ratings (1 the best, ties share the better place): by
    points, except that a seat whose game the stand-in played (``quit``) comes after every
    other, tied with the others that quit (the quit penalty)."""
    sign = 1 if lower_is_better else -1
    stayed = [p for p, q in zip(points, quit, strict=True) if not q]
    out = []
    for p, q in zip(points, quit, strict=True):
        if q:
            out.append(len(stayed) + 1)
        else:
            out.append(1 + sum(1 for o in stayed if sign * o < sign * p))
    return out


@dataclass(frozen=True)
class Entrant:
    """A seat in a rated game: its rating (a bot's or an anonymous person's is fixed) and
    its place."""

    rating: Rating
    place: int
    fixed: bool


def rate(entrants: Sequence[Entrant]) -> list[Rating]:
    """The ratings after one game (fixed ones unchanged; each other's game count + 1)."""
    teams = [[MODEL.rating(mu=e.rating.mu, sigma=e.rating.sigma)] for e in entrants]
    after = MODEL.rate(teams, ranks=[float(e.place) for e in entrants])
    return [
        e.rating if e.fixed else Rating(team[0].mu, team[0].sigma, e.rating.games + 1)
        for e, team in zip(entrants, after, strict=True)
    ]


def bot_ratings(info: VariantSpec) -> dict[str, Rating]:
    """The rating of each bot level a table offers for the variant, as its ladder measured
    it (``games``: the deals measured); levels without a measurement are left out."""
    ladder = info.ladder_json() or {}
    by_name = {str(e["level"]): e for e in ladder.get("levels", [])}
    out = {}
    for level, measured in level_strength(info).items():
        entry = by_name[measured["measured"]]
        out[level] = Rating(float(entry["mu"]), float(entry["sigma"]), int(entry["deals"]))
    return out


def compared(rating: Rating, bots: dict[str, Rating]) -> dict[str, str | None]:
    """The bot level just below the rating (``above``: the player is rated above it) and
    the one just above it (``below``)."""
    value = shown(rating)
    lower = [(shown(r), level) for level, r in bots.items() if shown(r) < value]
    higher = [(shown(r), level) for level, r in bots.items() if shown(r) >= value]
    return {
        "above": max(lower)[1] if lower else None,
        "below": min(higher)[1] if higher else None,
    }


def rating_json(rating: Rating, provisional_games: int) -> dict[str, Any]:
    return {
        "rating": round(shown(rating), 2),
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "games": rating.games,
        "provisional": rating.games < provisional_games,
    }


def leaderboard_json(
    people: Sequence[tuple[str, str, Rating]], bots: dict[str, Rating], provisional_games: int
) -> list[dict[str, Any]]:
    """The entries, best first, people and bot levels together: ``rank`` counts the
    entries that are not provisional (a provisional one has none)."""
    entries = [
        {"id": pid, "name": name, "bot": False, **rating_json(r, provisional_games)}
        for pid, name, r in people
    ]
    entries += [
        {"id": None, "name": level, "bot": True, **rating_json(r, 0)} for level, r in bots.items()
    ]
    entries.sort(key=lambda e: (-e["rating"], e["name"]))
    rank = 0
    for entry in entries:
        if not entry["provisional"]:
            rank += 1
        entry["rank"] = None if entry["provisional"] else rank
    return entries
