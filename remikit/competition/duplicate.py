"""The luck-adjusted column of a competition with duplicate deals (docs/competition.md §4).

With duplicate deals every online table of a round plays the same deck in game *g*
(docs/fairness.md §11). The same deck deals the same 13 cards to the same **hand**:
hand 0 is the seat after the dealer (it receives the first card and plays first),
hand 3 the dealer (R13-3, R13-4). The dealer of a game follows from the scores before
it (R13-3), so it may differ from table to table: comparing hands, not game seats,
compares the players who held the same cards in the same order of play.

A player's luck-adjusted score sums, over their games at online tables, their score
minus the mean score of the same hand in the same game at the round's *other* online
tables (a bot's score counts in the mean; a game no other table has played yet adds
nothing). Positive: better than the others did with the same cards. The sum is
rounded to one decimal.

>>> games = [
...     Played(1, 1, 1, ("a", "b", "c", "d"), (10, 20, 30, -60)),
...     Played(1, 2, 1, ("e", "f", "g", "h"), (0, 20, 40, -60)),
... ]
>>> luck_adjusted(games, {(1, 1), (1, 2)}, 1)["a"], luck_adjusted(games, {(1, 1), (1, 2)}, 1)["g"]
(10.0, 10.0)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from fractions import Fraction

from remikit.competition.results import dealers
from remikit.competition.standings import Played


def hand_of(seat: int, dealer: int, seats: int) -> int:
    """The hand ``seat`` holds when ``dealer`` deals: 0 the first dealt (the seat after
    the dealer, who plays first), ``seats - 1`` the dealer."""
    return (seat - dealer - 1) % seats


def luck_adjusted(
    games: Iterable[Played], online: Collection[tuple[int, int]], games_per_round: int
) -> dict[str, float]:
    """Each player's luck-adjusted score from the confirmed ``games`` of the ``online``
    tables (round, table); players with none are left out."""
    tables: dict[tuple[int, int], dict[int, Played]] = defaultdict(dict)
    for game in games:
        if (game.round, game.table) in online:
            tables[game.round, game.table][game.game] = game
    # (round, game, hand): each table's (table, player, points) of that hand
    boards: dict[tuple[int, int, int], list[tuple[int, str | None, int]]] = defaultdict(list)
    for (number, table), played in tables.items():
        results = [played[g].points if g in played else None for g in range(1, games_per_round + 1)]
        for g, dealer in enumerate(dealers(results, games_per_round), start=1):
            one = played.get(g)
            if one is None or dealer is None:
                continue
            for seat, (player, points) in enumerate(zip(one.players, one.points, strict=True)):
                hand = hand_of(seat, dealer, len(one.points))
                boards[number, g, hand].append((table, player, points))
    luck: dict[str, Fraction] = defaultdict(Fraction)
    for held in boards.values():
        for table, player, points in held:
            others = [p for t, _, p in held if t != table]
            if player is not None and others:
                luck[player] += points - Fraction(sum(others), len(others))
    return {player: float(round(value, 1)) for player, value in luck.items()}
