"""Three-Thirteen knowledge for the strong bot: candidates, a fast rollout policy, estimates.

What matters at this table (RULES.md §3): the deadwood left when the round
ends (R3-7), lower is better. The round ends one turn after somebody goes
out (R3-6): the deadwood that counts is 0 for whoever goes out and, for the
others, the hand after one more draw and discard. So the strong bot rates a
hand by its *outlook* (:func:`outlook`): over futures sampled from the cards
it has not seen (two decks: duplicates count), it draws the stock cards of
its next :data:`STEPS` turns, discarding each time to the least deadwood;
going out ends the round at 0, and otherwise the round ends after each of
those turns with the chance that another seat goes out first
(:func:`ending`, from the round, the turn of the round and the number of
players; :data:`HAZARD` was measured in games of greedy bots). A hand that
can go out soon is worth more than its deadwood now says; high cards that
will still be there when the round ends cost what they count, sooner as the
round goes on.

Every candidate discard (a shortlist of the cheapest by deadwood and the
least useful) and both draws are rated on the same sampled futures, so the
comparison is much less noisy than the values; the best is played without
rollouts (the outlook is the search). The number of futures is the search
effort (:attr:`ThreeThirteenTactics.effort`) over :data:`SIMS_PER_SAMPLE`,
so ``sims_per_second`` is the effort a second buys. The last turn (somebody
went out) is played exactly: the draw by the expected deadwood over the
unseen cards, the discard to the least deadwood.

With very little effort (below :data:`~remikit.bots.strong.search.QUICK`) the
search compares the two cheapest discards with rollouts through the next
player's turn: a discard that lets that player go out costs
:data:`FED_OUT`. The fast policy works on card bit masks (no solver call);
the engine checks going out after each discard.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from remikit.actions import Action, Discard, Draw
from remikit.bots.strong.determinize import Determinization, Knowledge, knowledge, own_draws
from remikit.bots.strong.refine import refine_world
from remikit.bots.strong.search import QUICK, Plan, forced_draw, including
from remikit.cards import JOKER, Card
from remikit.deal import Deal, Phase
from remikit.melds import AceMode
from remikit.solver import Goal
from remikit.variants.three_thirteen import scoring
from remikit.variants.three_thirteen.rules import ThreeThirteenDeal, options_of
from remikit.variants.three_thirteen.state import ThreeThirteenViewPart
from remikit.views import PlayerView

JOKER_INDEX = JOKER.index
MELDED = 10  # usefulness of a card in a meld
SHORTLIST = 3  # discards rated by the outlook: the best by deadwood and the least useful
STEPS = 4  # own draws the outlook looks ahead
SIMS_PER_SAMPLE = 2  # rollouts' worth of effort one sampled future costs
HAZARD = (
    (0.143, 0.126, 0.075, 0.085, 0.1, 0.103, 0.159),
    (0.031, 0.075, 0.076, 0.08, 0.073, 0.083, 0.131),
    (0.008, 0.02, 0.023, 0.034, 0.046, 0.056, 0.07),
    (0.048, 0.076, 0.099, 0.1, 0.134, 0.176, 0.146),
    (0.016, 0.052, 0.067, 0.075, 0.111, 0.128, 0.155),
    (0.004, 0.011, 0.025, 0.048, 0.056, 0.098, 0.104),
    (0.028, 0.046, 0.076, 0.094, 0.117, 0.142, 0.169),
    (0.008, 0.036, 0.074, 0.086, 0.127, 0.151, 0.191),
    (0.005, 0.019, 0.039, 0.062, 0.102, 0.12, 0.189),
    (0.015, 0.042, 0.071, 0.108, 0.121, 0.176, 0.19),
    (0.016, 0.041, 0.083, 0.123, 0.16, 0.202, 0.213),
)
"""By round and by turn of the round (the last for every later one): the chance that a
seat goes out in that turn, measured in 700 games of four greedy bots."""
FED_OUT = 3.0  # deadwood a seat keeps when the next player goes out on its discard


def deadwood(hand: Sequence[Card], round_no: int, ace: AceMode) -> int:
    return -scoring.solver(ace).value(hand, wild_rank=scoring.wild_rank(round_no))


def next_turn(hand: Sequence[Card], unseen: Counter[Card], round_no: int, ace: AceMode) -> float:
    """Expected deadwood after the next draw from the stock and the best discard, over
    the unseen cards (the deadwood that counts when the round ends after that turn)."""
    wild = scoring.wild_rank(round_no)
    solver = scoring.solver(ace)
    goal = Goal(discard=True)
    total = 0
    count = 0
    cards = list(hand)
    for card, n in unseen.items():
        cards.append(card)
        total += n * -solver.value(cards, wild_rank=wild, goal=goal)
        cards.pop()
        count += n
    return total / count if count else float(deadwood(hand, round_no, ace))


def ending(view: PlayerView) -> list[float]:
    """The chance that the round ends with each of the seat's next :data:`STEPS` turns
    (another seat goes out before it; the last step takes what is left)."""
    table = HAZARD[view.deal_number - 1]
    turn = sum(1 for play in view.log if play.seat == view.seat and isinstance(play.action, Draw))
    weights = []
    going = 1.0
    for step in range(STEPS - 1):
        out = table[min(turn + step, len(table) - 1)]
        ends = 1 - (1 - out) ** (view.players - 1)
        weights.append(going * ends)
        going *= 1 - ends
    return [*weights, going]


def outlook(
    hand: Sequence[Card],
    futures: Sequence[Sequence[Card]],
    round_no: int,
    ace: AceMode,
    weights: Sequence[float],
    *,
    first: bool = False,
    keep: Card | None = None,
) -> float:
    """Expected deadwood when the round ends, over sampled stock draws: each turn the
    seat draws the next card and discards to the least deadwood (going out ends it);
    the round ends after turn ``j`` with chance ``weights[j]``. With ``first`` the first
    card is drawn now, before the turns the weights describe (``keep`` may not be
    discarded then)."""
    wild = scoring.wild_rank(round_no)
    solver = scoring.solver(ace)
    total = 0.0
    for future in futures:
        cards = list(hand)
        for step, card in enumerate(future):
            cards.append(card)
            goal = Goal(discard=True, keep=keep if first and step == 0 else None)
            best = solver.solve(cards, wild_rank=wild, goal=goal)
            assert best is not None and best.discard is not None
            if best.value == 0:
                break
            cards.remove(best.discard)
            j = step - 1 if first else step
            if j >= 0:
                total -= weights[j] * best.value
    return total / len(futures)


def masks(hand: Sequence[Card], wild_rank: int) -> tuple[list[int], list[int], int]:
    """Per suit the ranks held (bits 0-12), per rank the count held, the wild cards."""
    rows = [0, 0, 0, 0]
    ranks = [0] * 13
    wilds = 0
    for card in hand:
        i = card.index
        if i == JOKER_INDEX or i % 13 + 1 == wild_rank:
            wilds += 1
            continue
        suit, r0 = divmod(i, 13)
        rows[suit] |= 1 << r0
        ranks[r0] += 1
    return rows, ranks, wilds


def usefulness(
    index: int, rows: list[int], ranks: list[int], ace_high: bool, *, held: bool = True
) -> int:
    """How much the natural card ``index`` does for the hand the masks describe
    (``held``: the card is in that hand, so ``ranks`` counts it)."""
    suit, r0 = divmod(index, 13)
    row = rows[suit]
    p = 13 if (r0 == 0 and ace_high) else r0
    if ace_high:
        row = (row & ~1) | ((row & 1) << 13)
    left1 = p >= 1 and row >> (p - 1) & 1
    right1 = p <= 12 and row >> (p + 1) & 1
    left2 = p >= 2 and row >> (p - 2) & 1
    right2 = p <= 11 and row >> (p + 2) & 1
    in_run = (left1 and right1) or (right1 and right2) or (left1 and left2)
    same = ranks[r0] - (1 if held else 0)
    u = 4 * (left1 + right1) + 2 * (left2 + right2) + 4 * min(same, 2)
    if in_run or same >= 2:
        u += MELDED
    return u


def lite_discard(
    hand: Sequence[Card],
    kept: Card | None,
    wild_rank: int,
    ace_high: bool,
    *,
    among: Sequence[Card] | None = None,
) -> Card:
    """The least useful natural card, the costliest among equals; wild cards are kept.
    Chosen ``among`` some cards of the hand when given."""
    rows, ranks, _ = masks(hand, wild_rank)
    best: Card | None = None
    best_key = 1 << 30
    choices = hand if among is None else among
    for card in choices:
        i = card.index
        if card is kept or i == JOKER_INDEX or i % 13 + 1 == wild_rank:
            continue
        rank = i % 13 + 1
        value = (15 if ace_high else 1) if rank == 1 else min(rank, 10)
        key = usefulness(i, rows, ranks, ace_high) * 16 - value
        if key < best_key:
            best, best_key = card, key
    if best is None:
        best = next(c for c in choices if c is not kept)
    return best


def _keep_key(card: Card, rows: list[int], ranks: list[int], wild_rank: int, ace_high: bool) -> int:
    """How much the hand wants to keep ``card`` (wild cards most)."""
    i = card.index
    if i == JOKER_INDEX or i % 13 + 1 == wild_rank:
        return 1 << 20
    rank = i % 13 + 1
    value = (15 if ace_high else 1) if rank == 1 else min(rank, 10)
    return usefulness(i, rows, ranks, ace_high) * 16 - value


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


def _ace(options: object) -> AceMode:
    return "high" if getattr(options, "ace", "low") == "high" else "low"


class ThreeThirteenTactics:
    """The strong bot's Three-Thirteen: see the module docstring."""

    horizon = 1  # through the next player's turn
    # effort a second buys: with the compiled solver, decision time p95 0.035 s CPU at
    # 0.1 s and 1100 a second
    sims_per_second = 3100
    max_rollouts: int | None = None
    reads_play = True
    effort = 0

    def candidates(
        self, view: PlayerView, include: Action | None = None
    ) -> list[tuple[Plan, float]]:
        round_no = view.deal_number
        ace = options_of(view).ace_mode
        legal = view.legal_actions
        if view.phase == "draw":
            return including([((self.draw(view, round_no, ace),), 0.0)], include)
        discards = list(dict.fromkeys(a.card for a in legal if isinstance(a, Discard)))
        rated = sorted(
            ((deadwood(_without(view.hand, c), round_no, ace), c) for c in discards),
            key=lambda pc: pc[0],
        )
        kept = include.card if isinstance(include, Discard) else None
        last_turn = ThreeThirteenViewPart.of(view).went_out is not None
        if last_turn or rated[0][0] == 0:  # the last turn, or going out
            if kept is None or kept is rated[0][1]:
                return [((Discard(rated[0][1]),), 0.0)]
            return [((Discard(c),), float(-d)) for d, c in rated if c in (rated[0][1], kept)]
        if self.effort < QUICK:
            return [
                ((Discard(c),), float(-d)) for i, (d, c) in enumerate(rated) if i < 2 or c is kept
            ]
        wild = scoring.wild_rank(round_no)
        ace_high = ace == "high"
        rows, ranks, _ = masks(view.hand, wild)
        shunned = sorted(discards, key=lambda c: _keep_key(c, rows, ranks, wild, ace_high))
        chosen = list(dict.fromkeys([c for _, c in rated[:SHORTLIST]] + shunned[:SHORTLIST]))
        futures = self._futures(view, STEPS)
        weights = ending(view)
        outlooks = sorted(
            ((outlook(_without(view.hand, c), futures, round_no, ace, weights), c) for c in chosen),
            key=lambda pc: pc[0],
        )
        if kept is None or kept is outlooks[0][1]:
            return [((Discard(outlooks[0][1]),), -outlooks[0][0])]
        if kept not in chosen:
            rest = _without(view.hand, kept)
            outlooks.append((outlook(rest, futures, round_no, ace, weights), kept))
        return [((Discard(c),), -e) for e, c in outlooks if c in (outlooks[0][1], kept)]

    def _futures(self, view: PlayerView, steps: int) -> list[list[Card]]:
        """The stock cards of the seat's next ``steps`` draws, sampled from the unseen cards
        (as many samples as the effort buys; the same ones for every candidate)."""
        return own_draws(view, steps, max(1, self.effort // SIMS_PER_SAMPLE))

    def draw(self, view: PlayerView, round_no: int, ace: AceMode) -> Action:
        """Take the discard when the hand's outlook with it is better than with the stock."""
        forced = forced_draw(view)
        if forced is not None:
            return forced
        top = view.top_discard
        assert top is not None
        kept = None if view.options.discard_taken_card else top
        last_turn = ThreeThirteenViewPart.of(view).went_out is not None
        if last_turn or self.effort < QUICK:
            with_top = [*view.hand, top]
            after = min(
                deadwood(_without(with_top, c), round_no, ace)
                for c in dict.fromkeys(with_top)
                if c is not kept
            )
            now = (
                next_turn(view.hand, Counter(knowledge(view).unseen), round_no, ace)
                if last_turn
                else deadwood(view.hand, round_no, ace)
            )
            return Draw("discard") if after < now else Draw("stock")
        futures = self._futures(view, STEPS + 1)
        weights = ending(view)
        hand = list(view.hand)
        taken = outlook(
            hand, [[top, *f[:-1]] for f in futures], round_no, ace, weights, first=True, keep=kept
        )
        drawn = outlook(hand, futures, round_no, ace, weights, first=True)
        return Draw("discard") if taken < drawn else Draw("stock")

    def refine(
        self, view: PlayerView, world: Determinization, known: Knowledge, rng: random.Random
    ) -> Determinization:
        """Make the other hands look played: each other seat swaps, once per turn it has
        played (at most :data:`~remikit.bots.strong.refine.REFINE_TURNS`), a random
        stock card in and its least
        useful card (never one known to be in its hand) back. Sizes, the multiset of
        cards and the known cards are unchanged."""
        wild = view.deal_number + 2
        ace_high = options_of(view).ace == "high"
        return refine_world(
            view,
            world,
            known,
            rng,
            lambda hand, among: lite_discard(hand, None, wild, ace_high, among=among),
        )

    # -- rollouts -------------------------------------------------------------

    def policy(self, deal: Deal, seat: int, rng: random.Random) -> Action:
        hand = deal.hands[seat]
        wild = deal.number + 2
        ace = _ace(deal.options)
        if deal.phase is Phase.DRAW:
            pile = deal.discard_pile
            if pile:
                top = pile[-1]
                if top.index == JOKER_INDEX or top.index % 13 + 1 == wild:
                    return Draw("discard")
                if (
                    scoring.deadwood_points(
                        [*hand, top], round_no=deal.number, ace=ace, discard=True, keep=top
                    )
                    == 0
                ):
                    return Draw("discard")  # it goes out
                rows, ranks, _ = masks(hand, wild)
                if usefulness(top.index, rows, ranks, ace == "high", held=False) >= MELDED:
                    return Draw("discard")
            return Draw("stock")
        kept = None if deal.options.discard_taken_card else deal.just_taken
        found = scoring.deadwood([*hand], round_no=deal.number, ace=ace, discard=True, keep=kept)
        if found.points == 0 and found.discard is not None:
            return Discard(found.discard)
        return Discard(lite_discard(hand, kept, wild, ace == "high"))

    def estimate(self, deal: Deal, seat: int) -> list[float]:
        """The next player went out on the candidate: the rounds' remaining turns are lost."""
        fed = isinstance(deal, ThreeThirteenDeal) and deal.went_out not in (None, seat)
        out = [0.0] * deal.players
        out[seat] = FED_OUT if fed else 0.0
        return out

    def objective(self, scores: Sequence[float], seat: int) -> float:
        return -scores[seat]
