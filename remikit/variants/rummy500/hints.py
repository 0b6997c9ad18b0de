"""What a Rummy 500 hand can do this turn: the best plan, the best take, and which
discards feed the next player (R5-3 … R5-10).

The greedy bot plays by these; the terminal's hints (``m``, ``--warn-playable``)
show them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from remikit.actions import Action, Discard, Draw, LayOff
from remikit.cards import Card
from remikit.errors import IllegalAction
from remikit.variants.rummy500.actions import CallRummy, Decline
from remikit.variants.rummy500.meldable import can_place
from remikit.variants.rummy500.melds import (
    PlacedMeld,
    card_points,
    placed_meld,
    playable,
    resolve_layoff,
)
from remikit.variants.rummy500.plan import (
    Plan,
    Rules,
    plan_turn,
    table_after,
    table_of,
)
from remikit.variants.rummy500.plays import Play
from remikit.variants.rummy500.state import Rummy500ViewPart
from remikit.views import PlayerView

# -- the discard -------------------------------------------------------------------------


def _near(a: int, b: int) -> bool:
    """Whether two cards (by index) could share a meld: a joker, the same rank in another
    suit, or the same suit within two ranks (the ace also above the king)."""
    if a == 52 or b == 52:
        return True
    if a % 13 == b % 13:
        return a != b
    gap = abs(a % 13 - b % 13)
    return a // 13 == b // 13 and (gap <= 2 or gap >= 11)


NEAR = tuple(sum(1 << b for b in range(53) if _near(a, b)) for a in range(53))
"""``NEAR[i]``: the cards (a bit per index) that could share a meld with card ``i``."""


def _related(a: Card, b: Card) -> bool:
    """Whether two cards could share a meld (see :data:`NEAR`)."""
    return bool(NEAR[a.index] >> b.index & 1)


def opens_call(
    card: Card, pile: Sequence[Card], table: Sequence[PlacedMeld], joker_layoff: str
) -> bool:
    """Whether discarding ``card`` lets someone lay it off or call Rummy on a pile card
    that could not be called before (R5-10)."""
    if playable(card, table, joker_layoff=joker_layoff):
        return True
    above: Counter[Card] = Counter()  # the K-th card and the cards above it
    for k in range(1, len(pile) + 1):
        deep = pile[-k]
        above[deep] += 1
        if not _related(deep, card):
            continue
        with_card = above.copy()
        with_card[card] += 1
        if can_place(deep, with_card, table, joker_layoff=joker_layoff) and not can_place(
            deep, above, table, joker_layoff=joker_layoff
        ):
            return True
    return False


def has_partner(card: Card, hand: Sequence[Card]) -> bool:
    skipped = False
    for other in hand:
        if other is card and not skipped:
            skipped = True
            continue
        if not other.is_joker and _related(card, other):
            return True
    return False


def choose_discard(
    left: Sequence[Card],
    *,
    banned: Card | None,
    pile: Sequence[Card],
    table: Sequence[PlacedMeld],
    rules: Rules,
) -> Card | None:
    """The card to discard from ``left`` (see the module docstring), None when none may go."""
    candidates = [c for c in dict.fromkeys(left) if rules.discard_taken_card or c is not banned]
    if len(left) == 1:
        if rules.unplayable_last_discard:
            candidates = [
                c for c in candidates if not playable(c, table, joker_layoff=rules.joker_layoff)
            ]
        return candidates[0] if candidates else None

    def rank(card: Card) -> tuple[bool, bool, int]:
        return (not card.is_joker, not has_partner(card, left), card_points(card, rules.scoring))

    # the best safe card, else the best card; the costly safety test only as far as needed
    ordered = sorted(candidates, key=rank, reverse=True)
    return next(
        (c for c in ordered if not opens_call(c, pile, table, rules.joker_layoff)),
        ordered[0] if ordered else None,
    )


# -- what the view says about this turn ----------------------------------------------------


def laid_points(view: PlayerView) -> list[int]:
    """The points each seat has laid on the table this hand (R5-5, R5-11)."""
    scoring = Rules.of(view).scoring
    out = [0] * view.players
    for meld in view.table:
        for slot in placed_meld(meld).slots:
            out[slot.seat] += slot.points(scoring)
    return out


def just_taken(view: PlayerView) -> Card | None:
    """The single card the seat took from the pile this turn, if that is how it drew."""
    if view.seat is None:
        return None
    for play in reversed(view.log):
        if play.seat != view.seat:
            return None
        action = play.action
        if isinstance(action, CallRummy):
            return None
        if isinstance(action, Draw):
            if action.source == "discard" and action.depth == 1 and view.taken_from_discard:
                return view.taken_from_discard[-1][1]
            return None
    return None


def next_to_draw(view: PlayerView) -> int | None:
    """The seat that draws after the last discard (None before any discard)."""
    last = next((p.seat for p in reversed(view.log) if isinstance(p.action, Discard)), None)
    return None if last is None else (last + 1) % view.players


def turn_plan(view: PlayerView) -> Plan | None:
    """The plan for the rest of the seat's turn (discard phase), discard chosen."""
    rules = Rules.of(view)
    table = table_of(view)
    banned = just_taken(view)
    owed = Rummy500ViewPart.of(view).must_meld
    found = plan_turn(view.hand, table, rules, owed=owed, banned=banned)
    if found is None:
        return None
    return with_discard(found, table, view.discard_pile, view.seat or 0, rules, banned)


