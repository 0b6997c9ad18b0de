"""The short reasons of reviewed decisions (remikit.review.reasons): a close or knock passed
up, whether the upcard joins a meld, the deadwood two discards leave, the next seat's
pick-up, in both languages."""

from __future__ import annotations

from remikit.actions import Discard, Draw, Play
from remikit.cards import Card
from remikit.review import moments, review
from remikit.review.rate import Rated, Rating
from remikit.review.reasons import reasons, texts
from tests.stacked import Stacked
from tests.test_review import BUDGET, gin_record, remi13d_record


def keys_of(record: dict[str, object], seat: int, phase: str) -> list[str]:
    found = review(record, seat, budget=BUDGET)
    views = {(m.deal, m.turn): m.view for m in moments(record, seat)}
    [decision] = [d for d in found.decisions if d.phase == phase]
    return [r.key for r in reasons(views[decision.deal, decision.turn], decision.rating)]


def test_a_knock_passed_up_and_an_upcard_that_melds(stacked: Stacked) -> None:
    record = gin_record(stacked, "p0 draw discard", "p0 discard 5c")
    assert keys_of(record, 0, "discard")[0] == "review.reason.missed_knock"
    assert keys_of(record, 0, "offer") == ["review.reason.top_melds"]


def test_a_close_passed_up(stacked: Stacked) -> None:
    record = remi13d_record(stacked, "p0 draw stock", "p0 discard Ah")
    assert keys_of(record, 0, "discard")[0] == "review.reason.missed_close"


def test_two_discards_compared_and_the_next_seat_took_it(stacked: Stacked) -> None:
    record = gin_record(stacked, "p0 draw discard", "p0 discard 5c")
    [moment] = [m for m in moments(record, 0) if m.view.phase == "discard"]
    five, king = Card.parse("5c"), Card.parse("Ks")
    rating = Rating(Discard(king), Discard(five), (Rated(Discard(five), 1.0),), 9.0, 1.0, 8)
    found = reasons(moment.view, rating, Play(1, Draw("discard")))
    assert [r.key for r in found] == ["review.reason.deadwood", "review.reason.next_took"]
    assert found[0].params == {"card": "Ks", "points": 25, "best": "5c", "best_points": 0}
    assert "Ks" in texts(found, "en") and "Membuang Ks" in texts(found, "id")
