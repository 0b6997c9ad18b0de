"""What a game review says of a Rummy 500 hand (:mod:`remikit.review.reasons`)."""

from __future__ import annotations

from collections.abc import Sequence

from remikit.cards import Card
from remikit.i18n import N_
from remikit.variants.rummy500.melds import hand_points
from remikit.variants.rummy500.plan import Rules
from remikit.views import PlayerView


class Rummy500Review:
    """Points left in hand after a discard; no meld search for the top discard (a pick-up
    is judged with the table's melds, which the search weighs)."""

    left_message = N_("review.reason.hand_points")

    def left(self, view: PlayerView, hand: Sequence[Card]) -> int:
        return hand_points(list(hand), Rules.of(view).scoring)

    def top_melds(self, view: PlayerView, top: Card) -> bool | None:
        return None

    def goes_out_with(self, left: int) -> bool:
        return False