def with_discard(
    found: Plan,
    table: Sequence[PlacedMeld],
    pile: Sequence[Card],
    seat: int,
    rules: Rules,
    banned: Card | None,
) -> Plan:
    """``found`` with the discard :func:`choose_discard` picks among the cards it leaves,
    on the table its plays make (a last card that may not go out is laid off instead)."""
    if found.discard is None:
        return found
    after = table_after(table, found.plays, seat, rules.joker_layoff)
    if after is None:
        return found
    discard = choose_discard(found.left, banned=banned, pile=pile, table=after, rules=rules)
    if discard is None and len(found.left) == 1:
        # a last card that may not go out (it can be laid off): lay it off instead
        card = found.left[0]
        for meld in after:
            try:
                resolve_layoff(meld, card, None, seat=0, joker_layoff=rules.joker_layoff)
            except IllegalAction:
                continue
            extra = Play((LayOff(card, meld.number),), (card,), 0)
            return Plan((*found.plays, extra), (), None, found.score)
    if discard is None:
        return found
    return Plan(found.plays, found.left, discard, found.score)


# -- taking from the pile -----------------------------------------------------------------


@dataclass(frozen=True)
class Take:
    """What taking the top ``depth`` cards of the pile is worth (see :func:`assess_take`)."""

    action: Action
    plan: Plan
    gain: int  # points the take lets the turn lay, minus the taken cards kept in hand

    @property
    def key(self) -> tuple[bool, int]:
        return (self.plan.ends_hand, self.gain)


def laid(plan: Plan) -> int:
    return sum(p.points for p in plan.plays)


def stock_plan(view: PlayerView) -> Plan:
    """The plan of the hand as it is, the unknown card from the stock thrown away."""
    found = plan_turn(view.hand, table_of(view), Rules.of(view), discard_done=True)
    assert found is not None  # nothing is owed: keeping every card is a plan
    return found


def assess_take(view: PlayerView, action: Draw | CallRummy, base: Plan) -> Take | None:
    """Taking the cards ``action`` takes, melding the deepest (R5-3, R5-10): its plan and
    gain over ``base`` (None when the deepest card cannot be melded)."""
    taken = view.discard_pile[-action.depth :]
    rules = Rules.of(view)
    plan = plan_turn(
        [*view.hand, *taken],
        table_of(view),
        rules,
        owed=taken[0],
        banned=taken[0] if isinstance(action, Draw) and action.depth == 1 else None,
    )
    if plan is None:
        return None
    kept = Counter(plan.left)
    if plan.discard is not None:
        kept[plan.discard] -= 1
    cost = sum(card_points(c, rules.scoring) * n for c, n in (Counter(taken) & kept).items())
    return Take(action, plan, laid(plan) - laid(base) - cost)


def takes(view: PlayerView) -> list[Draw]:
    """The legal ways to take from the pile in the draw phase, one per depth."""
    return sorted(
        (a for a in view.legal_actions if isinstance(a, Draw) and a.source == "discard"),
        key=lambda a: a.depth,
    )


def best_take(view: PlayerView, actions: Sequence[Draw | CallRummy], base: Plan) -> Take | None:
    """The take that beats ``base`` by most: it goes out where the base does not, or its
    melds are worth more than the cards it keeps."""
    best: Take | None = None
    floor = (base.ends_hand, 0)
    for action in actions:
        take = assess_take(view, action, base)
        if take is not None and take.key > floor and (best is None or take.key > best.key):
            best = take
    return best


def best_draw(view: PlayerView) -> Action:
    """The greedy choice of the draw phase (see the module docstring of
    :mod:`remikit.variants.rummy500.greedy`)."""
    legal = view.legal_actions
    base = stock_plan(view)
    if Draw("stock") in legal:
        take = best_take(view, takes(view), base)
        return take.action if take is not None else Draw("stock")
    # an empty stock (R5-9): declining ends the hand with every card still in hand
    decline = -sum(card_points(c, Rules.of(view).scoring) for c in view.hand)
    best: Take | None = None
    for action in takes(view):
        take = assess_take(view, action, base)
        if (
            take is not None
            and take.plan.value > decline
            and (best is None or take.plan.value > best.plan.value)
        ):
            best = take
    if best is not None:
        return best.action
    return Decline() if Decline() in legal else legal[0]
