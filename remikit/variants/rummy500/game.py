"""A game of Rummy 500: hands until a total reaches the target (RULES.md §2, R5-13).

The first hand is dealt by the last seat (seat 0 plays first) unless a
record names another dealer; then the deal passes to the next seat.
"""

from __future__ import annotations

from typing import ClassVar

from remikit.cards import Card, make_deck
from remikit.deal import Deal
from remikit.engine import Game, Options
from remikit.variants.rummy500.options import Rummy500Options
from remikit.variants.rummy500.rules import Rummy500Deal
from remikit.variants.rummy500.state import Rummy500ViewPart
from remikit.views import TableMeld


class Rummy500Game(Game):
    """Hands until a total reaches the target; the highest total wins (R5-13)."""

    name: ClassVar[str] = "rummy500"
    options_type: ClassVar[type[Options]] = Rummy500Options
    deal_type: ClassVar[type[Deal]] = Rummy500Deal
    options: Rummy500Options

    def full_deck(self) -> list[Card]:
        decks = self.options.decks  # R5-1
        return make_deck(decks=decks, jokers=2 * decks if self.options.jokers else 0)

    def next_dealer(self) -> int:
        """R5-2: the last seat deals the first hand (seat 0 plays first); then the next seat."""
        if not self.deals:
            return self.players - 1
        return (self.deals[-1].dealer + 1) % self.players

    def is_finished(self) -> bool:
        """R5-13: a total reached the target and one seat leads alone (a tie plays on)."""
        best = max(self.totals)
        return best >= self.options.target and self.totals.count(best) == 1

    def decide_winner(self) -> int | None:
        return self.totals.index(max(self.totals))

    def view_table(self, deal: Deal) -> tuple[TableMeld, ...]:
        assert isinstance(deal, Rummy500Deal)
        return tuple(m.table_meld for m in deal.table)

    def view_part(self, deal: Deal | None) -> Rummy500ViewPart:
        owed = deal.must_meld if isinstance(deal, Rummy500Deal) else None
        return Rummy500ViewPart(must_meld=owed)
