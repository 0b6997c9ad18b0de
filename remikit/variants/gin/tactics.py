"""Gin Rummy knowledge for the strong bot: a race to the knock, played safely.

Against a player who knocks as soon as it may (G-5), a hand is a race: whoever
knocks first usually wins it, and the loser pays its deadwood. So the strong
bot rates a hand of ten by its *outlook* (:func:`outlook`): over futures
sampled from the cards it has not seen, it draws the stock cards of its next
:data:`STEPS` turns, discarding each time to the least deadwood; the first
time it may knock the race is won (:data:`WIN` less the deadwood, the gin
bonus on gin), and before each of its turns the other seat knocks with the
chance its play so far shows (:mod:`remikit.variants.gin.race`), costing the
deadwood held then.

A discard is also rated by what it gives away (:func:`danger`): the chance that
the other seat holds two cards that meld with it, counting the cards it took
from the discard pile as held, the cards nobody can hold (in this hand, on
the discard pile) as out, and the others as likely as the reading of its play
makes them (:mod:`remikit.bots.strong.inference`). The draw (G-3, G-4) compares
the outlook after taking the upcard and the best discard with the outlook of a
stock card.

A knock that is not gin is the favourite, but the search weighs it against
holding on (rollouts to the end of the hand with fast policies): a knock with
much deadwood against a hand that is likely low is an undercut (G-7) waiting
to happen. Laying down and defending play as the greedy strategy does
(:mod:`remikit.variants.gin.greedy`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from remikit.actions import Action, Discard, Draw, LayOff, MeldCards, Pass
from remikit.bots.strong.determinize import (
    Determinization,
    Knowledge,
    hand_chances,
    knowledge,
    own_draws,
)
from remikit.bots.strong.search import Plan, including
from remikit.cards import Card, Suit
from remikit.deal import Deal, Phase
from remikit.solver import Goal
from remikit.variants.gin import greedy, melds, race
from remikit.variants.gin.actions import Knock
from remikit.variants.gin.rules import GinDeal, min_deadwood
from remikit.variants.gin.scoring import BEST_DISCARD, SOLVER
from remikit.variants.gin.state import GinPhase, view_limit
from remikit.views import PlayerView

STEPS = 4  # own turns the outlook looks ahead
SHORTLIST = 4  # discards rated by the outlook: the cheapest by deadwood
WIN = 20.0  # what knocking first is worth, less the knocker's deadwood
GIN = 25.0  # the gin bonus (G-7)
FEED = 4.0  # what handing the other seat a meld card costs
KNOCK_PRIOR = 2.0  # the knock's head start over holding on


def outlook(
    hand: Sequence[Card], futures: Sequence[Sequence[Card]], limit: int, risks: Sequence[float]
) -> float:
    """The hand of ten's expected worth, the other seat to play next (module docstring);
    ``risks[k]``: the chance that the other seat knocks at its ``k``-th turn from now, if
    it has not before."""
    total = 0.0
    start = min_deadwood(hand)
    for future in futures:
        cards = list(hand)
        held = start
        alive = 1.0
        value = 0.0
        for turn, card in enumerate(future):
            risk = risks[min(turn, len(risks) - 1)]
            value -= alive * risk * held
            alive *= 1 - risk
            cards.append(card)
            best = SOLVER.solve(cards, goal=BEST_DISCARD)
            assert best is not None and best.discard is not None
            held = -best.value
            if held <= limit:
                value += alive * (WIN - held + (GIN if held == 0 else 0.0))
                alive = 0.0
                break
            cards.remove(best.discard)
        total += value - alive * held
    return total / len(futures)


def danger(
    card: Card, view: PlayerView, known: Knowledge, chances: Mapping[Card, float] | None
) -> float:
    """The chance that the other seat holds two cards that meld with ``card``; ``chances``:
    each unseen card's chance of being in its hand (None: all alike)."""
    assert view.seat is not None
    other = 1 - view.seat
    theirs = set(known.known[other])
    unseen = set(known.unseen)
    free = view.hand_sizes[other] - len(theirs)
    each = free / len(unseen) if unseen else 0.0

    def chance(c: Card | None) -> float:
        if c is None or (c not in unseen and c not in theirs):
            return 0.0
        if c in theirs:
            return 1.0
        return each if chances is None else chances.get(c, 0.0)

    rank = int(card.rank)
    same = [chance(Card.of(rank, s)) for s in Suit if s != card.suit]
    pairs = [(same[i], same[j]) for i in range(3) for j in range(i + 1, 3)]

    def at(r: int) -> Card | None:
        return Card.of(r, card.suit) if 1 <= r <= 13 else None

    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        pairs.append((chance(at(rank + a)), chance(at(rank + b))))
    safe = 1.0
    for p, q in pairs:
        safe *= 1 - p * q
    return 1 - safe


