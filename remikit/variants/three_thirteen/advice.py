"""Three-Thirteen's hints at the web table (the ``advice`` part): going out, the deadwood
and the best arrangement, from the seat's own view only (:mod:`.scoring`'s search)."""

from __future__ import annotations

from collections.abc import Hashable

from remikit.melds import AceMode, Deadwood
from remikit.server.advice import BestArrangement, StateAdvice, arrangement, discards
from remikit.variants.three_thirteen import scoring
from remikit.variants.three_thirteen.rules import options_of
from remikit.views import PlayerView


def least_deadwood(view: PlayerView) -> tuple[Deadwood, bool]:
    """The least deadwood (R3-7), after the best discard in the discard phase; and whether
    the seat is discarding."""
    ace: AceMode = "high" if options_of(view).ace == "high" else "low"
    discarding = bool(discards(view))
    found = scoring.deadwood(
        list(view.hand),
        round_no=view.deal_number,
        ace=ace,
        discard=discarding,
        keep=view.kept_card if discarding else None,
    )
    return found, discarding


class ThreeThirteenAdvice:
    """The hints of a Three-Thirteen seat (:class:`~remikit.server.advice.Advisor`)."""

    def state(self, view: PlayerView) -> StateAdvice:
        """R3-6: the seat goes out when a discard leaves no deadwood; R3-7: deadwood now."""
        found, discarding = least_deadwood(view)
        out = discarding and found.points == 0
        return {
            "can_close": False,
            "close_card": None,
            "can_go_out": out,
            "go_out_discard": str(found.discard) if out else None,
            "counter": {"deadwood": found.points},
            "warnings": [],
        }

    def state_key(self, view: PlayerView) -> Hashable:
        """What :meth:`state` reads: the hand, the round, the ace, whether the seat is
        discarding and the card it must keep."""
        discarding = bool(discards(view))
        kept = view.kept_card if discarding else None
        return tuple(view.hand), view.deal_number, options_of(view).ace, discarding, kept

    def best(self, view: PlayerView) -> BestArrangement:
        found, _ = least_deadwood(view)
        return arrangement(found.melds, found.dead, found.points, discard=found.discard)
