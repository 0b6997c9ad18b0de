"""The exact arrangement solver shared by every variant.

The search runs over the multiset of natural cards, always branching on the
lowest card left: it is dead, discarded, or the lowest natural card of one of
the melds that contain it. Wild cards are a count. Results of sub-problems are
memoised, and the memo outlives a call, so a bot asking about many similar
hands pays once for what they share. The candidate melds of a card depend only
on the cards of its suit (runs) or of its rank (sets) and on the wild count;
they are kept in tables that every search shares (:mod:`remikit.solver_melds`,
which also makes the melds of the arrangement found).

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
from typing import TYPE_CHECKING

from remikit.cards import Card, Rank
from remikit.melds import Arrangement, MeldRules, Scoring, is_wild, split_wilds
from remikit.solver_melds import UNIT, Found, SolverMelds

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

_MEMO_LIMIT = 400_000

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


# A search's mode: (all_melded, need_pure, wild values, keep, wild values after a wild discard)
_Mode = tuple[bool, bool, tuple[int, ...], int, tuple[int, ...] | None]


class Solver(SolverMelds):
    """Optimal arrangements under one variant's meld rules and scoring; ``compiled``
    chooses the search (default :data:`COMPILED`)."""

    def __init__(self, rules: MeldRules, scoring: Scoring, *, compiled: bool = COMPILED) -> None:
        if compiled and _CORE is None:
            raise ValueError("remikit was installed without its compiled search")
        super().__init__(rules, scoring)
        self._memo: dict[tuple[object, ...], dict[int, int]] = {}
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
                return self._assemble(
                    value, dead, discard, melds, bool(flags & _OWED), wild_cards, goal.keep
                )
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
        rest = packed - UNIT[c]
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
        found: list[Found] = []
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
                packed -= UNIT[c]
            elif move == _DISCARD:
                discard = Card(c)
                packed -= UNIT[c]
                flags &= ~_OWED
            else:
                runs, sets = self._candidates(packed, c, n_wilds)
                meld_value, mask, used, pure, room, desc = (*runs, *sets)[move - _MELD]
                found.append((desc, used, meld_value))
                packed -= mask
                n_wilds -= used
                flags = self._flags_after(flags, pure, room)
        return self._assemble(value, dead, discard, found, bool(flags & _OWED), wilds, keep)


def _pack(naturals: Sequence[Card]) -> int:
    """The natural cards packed four bits a card."""
    packed = 0
    for card in naturals:
        packed += UNIT[card.index]
    return packed
