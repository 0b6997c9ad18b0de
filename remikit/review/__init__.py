"""Game review: each decision of a seat rated the way the strong bot sees it, from the
seat's view alone, with the cost of the action taken and a mark (docs/review.md)."""

from remikit.review.game import Review, Reviewed, Summary, moments, review, verdict
from remikit.review.rate import Rated, Rating, rate

__all__ = [
    "Rated",
    "Rating",
    "Review",
    "Reviewed",
    "Summary",
    "moments",
    "rate",
    "review",
    "verdict",
]
