"""Remi 13 D scoring: meld and dead-card points, closing (R13-6 … R13-12).

>>> from remikit.cards import parse_cards, Card
>>> close_score(parse_cards("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk"), Card.parse("Ah")).points
135
>>> hand_score(parse_cards("2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs")).points
25
>>> hand_score(parse_cards("2h 3h Jk 9s 9c 9d Kd Kc Ks 5c 6c 7c Qd")).points
-105

With the table option ``pure_run=natural4`` (R13-6 [interp]) a joker may extend the
pure run:

>>> fours = parse_cards("3s 4s 5s 6s Jk 9c 9d 9h 9s Kc Kd Kh Ks")
>>> can_close(fours, Card.parse("Ah")), can_close(fours, Card.parse("Ah"), pure_run="natural4")
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from remikit.cards import JOKER, Card, Rank
from remikit.errors import Reason
from remikit.i18n import N_
from remikit.melds import PURE_RUN_CHOICES, Meld, MeldRules, PureRun, Scoring
from remikit.solver import NEG, Goal, Solver
from remikit.variants.spec import Scored, ScoreInputError, Scorer

HAND_SIZE = 13
CLOSING_BONUS = {"ace": 50, "joker": 75}  # R13-11: "Remi As", "Remi Joker"
ROYAL_FLUSH_POINTS = 75


def _meld_value(rank: int) -> int:
    """R13-9 for a card in a set (ace 15 [interp]) or a run position 1 … 12."""
    if rank == 1:
        return 15
    return 10 if rank >= 11 else 5


def _dead_value(rank: int) -> int:
    """R13-10."""
    if rank == 1:
        return -15
    return -10 if rank >= 11 else -5


RULES = MeldRules(
    ace="both", set_distinct_suits=True, set_max=4, wild_only_melds=False, royal_flush=True
)
SCORING = Scoring(
    # position 0 is the ace low (5), 13 the ace high (15)
    run_position=(5, *(_meld_value(p + 1) for p in range(1, 13)), 15),
    set_rank=(0, *(_meld_value(r) for r in range(1, 14))),
    royal_flush=ROYAL_FLUSH_POINTS,
    dead=tuple(_dead_value(i % 13 + 1) for i in range(52)),
    dead_joker=-25,
)
_SOLVERS = {rule: Solver(replace(RULES, pure_run=rule), SCORING) for rule in PURE_RUN_CHOICES}
SOLVER = _SOLVERS["strict"]


def solver(pure_run: PureRun) -> Solver:
    """The solver of a table whose ``pure_run`` option is ``pure_run`` (R13-6)."""
    return _SOLVERS[pure_run]


@dataclass(frozen=True)
class Score:
    """A seat's score with the arrangement that earns it."""

    points: int
    melds: tuple[Meld, ...]
    dead: tuple[Card, ...]
    closing: Card | None = None
    bonus: int = 0


class CloseRefused(ValueError):
    """A close that R13-7 does not allow; ``reason`` says why in either language."""

    def __init__(self, reason: Reason) -> None:
        self.reason = reason
        super().__init__(reason.en)


def dead_points(cards: Sequence[Card]) -> int:
    """R13-10 summed over cards."""
    return sum(SCORING.dead_joker if c is JOKER else SCORING.dead[c.index] for c in cards)


def hand_score(hand: Sequence[Card], *, pure_run: PureRun = "strict") -> Score:
    """R13-12: the best (melds + dead cards) among arrangements holding a pure run of 4+;
    without one, every card is dead."""
    best = solver(pure_run).solve(hand, goal=Goal(need_pure=True))
    if best is None:
        return Score(dead_points(hand), (), tuple(hand))
    return Score(best.value, best.melds, best.dead)


def hand_value(hand: Sequence[Card], *, pure_run: PureRun = "strict") -> int:
    """The points of :func:`hand_score` without building the arrangement."""
    value = solver(pure_run).value(hand, goal=Goal(need_pure=True))
    return value if value > NEG // 2 else dead_points(hand)


def closing_bonus(closing: Card) -> int:
    if closing is JOKER:
        return CLOSING_BONUS["joker"]
    if closing.rank == Rank.ACE:
        return CLOSING_BONUS["ace"]
    raise CloseRefused(Reason("reason.closing_card", card=closing))


CLOSE_GOAL = Goal(all_melded=True, need_pure=True)


def can_close(hand: Sequence[Card], closing: Card, *, pure_run: PureRun = "strict") -> bool:
    """R13-7 as a yes or no, without building the arrangement."""
    return (
        len(hand) == HAND_SIZE
        and (closing is JOKER or closing.rank == Rank.ACE)
        and solver(pure_run).value(hand, goal=CLOSE_GOAL) > NEG // 2
    )


