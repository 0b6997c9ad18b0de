"""Three-Thirteen knowledge for the strong bot: candidates, a fast rollout policy, estimates.

What matters at this table (RULES.md §3): the deadwood left when the round
ends (R3-7), lower is better. The round ends one turn after somebody goes
out (R3-6), so with turns to come a hand is worth what it can become, not
only what it scores now: two cards of a rank or a suit that a third card
would meld weigh more than a lone low card. The strong bot rates a hand by
its deadwood now and its deadwood with one and two more cards that fit
(extra wild cards in the solver), in proportions that follow how many turns
are likely left; once somebody has gone out, only the deadwood now counts.
Going out happens by itself, and always helps: a hand that can go out does.

The fast policy works on card bit masks (no solver call) for its own moves;
the engine checks going out after each discard.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

from remikit.actions import Action, Discard, Draw
from remikit.bots.strong.determinize import Determinization, Knowledge, knowledge
from remikit.cards import JOKER, Card
from remikit.engine import Deal, Phase
from remikit.melds import AceMode, MeldRules, Scoring
from remikit.scoring import three_thirteen as scoring
from remikit.solver import Goal, Solver
from remikit.variants.three_thirteen import ThreeThirteenDeal
from remikit.views import PlayerView

JOKER_INDEX = JOKER.index
MELDED = 10  # usefulness of a card in a meld
TOP_DISCARDS = 4  # discards the search compares
POTENTIAL = (0.5, 0.25)  # weights of the deadwood with one and two more fitting cards
RELATIVE = 0.0  # weight of the opponents' mean deadwood in the objective
LOOKAHEAD = 4  # discards rated by the expected deadwood after the next turn
DRAW_LOOKAHEAD = True
LATER = 0.0  # weight of the turns after the next one (one more fitting card) in the lookahead


@cache
def potential_solver(ace: AceMode) -> Solver:
    """Three-Thirteen meld rules and deadwood, a joker left over costing nothing (so
    appended jokers stand for cards that would fit)."""
    rules = MeldRules(ace=ace, set_distinct_suits=False, set_max=0, wild_only_melds=True)
    return Solver(rules, Scoring(
        dead=tuple(-scoring.card_deadwood(i % 13 + 1, ace) for i in range(52)),
        dead_joker=0,
        dead_wild_rank=-scoring.UNUSED_WILD_RANK,
    ))


@cache
def count_solver(ace: AceMode) -> Solver:
    """Three-Thirteen meld rules, every card left out of melds costing 1, a joker left
    over nothing: the cards a hand lacks to go out."""
    rules = MeldRules(ace=ace, set_distinct_suits=False, set_max=0, wild_only_melds=True)
    return Solver(rules, Scoring(dead=(-1,) * 52, dead_joker=0, dead_wild_rank=-1))


SHORTFALL = (0.0, 0.0, 0.0)  # weights of the cards left out with 0, 1, 2 extra fitting cards


def outlook(hand: Sequence[Card], round_no: int, ace: AceMode, *, final: bool = False) -> float:
    """Expected deadwood of a hand between turns: now, and with one and two more cards
    that fit, weighted by :data:`POTENTIAL` (``final``: now only)."""
    wild = scoring.wild_rank(round_no)
    now = -scoring.solver(ace).value(hand, wild_rank=wild)
    if final or now == 0:
        return float(now)
    solver = potential_solver(ace)
    cards = list(hand)
    total = (1.0 - sum(POTENTIAL)) * now
    for weight in POTENTIAL:
        cards.append(JOKER)
        total += weight * -solver.value(cards, wild_rank=wild)
    if any(SHORTFALL):
        counter = count_solver(ace)
        cards = list(hand)
        for weight in SHORTFALL:
            if weight:
                total += weight * -counter.value(cards, wild_rank=wild)
            cards.append(JOKER)
    return total


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


def usefulness(index: int, rows: list[int], ranks: list[int], ace_high: bool, *,
               held: bool = True) -> int:
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


def lite_discard(hand: Sequence[Card], kept: Card | None, wild_rank: int, ace_high: bool) -> Card:
    """The least useful natural card, the costliest among equals; wild cards are kept."""
    rows, ranks, _ = masks(hand, wild_rank)
    best: Card | None = None
    best_key = 1 << 30
    for card in hand:
        i = card.index
        if card is kept or i == JOKER_INDEX or i % 13 + 1 == wild_rank:
            continue
        rank = i % 13 + 1
        value = (15 if ace_high else 1) if rank == 1 else min(rank, 10)
        key = usefulness(i, rows, ranks, ace_high) * 16 - value
        if key < best_key:
            best, best_key = card, key
    if best is None:
        best = next(c for c in hand if c is not kept)
    return best


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


def unseen_counts(view: PlayerView) -> Counter[Card]:
    """The cards the seat has not seen, by count: what a stock draw may bring."""
    return Counter(knowledge(view).unseen)


def next_turn(hand: Sequence[Card], unseen: Counter[Card], round_no: int, ace: AceMode) -> float:
    """Expected deadwood after the next draw from the stock and the best discard, over
    the unseen cards (the deadwood that counts when the round ends after that turn)."""
    wild = scoring.wild_rank(round_no)
    solver = scoring.solver(ace)
    goal = Goal(discard=True)
    total = 0
    count = 0
    cards = list(hand)
    later = potential_solver(ace)
    for card, n in unseen.items():
        cards.append(card)
        value = -solver.value(cards, wild_rank=wild, goal=goal)
        if LATER and value:
            cards.append(JOKER)
            value = (1 - LATER) * value + LATER * -later.value(cards, wild_rank=wild, goal=goal)
            cards.pop()
        total += n * value
        cards.pop()
        count += n
    return total / count if count else float(-solver.value(hand, wild_rank=wild))


class ThreeThirteenTactics:
    """The strong bot's Three-Thirteen: see the module docstring."""

    horizon = 4

    @staticmethod
    def _table(view: PlayerView) -> tuple[int, AceMode]:
        ace: AceMode = "high" if view.options.get("ace") == "high" else "low"
        return view.deal_number, ace

    def candidates(self, view: PlayerView) -> list[tuple[Action, float]]:
        round_no, ace = self._table(view)
        final = view.went_out is not None
        legal = view.legal_actions
        if view.phase == "draw":
            return [(self.draw(view, round_no, ace, final), 0.0)]
        discards = [a.card for a in legal if isinstance(a, Discard)]
        rated = sorted(((outlook(_without(view.hand, c), round_no, ace, final=final), c)
                        for c in discards), key=lambda pc: pc[0])
        if final or rated[0][0] == 0:  # the last turn, or going out: the best discard
            return [(Discard(rated[0][1]), 0.0)]
        if LOOKAHEAD:
            unseen = unseen_counts(view)
            rated = sorted(((next_turn(_without(view.hand, c), unseen, round_no, ace), c)
                            for _, c in rated[:LOOKAHEAD]), key=lambda pc: pc[0])
        return [(Discard(c), 0.0) for _, c in rated[:TOP_DISCARDS]]

    def draw(self, view: PlayerView, round_no: int, ace: AceMode, final: bool) -> Action:
        legal = view.legal_actions
        top = view.top_discard
        if top is None or Draw("discard") not in legal:
            return Draw("stock") if Draw("stock") in legal else legal[0]
        if Draw("stock") not in legal:
            return Draw("discard")
        with_top = [*view.hand, top]
        kept = None if view.options.get("discard_taken_card") else top
        after = min(outlook(_without(with_top, c), round_no, ace, final=final)
                    for c in dict.fromkeys(with_top) if c is not kept)
        if DRAW_LOOKAHEAD:
            stock = next_turn(view.hand, unseen_counts(view), round_no, ace)
            taken = [c for c in dict.fromkeys(with_top) if c is not kept]
            if final:
                take = min(outlook(_without(with_top, c), round_no, ace, final=True)
                           for c in taken)
            else:
                unseen = unseen_counts(view)
                take = min(next_turn(_without(with_top, c), unseen, round_no, ace)
                           for c in self._few(taken, with_top, round_no, ace))
            return Draw("discard") if take < stock else Draw("stock")
        now = outlook(view.hand, round_no, ace, final=final)
        return Draw("discard") if after < now else Draw("stock")

    @staticmethod
    def _few(cards: list[Card], hand: Sequence[Card], round_no: int, ace: AceMode) -> list[Card]:
        rated = sorted(cards, key=lambda c: outlook(_without(hand, c), round_no, ace))
        return rated[:LOOKAHEAD or 1]

    def refine(self, view: PlayerView, world: Determinization, known: Knowledge,
               rng: random.Random) -> Determinization:
        return world

    # -- rollouts -------------------------------------------------------------

    def policy(self, deal: Deal, seat: int, rng: random.Random) -> Action:
        hand = deal.hands[seat]
        wild = deal.number + 2
        ace_high = getattr(deal.options, "ace", "low") == "high"
        if deal.phase is Phase.DRAW:
            pile = deal.discard_pile
            if pile:
                top = pile[-1]
                if top.index == JOKER_INDEX or top.index % 13 + 1 == wild:
                    return Draw("discard")
                rows, ranks, _ = masks(hand, wild)
                if usefulness(top.index, rows, ranks, ace_high, held=False) >= MELDED:
                    return Draw("discard")
            return Draw("stock")
        kept = None if deal.options.discard_taken_card else deal.just_taken
        return Discard(lite_discard(hand, kept, wild, ace_high))

    def estimate(self, deal: Deal, seat: int) -> list[float]:
        ace: AceMode = "high" if getattr(deal.options, "ace", "low") == "high" else "low"
        final = isinstance(deal, ThreeThirteenDeal) and deal.went_out is not None
        out = [0.0] * deal.players
        for s, hand in enumerate(deal.hands):
            if s == seat or RELATIVE:
                out[s] = outlook(hand, deal.number, ace, final=final)
        return out

    def objective(self, scores: Sequence[float], seat: int) -> float:
        others = [x for i, x in enumerate(scores) if i != seat]
        return -scores[seat] + RELATIVE * sum(others) / len(others)

