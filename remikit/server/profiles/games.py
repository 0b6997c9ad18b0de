"""A finished table as the profiles take it: each seat's points, place, win, the turns
its stand-in played and what it did deal by deal, and the write that stores the profiles'
games and updates their ratings, once per table.

A seat whose stand-in played more than the server's share of its turns is marked
``stand_in``: the game is not the person's win and counts as their loss for the ratings
(the quit penalty). A table is rated when at least two profiles sat at it; bots and people
without a profile take part with fixed ratings (a bot level's from its ladder).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from remikit.server.profiles.ratings import NEW, Entrant, places, rate
from remikit.server.tables.seats import seat_actions
from remikit.server.tables.service import Table
from remikit.storage.models import TableRow
from remikit.storage.profiles import (
    ProfileGameRow,
    ProfileRow,
    ProfileTableRow,
    Rating,
    forget_seats,
    ratings_of,
    set_rating,
)
from remikit.storage.store import now


@dataclass(frozen=True)
class SeatLine:
    """One seat of a finished game."""

    seat: int
    profile: str | None
    level: str | None
    """A bot seat's level (None: a person's seat)."""
    points: int
    won: bool
    turns: int
    stand_in_turns: int
    stand_in: bool
    counts: dict[str, int]
    """``ended.<ending>``: the deals the seat ended so; ``mark.<name>``: the variant's own."""


@dataclass(frozen=True)
class FinishedGame:
    table_id: str
    variant: str
    finished_at: datetime
    deals: int
    lower_is_better: bool
    seats: tuple[SeatLine, ...]

    @property
    def profiles(self) -> list[str]:
        return [s.profile for s in self.seats if s.profile is not None]

    def places(self, *, quits: bool) -> list[int]:
        """Each seat's place by points; with ``quits``, the quit penalty's places."""
        quit = [s.stand_in and quits for s in self.seats]
        points = [s.points for s in self.seats]
        return places(points, lower_is_better=self.lower_is_better, quit=quit)


def finished_game(table: Table, share: float) -> FinishedGame | None:
    """What the profiles take of a table whose game is over (None: not over, or ended
    abandoned)."""
    game = table.game
    if not game.over or table.abandoned:
        return None
    summaries = [d.summary for d in game.deals if d.summary is not None]
    marks: Callable[..., tuple[str, ...]] | None = (
        table.variant.part("stats") if table.variant.has("stats") else None
    )
    lines = []
    for seat, config in enumerate(table.seats):
        counts: Counter[str] = Counter()
        for summary in summaries:
            if summary.by_seat == seat:
                counts[f"ended.{summary.ended_by.value}"] += 1
            for mark in marks(summary, seat) if marks is not None else ():
                counts[f"mark.{mark}"] += 1
        turns = seat_actions(table.actions, seat)
        by_stand_in = config.stand_in_turns + config.absent_turns(table.actions, seat)
        person = config.kind == "person"
        marked = person and turns > 0 and by_stand_in > share * turns
        lines.append(
            SeatLine(
                seat=seat,
                profile=config.profile if person else None,
                level=None if person else config.level,
                points=game.totals[seat],
                won=game.winner == seat and not marked,
                turns=turns,
                stand_in_turns=by_stand_in,
                stand_in=marked,
                counts=dict(counts),
            )
        )
    return FinishedGame(
        table_id=table.id,
        variant=table.variant.name,
        finished_at=table.finished_at or now(),
        deals=len(summaries),
        lower_is_better=type(game).lower_is_better,
        seats=tuple(lines),
    )


def record(
    session: Session,
    game: FinishedGame,
    bots: dict[str, Rating],
    deleted_name: dict[str, str],
) -> bool:
    """Store the profiles' games of a finished table and, with two profiles or more,
    update their ratings: once per table (False when it was taken already). A profile
    deleted while it played is left out, and its name taken off the seat."""
    if session.get(ProfileTableRow, game.table_id) is not None:
        return False
    alive = {p for p in game.profiles if session.get(ProfileRow, p) is not None}
    for gone in set(game.profiles) - alive:
        table = session.get(TableRow, game.table_id)
        if table is not None:
            table.seats = forget_seats(table.seats, gone, deleted_name, table.lang)
    shown_places = game.places(quits=False)
    for line, place in zip(game.seats, shown_places, strict=True):
        if line.profile in alive:
            session.add(
                ProfileGameRow(
                    table_id=game.table_id,
                    seat=line.seat,
                    profile_id=line.profile,
                    variant=game.variant,
                    finished_at=game.finished_at,
                    players=len(game.seats),
                    points=line.points,
                    place=place,
                    won=line.won,
                    deals=game.deals,
                    turns=line.turns,
                    stand_in_turns=line.stand_in_turns,
                    stand_in=line.stand_in,
                    counts=line.counts,
                )
            )
    rated = len(alive) >= 2 and len(game.profiles) == len(set(game.profiles))
    if rated:
        _rate(session, game, alive, bots)
    session.add(ProfileTableRow(table_id=game.table_id, rated=rated, at=now()))
    session.flush()  # a second record of the table in the same batch sees this one
    return True


def _rate(session: Session, game: FinishedGame, alive: set[str], bots: dict[str, Rating]) -> None:
    known = ratings_of(session, sorted(alive), game.variant)
    entrants = []
    for line, place in zip(game.seats, game.places(quits=True), strict=True):
        if line.profile in alive:
            entrants.append(Entrant(known.get(line.profile, NEW), place, fixed=False))
        else:
            entrants.append(Entrant(bots.get(line.level or "", NEW), place, fixed=True))
    moment = now()
    for line, after in zip(game.seats, rate(entrants), strict=True):
        if line.profile in alive:
            set_rating(session, line.profile, game.variant, after, moment)
