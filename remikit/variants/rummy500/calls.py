"""The Rummy call window of a Rummy 500 hand (R5-10).

Decisions where RULES.md leaves room:

* A Rummy call takes a card that is playable at once: with the cards above
  it in the pile alone it can go into a new meld or onto a table meld
  (possibly after lay-offs of those cards fill the gap to a run's end).
* The call window (R5-10) is the phase ``call``: after a discard that leaves a
  call possible, the seats after the discarder are asked in turn, nearest
  first, and each answers ``rummy K`` or ``pass``; the first call wins at
  once (every nearer seat has passed), and when all pass the next player
  draws. Callable depths are public facts (the pile and the table), so the
  window opens for everyone alike. A record made before passes were written
  down skips them (see :mod:`remikit.records`).
* The card a Rummy caller takes is melded, so the R5-7 ban on discarding
  a single taken card does not apply to a call (even ``rummy 1``).
"""

from __future__ import annotations

from collections import Counter

from remikit.actions import Action, Discard, Draw, Pass, Play
from remikit.cards import Card
from remikit.deal import Deal, DealPhase, Phase
from remikit.errors import IllegalAction
from remikit.variants.rummy500.actions import CallRummy, Decline
from remikit.variants.rummy500.meldable import can_place
from remikit.variants.rummy500.melds import PlacedMeld
from remikit.variants.rummy500.options import Rummy500Options
from remikit.variants.rummy500.state import Rummy500Phase


class RummyCalls(Deal):
    """A Rummy 500 hand's call window: who is asked, in which order, and which depths
    may be called; :class:`~remikit.variants.rummy500.rules.Rummy500Deal` sets up the
    state below and plays the rest of the hand."""

    options: Rummy500Options
    table: list[PlacedMeld]
    rummy_from: int | None
    asking: list[int]
    calls_open: frozenset[int]

    def turn_refusal(self, seat: int, action: Action) -> IllegalAction:
        if isinstance(action, CallRummy | Pass):
            if self.phase is not Rummy500Phase.CALL:
                return self._no_window(action)
            if seat == self.rummy_from:
                return IllegalAction("rummy_own_discard")
            asked = None if self.to_play is None else self.to_play + 1  # as people count
            return IllegalAction("rummy_not_asked", seat=asked)
        return super().turn_refusal(seat, action)

    def phase_refusal(self, action: Action, phases: frozenset[DealPhase]) -> IllegalAction:
        if isinstance(action, CallRummy | Pass):
            return self._no_window(action)
        if self.phase is Rummy500Phase.CALL:
            return IllegalAction("rummy_answer_first")
        return super().phase_refusal(action, phases)

    def _no_window(self, action: CallRummy | Pass) -> IllegalAction:
        """Why no call window takes ``action``: calls are off, none is possible on the
        discard just made, or there is no such discard."""
        if not self.options.rummy_calls:
            return IllegalAction("rummy_off")
        just_discarded = bool(self.log) and isinstance(self.log[-1].action, Discard)
        if just_discarded and isinstance(action, CallRummy):
            pile = self.discard_pile
            if action.depth > len(pile):
                return IllegalAction("discard_too_deep", depth=action.depth, size=len(pile))
            return IllegalAction("rummy_not_playable", depth=action.depth)
        return IllegalAction("rummy_closed")

    def call_order(self, discarder: int) -> list[int]:
        """Who is asked, and whose call wins: the nearest after the discarder first."""
        return [(discarder + i) % self.players for i in range(1, self.players)]

    def awaiting(self) -> list[int]:
        return list(self.asking) if self.phase is Rummy500Phase.CALL else super().awaiting()

    def offered_calls(self) -> list[int]:
        """After a discard with Rummy calls on (R5-10): every seat after the discarder."""
        if self.phase is Phase.OVER or not self.options.rummy_calls or not self.log:
            return []
        last = self.log[-1]
        return self.call_order(last.seat) if isinstance(last.action, Discard) else []

    def implied_passes(self, seat: int, action: Action) -> list[Play]:
        """In a call window, a call by a seat further down the call order, or the next
        player's draw, stands for passes by the seats still to answer before it."""
        if self.phase is not Rummy500Phase.CALL or self.rummy_from is None:
            return []
        if isinstance(action, CallRummy) and seat in self.asking:
            before = self.asking[: self.asking.index(seat)]
        elif isinstance(action, Draw | Decline) and seat == (self.rummy_from + 1) % self.players:
            before = self.asking
        else:
            return []
        return [Play(s, Pass()) for s in before]

    def _open_window(self, discarder: int) -> None:
        """After a discard: when a call is possible, the seats answer in call order."""
        if not self.options.rummy_calls:
            return
        depths = self.callable_depths()
        if depths:
            self.rummy_from = discarder
            self.calls_open = depths
            self.asking = self.call_order(discarder)
            self.to_play = self.asking[0]
            self.phase = Rummy500Phase.CALL

    def _end_window(self) -> None:
        self.rummy_from = None
        self.asking = []
        self.calls_open = frozenset()

    def _verify_call(self, depth: int) -> None:
        pile = self.discard_pile
        if depth > len(pile):
            raise IllegalAction("discard_too_deep", depth=depth, size=len(pile))
        if depth not in self.calls_open:
            raise IllegalAction("rummy_not_playable", depth=depth)

    def callable_depths(self) -> frozenset[int]:
        """Depths K whose card is playable at once with the cards above it (public facts)."""
        pile = self.discard_pile
        joker_layoff = self.options.joker_layoff
        above: Counter[Card] = Counter()  # the K-th card and the cards above it
        depths = []
        for k in range(1, len(pile) + 1):
            card = pile[-k]
            above[card] += 1
            if can_place(card, above, self.table, joker_layoff=joker_layoff):
                depths.append(k)
        return frozenset(depths)
