"""What a game review says of a Three-Thirteen hand (:mod:`remikit.review.reasons`)."""

from __future__ import annotations

from collections.abc import Sequence

from remikit.cards import Card
from remikit.i18n import N_
from remikit.melds import AceMode
from remikit.solver import Goal
from remikit.variants.three_thirteen import scoring
from remikit.variants.three_thirteen.rules import options_of
from remikit.views import PlayerView


def _ace(view: PlayerView) -> AceMode:
    return "high" if options_of(view).ace == "high" else "low"


class ThreeThirteenReview:
    """Deadwood left after a discard (none: going out, R3-6); whether the top discard
    joins a meld."""

    left_message = N_("review.reason.deadwood")

    def left(self, view: PlayerView, hand: Sequence[Card]) -> int:
        return scoring.deadwood_points(list(hand), round_no=view.deal_number, ace=_ace(view))

    def top_melds(self, view: PlayerView, top: Card) -> bool | None:
        wild = scoring.wild_rank(view.deal_number)
        found = scoring.solver(_ace(view)).solve(
            [*view.hand, top], wild_rank=wild, goal=Goal(discard=True, keep=top)
        )
        return found is not None and any(top in m.cards for m in found.melds)

    def goes_out_with(self, left: int) -> bool:
        return left == 0
