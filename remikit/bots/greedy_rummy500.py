"""Greedy Rummy 500 (RULES.md §2): lay down what scores, take from the pile when it pays.

Everything rests on one search, the **turn plan**: given the cards in hand
after the draw and the table, which *plays* to make (a new meld, or the
lay-offs onto one table meld), which card to discard and which to keep. The
plan maximises, in this order,

1. whether the turn ends the hand (out by discarding the last card, or by
   melding everything when floating is off; with floating on, keeping one
   card back to discard and go out beats floating, R5-8, R5-14);
2. the hand's score if it ended after the turn: points laid this turn minus
   the values of the cards kept (R5-11, R5-12).

It branches on the hand's lowest card (kept, discarded, or in one of the
plays that hold it), with the cards left, the table melds already extended
and three flags (discarded, kept any, owed card melded) as the memo key.
Plays are the hand's candidate melds (:func:`candidate_melds`) and, per table
meld, every extension at its ends or open suits by cards in hand, a joker
filling each place the hand has no natural card for. A card owed after a
deep draw or a Rummy call (``must_meld``) must be in a play, and that play
comes first; a single card just taken from the pile may not be the discard
(R5-7).

The discard is then chosen among the cards the plan leaves: the one that
goes out; else a card nobody can lay off on the table or call Rummy on
(R5-10); then a card without a partner in hand (same rank, or same suit
within two ranks); then the highest value. With ``unplayable_last_discard``
a last card that can still be laid off is laid off instead.

Draws compare plans: the stock is worth the plan of the hand as it is (the
unknown card drawn is the one thrown away); taking ``K`` cards from the
pile, by a draw or a Rummy call, is worth the plan with those cards that
melds the deepest of them. The bot takes (or calls) when that beats the
stock, so a single top discard is taken only when it gets melded, and a
deep draw only when the melds it enables are worth more than the cards
picked up. At an empty stock it declines unless a take beats the hand as
it stands (R5-9). It calls Rummy out of turn on the same comparison.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from remikit.actions import (
    Action,
    CallRummy,
    Decline,
    Discard,
    Draw,
    LayOff,
    MeldCards,
    parse_seat_action,
)
from remikit.cards import JOKER, Card
from remikit.errors import IllegalAction
from remikit.melds import card_at
from remikit.variants.rummy500_melds import (
    ACE_HIGH,
    ACE_LOW,
    JOKER_POINTS,
    PlacedMeld,
    can_place,
    candidate_melds,
    card_points,
    low_ace_points,
    placed_meld,
    playable,
    resolve_layoff,
    resolve_meld,
)
from remikit.views import PlayerView

NEG = -(10**9)
ENDS = 100_000  # the weight of "the turn ends the hand" in a plan's score
MAX_MEMO = 40_000  # a search past this many positions stops branching on plays

_UNIT = tuple(1 << (4 * i) for i in range(53))
_GUARD = sum(8 << (4 * i) for i in range(53))  # one spare bit per card: counts stay below 8
_KEPT, _DISCARDED, _OWED_MET = 1, 2, 4

PlayAction = MeldCards | LayOff


def pack(cards: Sequence[Card]) -> int:
    """Cards as counts, four bits a card (jokers, index 52, last)."""
    return sum(_UNIT[c.index] for c in cards)


def _fits(mask: int, cards: int) -> bool:
    """Whether the packed ``mask`` is a sub-multiset of the packed ``cards``."""
    return ((cards | _GUARD) - mask) & _GUARD == _GUARD


def _window_ok(low: int, high: int) -> bool:
    return 0 <= low <= high <= ACE_HIGH and not (low == ACE_LOW and high == ACE_HIGH)


def table_of(view: PlayerView) -> list[PlacedMeld]:
    """The table melds the view shows, for the meld logic."""
    return [placed_meld(m) for m in view.table]


# -- plays -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    """A new meld, or lay-offs onto one table meld (``bit`` names it), as actions in order."""

    actions: tuple[PlayAction, ...]
    cards: tuple[Card, ...]
    points: int
    bit: int = 0

    @property
    def mask(self) -> int:
        return pack(self.cards)


def _slot_points(identity: Card, position: int | None, joker: bool, scoring: str) -> int:
    if joker:
        return JOKER_POINTS
    if position == ACE_LOW:
        return low_ace_points(scoring)
    return card_points(identity, scoring)


def _extension(meld: PlacedMeld, places: Sequence[tuple[Card, int | None]], held: Counter[Card],
               scoring: str) -> Play | None:
    """The lay-offs filling ``places`` (identity, position) in order, naturals first."""
    jokers = held[JOKER]
    use: Counter[Card] = Counter()
    actions: list[PlayAction] = []
    cards: list[Card] = []
    points = 0
    for identity, position in places:
        if held[identity] > use[identity]:
            use[identity] += 1
            actions.append(LayOff(identity, meld.number))
            cards.append(identity)
            points += _slot_points(identity, position, False, scoring)
        else:
            if jokers == 0:
                return None
            jokers -= 1
            actions.append(LayOff(JOKER, meld.number, identity))
            cards.append(JOKER)
            points += JOKER_POINTS
    return Play(tuple(actions), tuple(cards), points)


def _reach(suit: int, side: range, held: Counter[Card]) -> list[tuple[Card, int | None]]:
    """The places beyond a run's end, in order, as far as the hand's cards and jokers go."""
    places: list[tuple[Card, int | None]] = []
    gaps = 0
    for p in side:
        identity = card_at(suit, p)
        gaps += held[identity] == 0
        if gaps > held[JOKER]:
            break
        places.append((identity, p))
    return places


def table_plays(hand: Sequence[Card], table: Sequence[PlacedMeld], scoring: str) -> list[Play]:
    """Every extension of each table meld by cards of ``hand`` (one play per meld)."""
    held = Counter(hand)
    out: list[Play] = []
    for index, meld in enumerate(table):
        bit = 1 << index
        if meld.kind == "set":
            openings = [i for i, _ in meld.openings]
            for k in range(1, len(openings) + 1):
                for chosen in combinations(openings, k):
                    play = _extension(meld, [(i, None) for i in chosen], held, scoring)
                    if play is not None:
                        out.append(Play(play.actions, play.cards, play.points, bit))
            continue
        suit, low, high = meld.slots[0].identity.suit, meld.low, meld.high
        below = _reach(suit, range(low - 1, -1, -1), held)
        above = _reach(suit, range(high + 1, ACE_HIGH + 1), held)
        for kl in range(len(below) + 1):
            for kh in range(len(above) + 1):
                if kl + kh == 0 or not _window_ok(low - kl, high + kh):
                    continue
                play = _extension(meld, below[:kl] + above[:kh], held, scoring)
                if play is not None:
                    out.append(Play(play.actions, play.cards, play.points, bit))
    return out


def meld_plays(hand: Sequence[Card], scoring: str) -> list[Play]:
    out = []
    for meld in candidate_melds(hand):
        try:
            placed_meld = resolve_meld(meld.cards, meld.stands_for, seat=0, number=0)
        except IllegalAction:  # pragma: no cover - candidate melds are valid
            continue
        out.append(Play((meld,), meld.cards, placed_meld.points(scoring)))
    return out


# -- the turn plan -----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Rules:
    """The table options a plan depends on."""

    scoring: str = "standard"
    floating: bool = False
    unplayable_last_discard: bool = False
    discard_taken_card: bool = False

    @staticmethod
    def of(view: PlayerView) -> Rules:
        options = view.options
        return Rules(scoring=str(options.get("scoring", "standard")),
                     floating=bool(options.get("floating", False)),
                     unplayable_last_discard=bool(options.get("unplayable_last_discard", False)),
                     discard_taken_card=bool(options.get("discard_taken_card", False)))


@dataclass(frozen=True)
class Plan:
    """The plays of a turn (in the order to make them), the cards left before the
    discard, the discard (None: none is needed) and the plan's score."""

    plays: tuple[Play, ...]
    left: tuple[Card, ...]
    discard: Card | None
    score: int

    @property
    def ends_hand(self) -> bool:
        return self.score >= ENDS // 2

    @property
    def value(self) -> int:
        """Points laid minus points kept (the discard excluded)."""
        return _value(self.score)

    def actions(self) -> list[Action]:
        out: list[Action] = [a for play in self.plays for a in play.actions]
        if self.discard is not None:
            out.append(Discard(self.discard))
        return out


