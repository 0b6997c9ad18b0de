"""The melds of the solver's search (:mod:`remikit.solver`): the candidate melds of a
card, in tables every search shares, and the melds of the arrangement a search finds.

The search keeps a candidate on its path as a description, ``("run", suit, lo, hi,
wild positions)``, ``("royal", ...)`` or ``("set", rank, natural cards taken per suit,
wilds, suit)``; :meth:`SolverMelds._meld` makes the meld it describes. Natural cards
are packed into one integer, four bits a card (:data:`UNIT`).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from remikit.cards import JOKER, Card, Rank
from remikit.melds import Arrangement, Meld, MeldKind, MeldRules, Scoring, card_at, is_pure_run

UNIT = [1 << (4 * i) for i in range(52)]
"""``UNIT[i]``: one card of index ``i`` in a packed hand."""
_TABLE_LIMIT = 200_000
_SUIT_ROW = (1 << 52) - 1  # the 13 counts of one suit, once shifted down
_ONES = sum(UNIT[:13])  # the lowest bit of each of those counts
_RANK_COLUMN = sum(15 << (52 * s) for s in range(4))  # the 4 counts of one rank
# _POSITION_UNITS[suit][p]: the unit of the natural card at run position p (0 and 13: the ace)
_POSITION_UNITS = [[UNIT[suit * 13 + p % 13] for p in range(14)] for suit in range(4)]

# A candidate meld found during search:
# (value, natural-cards mask, wilds used, pure, room for more wilds, description)
Candidate = tuple[int, int, int, bool, int, tuple[object, ...]]
# A meld on the arrangement's path: (description, wilds used, value)
Found = tuple[tuple[object, ...], int, int]


class SolverMelds:
    """The candidate melds and the melds of a search's path under one variant's meld rules
    and scoring: what :class:`~remikit.solver.Solver` searches with."""

    def __init__(self, rules: MeldRules, scoring: Scoring) -> None:
        self.rules = rules
        self.scoring = scoring
        self._wilds_free = scoring.wilds_free
        # With free wilds and wild-only melds allowed, a natural card is never
        # worse inside a run than a wild standing for it (swap the two).
        self._naturals_first = scoring.wilds_free and rules.wild_only_melds
        # _run_totals[i]: the value of run positions 0 … i-1
        self._run_totals = [sum(scoring.run_position[:i]) for i in range(15)]
        # candidate runs by (cards present in the suit, wilds, card), sets by
        # (counts of the rank, wilds, card): a table shared by every search
        self._run_table: dict[int, tuple[Candidate, ...]] = {}
        self._set_table: dict[int, tuple[Candidate, ...]] = {}
        self._melds: dict[Found, Meld] = {}  # melds without wilds by path step

    def _wild_value(self, wild: Card) -> int:
        """What a wild card no meld takes is worth."""
        return self.scoring.dead_joker if wild is JOKER else self.scoring.dead_wild_rank

    # -- candidates -------------------------------------------------------

    def _candidates(
        self, packed: int, c: int, wilds: int
    ) -> tuple[tuple[Candidate, ...], tuple[Candidate, ...]]:
        """The runs and the sets that hold ``c`` as their lowest natural card."""
        suit, rank0 = divmod(c, 13)
        row = (packed >> (52 * suit)) & _SUIT_ROW
        key = (((row | row >> 1 | row >> 2) & _ONES) << 10) | (wilds << 6) | c
        runs = self._run_table.get(key)
        if runs is None:
            if len(self._run_table) > _TABLE_LIMIT:
                self._run_table.clear()
            runs = self._run_table[key] = tuple(self._runs(packed, c, wilds))
        key = (((packed >> (4 * rank0)) & _RANK_COLUMN) << 10) | (wilds << 6) | c
        sets = self._set_table.get(key)
        if sets is None:
            if len(self._set_table) > _TABLE_LIMIT:
                self._set_table.clear()
            sets = self._set_table[key] = tuple(self._sets(packed, c, wilds))
        return runs, sets

    def _runs(self, packed: int, c: int, wilds: int) -> Iterator[Candidate]:
        rules = self.rules
        rule = rules.pure_run
        suit, rank0 = divmod(c, 13)
        units = _POSITION_UNITS[suit]
        totals = self._run_totals
        if rank0 == 0:
            starts = ([0] if rules.ace != "high" else []) + ([13] if rules.ace != "low" else [])
        else:
            starts = [rank0]
        lo_limit = 1 if rules.ace == "high" else 0
        hi_limit = 12 if rules.ace == "low" else 13
        for pc in starts:
            lo_min = 1 if pc == 13 else lo_limit
            hi_max = 12 if pc == 0 else hi_limit
            # which positions hold a natural card we have (besides c itself)
            have = [False] * 14
            for p in range(lo_min, hi_max + 1):
                if p != pc:
                    have[p] = (packed >> (4 * (suit * 13 + p % 13))) & 7 > 0
            # positions below pc, from pc down to lo: without a card, and with one
            gaps_below: list[int] = []
            cards_below: list[int] = []
            mask_below = UNIT[c]
            for lo in range(pc, lo_min - 1, -1):
                if lo < pc:
                    if have[lo]:
                        cards_below.insert(0, lo)
                        mask_below += units[lo]
                    else:
                        gaps_below.insert(0, lo)
                        if len(gaps_below) > wilds:
                            break  # a run reaching lower needs more wilds
                gaps, cards, mask = list(gaps_below), list(cards_below), mask_below
                for hi in range(pc, hi_max + 1):
                    if hi > pc:
                        if lo == 0 and hi == 13:
                            break
                        if have[hi]:
                            cards.append(hi)
                            mask += units[hi]
                        else:
                            gaps.append(hi)
                            if len(gaps) > wilds:
                                break  # a longer run only needs more wilds
                    length = hi - lo + 1
                    if length < 3:
                        continue
                    value = totals[hi + 1] - totals[lo]
                    room = 13 - length
                    if self._naturals_first:
                        # a longer run must end in natural cards
                        if length > 3 and not ((lo == pc or have[lo]) and (hi == pc or have[hi])):
                            continue
                        wild_pos = tuple(gaps)
                        yield (
                            value,
                            mask,
                            len(wild_pos),
                            is_pure_run(lo, hi, wild_pos, rule),
                            room,
                            ("run", suit, lo, hi, wild_pos),
                        )
                        continue
                    spare = wilds - len(gaps)
                    for k in range(min(spare, len(cards)) + 1):
                        for extra in combinations(cards, k):
                            wild_pos = tuple(sorted(gaps + list(extra))) if extra else tuple(gaps)
                            yield (
                                value,
                                mask - sum(units[p] for p in extra),
                                len(wild_pos),
                                is_pure_run(lo, hi, wild_pos, rule),
                                room,
                                ("run", suit, lo, hi, wild_pos),
                            )
            if rules.royal_flush and pc == 13 and suit == 3 and all(have[p] for p in range(9, 13)):
                mask = UNIT[c] + sum(units[p] for p in range(9, 13))
                yield (self.scoring.royal_flush, mask, 0, True, 0, ("royal", suit, 9, 13, ()))

    def _sets(self, packed: int, c: int, wilds: int) -> Iterator[Candidate]:
        rules = self.rules
        suit, rank0 = divmod(c, 13)
        per_card = self.scoring.set_rank[rank0 + 1]
        counts = []
        for s in range(4):
            idx = s * 13 + rank0
            n = (packed >> (4 * idx)) & 7
            if s == suit:
                n -= 1
                if rules.set_distinct_suits:
                    n = 0
            elif rules.set_distinct_suits:
                n = min(n, 1)
            counts.append(n)
        limit = rules.set_max or 10**6
        for take in product(*(range(n + 1) for n in counts)):
            naturals = 1 + sum(take)
            if naturals > limit:
                continue
            if self._wilds_free:
                w_range: range = range(max(0, 3 - naturals), max(0, 3 - naturals) + 1)
            else:
                w_range = range(max(0, 3 - naturals), min(wilds, limit - naturals) + 1)
            mask = UNIT[c]
            for s, k in enumerate(take):
                mask += k * UNIT[s * 13 + rank0]
            for used in w_range:
                if used > wilds:
                    break
                size = naturals + used
                room = limit - size if rules.set_max else 3
                yield (per_card * size, mask, used, False, room, ("set", rank0, take, used, suit))

    # -- the arrangement found --------------------------------------------

    def _assemble(
        self,
        value: int,
        dead: list[Card],
        discard: Card | None,
        found: list[Found],
        owed: bool,
        wilds: list[Card],
        keep: Card | None,
    ) -> Arrangement:
        """The arrangement from the search's path: the dead natural cards, the discard,
        the melds found, whether a discard is still owed at the end, and the hand's wild
        cards."""
        if not wilds:
            kept = self._melds
            natural = tuple([kept.get(step) or self._natural_meld(step) for step in found])
            return Arrangement(natural, tuple(dead), value, discard)
        # the discard owed (the costliest wild but `keep`), then the melds take the
        # costliest wilds; the rest makes a wild-only meld, is absorbed, or is dead
        spare = sorted(wilds, key=self._wild_value)
        if owed:
            discard = next(w for w in spare if w is not keep)
            spare.remove(discard)
        melds: list[Meld] = []
        for desc, used, meld_value in found:
            melds.append(self._meld(desc, spare[:used], meld_value))
            spare = spare[used:]
        if spare and self.rules.wild_only_melds and len(spare) >= 3:
            melds.append(Meld("wild", tuple(spare), (None,) * len(spare)))
            spare = []
        if self._wilds_free:
            for w in list(spare):
                for i, m in enumerate(melds):
                    grown = _absorb(m, w, self.rules)
                    if grown is not None:
                        melds[i] = grown
                        spare.remove(w)
                        break
        dead.extend(spare)
        return Arrangement(tuple(melds), tuple(dead), value, discard)

    def _natural_meld(self, step: Found) -> Meld:
        """The meld of a path step without wild cards, kept for the next time."""
        if len(self._melds) > _TABLE_LIMIT:
            self._melds.clear()
        desc, _, value = step
        meld = self._melds[step] = self._meld(desc, [], value)
        return meld

    def _meld(self, desc: tuple[object, ...], wild_cards: list[Card], value: int) -> Meld:
        wild_iter = iter(wild_cards)
        cards: list[Card] = []
        stands: list[Card | None] = []
        if desc[0] in ("run", "royal"):
            _, suit, lo, hi, wild_pos = desc
            assert isinstance(lo, int) and isinstance(hi, int) and isinstance(suit, int)
            assert isinstance(wild_pos, tuple)
            for p in range(lo, hi + 1):
                card = card_at(suit, p)
                if p in wild_pos:
                    cards.append(next(wild_iter))
                    stands.append(card)
                else:
                    cards.append(card)
                    stands.append(None)
            pure = is_pure_run(lo, hi, wild_pos, self.rules.pure_run)
            kind: MeldKind = "royal" if desc[0] == "royal" else "run"
            return Meld(kind, tuple(cards), tuple(stands), value, pure)
        _, rank0, take, _used, suit = desc
        assert isinstance(rank0, int) and isinstance(take, tuple) and isinstance(suit, int)
        cards.append(Card(suit * 13 + rank0))
        stands.append(None)
        present = {suit}
        for s, k in enumerate(take):
            for _ in range(k):
                cards.append(Card(s * 13 + rank0))
                stands.append(None)
                present.add(s)
        free_suits = [s for s in (3, 2, 1, 0) if s not in present] or [suit]
        for i, w in enumerate(wild_iter):
            cards.append(w)
            stands.append(Card(free_suits[i % len(free_suits)] * 13 + rank0))
        return Meld("set", tuple(cards), tuple(stands), value)


def _absorb(meld: Meld, wild: Card, rules: MeldRules) -> Meld | None:
    """The meld with one more wild card, where its rules allow (deadwood games)."""
    if meld.kind == "set":
        if rules.set_max and len(meld) >= rules.set_max:
            return None
        first = meld.stands_for[0] or meld.cards[0]
        return Meld("set", (*meld.cards, wild), (*meld.stands_for, first), meld.points)
    if meld.kind == "run" and len(meld) < 13:
        top = meld.stands_for[-1] or meld.cards[-1]
        bottom = meld.stands_for[0] or meld.cards[0]
        top_pos = 13 if top.rank == Rank.ACE else int(top.rank) - 1
        bottom_pos = 0 if bottom.rank == Rank.ACE else int(bottom.rank) - 1
        if top_pos < (12 if rules.ace == "low" else 13):
            above = card_at(top.suit, top_pos + 1)
            return Meld("run", (*meld.cards, wild), (*meld.stands_for, above), meld.points)
        if bottom_pos > (1 if rules.ace == "high" else 0):
            below = card_at(bottom.suit, bottom_pos - 1)
            return Meld("run", (wild, *meld.cards), (below, *meld.stands_for), meld.points)
    return None
