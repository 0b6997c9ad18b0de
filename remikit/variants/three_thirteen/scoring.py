"""Three-Thirteen deadwood (R3-3, R3-4, R3-7).

>>> from remikit.cards import parse_cards
>>> deadwood(parse_cards("3h 9c Kd"), round_no=1).points
34
>>> deadwood(parse_cards("3h 9c 9d"), round_no=1).points
0
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from remikit.cards import Card, Rank
from remikit.errors import Reason
from remikit.i18n import N_, brief
from remikit.melds import AceMode, Deadwood, MeldRules, Scoring
from remikit.solver import Goal, Solver
from remikit.variants.spec import Scored, ScoreInputError, Scorer

ROUNDS = 11
UNUSED_WILD_RANK = 15
UNUSED_JOKER = 20


def hand_size(round_no: int) -> int:
    """R3-2: round r deals r + 2 cards."""
    return round_no + 2


def wild_rank(round_no: int) -> Rank:
    """R3-3: the rank equal to the hand size (3 in round 1 … K in round 11)."""
    if not 1 <= round_no <= ROUNDS:
        raise ValueError(f"a round is 1 to {ROUNDS}, not {round_no}")
    return Rank(hand_size(round_no))


def card_deadwood(rank: int, ace: AceMode) -> int:
    """R3-7 for a natural card."""
    if rank == 1:
        return 1 if ace == "low" else 15
    return min(rank, 10)


@cache
def solver(ace: AceMode) -> Solver:
    rules = MeldRules(ace=ace, set_distinct_suits=False, set_max=0, wild_only_melds=True)
    scoring = Scoring(
        dead=tuple(-card_deadwood(i % 13 + 1, ace) for i in range(52)),
        dead_joker=-UNUSED_JOKER,
        dead_wild_rank=-UNUSED_WILD_RANK,
    )
    return Solver(rules, scoring)


def deadwood(
    hand: Sequence[Card],
    *,
    round_no: int,
    ace: AceMode = "low",
    discard: bool = False,
    keep: Card | None = None,
) -> Deadwood:
    """The minimum deadwood of a hand; with ``discard``, after the best discard."""
    goal = Goal(discard=discard, keep=keep)
    best = solver(ace).solve(hand, wild_rank=wild_rank(round_no), goal=goal)
    assert best is not None
    return Deadwood(-best.value, best.melds, best.dead, best.discard)


def deadwood_points(
    hand: Sequence[Card],
    *,
    round_no: int,
    ace: AceMode = "low",
    discard: bool = False,
    keep: Card | None = None,
) -> int:
    """:func:`deadwood` points only."""
    goal = Goal(discard=discard, keep=keep)
    return -solver(ace).value(hand, wild_rank=wild_rank(round_no), goal=goal)


ACE_NAMES = {"low": N_("ace.low"), "high": N_("ace.high")}
"""The message id of each way the ace counts."""


class ThreeThirteenScorer(Scorer):
    """``remi score three-thirteen --round N [--ace low|high]``: the minimum deadwood."""

    def check_keywords(
        self, *, closing: Card | None, round_no: object, ace: object, pure_run: object
    ) -> None:
        if closing is not None:
            raise ScoreInputError("score.closing_not_here")
        if pure_run is not None:
            raise ScoreInputError("score.pure_run_not_here")
        if round_no is None:
            raise ScoreInputError("score.need_round")
        if (
            isinstance(round_no, bool)
            or not isinstance(round_no, int)
            or not 1 <= round_no <= ROUNDS
        ):
            raise ScoreInputError("score.bad_round", round=brief(round_no))
        if ace is not None and ace not in ("low", "high"):
            raise ScoreInputError("score.bad_ace", ace=brief(ace))

    def check_size(self, hand: Sequence[Card], *, round_no: int | None) -> None:
        assert round_no is not None
        size = hand_size(round_no)
        if len(hand) != size:
            raise ScoreInputError("score.t13_count", round=round_no, size=size, count=len(hand))

    def score(
        self,
        hand: Sequence[Card],
        *,
        closing: Card | None,
        round_no: int | None,
        ace: str | None,
        pure_run: str | None,
    ) -> Scored:
        assert round_no is not None
        mode: AceMode = "high" if ace == "high" else "low"
        found = deadwood(hand, round_no=round_no, ace=mode)
        title = Reason(
            "score.title_t13",
            round=round_no,
            wild=wild_rank(round_no).label,
            ace=Reason(ACE_NAMES[mode]),
        )
        return Scored(
            "three-thirteen", found.points, found.points == 0, found.melds, found.dead, title=title
        )