class _Search:
    """One turn-plan search (see the module docstring)."""

    def __init__(self, hand: Sequence[Card], table: Sequence[PlacedMeld], rules: Rules, *,
                 owed: Card | None = None, banned: Card | None = None,
                 discard_done: bool = False) -> None:
        self.hand = list(hand)
        self.rules = rules
        self.owed = owed
        self.banned = None if rules.discard_taken_card else banned
        self.discard_done = discard_done
        self.plays = meld_plays(hand, rules.scoring) + table_plays(hand, table, rules.scoring)
        self.masks = [p.mask for p in self.plays]
        self.by_card: list[list[int]] = [[] for _ in range(53)]
        for i, play in enumerate(self.plays):
            for card in set(play.cards):
                self.by_card[card.index].append(i)
        self.values = [card_points(Card(i), rules.scoring) for i in range(53)]
        self.owes_in = [owed is not None and owed in p.cards for p in self.plays]
        self.memo: dict[tuple[int, int, int], tuple[int, int]] = {}

    def leaf(self, flags: int) -> int:
        if self.owed is not None and not flags & _OWED_MET:
            return NEG
        kept = bool(flags & _KEPT)
        if flags & _DISCARDED:
            return ENDS if not kept else 0
        if kept:
            return NEG  # cards left and no discard to end the turn
        return 0 if self.rules.floating else ENDS  # floating (R5-14) or out by melding (R5-8)

    def best(self, cards: int, used: int, flags: int) -> int:
        if cards == 0:
            return self.leaf(flags)
        key = (cards, used, flags)
        found = self.memo.get(key)
        if found is not None:
            return found[0]
        index = ((cards & -cards).bit_length() - 1) // 4
        unit = _UNIT[index]
        card = Card(index)
        best, choice = NEG, -3
        # plays first: when a huge hand (a big take) meets the memo's limit, the plan
        # found so far melds what it can
        if len(self.memo) < MAX_MEMO:
            for i in self.by_card[index]:
                play = self.plays[i]
                if play.bit & used or not _fits(self.masks[i], cards):
                    continue
                after = flags | _OWED_MET if self.owes_in[i] else flags
                value = self.best(cards - self.masks[i], used | play.bit, after)
                if value > NEG // 2 and value + play.points > best:
                    best, choice = value + play.points, i
        owed_alone = (card is self.owed and not flags & _OWED_MET
                      and (cards >> (4 * index)) & 7 == 1)
        if not owed_alone:
            value = self.best(cards - unit, used, flags | _KEPT)
            if value > NEG // 2 and value - self.values[index] > best:
                best, choice = value - self.values[index], -1
            if not flags & _DISCARDED and card is not self.banned:
                value = self.best(cards - unit, used, flags | _DISCARDED)
                if value > best:
                    best, choice = value, -2
        self.memo[key] = (best, choice)
        return best

    def plan(self) -> Plan | None:
        start = pack(self.hand)
        flags = _DISCARDED if self.discard_done else 0
        score = self.best(start, 0, flags)
        if score <= NEG // 2:
            return None
        plays: list[Play] = []
        left: list[Card] = []
        discard: Card | None = None
        cards, used = start, 0
        while cards:
            _, choice = self.memo[(cards, used, flags)]
            index = ((cards & -cards).bit_length() - 1) // 4
            if choice == -1:
                left.append(Card(index))
                cards -= _UNIT[index]
                flags |= _KEPT
            elif choice == -2:
                discard = Card(index)
                cards -= _UNIT[index]
                flags |= _DISCARDED
            else:
                play = self.plays[choice]
                plays.append(play)
                cards -= self.masks[choice]
                used |= play.bit
                if self.owes_in[choice]:
                    flags |= _OWED_MET
        # the owed card's play first (R5-3), then the plays holding the card just taken
        plays.sort(key=lambda p: (not (self.owed is not None and self.owed in p.cards),
                                  not (self.banned is not None and self.banned in p.cards)))
        if discard is not None:
            left.append(discard)
        return Plan(tuple(plays), tuple(left), discard, score)