def refusal(hand: Sequence[Card], closing: Card, *, pure_run: PureRun = "strict") -> Reason | None:
    """Why 13 cards and a closing card do not close (None when they do)."""
    try:
        close_score(hand, closing, pure_run=pure_run)
    except CloseRefused as refused:
        return refused.reason
    return None


def close_score(hand: Sequence[Card], closing: Card, *, pure_run: PureRun = "strict") -> Score:
    """R13-7 and R13-11: the closer's score for 13 cards and a closing card.

    Raises :class:`CloseRefused` with the reason when the close is not allowed.
    """
    if len(hand) != HAND_SIZE:
        raise CloseRefused(Reason("reason.close_size", size=HAND_SIZE, given=len(hand)))
    bonus = closing_bonus(closing)
    best = solver(pure_run).solve(hand, goal=CLOSE_GOAL)
    if best is None:
        raise CloseRefused(_refusal(hand, pure_run))
    return Score(bonus + best.value, best.melds, (), closing, bonus)


NEED_PURE: dict[PureRun, Reason] = {
    "strict": Reason("reason.need_pure"),
    "natural4": Reason("reason.need_pure_natural4"),
}


def _refusal(hand: Sequence[Card], pure_run: PureRun) -> Reason:
    rule_solver = solver(pure_run)
    if rule_solver.solve(hand, goal=Goal(all_melded=True)) is not None:
        return NEED_PURE[pure_run]
    best = rule_solver.solve(hand, goal=Goal(need_pure=True)) or rule_solver.solve(hand)
    dead = " ".join(c.symbol() for c in best.dead) if best is not None else ""
    return Reason("reason.dead_cards", dead=dead)


def closing_candidates(hand14: Sequence[Card]) -> list[Card]:
    """The distinct cards of a 14-card hand that may serve as the closing card."""
    seen: list[Card] = []
    for c in hand14:
        if (c is JOKER or c.rank == Rank.ACE) and c not in seen:
            seen.append(c)
    return seen


def best_close(hand14: Sequence[Card], *, pure_run: PureRun = "strict") -> Score | None:
    """The best close a 14-card hand allows (R13-7), or None: "can I close, and for how much"."""
    best: Score | None = None
    for closing in closing_candidates(hand14):
        rest = list(hand14)
        rest.remove(closing)
        value = solver(pure_run).value(rest, goal=CLOSE_GOAL)
        if value <= NEG // 2:
            continue
        points = closing_bonus(closing) + value
        if best is None or points > best.points:
            best = close_score(rest, closing, pure_run=pure_run)
    return best


class Remi13DScorer(Scorer):
    """``remi score remi13d [--pure-run strict|natural4]``: a hand that did not close
    (R13-12), or a close (R13-11)."""

    def check_keywords(
        self, *, closing: Card | None, round_no: object, ace: object, pure_run: object
    ) -> None:
        if round_no is not None or ace is not None:
            raise ScoreInputError("score.round_not_here")
        if pure_run is not None and pure_run not in PURE_RUN_CHOICES:
            raise ScoreInputError("score.bad_pure_run", value=pure_run)

    def check_size(self, hand: Sequence[Card], *, round_no: int | None) -> None:
        if len(hand) != HAND_SIZE:
            raise ScoreInputError("score.remi13d_count", count=len(hand))

    def score(
        self,
        hand: Sequence[Card],
        *,
        closing: Card | None,
        round_no: int | None,
        ace: str | None,
        pure_run: str | None,
    ) -> Scored:
        rule: PureRun = "natural4" if pure_run == "natural4" else "strict"
        rule_notes = (N_("score.natural4"),) if rule == "natural4" else ()
        if closing is None:
            got = hand_score(hand, pure_run=rule)
            full = solver(rule).value(hand, goal=CLOSE_GOAL)
            return Scored(
                "remi13d",
                got.points,
                full > NEG // 2,
                got.melds,
                got.dead,
                title=Reason("score.title_hand"),
                shows_points=True,
                notes=rule_notes + (() if got.melds else (N_("score.no_pure"),)),
                dead_points=dead_points(got.dead),
            )
        try:
            got = close_score(hand, closing, pure_run=rule)
        except CloseRefused as refused:
            return Scored("remi13d", None, False, refusal=refused.reason)
        bonus_name = "Remi Joker" if closing is JOKER else "Remi As"
        title = Reason(
            "score.title_close", card=closing.symbol(), bonus_name=bonus_name, bonus=got.bonus
        )
        return Scored(
            "remi13d",
            got.points,
            True,
            got.melds,
            got.dead,
            title=title,
            notes=rule_notes,
            shows_points=True,
            dead_points=dead_points(got.dead),
        )
