"""What a competition takes from one of its online tables' web tables: the seat draw
as its table shows it, and the result of each finished game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from remikit.competition.results import Arrangement, GameResult
from remikit.competition.seat_draw import POSITIONS
from remikit.engine import Game


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
