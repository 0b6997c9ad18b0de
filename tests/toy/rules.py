"""Tujuh, a made-up rummy that proves the variant seam: one deck, seven cards, a
``show`` of its own.

Rules (numbered T-1 … T-5 in the tests):

* T-1 One 52-card deck without jokers, 2 to 4 players; ``deals`` deals (1 to 5).
* T-2 Each player gets 7 cards; the next card starts the discard pile.
* T-3 A turn is a draw (the stock or the top discard), then a discard; the card just
  taken from the discard pile may not be thrown back.
* T-4 Instead of discarding, a player whose other 7 cards are all in melds (sets and
  runs of 3 or more, ace low) may ``show`` with the eighth card: it goes face up on
  the pile and the deal ends.
* T-5 A deal also ends when the player to draw finds the stock empty. Each player
  scores the deadwood left in hand (ace 1, pictures 10); the one who showed scores 0.
  After the last deal the lowest total wins; a tie for lowest has no winner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from remikit.actions import Action, CardAction, Play, register_kind
from remikit.cards import Card, make_deck
from remikit.deal import Deal, DealPhase, Phase
from remikit.engine import Game, Options, option
from remikit.errors import IllegalAction
from remikit.kinds import Move, Place, TokenSection
from remikit.melds import MeldRules, Scoring
from remikit.solver import Goal, Solver
from remikit.views import DealEnding, DealSummary, EndedBy, SeatResult

HAND_SIZE = 7  # T-2


class TujuhEnding(DealEnding):
    """How a Tujuh deal ends beyond the action limit."""

    SHOW = "show"  # T-4
    STOCK = "stock"  # T-5


@register_kind
@dataclass(frozen=True)
class Show(CardAction):
    """T-4: lay the hand down, all in melds, with ``card`` face up on the pile."""

    verb: ClassVar[str] = "show"
    said: ClassVar[str | None] = "tujuh.act_show"
    sections: ClassVar[tuple[TokenSection, ...]] = (TokenSection("show", 45, "cards"),)

    def moves(self, previous: Play | None) -> tuple[Move, ...]:
        return (Move(Place.HAND, Place.PILE, (self.card,)),)


@dataclass(frozen=True, kw_only=True)
class TujuhOptions(Options):
    """T-1: 2 to 4 players, 1 to 5 deals."""

    players: int = option(2, label="opt.players", low=2, high=4)
    deals: int = option(3, label="opt.deals", low=1, high=5)


@cache
def solver() -> Solver:
    """T-4, T-5: sets and runs of 3 or more, ace low; a card left over counts its rank,
    pictures 10."""
    rules = MeldRules(ace="low", set_distinct_suits=False, set_max=0)
    return Solver(rules, Scoring(dead=tuple(-min(i % 13 + 1, 10) for i in range(52))))


def deadwood(hand: Sequence[Card]) -> int:
    """T-5: the least deadwood ``hand`` can leave."""
    return -solver().value(hand)


def can_show(hand: Sequence[Card], card: Card) -> bool:
    """T-4: whether the hand without ``card`` is all in melds."""
    rest = list(hand)
    rest.remove(card)
    return solver().solve(rest, goal=Goal(all_melded=True)) is not None


class TujuhDeal(Deal):
    """One deal (T-2 … T-5)."""

    phases: ClassVar[Mapping[type[Action], frozenset[DealPhase]]] = {
        **Deal.phases,
        Show: frozenset({Phase.DISCARD}),
    }

    def hand_size(self) -> int:
        return HAND_SIZE

    def variant_actions(self, seat: int) -> list[Action]:
        if self.phase is not Phase.DISCARD:
            return []
        shows: list[Action] = [Show(c) for c in dict.fromkeys(self.hands[seat])]
        return shows

    def verify_variant(self, seat: int, action: Action) -> None:
        assert isinstance(action, Show)
        self.verify_discard(seat, action.card)
        if not can_show(self.hands[seat], action.card):
            raise IllegalAction("not_in_variant", action=str(action))

    def apply_variant(self, seat: int, action: Action) -> None:
        assert isinstance(action, Show)
        self.hands[seat].remove(action.card)
        self.discard_pile.append(action.card)
        self.score(TujuhEnding.SHOW, seat)

    def after_discard(self, seat: int) -> None:
        self.to_play = (seat + 1) % self.players
        self.phase = Phase.DRAW
        if not self.stock:  # T-5
            self.score(TujuhEnding.STOCK, None)

    def exhaust(self) -> None:
        self.score(EndedBy.LIMIT, None)

    def score(self, ended_by: DealEnding, shown: int | None) -> None:
        """T-5: each hand's deadwood; the seat that showed scores 0."""
        results = []
        for seat, hand in enumerate(self.hands):
            found = solver().solve(hand)
            assert found is not None
            results.append(
                SeatResult(
                    points=0 if seat == shown else -found.value,
                    melds=tuple(tuple(m.tokens()) for m in found.melds),
                    dead=found.dead,
                    went_out=seat == shown,
                )
            )
        self.finish(DealSummary(self.number, ended_by, shown, tuple(results)))


class TujuhGame(Game):
    """``deals`` deals; the lowest total wins (T-5)."""

    name: ClassVar[str] = "tujuh"
    options_type: ClassVar[type[Options]] = TujuhOptions
    deal_type: ClassVar[type[Deal]] = TujuhDeal
    lower_is_better: ClassVar[bool] = True
    options: TujuhOptions

    def full_deck(self) -> list[Card]:
        return make_deck(decks=1, jokers=0)

    def next_dealer(self) -> int:
        return len(self.deals) % self.players

    def is_finished(self) -> bool:
        return len(self.deals) >= self.options.deals and self.deals[-1].is_over

    def decide_winner(self) -> int | None:
        best = min(self.totals)
        leaders = [s for s, total in enumerate(self.totals) if total == best]
        return leaders[0] if len(leaders) == 1 else None