def plan_turn(hand: Sequence[Card], table: Sequence[PlacedMeld], rules: Rules, *,
              owed: Card | None = None, banned: Card | None = None,
              discard_done: bool = False) -> Plan | None:
    """The best plan for ``hand`` (None when the owed card cannot be melded).

    ``banned`` is a card that may not be the discard (just taken, R5-7);
    ``discard_done`` plans with no discard needed (the stock card is thrown).
    """
    return _Search(hand, table, rules, owed=owed, banned=banned,
                   discard_done=discard_done).plan()


# -- the discard -------------------------------------------------------------------------


def table_after(table: Sequence[PlacedMeld], plays: Sequence[Play], seat: int
                ) -> list[PlacedMeld] | None:
    """The table once ``plays`` are made, or None if one of them does not fit."""
    out = list(table)
    try:
        for play in plays:
            for action in play.actions:
                if isinstance(action, MeldCards):
                    out.append(resolve_meld(action.cards, action.stands_for, seat=seat,
                                            number=len(out) + 1))
                else:
                    index = action.meld - 1
                    out[index] = resolve_layoff(out[index], action.card, action.stands_for,
                                                seat=seat)
    except (IllegalAction, IndexError):
        return None
    return out


def _related(a: Card, b: Card) -> bool:
    """Whether two cards could share a meld (same rank, or same suit within two ranks)."""
    if a.is_joker or b.is_joker:
        return True
    if a.rank == b.rank:
        return a.suit != b.suit
    if a.suit != b.suit:
        return False
    gap = abs(int(a.rank) - int(b.rank))
    return gap <= 2 or gap >= 11  # the ace also sits above the king


