"""A profile as JSON: its own (for the device signed in to it) and its public page's
statistics per variant and games with their replays and reviews (docs/protocol.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from remikit.server.profiles.ratings import compared, rating_json
from remikit.storage.profiles import ProfileGameRow, ProfileRow, Rating
from remikit.variants import find_playable

GAMES_LISTED = 200
"""The most recent games a profile's page lists."""


def own_json(row: ProfileRow, blocks: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """What the device signed in to a profile sees of it."""
    return {
        "id": row.id,
        "name": row.name,
        "named": row.named,
        "password": row.password is not None,
        "blocks": [{"id": i, "name": n} for i, n in blocks],
    }


def _better(game: ProfileGameRow, other: ProfileGameRow, lower_is_better: bool) -> bool:
    sign = 1 if lower_is_better else -1
    return (game.place, sign * game.points) < (other.place, sign * other.points)


def variant_json(
    variant: str,
    games: Sequence[ProfileGameRow],
    rating: Rating | None,
    bots: dict[str, Rating],
    provisional_games: int,
) -> dict[str, Any]:
    """One variant's statistics: games played, those the stand-in played (not the
    person's), and of the others the wins, points per deal, how many deals the player
    ended by each ending and the variant's own marks, and the best game."""
    lower = find_playable(variant).game_class().lower_is_better
    own = [g for g in games if not g.stand_in]
    counts: Counter[str] = Counter()
    best: ProfileGameRow | None = None
    for game in own:
        counts.update(game.counts)
        if best is None or _better(game, best, lower):
            best = game
    deals = sum(g.deals for g in own)
    out: dict[str, Any] = {
        "variant": variant,
        "title": find_playable(variant).titles,
        "games": len(games),
        "stand_in": len(games) - len(own),
        "wins": sum(1 for g in own if g.won),
        "points_per_deal": round(sum(g.points for g in own) / deals, 2) if deals else None,
        "lower_is_better": lower,
        "endings": {k[6:]: n for k, n in sorted(counts.items()) if k.startswith("ended.")},
        "marks": {k[5:]: n for k, n in sorted(counts.items()) if k.startswith("mark.")},
        "best": None
        if best is None
        else {"table": best.table_id, "points": best.points, "place": best.place},
        "rating": None,
    }
    if rating is not None:
        out["rating"] = {**rating_json(rating, provisional_games), **compared(rating, bots)}
    return out


def game_json(game: ProfileGameRow) -> dict[str, Any]:
    code, seat = game.table_id, game.seat
    return {
        "table": code,
        "variant": game.variant,
        "finished_at": game.finished_at.isoformat(),
        "seat": seat,
        "players": game.players,
        "points": game.points,
        "place": game.place,
        "won": game.won,
        "stand_in": game.stand_in,
        "stand_in_turns": game.stand_in_turns,
        "turns": game.turns,
        "replay": f"/static/replay.html?game={code}&seat={seat}",
        "review": f"/api/games/{code}/reviews/{seat}",
    }


def public_json(
    row: ProfileRow,
    games: Sequence[ProfileGameRow],
    ratings: dict[str, Rating],
    bots: dict[str, dict[str, Rating]],
    provisional_games: int,
) -> dict[str, Any]:
    """A profile's public page: its name, statistics per variant and latest games."""
    by_variant: dict[str, list[ProfileGameRow]] = {}
    for game in games:
        by_variant.setdefault(game.variant, []).append(game)
    return {
        "id": row.id,
        "name": row.name,
        "variants": [
            variant_json(v, found, ratings.get(v), bots.get(v, {}), provisional_games)
            for v, found in sorted(by_variant.items())
        ],
        "games": [game_json(g) for g in games[:GAMES_LISTED]],
    }
