"""What a game review says of a Gin Rummy hand (:mod:`remikit.review.reasons`)."""

from __future__ import annotations

from collections.abc import Sequence

from remikit.cards import Card
from remikit.i18n import N_
from remikit.solver import Goal
from remikit.variants.gin import scoring
from remikit.views import PlayerView


class GinReview:
    """Deadwood left after a discard; whether the upcard joins a meld."""

    left_message = N_("review.reason.deadwood")

    def left(self, view: PlayerView, hand: Sequence[Card]) -> int:
        return scoring.deadwood(list(hand)).points

    def top_melds(self, view: PlayerView, top: Card) -> bool | None:
        found = scoring.SOLVER.solve([*view.hand, top], goal=Goal(discard=True, keep=top))
        return found is not None and any(top in m.cards for m in found.melds)

    def goes_out_with(self, left: int) -> bool:
        return False