def opens_call(card: Card, pile: Sequence[Card], table: Sequence[PlacedMeld]) -> bool:
    """Whether discarding ``card`` lets someone lay it off or call Rummy on a pile card
    that could not be called before (R5-10)."""
    if playable(card, table):
        return True
    for k in range(1, len(pile) + 1):
        deep = pile[-k]
        if not _related(deep, card):
            continue
        above = Counter(pile[-k:])
        if can_place(deep, above + Counter([card]), table) and not can_place(deep, above, table):
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


def choose_discard(left: Sequence[Card], *, banned: Card | None, pile: Sequence[Card],
                   table: Sequence[PlacedMeld], rules: Rules) -> Card | None:
    """The card to discard from ``left`` (see the module docstring), None when none may go."""
    candidates = [c for c in dict.fromkeys(left)
                  if rules.discard_taken_card or c is not banned]
    if len(left) == 1:
        if rules.unplayable_last_discard:
            candidates = [c for c in candidates if not playable(c, table)]
        return candidates[0] if candidates else None

    def rank(card: Card) -> tuple[bool, bool, bool, int]:
        safe = not opens_call(card, pile, table)
        return (safe, not card.is_joker, not has_partner(card, left),
                card_points(card, rules.scoring))

    return max(candidates, key=rank, default=None)


# -- what the view says about this turn ----------------------------------------------------


def just_taken(view: PlayerView) -> Card | None:
    """The single card the seat took from the pile this turn, if that is how it drew."""
    if view.seat is None:
        return None
    mine = f"p{view.seat} "
    for line in reversed(view.log):
        if not line.startswith(mine):
            return None
        _, action = parse_seat_action(line)
        if isinstance(action, CallRummy):
            return None
        if isinstance(action, Draw):
            if action.source == "discard" and action.depth == 1 and view.taken_from_discard:
                return view.taken_from_discard[-1][1]
            return None
    return None


def turn_plan(view: PlayerView) -> Plan | None:
    """The plan for the rest of the seat's turn (discard phase), discard chosen."""
    rules = Rules.of(view)
    table = table_of(view)
    banned = just_taken(view)
    found = plan_turn(view.hand, table, rules, owed=view.must_meld, banned=banned)
    if found is None:
        return None
    after = table_after(table, found.plays, view.seat or 0)
    if after is None:
        return found
    if found.discard is None:
        return found
    discard = choose_discard(found.left, banned=banned, pile=view.discard_pile, table=after,
                             rules=rules)
    if discard is None and len(found.left) == 1:
        # a last card that may not go out (it can be laid off): lay it off instead
        card = found.left[0]
        for meld in after:
            try:
                resolve_layoff(meld, card, None, seat=0)
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
    taken = view.discard_pile[-action.depth:]
    rules = Rules.of(view)
    plan = plan_turn([*view.hand, *taken], table_of(view), rules, owed=taken[0],
                     banned=taken[0] if isinstance(action, Draw) and action.depth == 1 else None)
    if plan is None:
        return None
    kept = Counter(plan.left)
    if plan.discard is not None:
        kept[plan.discard] -= 1
    cost = sum(card_points(c, rules.scoring) * n for c, n in (Counter(taken) & kept).items())
    return Take(action, plan, laid(plan) - laid(base) - cost)


