"""A competition's online tables: each is one of the server's own web tables
(Remi 13 D, the competition's games, no hints), and its games, once it finishes,
become the table's confirmed entries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from remikit.competition import competition_variant
from remikit.competition.results import Arrangement, GameResult
from remikit.competition.seat_draw import POSITIONS
from remikit.engine import Game
from remikit.server.hub import Hub


async def create_web_table(
    hub: Hub,
    *,
    title: str,
    games: int,
    bot_level: str,
    players: Sequence[str | None],
) -> str:
    """A web table for the players of positions A–D (None: a bot seat), seated in that
    order before its seat draw (R13-2); its code."""
    seats = [
        {"kind": "person"} if player is not None else {"kind": "bot", "level": bot_level}
        for player in players
    ]
    live = await hub.create(
        variant=competition_variant().name,
        options={"games": games},
        seats=seats,
        title=title,
        settings={"hints": False},
        lang="id",
    )
    return live.id


def web_seat_draw(
    draw: Sequence[dict[str, Any]] | None, seats: Sequence[dict[str, Any]]
) -> list[dict[str, Any]] | None:
    """A web table's seat draw (as stored: per seat, the seat ``joined`` before it and
    the cards drawn) as a competition table shows it: per position A–D, its player,
    the cards drawn and the game seat taken (None before the draw)."""
    if draw is None:
        return None
    by_position = {s["position"]: s["player"] for s in seats}
    out = []
    for seat, drawn in enumerate(draw):
        position = POSITIONS[drawn["joined"]]
        out.append(
            {
                "position": position,
                "player": by_position[position],
                "cards": list(drawn["cards"]),
                "seat": seat,
            }
        )
    return sorted(out, key=lambda d: POSITIONS.index(d["position"]))


def web_games(game: Game) -> list[GameResult]:
    """The result of each finished game of a web table, seats as the table numbers them."""
    out = []
    for deal in game.deals:
        summary = deal.summary
        if summary is None:
            continue
        closer = summary.by_seat  # a close (R13-7): the closer has the closing card
        closing = None if closer is None else summary.results[closer].closing
        closer = None if closing is None else closer
        arrangements = tuple(
            Arrangement(r.melds, tuple(str(c) for c in r.dead), r.points) for r in summary.results
        )
        out.append(
            GameResult(
                summary.points, closer, None if closing is None else str(closing), arrangements
            )
        )
    return out
