"""The compiled search of :mod:`remikit.solver` (``_solvercore.c``)."""

from collections.abc import Sequence
from typing import Literal, overload

from remikit.cards import Card

TABLE_ENTRIES: int
"""The entries of one memo table."""
POOL_MAX: int
"""The most memo tables kept for reuse."""

# (value, (dead natural cards, melds as (description, wilds used, value), the discard,
# the flags at the end), the wild cards)
Path = tuple[
    int,
    tuple[list[Card], list[tuple[tuple[object, ...], int, int]], Card | None, int],
    list[Card],
]

class Core:
    """One variant's meld rules and scoring, searched in C."""

    def __init__(
        self,
        *,
        run_position: Sequence[int],
        set_rank: Sequence[int],
        dead: Sequence[int],
        royal_value: int,
        dead_joker: int,
        dead_wild_rank: int,
        ace: int,
        distinct_suits: bool,
        set_max: int,
        wild_only: bool,
        royal: bool,
        natural4: bool,
        naturals_first: bool,
    ) -> None: ...
    @overload
    def search(
        self,
        hand: Sequence[Card],
        wild_rank: int | None,
        all_melded: bool,
        need_pure: bool,
        discard: bool,
        keep: Card | None,
        path: Literal[False],
        /,
    ) -> int | None: ...
    @overload
    def search(
        self,
        hand: Sequence[Card],
        wild_rank: int | None,
        all_melded: bool,
        need_pure: bool,
        discard: bool,
        keep: Card | None,
        path: Literal[True],
        /,
    ) -> Path | Literal[False] | None: ...
    def forget(self) -> None: ...

def release() -> None:
    """Free the memo tables no search is using."""

def stats() -> dict[str, int]:
    """``tables`` allocated, ``pooled`` for reuse, searches ``released`` (run without
    the GIL)."""
