"""One deal of any variant: the state machine from the shuffled deck to its scores.

A :class:`Deal` runs one deal (a Remi 13 D game, a Rummy 500 hand, a
Three-Thirteen round); a :class:`~remikit.engine.Game` runs deals one after another.
Variants subclass it and override a few hooks; each action has one ``verify``
that says why it is illegal, and ``can``/``legal_actions`` derive from it. The
phases every variant has are :class:`Phase`; a variant's own extend :class:`DealPhase`.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import ClassVar, Self

from remikit.actions import Action, Discard, Draw, Play
from remikit.cards import Card
from remikit.errors import IllegalAction, Reason
from remikit.options import Options
from remikit.views import DealSummary, PlayerView

MAX_ACTIONS_PER_DEAL = 5_000
"""The most actions a deal takes: a deal still running then ends as if its stock had run
out (RULES.md §0, endless deals), so no table can be kept going for ever."""


DRAW_STOCK = Draw("stock")
DRAW_DISCARD = Draw("discard")


class DealPhase(StrEnum):
    """Where a deal stands: a member of :class:`Phase`, the phases every variant has, or
    of a variant's own phases, an enum its package declares as a subclass of this one
    (with values of its own: the protocol and the records send the value).
    :attr:`Deal.phases` says which actions each phase allows."""

    @property
    def is_call_window(self) -> bool:
        """Whether the seats act in this phase by answering a discard, not by taking a
        turn: a call window, whose answers :meth:`Deal.awaiting` gives."""
        return False


class Phase(DealPhase):
    """The phases every variant has."""

    DRAW = "draw"
    DISCARD = "discard"
    OVER = "over"


class Deal(ABC):
    """One deal, from the deck to the scores.

    A deal is made empty and then dealt (:meth:`deal`), or put in a position a
    view shows (:meth:`resume`). Every action belongs to the seat ``to_play``
    (in a call window: the seat asked) and to the phases :attr:`phases` gives
    its kind; :meth:`verify` checks both once for every variant, then the
    variant's own rules.
    """

    opens_pile: ClassVar[bool] = True
    """Whether the card after the deal starts the discard pile (public: bots rely on it)."""
    refills_stock: ClassVar[bool] = False
    """Whether an empty stock is refilled from the discard pile (R3-5)."""
    phases: ClassVar[Mapping[type[Action], frozenset[DealPhase]]] = {
        Draw: frozenset({Phase.DRAW}),
        Discard: frozenset({Phase.DISCARD}),
    }
    """The phases in which each kind of action may be taken (a variant adds its own)."""

    def __init__(
        self, *, number: int, players: int, dealer: int, first: int, options: Options
    ) -> None:
        self.number = number
        self.players = players
        self.dealer = dealer
        self.options = options
        self.deck: tuple[Card, ...] = ()
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.discard_pile: list[Card] = []
        self.stock: list[Card] = []  # the top of the stock is the end of the list
        self.first = first
        self.to_play: int | None = first
        self.phase: DealPhase = Phase.DRAW
        self.log: list[Play] = []
        self.taken: list[tuple[int, Card]] = []  # (seat, card) per card taken from the discard
        self.just_taken: Card | None = None
        self.summary: DealSummary | None = None

    def deal(self, deck: Sequence[Card]) -> None:
        """Deal ``deck`` (top first): :meth:`hand_size` cards to each seat, one at a time
        from the seat after the dealer; the next card starts the discard pile where the
        variant opens one; the rest is the stock. Then :meth:`begin`."""
        self.deck = tuple(deck)
        order = [(self.dealer + 1 + i) % self.players for i in range(self.players)]
        size = self.hand_size()
        for pos, card in enumerate(deck[: size * self.players]):
            self.hands[order[pos % self.players]].append(card)
        pos = size * self.players
        if self.opens_pile:
            self.discard_pile.append(deck[pos])
            pos += 1
        self.stock = list(deck[pos:])[::-1]
        self.begin()

    # -- hooks ------------------------------------------------------------

    @abstractmethod
    def hand_size(self) -> int:
        """Cards dealt to each seat."""

    def begin(self) -> None:
        """Variant set-up once the cards are dealt."""
        return None

    @abstractmethod
    def variant_actions(self, seat: int) -> list[Action]:
        """Candidate actions beyond draw and discard for the seat to play (filtered by
        :meth:`verify`)."""

    @abstractmethod
    def verify_variant(self, seat: int, action: Action) -> None:
        """Verify an action that is not a plain draw or discard (turn and phase checked)."""

    @abstractmethod
    def apply_variant(self, seat: int, action: Action) -> None:
        """Apply a verified action that is not a plain draw or discard."""

    @abstractmethod
    def after_discard(self, seat: int) -> None:
        """End the turn after a discard: next seat, or the end of the deal."""

    @abstractmethod
    def exhaust(self) -> None:
        """End the deal at :data:`MAX_ACTIONS_PER_DEAL` actions, scored as when the stock
        runs out (RULES.md §0, endless deals), with ``ended_by`` :attr:`EndedBy.LIMIT`."""

    def after_draw_hint(self) -> Reason:
        """What else a player who has drawn may do, for the "already drawn" reason."""
        return Reason()

    def awaiting(self) -> list[int]:
        """The seats whose actions the deal waits for, in the order it takes them: the seat
        to play, or in a call window every seat still to answer."""
        return [] if self.to_play is None else [self.to_play]

    def offered_calls(self) -> list[int]:
        """The seats a table asks, after the discard just made, whether they call it, in
        the order the deal would take their answers: asked whether or not a call is
        possible, so that being asked gives nothing away. None in a variant without
        calls."""
        return []

    def implied_passes(self, seat: int, action: Action) -> list[Play]:
        """The answers a record may leave out before ``seat`` takes ``action`` (see
        :func:`remikit.records.apply_recorded`): none, unless a variant has a call window."""
        return []

    def turn_refusal(self, seat: int, action: Action) -> IllegalAction:
        """Why ``seat``, which is not the seat to play, may not take ``action``."""
        to_play = None if self.to_play is None else self.to_play + 1  # as people count
        return IllegalAction("not_your_turn", seat=to_play)

    def phase_refusal(self, action: Action, phases: frozenset[DealPhase]) -> IllegalAction:
        """Why ``action``, allowed in ``phases``, may not be taken in this phase."""
        if Phase.DISCARD in phases and self.phase is Phase.DRAW:
            return IllegalAction("draw_first")
        if Phase.DRAW in phases and self.phase is Phase.DISCARD:
            return IllegalAction("already_drawn", or_close=self.after_draw_hint())
        return IllegalAction("not_now", action=str(action))

    def verify_draw(self, seat: int, action: Draw) -> None:
        """Variant limits on drawing (the discard depth, an empty stock)."""
        if action.source == "stock" and not self.stock:
            raise IllegalAction("stock_empty")
        if action.source == "discard":
            if not self.discard_pile:
                raise IllegalAction("no_discard")
            if action.depth != 1:
                raise IllegalAction("discard_depth")

    # -- verify / can / apply ----------------------------------------------

    def verify(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalAction` saying why ``action`` by ``seat`` is illegal now."""
        if self.phase is Phase.OVER:
            raise IllegalAction("game_over")
        if not 0 <= seat < self.players:
            raise IllegalAction("no_such_seat", seat=seat + 1)
        phases = self.phases.get(type(action))
        if phases is None:
            raise IllegalAction("not_in_variant", action=str(action))
        if seat != self.to_play:
            raise self.turn_refusal(seat, action)
        if self.phase not in phases:
            raise self.phase_refusal(action, phases)
        self.verify_kind(seat, action)

    def verify_kind(self, seat: int, action: Action) -> None:
        """The checks of :meth:`verify` that belong to the action's kind (its turn and
        phase already checked)."""
        if isinstance(action, Draw):
            self.verify_draw(seat, action)
        elif isinstance(action, Discard):
            self.verify_discard(seat, action.card)
        else:
            self.verify_variant(seat, action)

    def verify_discard(self, seat: int, card: Card) -> None:
        if card not in self.hands[seat]:
            raise IllegalAction("not_in_hand", card=card)
        if card is self.just_taken and not self.options.discard_taken_card:
            raise IllegalAction("taken_card", card=card)

    def can(self, seat: int, action: Action) -> bool:
        try:
            self.verify(seat, action)
        except IllegalAction:
            return False
        return True

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not theirs to act)."""
        if self.phase is Phase.OVER or seat != self.to_play:
            return []
        candidates: list[Action] = []
        if self.phase is Phase.DRAW:
            candidates += [DRAW_STOCK, DRAW_DISCARD]
        elif self.phase is Phase.DISCARD:
            candidates += [Discard(c) for c in dict.fromkeys(self.hands[seat])]
        candidates += self.variant_actions(seat)
        return [a for a in candidates if self._allows(seat, a)]

    def _allows(self, seat: int, action: Action) -> bool:
        """:meth:`can` for the seat to play in a deal still running."""
        phases = self.phases.get(type(action))
        if phases is None or self.phase not in phases:
            return False
        try:
            self.verify_kind(seat, action)
        except IllegalAction:
            return False
        return True

    def apply(self, seat: int, action: Action) -> None:
        """Verify and carry out ``action``; an illegal one changes nothing. At
        :data:`MAX_ACTIONS_PER_DEAL` actions a deal still running ends (:meth:`exhaust`)."""
        self.verify(seat, action)
        self.log.append(Play(seat, action))
        if isinstance(action, Draw):
            self.draw(seat, action)
        elif isinstance(action, Discard):
            self.hands[seat].remove(action.card)
            self.discard_pile.append(action.card)
            self.just_taken = None
            self.after_discard(seat)
        else:
            self.apply_variant(seat, action)
        if not self.is_over and len(self.log) >= MAX_ACTIONS_PER_DEAL:
            self.exhaust()

    def draw(self, seat: int, action: Draw) -> None:
        if action.source == "stock":
            self.hands[seat].append(self.stock.pop())
            self.just_taken = None
        else:
            taken = self.discard_pile[-action.depth :]
            del self.discard_pile[-action.depth :]
            self.hands[seat].extend(taken)
            self.taken.extend((seat, c) for c in taken)
            self.just_taken = taken[0] if len(taken) == 1 else None
        self.phase = Phase.DISCARD

    def finish(self, summary: DealSummary) -> None:
        self.summary = summary
        self.phase = Phase.OVER
        self.to_play = None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def cards_in_play(self) -> list[Card]:
        """Every card of the deal wherever it is (hands, stock, discard pile, table)."""
        out = [c for hand in self.hands for c in hand]
        return out + self.stock + self.discard_pile

    # -- a position rebuilt from a view (simulations) ------------------------

    def resume(
        self,
        view: PlayerView,
        *,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        deck: Sequence[Card],
    ) -> None:
        """Put this deal in the position ``view`` shows, the hidden cards given.

        ``hands`` holds every seat's hand and ``stock`` the stock (top last);
        everything public comes from the view; ``deck`` stands for the deal's deck
        (which the view does not show). Bots that sample the cards they cannot see
        (``determinize``) play such a deal on the real engine.
        """
        if len(hands) != self.players:
            raise ValueError(f"{self.players} seats need {self.players} hands, not {len(hands)}")
        if tuple(len(h) for h in hands) != view.hand_sizes or len(stock) != view.stock_size:
            raise ValueError("the hands and the stock must have the sizes the view shows")
        self.deck = tuple(deck)
        self.hands = [list(h) for h in hands]
        self.stock = list(stock)
        self.discard_pile = list(view.discard_pile)
        self.to_play = view.to_play
        self.phase = view.phase
        self.log = list(view.log)
        self.taken = list(view.taken_from_discard)
        self.just_taken = None
        if self.phase is Phase.DISCARD:
            for play in reversed(self.log):  # the draw (or call) of the turn being played
                if isinstance(play.action, Draw):
                    if play.action.source == "discard" and play.action.depth == 1 and self.taken:
                        self.just_taken = self.taken[-1][1]
                    break
                if play.action.calls:
                    break
        self.resume_variant(view)

    def resume_variant(self, view: PlayerView) -> None:
        """Variant state of the position ``view`` shows (table melds, who went out)."""
        return None

    def fork(self, *, hands: Sequence[Sequence[Card]], stock: Sequence[Card]) -> Self:
        """A copy of this deal with other hidden cards: every seat's ``hands`` and the
        ``stock`` (top last), of the sizes this deal has. A fork of a deal that
        :meth:`resume` made is the deal it makes of the same view with these cards, without
        reading the view again (a search plays many)."""
        if [len(h) for h in hands] != [len(h) for h in self.hands] or len(stock) != len(self.stock):
            raise ValueError("the hands and the stock must have the sizes of the deal")
        deal = copy.copy(self)
        deal.hands = [list(h) for h in hands]
        deal.stock = list(stock)
        deal.discard_pile = list(self.discard_pile)
        deal.log = list(self.log)
        deal.taken = list(self.taken)
        self.fork_variant(deal)
        return deal

    def fork_variant(self, deal: Self) -> None:
        """Give the fork ``deal`` its own copy of the variant state that play changes in
        place (a list of table melds)."""
        return None
