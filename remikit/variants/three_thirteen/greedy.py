"""The greedy Three-Thirteen strategy: the least deadwood one draw ahead (R3-7)."""

from __future__ import annotations

from collections.abc import Sequence

from remikit.actions import Action, Draw
from remikit.bots.greedy import Rating, best_single_discard, draw_choice
from remikit.cards import Card
from remikit.melds import AceMode
from remikit.variants.three_thirteen import scoring as three_thirteen
from remikit.variants.three_thirteen.rules import options_of
from remikit.views import PlayerView


class ThreeThirteenStrategy:
    """Greedy Three-Thirteen: keep the deadwood (R3-7) as low as it can be.

    It takes the discard when the deadwood after the best discard goes down,
    and discards to leave the least deadwood; going out (R3-6) happens by
    itself once a discard leaves none.
    """

    @staticmethod
    def _table(view: PlayerView) -> tuple[int, AceMode]:
        ace = options_of(view).ace_mode
        return view.deal_number, ace

    def rate(self, view: PlayerView, hand: Sequence[Card]) -> Rating:
        round_no, ace = self._table(view)
        return (-three_thirteen.deadwood_points(hand, round_no=round_no, ace=ace), 0)

    def draw(self, view: PlayerView) -> Action:
        top = view.top_discard
        if top is None or Draw("discard") not in view.legal_actions:
            return draw_choice(view, False)
        round_no, ace = self._table(view)
        # As in Remi 13 D, the best discard of any card decides: discarding the
        # taken card again only gives back the hand as it is.
        after = three_thirteen.deadwood_points(
            [*view.hand, top], round_no=round_no, ace=ace, discard=True
        )
        now = three_thirteen.deadwood_points(view.hand, round_no=round_no, ace=ace)
        return draw_choice(view, after < now)

    def discard(self, view: PlayerView) -> Action:
        round_no, ace = self._table(view)
        found = three_thirteen.deadwood(
            view.hand, round_no=round_no, ace=ace, discard=True, keep=view.kept_card
        )
        return best_single_discard(view, found.discard, lambda rest: self.rate(view, rest))
