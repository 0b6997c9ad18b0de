"""Reading the other seats' hands from their play (:mod:`remikit.bots.strong.inference`)
and seeing a Gin knock coming (:mod:`remikit.variants.gin.race`).

That the weighted worlds agree with the view and use nothing hidden is checked with the
plain ones, in tests/test_determinize.py.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from remikit.actions import Discard, Draw
from remikit.bots import make_bot
from remikit.bots.strong.determinize import deal_type, determinize, knowledge, reading_weights
from remikit.bots.strong.inference import FEATURES, Reading, Tell, reading_for, related
from remikit.cards import JOKER, Card, parse_cards
from remikit.engine import Game
from remikit.variants import find_variant, playable
from remikit.variants.gin import race
from remikit.variants.gin.actions import Knock
from remikit.views import PlayerView

NAMES = [spec.name for spec in playable() if spec.package.startswith("remikit.variants.")]
"""The variants remikit ships (a test may register others)."""


def test_related_cards() -> None:
    """The partners a discard tells of: its rank elsewhere, its suit's neighbours, the Ace
    next to both the two and the King."""
    by_relation: dict[int, set[str]] = {}
    for rel, card in related(Card.parse("7s")):
        by_relation.setdefault(rel, set()).add(str(card))
    assert by_relation == {0: {"7s"}, 1: {"7h", "7d", "7c"}, 2: {"6s", "8s"}, 3: {"5s", "9s"}}
    assert {str(c) for rel, c in related(Card.parse("As")) if rel == 2} == {"Ks", "2s"}
    assert list(related(JOKER)) == []


def test_weights_follow_the_log_odds() -> None:
    """A card's weight multiplies the odds of each feature that holds for it."""
    reading = Reading({"threw_last.rank": -1.0, "took.near1": 0.5, "above_last": -0.25})
    tells = [("took", Card.parse("5h")), ("threw", Card.parse("9c"))]
    unseen = parse_cards("9h 6h Kd 2s")
    w = reading.weights(tells, unseen)
    nine, six, king, two = unseen
    assert w[nine] == pytest.approx(2.718281828**-1.0)
    assert w[six] == pytest.approx(2.718281828**0.5)
    assert w[king] == pytest.approx(2.718281828**-0.25)
    assert w[two] == 1.0


def played(variant: str, seed: int, stop: int) -> tuple[Game, PlayerView]:
    """A game of greedy bots ``stop`` actions into its first deal, and the view of the seat
    to play."""
    spec = find_variant(variant)
    cls = spec.game_class()
    game = cls(cls.options_type.from_mapping({}), rng=random.Random(seed))
    bot = make_bot("greedy", seed=seed)
    for _ in range(stop):
        seat = game.to_play
        if seat is None or game.over:
            break
        game.apply(seat, bot.choose(game.view(seat)))
    seat = game.to_play
    assert seat is not None
    return game, game.view(seat)


@pytest.mark.parametrize("variant", NAMES)
def test_tells_are_the_seats_acts_on_face_up_cards(variant: str) -> None:
    """Every discard is a seat's throw, every card taken from the pile its take, every
    stock draw with a card on the pile a pass of that card."""
    _, view = played(variant, 5, 40)
    expected: list[list[Tell]] = [[] for _ in range(view.players)]
    pile: list[Card | None] = [None] if deal_type(view).opens_pile else []
    taken = iter(view.taken_from_discard)
    for play in view.log:
        action = play.action
        if isinstance(action, Draw) and action.source == "discard":
            for _ in range(action.depth):
                card = next(taken)[1]
                expected[play.seat].append(("took", card))
                pile.pop()
        elif isinstance(action, Draw) and pile and pile[-1] is not None:
            expected[play.seat].append(("passed", pile[-1]))
        if isinstance(action, Discard | Knock):
            expected[play.seat].append(("threw", action.card))
            pile.append(action.card)
    known = knowledge(view)
    for seat in range(view.players):
        assert list(known.tells[seat]) == expected[seat]


