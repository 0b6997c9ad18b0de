"""The strong bot's rollouts in Rummy 500 (RULES.md §2): the fast policy every seat
plays, and the estimate of the hand where a rollout stops.

The rollout policy plays every seat like the greedy bot: it takes from the
pile at any depth when the melds the take allows beat the values of the taken
cards kept (deep takes are frequent and decide many hands), else draws from
the stock, lays by the turn plan of :mod:`remikit.variants.rummy500.plan`
(remembered across the worlds of one search) and discards as the greedy bot
does (a card nobody can call Rummy on, without a partner, the highest; ties
may go another way). The rollouts play no Rummy calls, so no candidate
discard opens one unless the greedy bot's own choice does.
A rollout plays two rounds (every seat two turns); the estimate of the hand
then is each seat's hand score if the hand ended there (points laid minus
points held), fair to all as each seat has just laid what it could.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from weakref import WeakKeyDictionary

from remikit.actions import Action, Discard, Draw, Pass
from remikit.cards import Card
from remikit.deal import Deal, Phase
from remikit.engine import Options
from remikit.variants.rummy500.actions import Decline
from remikit.variants.rummy500.hints import NEAR, choose_discard, laid, with_discard
from remikit.variants.rummy500.meldable import can_place
from remikit.variants.rummy500.melds import (
    PlacedMeld,
    candidate_layoffs,
    card_points,
    hand_points,
    playable,
)
from remikit.variants.rummy500.plan import Plan as TurnPlan
from remikit.variants.rummy500.plan import Rules, plan_turn
from remikit.variants.rummy500.rules import Rummy500Deal
from remikit.variants.rummy500.state import Rummy500Phase

MAX_WEIGHT = 0.5  # the best opponent's share (the rest: their mean) in the objective


def _rules(deal: Deal) -> Rules:
    return _rules_of(deal.options)


@cache
def _rules_of(options: Options) -> Rules:
    return Rules(
        scoring=str(getattr(options, "scoring", "standard")),
        floating=bool(getattr(options, "floating", False)),
        unplayable_last_discard=bool(getattr(options, "unplayable_last_discard", False)),
        discard_taken_card=options.discard_taken_card,
        joker_layoff=str(getattr(options, "joker_layoff", "runs")),
    )


def may_meld(hand: Sequence[Card]) -> bool:
    """Whether the hand might hold a new meld (a quick test: three of a rank, or three
    places of a run within a window of three, jokers filling in; never a false no)."""
    jokers = 0
    ranks = [0] * 13
    runs = [0] * 4  # per suit, a bit per run position (0: ace low … 13: ace high)
    for card in hand:
        index = card.index
        if index == 52:
            jokers += 1
            continue
        rank, suit = index % 13, index // 13
        ranks[rank] += 1
        runs[suit] |= 1 << rank | (1 << 13 if rank == 0 else 0)
    need = 3 - jokers
    if need <= 0 or max(ranks) >= need:
        return True
    for bits in runs:  # positions low … low + 2 of a window, ``need`` of them held
        if need == 1 and bits:
            return True
        if need == 2 and bits & (bits >> 1 | bits >> 2):
            return True
        if bits & bits >> 1 & bits >> 2:
            return True
    return False


class Rummy500Rollouts:
    """The rollouts of :class:`~remikit.variants.rummy500.tactics.Rummy500Tactics`: see
    the module docstring."""

    def __init__(self) -> None:
        # the rest of a rollout turn's plan, by deal: ((seat, log length), actions)
        self._queue: WeakKeyDictionary[Deal, tuple[tuple[int, int], tuple[Action, ...]]] = (
            WeakKeyDictionary()
        )
        self._plans: dict[object, TurnPlan | None] = {}

    def policy(self, deal: Deal, seat: int, rng: random.Random) -> Action:
        assert isinstance(deal, Rummy500Deal)
        hand = deal.hands[seat]
        rules = _rules(deal)
        if deal.phase is Rummy500Phase.CALL:
            return Pass()  # the rollouts play no Rummy calls
        if deal.phase is Phase.DRAW:
            take = self._take(deal, seat, rules)
            if take is not None:
                return take
            return Draw("stock") if deal.stock else Decline()
        queued = self._queue.get(deal)
        if queued is not None and queued[0] == (seat, len(deal.log)) and queued[1]:
            action, rest = queued[1][0], queued[1][1:]
            self._queue[deal] = ((seat, len(deal.log) + 1), rest)
            return action
        banned = None if rules.discard_taken_card else deal.just_taken
        if (
            deal.must_meld is None
            and not may_meld(hand)
            and not candidate_layoffs(hand, deal.table, joker_layoff=rules.joker_layoff)
        ):
            card = choose_discard(
                hand, banned=banned, pile=deal.discard_pile, table=deal.table, rules=rules
            )
            return Discard(card) if card is not None else deal.legal_actions(seat)[0]
        plan = self._plan(hand, deal.table, rules, deal.must_meld, banned)
        if plan is not None:
            plan = with_discard(plan, deal.table, deal.discard_pile, seat, rules, banned)
        actions = tuple(plan.actions()) if plan is not None else ()
        if actions:
            self._queue[deal] = ((seat, len(deal.log) + 1), actions[1:])
            return actions[0]
        return deal.legal_actions(seat)[0]

    def _take(self, deal: Rummy500Deal, seat: int, rules: Rules) -> Draw | None:
        """The greedy bot's take from the pile, at any depth (R5-3): the one whose melds
        beat the values of the taken cards kept by most, or that goes out."""
        hand = deal.hands[seat]
        pile = deal.discard_pile
        table = deal.table
        base = 0
        if may_meld(hand) or candidate_layoffs(hand, table, joker_layoff=rules.joker_layoff):
            found = self._plan(hand, table, rules, None, None, discard_done=True)
            base = laid(found) if found is not None else 0
        best: Draw | None = None
        best_key = (False, 0)
        near = 0  # the cards that could share a meld with the hand or the cards above
        for card in hand:
            near |= NEAR[card.index]
        held = Counter(hand)  # the hand and the cards taken
        for depth in range(1, len(pile) + 1):
            deep = pile[-depth]
            held[deep] += 1
            close = near >> deep.index & 1
            near |= NEAR[deep.index]
            if not close and not playable(deep, table, joker_layoff=rules.joker_layoff):
                continue
            if not can_place(deep, held, table, joker_layoff=rules.joker_layoff):
                continue
            taken = pile[-depth:]
            plan = self._plan([*hand, *taken], table, rules, deep, deep if depth == 1 else None)
            if plan is None:
                continue
            kept = Counter(plan.left)
            if plan.discard is not None:
                kept[plan.discard] -= 1
            cost = sum(
                card_points(c, rules.scoring) * n for c, n in (Counter(taken) & kept).items()
            )
            key = (plan.ends_hand, laid(plan) - base - cost)
            if key > best_key:
                action = Draw("discard", depth)
                if deal.can(seat, action):
                    best, best_key = action, key
        return best

    def _plan(
        self,
        hand: Sequence[Card],
        table: Sequence[PlacedMeld],
        rules: Rules,
        owed: Card | None,
        banned: Card | None,
        *,
        discard_done: bool = False,
    ) -> TurnPlan | None:
        """:func:`plan_turn`, remembered for the search: the worlds of one search meet the
        same hand on the same table again and again."""
        key = (
            tuple(sorted(c.index for c in hand)),
            tuple(m.key for m in table),
            owed,
            banned,
            discard_done,
        )
        if key in self._plans:
            return self._plans[key]
        found = self._plans[key] = plan_turn(
            hand, table, rules, owed=owed, banned=banned, discard_done=discard_done
        )
        return found

    def estimate(self, deal: Deal, seat: int) -> list[float]:
        """Each hand's score if the hand ended now: points laid minus points held."""
        assert isinstance(deal, Rummy500Deal)
        scoring = deal.options.scoring
        return [
            float(deal.table_points(s) - hand_points(h, scoring)) for s, h in enumerate(deal.hands)
        ]

    def objective(self, scores: Sequence[float], seat: int) -> float:
        others = [x for i, x in enumerate(scores) if i != seat]
        return (
            scores[seat] - MAX_WEIGHT * max(others) - (1 - MAX_WEIGHT) * sum(others) / len(others)
        )