class GinTactics:
    """The strong bot's Gin Rummy: see the module docstring."""

    horizon = 60  # to the end of the hand
    # solver calls a second buys (the outlook's unit of effort): with the compiled
    # solver, decision time p95 0.010 s CPU at 0.1 s and 4000 a second
    sims_per_second = 39000
    max_rollouts: int | None = 24
    reads_play = True
    effort = 0

    def futures(
        self, view: PlayerView, candidates: int, known: Knowledge | None = None
    ) -> list[list[Card]]:
        count = max(4, self.effort // (STEPS * max(1, candidates)))
        return own_draws(view, STEPS + 1, count, known)

    def candidates(
        self, view: PlayerView, include: Action | None = None
    ) -> list[tuple[Plan, float]]:
        phase = view.phase
        prior = KNOCK_PRIOR if isinstance(include, Knock) else 0.0
        if phase in (GinPhase.OFFER, Phase.DRAW):
            return including([((self.draw(view),), 0.0)], include)
        if phase is Phase.DISCARD:
            return including(self.discards(view), include, prior)
        if phase is GinPhase.WALL:
            knock = greedy.best_knock(view)
            return including([((knock if knock is not None else Pass(),), 0.0)], include, prior)
        return including([((greedy.GinStrategy().discard(view),), 0.0)], include)

    def rated_discards(self, view: PlayerView, hand: Sequence[Card]) -> list[tuple[float, Card]]:
        """The shortlist of discards from ``hand`` with their worth (outlook less danger),
        the best first."""
        limit = view_limit(view, 10)
        known = knowledge(view)
        cheapest = sorted(dict.fromkeys(hand), key=lambda c: greedy.after_discard(hand, c))
        shortlist = cheapest[:SHORTLIST]
        futures = [f[:STEPS] for f in self.futures(view, len(shortlist), known)]
        risks = race.risks(view, STEPS + 1)
        chances = hand_chances(view, known)
        assert view.seat is not None
        theirs = None if chances is None else chances[1 - view.seat]
        rated = []
        for card in shortlist:
            rest = list(hand)
            rest.remove(card)
            worth = outlook(rest, futures, limit, risks) - FEED * danger(card, view, known, theirs)
            rated.append((worth, card))
        return sorted(rated, key=lambda wc: -wc[0])

    def discards(self, view: PlayerView) -> list[tuple[Plan, float]]:
        knock = greedy.best_knock(view)
        if knock is not None and greedy.after_discard(view.hand, knock.card) == 0:
            return [((knock,), 0.0)]
        allowed = {a.card for a in view.legal_actions if isinstance(a, Discard)}
        hand = list(view.hand)
        rated = [(w, c) for w, c in self.rated_discards(view, hand) if c in allowed]
        best = Discard(rated[0][1]) if rated else greedy.best_discard(view)
        if knock is None:
            return [((best,), 0.0)]
        return [((knock,), KNOCK_PRIOR), ((best,), 0.0)]

    def draw(self, view: PlayerView) -> Action:
        """The upcard when the hand's worth with it beats the worth of a stock card."""
        top = view.top_discard
        take = Draw("discard")
        refuse: Action = Pass() if view.phase is GinPhase.OFFER else Draw("stock")
        if top is None or take not in view.legal_actions:
            return refuse if refuse in view.legal_actions else view.legal_actions[0]
        limit = view_limit(view, 10)
        with_top = [*view.hand, top]
        if greedy.best_after_discard(with_top) <= limit:
            return take
        taken = self.rated_discards(view, with_top)[0][0]
        risks = race.risks(view, STEPS + 1)
        futures = self.futures(view, SHORTLIST, knowledge(view))
        total = 0.0
        for future in futures:
            cards = [*view.hand, future[0]]
            best = SOLVER.solve(cards, goal=BEST_DISCARD)
            assert best is not None and best.discard is not None
            if -best.value <= limit:
                total += WIN + best.value + (GIN if best.value == 0 else 0.0)
                continue
            cards.remove(best.discard)
            total += outlook(cards, [future[1:]], limit, risks)
        return take if taken > total / len(futures) else refuse

    def refine(
        self, view: PlayerView, world: Determinization, known: Knowledge, rng: random.Random
    ) -> Determinization:
        return world

    # -- rollouts -------------------------------------------------------------

    def policy(self, deal: Deal, seat: int, rng: random.Random) -> Action:
        """Greedy and fast: the upcard when it lowers the deadwood, a knock when legal."""
        assert isinstance(deal, GinDeal)
        hand = deal.hands[seat]
        phase = deal.phase
        if phase in (GinPhase.OFFER, Phase.DRAW):
            top = deal.discard_pile[-1] if deal.discard_pile else None
            take = Draw("discard")
            if (
                top is not None
                and deal.can(seat, take)
                and greedy.best_after_discard([*hand, top]) < min_deadwood(hand)
            ):
                return take
            return Pass() if phase is GinPhase.OFFER else Draw("stock")
        if phase in (Phase.DISCARD, GinPhase.WALL):
            cards = list(hand)
            if phase is GinPhase.WALL:
                cards.append(deal.discard_pile[-1])
            kept = None if deal.options.discard_taken_card else deal.just_taken
            best = SOLVER.solve(cards, goal=Goal(discard=True, keep=kept))
            assert best is not None and best.discard is not None
            if -best.value <= deal.limit:
                return Knock(best.discard)
            return Discard(best.discard) if phase is Phase.DISCARD else Pass()
        if phase is GinPhase.LAY_OFF:
            table = tuple(tuple(m.cards) for m in deal.table)
            _, layoffs = greedy.defence(frozenset(hand), table)
            return LayOff(*layoffs[0]) if layoffs else Pass()
        least = min_deadwood(hand)
        for meld in sorted(melds.melds_in(hand), key=len, reverse=True):
            if min_deadwood([c for c in hand if c not in meld]) == least:
                return MeldCards(meld, (None,) * len(meld))
        return Pass()

    def estimate(self, deal: Deal, seat: int) -> list[float]:
        """A hand still running at the horizon: each seat loses its deadwood."""
        return [-float(min_deadwood(h)) for h in deal.hands]

    def objective(self, scores: Sequence[float], seat: int) -> float:
        return scores[seat] - scores[1 - seat]
