"""A hand of Rummy 500: melds on the table, deep draws, Rummy calls (RULES.md §2).

A hand (:class:`Rummy500Deal`) deals 13 cards each to two players, 7 to
more, and turns up the next card to start the spread discard pile (R5-2). A
turn is a draw (phase ``draw``), then any melds and lay-offs and one discard
(phase ``discard``). Table-meld logic lives in
:mod:`remikit.variants.rummy500.melds` (new melds in
:mod:`~remikit.variants.rummy500.new_melds`); the Rummy call window in
:mod:`~remikit.variants.rummy500.calls`; the game in
:mod:`~remikit.variants.rummy500.game`.

Decisions where RULES.md leaves room:

* A deep draw (``draw discard K``, K ≥ 2) and a Rummy call (``rummy K``) owe
  a meld of the K-th card (or an identical one, two decks) this turn. Both
  are refused unless the card can then be melded, so nobody is ever stuck;
  while the meld is owed, discarding is refused and so is any meld or
  lay-off after which the owed card could no longer be melded.
* Taking the single top discard is refused when every card of the hand
  would then be that card (it could not be discarded), unless the hand was
  empty (a floater) and the card can be laid off at once. Likewise a meld or
  lay-off may not leave only copies of that card in hand, except one copy
  that can be laid off.
* A hand ended by ``decline`` has no ``by_seat``; one ended by going out has
  the seat that went out.
* An ace that fits either end of a run (``2 … K`` plus an ace) goes high,
  where it is worth more to its holder; a joker is always 15.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import ClassVar, Self

from remikit.actions import Action, Discard, Draw, LayOff, MeldCards, Pass
from remikit.cards import Card
from remikit.deal import Deal, DealPhase, Phase
from remikit.errors import IllegalAction, Reason
from remikit.variants.rummy500.actions import CallRummy, Decline
from remikit.variants.rummy500.calls import RummyCalls
from remikit.variants.rummy500.meldable import can_place
from remikit.variants.rummy500.melds import (
    PlacedMeld,
    Slot,
    candidate_layoffs,
    hand_points,
    placed_meld,
    playable,
    resolve_layoff,
)
from remikit.variants.rummy500.new_melds import candidate_melds, resolve_meld
from remikit.variants.rummy500.options import Rummy500Options
from remikit.variants.rummy500.state import Rummy500Ending, Rummy500Phase, Rummy500ViewPart
from remikit.views import DealEnding, DealSummary, EndedBy, Laid, PlayerView, SeatResult

_Resolved = tuple[list[PlacedMeld], list[Card]]
"""A play resolved: the table after it, the cards it takes from the hand."""


class Rummy500Deal(RummyCalls):
    """One hand of Rummy 500."""

    options: Rummy500Options
    phases: ClassVar[Mapping[type[Action], frozenset[DealPhase]]] = {
        **Deal.phases,
        Decline: frozenset({Phase.DRAW}),  # R5-9
        MeldCards: frozenset({Phase.DISCARD}),  # R5-4
        LayOff: frozenset({Phase.DISCARD}),  # R5-5
        CallRummy: frozenset({Rummy500Phase.CALL}),  # R5-10
        Pass: frozenset({Rummy500Phase.CALL}),
    }

    def __init__(
        self, *, number: int, players: int, dealer: int, first: int, options: Rummy500Options
    ) -> None:
        super().__init__(
            number=number, players=players, dealer=dealer, first=first, options=options
        )
        self.table: list[PlacedMeld] = []
        self.must_meld: Card | None = None  # owed after a deep draw or a call (R5-3, R5-10)
        self.rummy_from: int | None = None  # the discarder, while its discard may be called
        self.asking: list[int] = []  # the seats still to answer the call window, in order
        self.calls_open: frozenset[int] = frozenset()  # the depths that may be called now
        self.went_out: int | None = None
        # the last play resolved, for its apply after its verify: (seat, action, table, found)
        self._resolved: tuple[int, Action, list[PlacedMeld], _Resolved] | None = None

    # -- hooks --------------------------------------------------------------

    def hand_size(self) -> int:
        return 13 if self.players == 2 else 7  # R5-2

    def variant_actions(self, seat: int) -> list[Action]:
        """Deep draws and ``decline`` before the draw; lay-offs and new melds after it;
        in a call window, the seat asked calls at any callable depth or passes.

        Every lay-off is listed (a joker with each identity it may declare);
        new melds are those of :func:`~remikit.variants.rummy500.new_melds.candidate_melds`,
        where jokers only fill positions the hand has no natural card for.
        """
        if self.phase is Phase.DRAW:
            deep: list[Action] = [Draw("discard", k) for k in range(2, len(self.discard_pile) + 1)]
            return [*deep, Decline()]
        if self.phase is Rummy500Phase.CALL:
            return [*(CallRummy(k) for k in sorted(self.calls_open)), Pass()]
        hand = self.hands[seat]
        return [
            *candidate_layoffs(hand, self.table, joker_layoff=self.options.joker_layoff),
            *candidate_melds(hand),
        ]

    def verify_variant(self, seat: int, action: Action) -> None:
        if isinstance(action, MeldCards | LayOff):
            self._verify_play(seat, action)
        elif isinstance(action, CallRummy):
            self._verify_call(action.depth)
        elif isinstance(action, Decline) and self.stock:
            raise IllegalAction("decline_stock_left")

    def apply_variant(self, seat: int, action: Action) -> None:
        if isinstance(action, MeldCards | LayOff):
            self._play(seat, action)
        elif isinstance(action, CallRummy):
            taken = self.discard_pile[-action.depth :]
            del self.discard_pile[-action.depth :]
            self.hands[seat].extend(taken)
            self.taken.extend((seat, c) for c in taken)
            self.to_play = seat  # R5-10: the seats in between lose their turn
            self.phase = Phase.DISCARD
            self.must_meld = taken[0]
            self.just_taken = None
            self._end_window()
        elif isinstance(action, Pass):
            self.asking.pop(0)
            if self.asking:
                self.to_play = self.asking[0]
            else:  # nobody called: the next player draws
                assert self.rummy_from is not None
                self.to_play = (self.rummy_from + 1) % self.players
                self.phase = Phase.DRAW
                self._end_window()
        elif isinstance(action, Decline):
            self.score(Rummy500Ending.DECLINED)  # R5-9
        else:  # pragma: no cover - verify refused it
            raise AssertionError(action)

    def after_draw_hint(self) -> Reason:
        return Reason("reason.or_meld_first")

    def verify_draw(self, seat: int, action: Draw) -> None:
        if action.source == "stock":
            if not self.stock:
                raise IllegalAction("stock_empty")
            return
        pile = self.discard_pile
        if not pile:
            raise IllegalAction("no_discard")
        if action.depth > len(pile):
            raise IllegalAction("discard_too_deep", depth=action.depth, size=len(pile))
        taken = pile[-action.depth :]
        hand = self.hands[seat]
        if action.depth == 1:
            self._check_single_take(hand, taken[0])
        elif not can_place(
            taken[0], Counter(hand + taken), self.table, joker_layoff=self.options.joker_layoff
        ):  # R5-3
            raise IllegalAction("deep_draw_unmeldable", card=taken[0], depth=action.depth)

    def draw(self, seat: int, action: Draw) -> None:
        owed = self.discard_pile[-action.depth] if action.source == "discard" else None
        super().draw(seat, action)
        if action.depth >= 2:
            self.must_meld = owed

    def verify_discard(self, seat: int, card: Card) -> None:
        if self.must_meld is not None:
            raise IllegalAction("must_meld_first", card=self.must_meld)
        super().verify_discard(seat, card)
        hand = self.hands[seat]
        if (
            self.options.unplayable_last_discard
            and len(hand) == 1
            and playable(card, self.table, joker_layoff=self.options.joker_layoff)
        ):
            raise IllegalAction("last_discard_playable", card=card)  # R5-14

    def after_discard(self, seat: int) -> None:
        if not self.hands[seat]:  # R5-8: out by discarding the last card
            self.went_out = seat
            self.score(Rummy500Ending.OUT)
            return
        self._next_turn(seat)
        self._open_window(seat)

    def exhaust(self) -> None:
        self.score(EndedBy.LIMIT)

    def cards_in_play(self) -> list[Card]:
        return super().cards_in_play() + [c for m in self.table for c in m.cards()]

    def resume_variant(self, view: PlayerView) -> None:
        """The table, an owed meld, and a call window still open (a discard just made)."""
        self.table = [placed_meld(m) for m in view.table]
        self.must_meld = Rummy500ViewPart.of(view).must_meld
        if view.phase is Rummy500Phase.CALL:
            discarder = next(p.seat for p in reversed(view.log) if isinstance(p.action, Discard))
            order = self.call_order(discarder)
            self.rummy_from = discarder
            assert view.to_play is not None
            self.asking = order[order.index(view.to_play) :]
            self.calls_open = self.callable_depths()

    def fork_variant(self, deal: Self) -> None:
        deal.table = list(self.table)
        deal.asking = list(self.asking)

    # -- melds and lay-offs (R5-4 … R5-6) -------------------------------------

    def _resolve(self, seat: int, action: MeldCards | LayOff) -> _Resolved:
        """The table after ``action`` and the cards it takes from the hand (worked out
        once when the play is verified and then applied)."""
        last = self._resolved
        if last is not None and last[1] is action and last[0] == seat and last[2] is self.table:
            return last[3]
        if isinstance(action, MeldCards):
            meld = resolve_meld(
                action.cards, action.stands_for, seat=seat, number=len(self.table) + 1
            )
            found = [*self.table, meld], list(action.cards)
        else:
            if not 1 <= action.meld <= len(self.table):
                raise IllegalAction("no_such_meld", meld=action.meld)
            table = list(self.table)
            table[action.meld - 1] = resolve_layoff(
                table[action.meld - 1],
                action.card,
                action.stands_for,
                seat=seat,
                joker_layoff=self.options.joker_layoff,
            )
            found = table, [action.card]
        self._resolved = (seat, action, self.table, found)
        return found

    def _verify_play(self, seat: int, action: MeldCards | LayOff) -> None:
        hand = Counter(self.hands[seat])
        cards = action.cards if isinstance(action, MeldCards) else (action.card,)
        need = Counter(cards)
        for card, count in need.items():
            if hand[card] < count:
                raise IllegalAction("not_in_hand", card=card)
        table, used = self._resolve(seat, action)
        rest = hand - need
        owed = self.must_meld
        joker_layoff = self.options.joker_layoff
        if (
            owed is not None
            and owed not in used
            and not can_place(owed, rest, table, joker_layoff=joker_layoff)
        ):
            raise IllegalAction("would_strand_owed", card=owed)
        kept = self.just_taken
        if (
            kept is not None
            and not self.options.discard_taken_card
            and set(rest) == {kept}
            and (rest[kept] > 1 or not playable(kept, table, joker_layoff=joker_layoff))
        ):
            raise IllegalAction("taken_card_left", card=kept)

    def _play(self, seat: int, action: MeldCards | LayOff) -> None:
        table, used = self._resolve(seat, action)
        self.table = table
        hand = self.hands[seat]
        for card in used:
            hand.remove(card)
        if self.must_meld is not None and self.must_meld in used:
            self.must_meld = None
        if hand:
            return
        if self.options.floating:  # R5-14: float until the next turn
            self._next_turn(seat)
        else:  # R5-8: out by melding everything
            self.went_out = seat
            self.score(Rummy500Ending.OUT)

    def _check_single_take(self, hand: list[Card], card: Card) -> None:
        if self.options.discard_taken_card or any(c is not card for c in hand):
            return
        if hand:
            raise IllegalAction("taken_card_only", card=card)
        if not playable(card, self.table, joker_layoff=self.options.joker_layoff):
            raise IllegalAction("taken_card_alone", card=card)

    def _next_turn(self, seat: int) -> None:
        self.to_play = (seat + 1) % self.players
        self.phase = Phase.DRAW
        self.just_taken = None
        self.must_meld = None

    # -- scores (R5-11, R5-12) ------------------------------------------------

    def score(self, ended_by: DealEnding) -> None:
        scoring = self.options.scoring
        credit = [0] * self.players
        for meld in self.table:
            for slot in meld.slots:
                credit[slot.seat] += slot.points(scoring)
        results = []
        laid = self.laid(scoring)
        for seat, hand in enumerate(self.hands):
            melds = tuple(t for t in (m.tokens(seat) for m in self.table) if t)
            held = hand_points(hand, scoring)
            results.append(
                SeatResult(
                    points=credit[seat] - held,
                    melds=melds,
                    dead=tuple(hand),
                    went_out=seat == self.went_out,
                    laid=laid[seat],
                    held=held,
                )
            )
        self.finish(DealSummary(self.number, ended_by, self.went_out, tuple(results)))

    def laid(self, scoring: str) -> list[tuple[Laid, ...]]:
        """Per seat, what it put on the table: its melds, then its lay-offs (R5-5), each
        with its points; the log tells who laid each meld and which cards were laid off."""
        owners = [p.seat for p in self.log if isinstance(p.action, MeldCards)]
        layoffs = Counter(
            (p.seat, p.action.meld, str(p.action.card))
            for p in self.log
            if isinstance(p.action, LayOff)
        )
        out: list[list[Laid]] = [[] for _ in range(self.players)]
        for meld, owner in zip(self.table, owners, strict=True):
            own: list[Slot] = []
            added: dict[int, list[Slot]] = {}
            for slot in meld.slots:
                key = (slot.seat, meld.number, str(slot.card))
                if layoffs[key]:
                    layoffs[key] -= 1
                    added.setdefault(slot.seat, []).append(slot)
                else:
                    own.append(slot)
            groups = [(owner, own, False)] + [(seat, slots, True) for seat, slots in added.items()]
            for seat, slots, layoff in groups:
                cards = tuple(slot.token() for slot in slots)
                points = sum(slot.points(scoring) for slot in slots)
                out[seat].append(Laid(meld.number, owner, cards, points, layoff))
        return [tuple(sorted(entries, key=lambda e: (e.layoff, e.meld))) for entries in out]

    def table_points(self, seat: int | None = None) -> int:
        """The value of the table (the cards ``seat`` laid, when given)."""
        scoring = self.options.scoring
        return sum(
            s.points(scoring) for m in self.table for s in m.slots if seat is None or s.seat == seat
        )
