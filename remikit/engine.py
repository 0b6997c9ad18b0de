"""The state machine shared by every variant: deals inside a game.

A :class:`Deal` runs one deal (a Remi 13 D game, a Rummy 500 hand, a
Three-Thirteen round) from the shuffled deck to its scores. A :class:`Game`
runs deals one after another (a match, a game to 500, eleven rounds), keeps
the running totals and the record. Variants subclass both and override a few
hooks; each action has one ``verify`` that says why it is illegal, and
``can``/``legal_actions`` derive from it.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, ClassVar, Self

from remikit.actions import Action, Discard, Draw, Play
from remikit.cards import Card
from remikit.errors import IllegalAction, Reason
from remikit.options import OptionError as OptionError
from remikit.options import OptionInfo as OptionInfo
from remikit.options import OptionRefused as OptionRefused
from remikit.options import Options as Options
from remikit.options import OptionText as OptionText
from remikit.options import check_choice as check_choice
from remikit.options import check_range as check_range
from remikit.options import option as option
from remikit.shuffle import draw_seed, shuffled
from remikit.views import DealSummary, EndedBy, PlayerView, PlayLog, TableMeld, ViewPart

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


class Game(ABC):
    """A whole game of one variant: deals, running totals, the record."""

    name: ClassVar[str]
    options_type: ClassVar[type[Options]]
    deal_type: ClassVar[type[Deal]]
    lower_is_better: ClassVar[bool] = False
    """True where scores count against a player (deadwood) and the lowest total wins."""

    def __init__(
        self, options: Options, *, rng: random.Random | None = None, auto_deal: bool = True
    ) -> None:
        if not isinstance(options, self.options_type):
            raise OptionError(
                f"{self.name} takes {self.options_type.__name__}, not {type(options).__name__}"
            )
        options.check()
        self.options = options
        self.rng = rng if rng is not None else random.SystemRandom()
        self.auto_deal = auto_deal
        self.deals: list[Deal] = []
        self.totals = [0] * self.players
        self.winner: int | None = None
        self.over = False
        if auto_deal:
            self.start_deal()

    # -- hooks ------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.options.players

    @abstractmethod
    def full_deck(self) -> list[Card]:
        """The unshuffled deck a deal uses."""

    def make_deal(self, *, number: int, dealer: int, first: int) -> Deal:
        """A new, undealt deal of this game."""
        return self.deal_type(
            number=number, players=self.players, dealer=dealer, first=first, options=self.options
        )

    @abstractmethod
    def next_dealer(self) -> int:
        """The dealer of the next deal (the first deal's dealer when none was played)."""

    @abstractmethod
    def is_finished(self) -> bool:
        """Whether the game ends after the deals played so far."""

    @abstractmethod
    def decide_winner(self) -> int | None:
        """The winning seat of a finished game, or None."""

    # -- play -------------------------------------------------------------

    @property
    def deal(self) -> Deal | None:
        return self.deals[-1] if self.deals else None

    @property
    def needs_deal(self) -> bool:
        return not self.over and (not self.deals or self.deals[-1].is_over)

    def start_deal(
        self,
        deck: Sequence[Card] | None = None,
        *,
        dealer: int | None = None,
        first: int | None = None,
    ) -> Deal:
        """Start the next deal with ``deck`` (when None: :meth:`new_deck`, shuffled with a
        seed drawn from the game's ``rng``)."""
        if not self.needs_deal:
            raise ValueError("a deal is still in progress" if not self.over else "the game is over")
        rule_dealer = self.next_dealer()
        if dealer is not None and dealer != rule_dealer and self.deals:
            number = len(self.deals) + 1
            raise ValueError(f"the dealer of deal {number} is seat {rule_dealer}, not {dealer}")
        dealer = rule_dealer if dealer is None else dealer
        if not 0 <= dealer < self.players:
            raise ValueError(f"there is no seat {dealer}")
        first = (dealer + 1) % self.players if first is None else first
        if not 0 <= first < self.players:
            raise ValueError(f"there is no seat {first}")
        if deck is None:
            cards = self.new_deck()
        else:
            cards = list(deck)
            check_deck(cards, self.full_deck())
        deal = self.make_deal(number=len(self.deals) + 1, dealer=dealer, first=first)
        deal.deal(cards)
        self.deals.append(deal)
        return deal

    def new_deck(self, seed: bytes | None = None) -> list[Card]:
        """The full deck in the order :mod:`remikit.shuffle` gives it for ``seed``; without
        one, for a seed of 32 bytes drawn from the game's ``rng`` (a new one each call)."""
        return shuffled(self.full_deck(), draw_seed(self.rng) if seed is None else seed)

    def current(self) -> Deal:
        deal = self.deal
        if deal is None or deal.is_over:
            raise IllegalAction("game_over") if self.over else IllegalAction("no_deal")
        return deal

    def verify(self, seat: int, action: Action) -> None:
        self.current().verify(seat, action)

    def can(self, seat: int, action: Action) -> bool:
        return self.deal is not None and not self.deal.is_over and self.deal.can(seat, action)

    def legal_actions(self, seat: int) -> list[Action]:
        deal = self.deal
        return [] if deal is None or deal.is_over else deal.legal_actions(seat)

    @property
    def to_play(self) -> int | None:
        deal = self.deal
        return None if deal is None else deal.to_play

    def apply(self, seat: int, action: Action) -> None:
        """Carry out one action; ends the deal and the game when the rules say so."""
        deal = self.current()
        deal.apply(seat, action)
        if deal.summary is not None:
            for s, points in enumerate(deal.summary.points):
                self.totals[s] += points
            if self.is_finished():
                self.over = True
                self.winner = self.decide_winner()
            elif self.auto_deal:
                self.start_deal()

    # -- what leaves the engine --------------------------------------------

    def view(self, seat: int | None) -> PlayerView:
        """The view of ``seat`` (None: a spectator)."""
        deal = self.deal
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat}")
        if deal is None:
            return self._view_before_dealing(seat)
        return PlayerView(
            variant=self.name,
            seat=seat,
            players=self.players,
            options=self.options,
            deal_number=deal.number,
            dealer=deal.dealer,
            to_play=deal.to_play,
            phase=deal.phase,
            hand=tuple(deal.hands[seat]) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in deal.hands),
            stock_size=len(deal.stock),
            discard_pile=tuple(deal.discard_pile),
            log=PlayLog(deal.log, len(deal.log)),
            totals=tuple(self.totals),
            finished_deals=tuple(d.summary for d in self.deals if d.summary is not None),
            legal_actions=tuple(self.legal_actions(seat)) if seat is not None else (),
            game_over=self.over,
            winner=self.winner,
            table=self.view_table(deal),
            taken_from_discard=tuple(deal.taken),
            extra=self.view_part(deal),
        )

    def _view_before_dealing(self, seat: int | None) -> PlayerView:
        """The view while the first deal waits to be dealt: every card in the stock."""
        return PlayerView(
            variant=self.name,
            seat=seat,
            players=self.players,
            options=self.options,
            deal_number=1,
            dealer=self.next_dealer(),
            to_play=None,
            phase=Phase.DRAW,
            hand=(),
            hand_sizes=(0,) * self.players,
            stock_size=len(self.full_deck()),
            discard_pile=(),
            log=(),
            totals=tuple(self.totals),
            finished_deals=(),
            extra=self.view_part(None),
        )

    def view_table(self, deal: Deal) -> tuple[TableMeld, ...]:
        """The melds on the table, where the variant lays them (none by default)."""
        return ()

    def view_part(self, deal: Deal | None) -> ViewPart:
        """The view's fields of the variant's own (:class:`~remikit.views.ViewPart`), of
        ``deal`` or, None, while the first deal waits to be dealt; none by default."""
        return ViewPart()

    def resume_deal(
        self, view: PlayerView, *, hands: Sequence[Sequence[Card]], stock: Sequence[Card]
    ) -> Deal:
        """A deal in the position ``view`` shows, with every hidden card given (see
        :meth:`Deal.resume`); the game itself does not change."""
        if view.to_play is None:
            raise ValueError("the view shows no deal in progress")
        deal = self.make_deal(
            number=view.deal_number, dealer=view.dealer, first=(view.dealer + 1) % self.players
        )
        deal.resume(view, hands=hands, stock=stock, deck=self.full_deck())
        return deal

    def record(self) -> dict[str, Any]:
        """The game record (CONTRACT.md): options, and per deal its deck and actions."""
        hands = []
        for deal in self.deals:
            hand: dict[str, Any] = {
                "dealer": deal.dealer,
                "first": deal.first,
                "deck": [str(c) for c in deal.deck],
                "actions": [str(play) for play in deal.log],
            }
            if deal.summary is not None and deal.summary.ended_by is EndedBy.LIMIT:
                hand["ended_by"] = str(EndedBy.LIMIT)  # why it ended (RULES.md §0)
            hands.append(hand)
        return {"variant": self.name, "options": self.options.as_dict(), "hands": hands}


def check_deck(deck: Sequence[Card], full: Sequence[Card]) -> None:
    """Raise ValueError naming every card that is missing or too many."""
    have, want = Counter(deck), Counter(full)
    if have.items() == want.items():  # as dicts: Counter's own == is slow
        return
    extra = [f"{have[c] - want[c]} × {c}" for c in sorted(have) if have[c] > want[c]]
    missing = [f"{want[c] - have[c]} × {c}" for c in sorted(want) if have[c] < want[c]]
    problems = ([f"too many: {', '.join(extra)}"] if extra else []) + (
        [f"missing: {', '.join(missing)}"] if missing else []
    )
    if problems:
        raise ValueError(f"the deck is not the game's full deck ({'; '.join(problems)})")
