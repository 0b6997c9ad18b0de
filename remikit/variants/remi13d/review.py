"""What a game review says of a Remi 13 D hand (:mod:`remikit.review.reasons`)."""

from __future__ import annotations

from collections.abc import Sequence

from remikit.cards import Card
from remikit.i18n import N_
from remikit.solver import Goal
from remikit.variants.remi13d import scoring
from remikit.variants.remi13d.rules import pure_rule_of
from remikit.views import PlayerView


class Remi13DReview:
    """Dead-card points left after a discard (the best arrangement, as the table's hints
    find it); whether the top discard joins a meld."""

    left_message = N_("review.reason.dead_points")

    def left(self, view: PlayerView, hand: Sequence[Card]) -> int:
        found = scoring.solver(pure_rule_of(view)).solve(list(hand))
        assert found is not None  # without goals every hand has an arrangement
        return -scoring.dead_points(found.dead)

    def top_melds(self, view: PlayerView, top: Card) -> bool | None:
        found = scoring.solver(pure_rule_of(view)).solve(
            [*view.hand, top], goal=Goal(discard=True, keep=top)
        )
        return found is not None and any(top in m.cards for m in found.melds)

    def goes_out_with(self, left: int) -> bool:
        return False
