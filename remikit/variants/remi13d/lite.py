"""Remi 13 D's fast rollout policy on card bit masks (:mod:`.tactics`).

A card is "useful" by how it joins cards of its rank (a set) and of its suit (a
run), with no solver call: the least useful card is thrown, keeping a joker and
one closing card (R13-7); the solver only checks a close when the masks say one
may be there.
"""

from __future__ import annotations

from collections.abc import Sequence

from remikit.cards import JOKER, Card
from remikit.melds import PureRun
from remikit.variants.remi13d import scoring
from remikit.variants.remi13d.actions import Close

JOKER_INDEX = JOKER.index
MELDED = 10  # usefulness of a card that is part of a meld (set or run of 3)
KEEP_CLOSER = 12  # extra usefulness of the only closing card in hand


def masks(hand: Sequence[Card]) -> tuple[list[int], list[int], int]:
    """Per suit, the run positions held (bit 0 and 13 both for an ace); per rank,
    the suits held; the number of jokers."""
    rows = [0, 0, 0, 0]
    ranks = [0] * 13
    jokers = 0
    for card in hand:
        i = card.index
        if i == JOKER_INDEX:
            jokers += 1
            continue
        suit, r0 = divmod(i, 13)
        rows[suit] |= (1 << r0) | (8192 if r0 == 0 else 0)
        ranks[r0] |= 1 << suit
    return rows, ranks, jokers


def _run_usefulness(window: int) -> int:
    """Usefulness from the run neighbours of a position: ``window`` holds the positions
    two below to two above it in bits 0 to 4 (bit 2, the card itself, is ignored)."""
    left2, left1, right1, right2 = (window & 1, window >> 1 & 1, window >> 3 & 1, window >> 4 & 1)
    in_run = (left1 and right1) or (right1 and right2) or (left1 and left2)
    return 4 * (left1 + right1) + 2 * (left2 + right2) + (MELDED if in_run else 0)


RUN_USEFULNESS = tuple(_run_usefulness(w) for w in range(32))
SET_USEFULNESS = tuple(
    4 * min(k, 2) + (MELDED if k >= 2 else 0) for k in (bin(s).count("1") for s in range(16))
)


def usefulness(index: int, rows: list[int], ranks: list[int]) -> int:
    """How much the natural card ``index`` does for the hand the masks describe."""
    suit, r0 = divmod(index, 13)
    row = rows[suit] << 2
    best = RUN_USEFULNESS[row >> r0 & 31]
    if r0 == 0:
        best = max(best, RUN_USEFULNESS[row >> 13 & 31])
    return best + SET_USEFULNESS[ranks[r0] & ~(1 << suit)]


def is_closer(card: Card) -> bool:
    """An ace or a joker: a card that may close (R13-7)."""
    return card.index == JOKER_INDEX or card.index % 13 == 0


def lite_discard(
    hand: Sequence[Card], kept: Card | None, *, among: Sequence[Card] | None = None
) -> Card:
    """The least useful card (the costliest dead one among equals), keeping a joker
    and one closing card; chosen ``among`` some cards of the hand when given."""
    rows, ranks, _ = masks(hand)
    closers = sum(1 for c in hand if is_closer(c))
    best: Card | None = None
    best_key = 1 << 30
    for card in hand if among is None else among:
        if card is kept or card.index == JOKER_INDEX:
            continue
        u = usefulness(card.index, rows, ranks)
        if card.index % 13 == 0:
            if closers == 1:
                u += KEEP_CLOSER
            key = u * 32 - 15
        else:
            key = u * 32 - (10 if card.index % 13 >= 10 else 5)
        if key < best_key:
            best, best_key = card, key
    if best is None:  # only jokers and the kept card
        best = next(c for c in (hand if among is None else among) if c is not kept)
    return best


def may_close(hand: Sequence[Card]) -> bool:
    """A cheap test before the solver: a closing card, a pure run, few loose cards."""
    if not any(c.index == JOKER_INDEX or c.index % 13 == 0 for c in hand):
        return False
    rows, ranks, jokers = masks(hand)
    if not any(row & row >> 1 & row >> 2 & row >> 3 for row in rows):
        return False
    loose = sum(
        1 for c in hand if c.index != JOKER_INDEX and usefulness(c.index, rows, ranks) < MELDED
    )
    return loose <= 2 + 2 * jokers


def best_close(hand: Sequence[Card], pure_run: PureRun = "strict") -> Close | None:
    found = scoring.best_close(hand, pure_run=pure_run) if may_close(hand) else None
    if found is None or found.closing is None:
        return None
    return Close(found.closing)
