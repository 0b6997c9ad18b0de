"""What a player's statistics count of a Remi 13 D deal beyond how it ended: the closes
with an Ace ("Remi As") and with a Joker (R13-11)."""

from __future__ import annotations

from remikit.cards import JOKER, Rank
from remikit.variants.remi13d.state import Remi13DEnding
from remikit.views import DealSummary


def deal_marks(summary: DealSummary, seat: int) -> tuple[str, ...]:
    """``ace_close`` or ``joker_close`` when ``seat`` closed the deal (R13-11)."""
    if summary.ended_by is not Remi13DEnding.CLOSE or summary.by_seat != seat:
        return ()
    closing = summary.results[seat].closing
    if closing is JOKER:
        return ("joker_close",)
    if closing is not None and closing.rank == Rank.ACE:
        return ("ace_close",)
    return ()
