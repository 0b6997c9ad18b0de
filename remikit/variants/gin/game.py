"""A game of Gin Rummy: hands until a total reaches the target, then the game, box and
shutout bonuses (RULES.md §4, G-10)."""

from __future__ import annotations

from typing import Any, ClassVar

from remikit.cards import Card, make_deck
from remikit.deal import Deal
from remikit.engine import Game, Options
from remikit.variants.gin.options import GinOptions
from remikit.variants.gin.rules import GinDeal
from remikit.variants.gin.state import GinViewPart
from remikit.views import TableMeld

GAME_BONUS = 100  # G-10
BOX_BONUS = 25  # G-10


class GinGame(Game):
    """Hands of Gin Rummy until a total reaches the target (G-10)."""

    name: ClassVar[str] = "gin"
    options_type: ClassVar[type[Options]] = GinOptions
    deal_type: ClassVar[type[Deal]] = GinDeal
    options: GinOptions

    def __init__(self, options: Options, **kwargs: Any) -> None:
        self.bonuses: tuple[int, ...] = ()
        super().__init__(options, **kwargs)

    def full_deck(self) -> list[Card]:
        return make_deck(decks=1)  # G-1

    def next_dealer(self) -> int:
        """G-1: seat 1 deals the first hand (seat 0 plays first, as in OpenSpiel); then
        the deal alternates."""
        if not self.deals:
            return 1
        return 1 - self.deals[-1].dealer

    def is_finished(self) -> bool:
        return max(self.totals) >= self.options.target

    def decide_winner(self) -> int | None:
        """The seat that reached the target (only the winner of a hand scores, so one
        does), after adding the bonuses of G-10 to the totals."""
        winner = max(range(self.players), key=lambda s: self.totals[s])
        won = [0] * self.players
        for deal in self.deals:
            if deal.summary is not None:
                for seat, result in enumerate(deal.summary.results):
                    won[seat] += result.points > 0
        bonuses = [BOX_BONUS * n for n in won]
        bonuses[winner] += GAME_BONUS
        if won[1 - winner] == 0:  # a shutout: the winner's score and game bonus double
            bonuses[winner] += self.totals[winner] + GAME_BONUS
        self.bonuses = tuple(bonuses)
        self.totals = [t + b for t, b in zip(self.totals, bonuses, strict=True)]
        return winner

    def view_table(self, deal: Deal) -> tuple[TableMeld, ...]:
        assert isinstance(deal, GinDeal)
        return tuple(m.view(n) for n, m in enumerate(deal.table, 1))

    def view_part(self, deal: Deal | None) -> GinViewPart:
        limit = deal.limit if isinstance(deal, GinDeal) else None
        return GinViewPart(knock_limit=limit, game_bonuses=self.bonuses)
