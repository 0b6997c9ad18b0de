"""A seat's view as a fixed-shape vector of numbers.

The observation is made from the seat's :class:`~remikit.views.PlayerView` alone (and
the tokens of the action it is in the middle of choosing), so it holds nothing the seat
may not see. Seats are counted from the observer: seat-relative 0 is the observer,
1 the next seat, and so on.

Card planes come first, 53 numbers each (card index: ``suit * 13 + rank - 1``, 52 the
joker), then the scalars:

================ ======== ===============================================================
segment          size     what
================ ======== ===============================================================
hand             53       the observer's hand: copies of each card
discard          53       the discard pile: copies of each card
discard_top      53       the top card of the discard pile (1)
discard_depth    53       the depth of each card's topmost copy in the pile (1 = the top)
wild             53       the cards of this deal's wild rank (1), where it has one
must_meld        53       the card the observer must meld this turn (Rummy 500)
taken            P × 53   per seat: the cards it took from the discard pile this deal
                          (counted on after it melds or discards them)
laid             P × 53   per seat: its cards on the table (a joker in column 52)
melds            M × 53   per table meld 1..M: its cards, a joker as what it stands for
pending          53       the meld or lay-off being chosen: its cards (any joker in 52)
pending_as       53       ... the cards its declared jokers stand for
hand_sizes       P        cards in each seat's hand
totals           P        each seat's running total
stock            1        cards in the stock
deal             1        the deal's number (a Three-Thirteen round's number)
phase            9        the phase (one-hot): draw 0, discard 1, over 8, and the
                          variant's own phases where its ``phase_slots`` say
dealer           P        the dealer (one-hot)
went_out         P        the seat that went out while the others take final turns
knock_limit      1        Gin Rummy: the most deadwood a knock may leave
pending_layoff   M        the table meld the lay-off being chosen goes on (one-hot)
================ ======== ===============================================================

``P`` is the number of players, ``M`` the lay-off targets of the action enumeration
(0 for a variant without lay-offs). Every variant has every segment: ``wild``,
``must_meld``, ``went_out`` and ``knock_limit`` hold what the view's part of the
variant's own puts there (:meth:`~remikit.views.ViewPart.observed`), nothing elsewhere.

>>> layout = Layout(players=2, melds=0)
>>> layout.size, layout["hand"], layout["totals"]
(656, slice(0, 53, None), slice(638, 640, None))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from remikit.cards import JOKER_INDEX, Card
from remikit.deal import DealPhase, Phase
from remikit.envs.tokens import CARDS, ActionCodec
from remikit.views import PlayerView

PHASE_SLOTS = 9
"""The phase one-hot's size: draw, discard, six slots for a variant's own phases, over."""
SHARED_SLOTS: Mapping[DealPhase, int] = {Phase.DRAW: 0, Phase.DISCARD: 1, Phase.OVER: 8}
"""The slots of the phases every variant has."""


class Layout:
    """Where each segment lies in the observation vector (module docstring)."""

    def __init__(
        self, *, players: int, melds: int, phase_slots: Mapping[DealPhase, int] | None = None
    ) -> None:
        """``phase_slots``: the slot of each of the variant's own phases (its
        :attr:`~remikit.variants.spec.VariantSpec.phase_slots`)."""
        own = dict(phase_slots or {})
        free = set(range(PHASE_SLOTS)) - set(SHARED_SLOTS.values())
        if not set(own.values()) <= free or len(set(own.values())) != len(own):
            raise ValueError(f"the variant's phases need distinct slots of {sorted(free)}")
        self.phase_slots: dict[DealPhase, int] = {**SHARED_SLOTS, **own}
        p, m = players, melds
        shapes: list[tuple[str, int]] = [
            ("hand", CARDS),
            ("discard", CARDS),
            ("discard_top", CARDS),
            ("discard_depth", CARDS),
            ("wild", CARDS),
            ("must_meld", CARDS),
            ("taken", p * CARDS),
            ("laid", p * CARDS),
            ("melds", m * CARDS),
            ("pending", CARDS),
            ("pending_as", CARDS),
            ("hand_sizes", p),
            ("totals", p),
            ("stock", 1),
            ("deal", 1),
            ("phase", PHASE_SLOTS),
            ("dealer", p),
            ("went_out", p),
            ("knock_limit", 1),
            ("pending_layoff", m),
        ]
        self.players = players
        self.melds = melds
        self.segments: dict[str, slice] = {}
        start = 0
        for name, size in shapes:
            self.segments[name] = slice(start, start + size)
            start += size
        self.size = start

    def __getitem__(self, name: str) -> slice:
        return self.segments[name]

    def encode(
        self, view: PlayerView, codec: ActionCodec, pending: Sequence[int] = ()
    ) -> NDArray[np.float32]:
        """The observation of ``view``'s seat, choosing an action begun with ``pending``."""
        out = np.zeros(self.size, dtype=np.float32)
        seat = view.seat if view.seat is not None else 0
        players = self.players
        order = [(seat + r) % players for r in range(players)]
        rel = {s: r for r, s in enumerate(order)}
        seg = self.segments
        _count(out, seg["hand"].start, view.hand)
        pile = view.discard_pile
        _count(out, seg["discard"].start, pile)
        if pile:
            out[seg["discard_top"].start + pile[-1].index] = 1
            depth = seg["discard_depth"].start
            for d, card in enumerate(reversed(pile), start=1):
                if not out[depth + card.index]:
                    out[depth + card.index] = d
        observed = view.extra.observed()
        for name, cards in observed.cards.items():
            _count(out, seg[name].start, cards)
        taken = seg["taken"].start
        for s, card in view.taken_from_discard:
            out[taken + rel[s] * CARDS + card.index] += 1
        laid, melds = seg["laid"].start, seg["melds"].start
        for meld in view.table:
            row = melds + (meld.number - 1) * CARDS if meld.number <= self.melds else None
            for card, stands, owner in zip(meld.cards, meld.stands_for, meld.laid_by, strict=True):
                out[laid + rel[owner] * CARDS + card.index] += 1
                if row is not None:
                    out[row + (stands or card).index] += 1
        self._pending(out, codec, pending)
        for name, values in (("hand_sizes", view.hand_sizes), ("totals", view.totals)):
            start = seg[name].start
            for r, s in enumerate(order):
                out[start + r] = values[s]
        out[seg["stock"].start] = view.stock_size
        out[seg["deal"].start] = view.deal_number
        out[seg["phase"].start + self.phase_slots[view.phase]] = 1
        out[seg["dealer"].start + rel[view.dealer]] = 1
        for name, seat in observed.seats.items():
            out[seg[name].start + rel[seat]] = 1
        for name, number in observed.numbers.items():
            out[seg[name].start] = number
        return out

    def _pending(
        self, out: NDArray[np.float32], codec: ActionCodec, pending: Sequence[int]
    ) -> None:
        if not pending:
            return
        cards, stands = self.segments["pending"].start, self.segments["pending_as"].start
        for token in pending:
            if codec.has("layoff") and token in codec.section("layoff"):
                out[
                    self.segments["pending_layoff"].start + token - codec.section("layoff").start
                ] = 1
                continue
            i = token - codec.section("meld_card").start
            if i < CARDS:
                out[cards + i] += 1
            else:
                out[cards + JOKER_INDEX] += 1
                out[stands + i - CARDS] += 1


def _count(out: NDArray[np.float32], start: int, cards: Sequence[Card]) -> None:
    for card in cards:
        out[start + card.index] += 1
