"""Three-Thirteen deadwood (R3-3, R3-4, R3-7).

>>> from remikit.cards import parse_cards
>>> deadwood(parse_cards("3h 9c Kd"), round_no=1).points
34
>>> deadwood(parse_cards("3h 9c 9d"), round_no=1).points
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from remikit.cards import Card, Rank
from remikit.melds import AceMode, Meld, MeldRules, Scoring
from remikit.solver import Goal, Solver

ROUNDS = 11
UNUSED_WILD_RANK = 15
UNUSED_JOKER = 20


def hand_size(round_no: int) -> int:
    """R3-2: round r deals r + 2 cards."""
    return round_no + 2


def wild_rank(round_no: int) -> Rank:
    """R3-3: the rank equal to the hand size (3 in round 1 … K in round 11)."""
    if not 1 <= round_no <= ROUNDS:
        raise ValueError(f"a round is 1 to {ROUNDS}, not {round_no}")
    return Rank(hand_size(round_no))


def card_deadwood(rank: int, ace: AceMode) -> int:
    """R3-7 for a natural card."""
    if rank == 1:
        return 1 if ace == "low" else 15
    return min(rank, 10)


@cache
def solver(ace: AceMode) -> Solver:
    rules = MeldRules(ace=ace, set_distinct_suits=False, set_max=0, wild_only_melds=True)
    scoring = Scoring(
        dead=tuple(-card_deadwood(i % 13 + 1, ace) for i in range(52)),
        dead_joker=-UNUSED_JOKER,
        dead_wild_rank=-UNUSED_WILD_RANK,
    )
    return Solver(rules, scoring)


@dataclass(frozen=True)
class Deadwood:
    points: int
    melds: tuple[Meld, ...]
    dead: tuple[Card, ...]
    discard: Card | None = None


def deadwood(hand: Sequence[Card], *, round_no: int, ace: AceMode = "low",
             discard: bool = False, keep: Card | None = None) -> Deadwood:
    """The minimum deadwood of a hand; with ``discard``, after the best discard."""
    goal = Goal(discard=discard, keep=keep)
    best = solver(ace).solve(hand, wild_rank=wild_rank(round_no), goal=goal)
    assert best is not None
    return Deadwood(-best.value, best.melds, best.dead, best.discard)


def deadwood_points(hand: Sequence[Card], *, round_no: int, ace: AceMode = "low",
                    discard: bool = False, keep: Card | None = None) -> int:
    """:func:`deadwood` points only."""
    goal = Goal(discard=discard, keep=keep)
    return -solver(ace).value(hand, wild_rank=wild_rank(round_no), goal=goal)
