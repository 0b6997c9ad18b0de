"""The exact arrangement solver shared by every variant.

The search runs over the multiset of natural cards, always branching on the
lowest card left: it is dead, discarded, or the lowest natural card of one of
the melds that contain it. Wild cards are a count. Results of sub-problems are
memoised, and the memo outlives a call, so a bot asking about many similar
hands pays once for what they share. The candidate melds of a card depend only
on the cards of its suit (runs) or of its rank (sets) and on the wild count;
they are kept in tables that every search shares.

Threads may share a solver (the web server's bot pool and its event loop do).
The memo and the tables are only read and written an entry at a time, and an
entry depends on its key alone, so a search never sees a wrong one; a table
at its limit is cleared, perhaps under another thread's search, which then
finds what it needs again. Rebuilding an arrangement walks the memo entries
of the search just made: one cleared meanwhile is searched again in a memo of
the rebuild's own.

Natural cards are packed into one integer, four bits a card (two decks give
counts up to 2; eight decks would still fit).

Where the package was built with a C compiler, the same search runs compiled
(``remikit/_solvercore.c``: the same candidates in the same order, so the same
arrangements); this module's search is its reference and the fallback, and
``REMIKIT_SOLVER=python`` in the environment chooses it. :data:`COMPILED` says
which one a new solver uses.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import combinations, product
from typing import TYPE_CHECKING

from remikit.cards import JOKER, Card, Rank
from remikit.melds import (
    Arrangement,
    Meld,
    MeldKind,
    MeldRules,
    Scoring,
    card_at,
    is_pure_run,
    is_wild,
    split_wilds,
)

if TYPE_CHECKING:
    from remikit._solvercore import Core

_CORE: type[Core] | None
try:
    from remikit._solvercore import Core
except ImportError:  # installed without a C compiler
    _CORE = None
else:
    _CORE = Core

COMPILED = _CORE is not None and os.environ.get("REMIKIT_SOLVER") != "python"
"""Whether solvers search compiled by default (the extension is built and
``REMIKIT_SOLVER`` is not ``python``)."""
_pure_only = False  # pure_python() sets it


@contextmanager
def pure_python() -> Iterator[None]:
    """Inside the block every solver searches in pure Python (the reference the
    compiled search is checked against); not for use while other threads search."""
    global _pure_only
    before, _pure_only = _pure_only, True
    try:
        yield
    finally:
        _pure_only = before


NEG = -(10**9)
"""The value of an impossible arrangement."""

_UNIT = [1 << (4 * i) for i in range(52)]
_MEMO_LIMIT = 400_000
_TABLE_LIMIT = 200_000
_SUIT_ROW = (1 << 52) - 1  # the 13 counts of one suit, once shifted down
_ONES = sum(_UNIT[:13])  # the lowest bit of each of those counts
_RANK_COLUMN = sum(15 << (52 * s) for s in range(4))  # the 4 counts of one rank
# _POSITION_UNITS[suit][p]: the unit of the natural card at run position p (0 and 13: the ace)
_POSITION_UNITS = [[_UNIT[suit * 13 + p % 13] for p in range(14)] for suit in range(4)]

# flags in a memo key: bit 0 a pure run is made, bit 1 a discard is still owed,
# bits 2-3 how many left-over wilds existing melds can still take (0-3).
_PURE = 1
_OWED = 2
# A memo entry is one integer, (value << _MOVE_BITS) | move, so that the memo
# holds no containers (the garbage collector never walks it). The move says
# where the lowest card went: _DEAD, _DISCARD, or _MELD + i for the i-th
# candidate meld (runs, then sets).
_MOVE_BITS = 16
_DEAD, _DISCARD, _MELD = 0, 1, 2
_ACE_CODES = {"low": 0, "high": 1, "both": 2}


@dataclass(frozen=True, kw_only=True)
class Goal:
    """What one search asks for, beyond the rules and scoring.

    ``all_melded``: every card kept must be in a meld (closing, going out).
    ``need_pure``: the melds must include a pure run of 4+ (as the rules'
    ``pure_run`` says) or the royal flush (Remi 13 D); an arrangement without one
    is impossible.
    ``discard``: one card must be discarded first (it is worth nothing).
    ``keep``: a card that may not be the discard.
    """

    all_melded: bool = False
    need_pure: bool = False
    discard: bool = False
    keep: Card | None = None


# A candidate meld found during search:
# (value, natural-cards mask, wilds used, pure, room for more wilds, description)
_Candidate = tuple[int, int, int, bool, int, tuple[object, ...]]
# A search's mode: (all_melded, need_pure, wild values, keep, wild values after a wild discard)
_Mode = tuple[bool, bool, tuple[int, ...], int, tuple[int, ...] | None]
# A meld on the arrangement's path: (description, wilds used, value)
_Found = tuple[tuple[object, ...], int, int]


class Solver:
    """Optimal arrangements under one variant's meld rules and scoring; ``compiled``
    chooses the search (default :data:`COMPILED`)."""

    def __init__(self, rules: MeldRules, scoring: Scoring, *, compiled: bool = COMPILED) -> None:
        if compiled and _CORE is None:
            raise ValueError("remikit was installed without its compiled search")
        self.rules = rules
        self.scoring = scoring
        self._wilds_free = scoring.wilds_free
        # With free wilds and wild-only melds allowed, a natural card is never
        # worse inside a run than a wild standing for it (swap the two).
        self._naturals_first = scoring.wilds_free and rules.wild_only_melds
        # _run_totals[i]: the value of run positions 0 … i-1
        self._run_totals = [sum(scoring.run_position[:i]) for i in range(15)]
        self._memo: dict[tuple[object, ...], dict[int, int]] = {}
        # candidate runs by (cards present in the suit, wilds, card), sets by
        # (counts of the rank, wilds, card): a table shared by every search
        self._run_table: dict[int, tuple[_Candidate, ...]] = {}
        self._set_table: dict[int, tuple[_Candidate, ...]] = {}
        self._melds: dict[_Found, Meld] = {}  # melds without wilds by path step
        self._core = (
            _CORE(
                run_position=scoring.run_position,
                set_rank=scoring.set_rank,
                dead=scoring.dead,
                royal_value=scoring.royal_flush,
                dead_joker=scoring.dead_joker,
                dead_wild_rank=scoring.dead_wild_rank,
                ace=_ACE_CODES[rules.ace],
                distinct_suits=rules.set_distinct_suits,
                set_max=rules.set_max,
                wild_only=rules.wild_only_melds,
                royal=rules.royal_flush,
                natural4=rules.pure_run == "natural4",
                naturals_first=self._naturals_first,
            )
            if compiled and _CORE is not None
            else None
        )

    @property
    def compiled(self) -> bool:
        """Whether this solver searches compiled."""
        return self._core is not None

    def clear(self) -> None:
        """Forget every search made so far (the next ones start afresh)."""
        self._memo.clear()
        if self._core is not None:
            self._core.forget()

    # -- public -----------------------------------------------------------

    def solve(
        self, hand: Sequence[Card], *, wild_rank: Rank | None = None, goal: Goal = Goal()
    ) -> Arrangement | None:
        """The best arrangement of ``hand`` for ``goal``, or None when none is possible."""
        core = self._core
        if core is not None and not _pure_only:
            found = core.search(
                hand, wild_rank, goal.all_melded, goal.need_pure, goal.discard, goal.keep, True
            )
            if found is False:
                return None
            if found is not None:
                value, (dead, melds, discard, flags), wild_cards = found
                return self._assemble(value, dead, discard, melds, flags, wild_cards, goal.keep)
        naturals, wilds = split_wilds(hand, wild_rank)
        mode = self._mode(wilds, wild_rank, goal)
        memo = self._memo_for(mode)
        packed = _pack(naturals)
        flags = _OWED if goal.discard else 0
        value = self._best(memo, mode, packed, len(wilds), flags)
        if value <= NEG // 2:
            return None
        return self._rebuild(memo, mode, packed, wilds, flags, value, goal.keep)

    def value(
        self, hand: Sequence[Card], *, wild_rank: Rank | None = None, goal: Goal = Goal()
    ) -> int:
        """The best value only (``NEG`` when impossible); cheaper than :meth:`solve`."""
        core = self._core
        if core is not None and not _pure_only:
            found = core.search(
                hand, wild_rank, goal.all_melded, goal.need_pure, goal.discard, goal.keep, False
            )
            if found is not None:
                return found
        naturals, wilds = split_wilds(hand, wild_rank)
        mode = self._mode(wilds, wild_rank, goal)
        flags = _OWED if goal.discard else 0
        return self._best(self._memo_for(mode), mode, _pack(naturals), len(wilds), flags)

    def _wild_value(self, wild: Card) -> int:
        """What a wild card no meld takes is worth."""
        return self.scoring.dead_joker if wild is JOKER else self.scoring.dead_wild_rank

    def _mode(self, wilds: list[Card], wild_rank: Rank | None, goal: Goal) -> _Mode:
        """The search mode for ``goal`` with these wild cards."""
        wild_values = tuple(sorted((self._wild_value(w) for w in wilds), reverse=True))
        kept = goal.keep
        keep = kept.index if kept is not None and not is_wild(kept, wild_rank) else -1
        # the wilds left when the discard is a wild: the costliest one other than `keep`
        allowed = [self._wild_value(w) for w in wilds if w is not kept]
        after_discard: tuple[int, ...] | None = None
        if allowed:
            rest = list(wild_values)
            rest.remove(min(allowed))
            after_discard = tuple(rest)
        return (goal.all_melded, goal.need_pure, wild_values, keep, after_discard)

    def _memo_for(self, mode: _Mode) -> dict[int, int]:
        memo = self._memo.setdefault(mode, {})
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        return memo

    # -- search -----------------------------------------------------------

    def _best(self, memo: dict[int, int], mode: _Mode, packed: int, wilds: int, flags: int) -> int:
        key = (packed << 8) | (wilds << 4) | flags
        hit = memo.get(key)
        if hit is not None:
            return hit >> _MOVE_BITS
        all_melded, keep = mode[0], mode[3]
        if packed == 0:
            value = self._leftover(mode, wilds, flags)
            memo[key] = value << _MOVE_BITS
            return value
        low = packed & -packed
        c = (low.bit_length() - 1) >> 2
        rest = packed - _UNIT[c]
        best = NEG
        move = _DEAD
        if not all_melded:
            v = self.scoring.dead[c] + self._best(memo, mode, rest, wilds, flags)
            if v > best:
                best = v
        if flags & _OWED and c != keep:
            v = self._best(memo, mode, rest, wilds, flags & ~_OWED)
            if v > best:
                best, move = v, _DISCARD
        room0 = flags >> 2
        index = _MELD
        for candidates in self._candidates(packed, c, wilds):
            for value, mask, used, pure, room, _ in candidates:
                # as in _flags_after, inline for speed
                new_flags = flags & _OWED
                if pure or flags & _PURE:
                    new_flags |= _PURE
                if self._wilds_free:
                    new_flags |= min(3, room0 + room) << 2
                v = self._best(memo, mode, packed - mask, wilds - used, new_flags)
                if v > NEG // 2 and v + value > best:
                    best, move = v + value, index
                index += 1
        memo[key] = (best << _MOVE_BITS) | move
        return best

    def _flags_after(self, flags: int, pure: bool, room: int) -> int:
        """The flags once a meld (pure or not, with room for more wilds) is made."""
        new_flags = flags & _OWED
        if pure or flags & _PURE:
            new_flags |= _PURE
        if self._wilds_free:
            new_flags |= min(3, (flags >> 2) + room) << 2
        return new_flags

    def _leftover(self, mode: _Mode, wilds: int, flags: int) -> int:
        """The value of the wilds no meld took, once every natural card is placed.

        Melds take the costliest wilds, so the ones left dead are the cheapest.
        """
        all_melded, need_pure, wild_values, _, after_discard = mode
        if need_pure and not flags & _PURE:
            return NEG
        if flags & _OWED:
            if wilds == 0 or after_discard is None:
                return NEG
            wild_values = after_discard
            wilds -= 1
        if wilds == 0:
            return 0
        if self.rules.wild_only_melds and wilds >= 3:
            return 0
        dead = wilds - min(wilds, flags >> 2) if self._wilds_free else wilds
        if dead and all_melded:
            return NEG
        return sum(wild_values[:dead])

    def _candidates(
        self, packed: int, c: int, wilds: int
    ) -> tuple[tuple[_Candidate, ...], tuple[_Candidate, ...]]:
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

    def _runs(self, packed: int, c: int, wilds: int) -> Iterator[_Candidate]:
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
            mask_below = _UNIT[c]
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
                mask = _UNIT[c] + sum(units[p] for p in range(9, 13))
                yield (self.scoring.royal_flush, mask, 0, True, 0, ("royal", suit, 9, 13, ()))

    def _sets(self, packed: int, c: int, wilds: int) -> Iterator[_Candidate]:
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
            mask = _UNIT[c]
            for s, k in enumerate(take):
                mask += k * _UNIT[s * 13 + rank0]
            for used in w_range:
                if used > wilds:
                    break
                size = naturals + used
                room = limit - size if rules.set_max else 3
                yield (per_card * size, mask, used, False, room, ("set", rank0, take, used, suit))

    # -- rebuilding the arrangement ---------------------------------------

    def _rebuild(
        self,
        memo: dict[int, int],
        mode: _Mode,
        packed: int,
        wilds: list[Card],
        flags: int,
        value: int,
        keep: Card | None,
    ) -> Arrangement:
        dead: list[Card] = []
        discard: Card | None = None
        found: list[_Found] = []
        n_wilds = len(wilds)
        while packed:
            key = (packed << 8) | (n_wilds << 4) | flags
            entry = memo.get(key)
            if entry is None:  # another thread cleared the memo: search again, unshared
                memo = {}
                self._best(memo, mode, packed, n_wilds, flags)
                entry = memo[key]
            move = entry & ((1 << _MOVE_BITS) - 1)
            c = ((packed & -packed).bit_length() - 1) >> 2
            if move == _DEAD:
                dead.append(Card(c))
                packed -= _UNIT[c]
            elif move == _DISCARD:
                discard = Card(c)
                packed -= _UNIT[c]
                flags &= ~_OWED
            else:
                runs, sets = self._candidates(packed, c, n_wilds)
                meld_value, mask, used, pure, room, desc = (*runs, *sets)[move - _MELD]
                found.append((desc, used, meld_value))
                packed -= mask
                n_wilds -= used
                flags = self._flags_after(flags, pure, room)
        return self._assemble(value, dead, discard, found, flags, wilds, keep)

    def _assemble(
        self,
        value: int,
        dead: list[Card],
        discard: Card | None,
        found: list[_Found],
        flags: int,
        wilds: list[Card],
        keep: Card | None,
    ) -> Arrangement:
        """The arrangement from the search's path: the dead natural cards, the discard,
        the melds found, the flags at the end, and the hand's wild cards."""
        if not wilds:
            kept = self._melds
            natural = tuple([kept.get(step) or self._natural_meld(step) for step in found])
            return Arrangement(natural, tuple(dead), value, discard)
        # the discard owed (the costliest wild but `keep`), then the melds take the
        # costliest wilds; the rest makes a wild-only meld, is absorbed, or is dead
        spare = sorted(wilds, key=self._wild_value)
        if flags & _OWED:
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

    def _natural_meld(self, step: _Found) -> Meld:
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


def _pack(naturals: Sequence[Card]) -> int:
    """The natural cards packed four bits a card."""
    packed = 0
    for card in naturals:
        packed += _UNIT[card.index]
    return packed


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