def takes(view: PlayerView) -> list[Draw | CallRummy]:
    """The legal ways to take from the pile, one per depth: a Rummy call where one is
    legal and another seat could make it too (the next player's call beats the calls of
    the seats after it, R5-10; a draw does not), else a draw."""
    out: dict[int, Draw | CallRummy] = {}
    others_may_call = view.players > 2
    for action in view.legal_actions:  # draws come before calls
        if (isinstance(action, Draw) and action.source == "discard") or (
                isinstance(action, CallRummy) and (others_may_call or action.depth not in out)):
            out[action.depth] = action
    return [out[d] for d in sorted(out)]


def best_take(view: PlayerView, actions: Sequence[Draw | CallRummy], base: Plan
              ) -> Take | None:
    """The take that beats ``base`` by most: it goes out where the base does not, or its
    melds are worth more than the cards it keeps."""
    best: Take | None = None
    floor = (base.ends_hand, 0)
    for action in actions:
        take = assess_take(view, action, base)
        if take is not None and take.key > floor and (best is None or take.key > best.key):
            best = take
    return best


# -- the strategy ---------------------------------------------------------------------------


class Rummy500Strategy:
    """Greedy Rummy 500 (see the module docstring)."""

    def __init__(self) -> None:
        self._draw: tuple[object, Action] | None = None
        self._plan: tuple[object, list[Action]] | None = None

    # -- drawing and calling -------------------------------------------------------

    @staticmethod
    def _key(view: PlayerView) -> object:
        return (view.deal_number, len(view.log), view.hand, view.seat)

    def draw(self, view: PlayerView) -> Action:
        key = self._key(view)
        if self._draw is not None and self._draw[0] == key:
            return self._draw[1]
        choice = self._choose_draw(view)
        self._draw = (key, choice)
        return choice

    def _choose_draw(self, view: PlayerView) -> Action:
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
            if take is not None and take.plan.value > decline and (
                    best is None or take.plan.value > best.plan.value):
                best = take
        if best is not None:
            return best.action
        return Decline() if Decline() in legal else legal[0]

    def call(self, view: PlayerView) -> CallRummy | None:
        """A Rummy call when its melds are worth more than the cards it takes (R5-10)."""
        if view.to_play == view.seat and view.phase == "draw":
            choice = self.draw(view)
            return choice if isinstance(choice, CallRummy) else None
        calls = [a for a in view.legal_actions if isinstance(a, CallRummy)]
        if not calls:
            return None
        take = best_take(view, calls, stock_plan(view))
        return take.action if take is not None and isinstance(take.action, CallRummy) else None

    # -- melding and discarding ------------------------------------------------------

    def discard(self, view: PlayerView) -> Action:
        """The next action of the turn plan (made once per turn, followed while it holds)."""
        legal = view.legal_actions
        if self._plan is not None and self._plan[0] == self._key(view):
            rest = self._plan[1]
            if rest and rest[0] in legal:
                return self._next(view, rest)
        plan = turn_plan(view)
        actions = plan.actions() if plan is not None else []
        if actions and actions[0] in legal:
            return self._next(view, actions)
        self._plan = None
        return self._fallback(view)

    def _next(self, view: PlayerView, actions: list[Action]) -> Action:
        """The first of ``actions``; the rest is kept for the position it leads to."""
        action, rest = actions[0], actions[1:]
        self._plan = None
        if rest and not isinstance(action, Discard):
            hand = list(view.hand)
            for card in _cards_of(action):
                hand.remove(card)
            after = (view.deal_number, len(view.log) + 1, tuple(hand), view.seat)
            self._plan = (after, rest)
        return action

    def _fallback(self, view: PlayerView) -> Action:
        """A legal action when the plan's is not: the owed card's play, else a discard."""
        legal = view.legal_actions
        owed = view.must_meld
        if owed is not None:
            for action in legal:
                if owed in _cards_of(action):
                    return action
        discards = [a.card for a in legal if isinstance(a, Discard)]
        if discards:
            rules = Rules.of(view)
            table = table_of(view)
            card = choose_discard(discards, banned=None, pile=view.discard_pile, table=table,
                                  rules=rules)
            if card is not None:
                return Discard(card)
        plays = [a for a in legal if isinstance(a, MeldCards | LayOff)]
        return plays[0] if plays else legal[0]


def _value(score: int) -> int:
    """A plan score without the weight of ending the hand."""
    return score - ENDS if score >= ENDS // 2 else score


def _cards_of(action: Action) -> tuple[Card, ...]:
    if isinstance(action, MeldCards):
        return action.cards
    if isinstance(action, LayOff | Discard):
        return (action.card,)
    return ()