@pytest.mark.parametrize("variant", NAMES)
def test_every_variant_ships_a_reading_that_reads_partners(variant: str) -> None:
    """Fitted on self-play, each variant's reading says what the tests of its module say:
    a seat that threw a card seldom holds another of its rank, one that took a card from
    the pile likely holds its neighbours in the suit."""
    reading = reading_for(find_variant(variant).package)
    assert reading is not None
    assert set(reading.log_odds) == set(FEATURES)
    assert reading.log_odds["threw.rank"] < 0 < reading.log_odds["took.near1"]


def hit_rate(variant: str, weighted: bool, views: int = 60) -> float:
    """The share of the unknown cards sampled into other hands that are truly there, over
    views of seeded greedy games."""
    rng = random.Random(3)
    hits = drawn = 0
    for n in range(views):
        game, view = played(variant, 100 + n, 20 + 3 * n % 40)
        deal = game.current()
        known = knowledge(view)
        weights = reading_weights(view, known) if weighted else None
        for _ in range(5):
            world = determinize(view, rng, known=known, weights=weights)
            for s in range(view.players):
                if s != view.seat:
                    guess = Counter(world.hands[s]) - Counter(known.known[s])
                    hits += sum((guess & Counter(deal.hands[s])).values())
                    drawn += sum(guess.values())
    return hits / drawn


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["gin", "remi13d"])
def test_read_worlds_hold_more_of_the_true_hands(variant: str) -> None:
    """Weighted by the reading, sampled hands hold more of the true hands' cards than
    hands dealt alike (measured over more games in docs/strength.md)."""
    assert hit_rate(variant, True) > hit_rate(variant, False) + 0.01


def test_weighted_sampling_follows_a_strong_weight() -> None:
    """A card a reading puts almost surely in a hand lands there in almost every world."""
    _, view = played("gin", 9, 12)
    assert view.seat is not None
    known = knowledge(view)
    other = 1 - view.seat
    target = known.unseen[0]
    weights = [{} if s == view.seat else {target: 1e6} for s in range(view.players)]
    rng = random.Random(1)
    inside = sum(
        target in determinize(view, rng, known=known, weights=weights).hands[other]
        for _ in range(200)
    )
    assert inside >= 195


def gin_log(text: str) -> list[tuple[int, object]]:
    """A log of ``seat action`` entries: ``0 stock``, ``1 pile``, ``0 Kc`` (a discard)."""
    out: list[tuple[int, object]] = []
    for entry in text.split(","):
        seat_text, what = entry.split()
        seat = int(seat_text)
        if what == "stock":
            out.append((seat, Draw("stock")))
        elif what == "pile":
            out.append((seat, Draw("discard")))
        else:
            out.append((seat, Discard(Card.parse(what))))
    return out


def test_knock_signs_read_the_seats_play() -> None:
    """G-5: the draws so far, the values of the seat's last two discards, its takes."""
    log = gin_log("0 stock, 0 Kc, 1 pile, 1 9d, 0 stock, 0 3h, 1 stock, 1 2s")
    assert race.signs(log, 0) == (4, 3, 10, 0)
    assert race.signs(log, 1) == (4, 2, 9, 1)
    assert race.signs([], 1) == (0, 10, 10, 0)


def test_a_low_discard_late_in_the_hand_warns_of_a_knock() -> None:
    """A seat throwing low cards late in a hand is near its knock (G-5)."""
    early_high = race.knock_chance(4, 10, 10, 0)
    late_high = race.knock_chance(16, 10, 10, 0)
    late_low = race.knock_chance(16, 2, 3, 0)
    assert early_high < late_high < late_low < 1


def test_risks_follow_the_other_seats_turns() -> None:
    """Each of the other seat's coming turns is two draws later than the one before."""
    _, view = played("gin", 4, 9)
    risks = race.risks(view, 3)
    assert len(risks) == 3 and all(0 < r < 1 for r in risks)
    log = [(p.seat, p.action) for p in view.log]
    assert view.seat is not None
    draws, last, previous, took = race.signs(log, 1 - view.seat)
    mine = 1 if len(view.hand) <= 10 else 0
    assert risks[2] == race.knock_chance(draws + mine + 4, last, previous, took)
