"""A whole game of one variant: deals one after another (see :mod:`remikit.deal`).

A :class:`Game` runs deals one after another (a match, a game to 500, eleven
rounds), keeps the running totals and the record, and gives each seat its
view. Variants subclass it and override a few hooks.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from remikit.actions import Action
from remikit.cards import Card
from remikit.deal import Deal, Phase
from remikit.errors import IllegalAction
from remikit.options import OptionError as OptionError
from remikit.options import OptionInfo as OptionInfo
from remikit.options import OptionRefused as OptionRefused
from remikit.options import Options as Options
from remikit.options import OptionText as OptionText
from remikit.options import check_choice as check_choice
from remikit.options import check_range as check_range
from remikit.options import option as option
from remikit.shuffle import draw_seed, shuffled
from remikit.views import EndedBy, PlayerView, PlayLog, TableMeld, ViewPart


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
