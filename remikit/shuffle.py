"""The shuffle remikit defines: Fisher–Yates driven by a SHA-256 byte stream.

Python's :meth:`random.Random.shuffle` may change from one Python version to the
next, so remikit shuffles every deck and pile with the procedure below, which
depends on nothing but SHA-256. Anyone can reimplement it from this text and
check that a seed gives a deck.

**The seed** is a byte string of any length (remikit uses 32 bytes).

**The byte stream.** Block ``i`` (``i`` = 0, 1, 2, …) is the 32-byte digest
``SHA-256(seed || I)``, where ``I`` is ``i`` written as an unsigned 8-byte
big-endian integer and ``||`` joins byte strings. The stream is block 0, then
block 1, and so on, read from the start one byte after another; no byte is
read twice, and a read may run on from one block into the next.

**An integer below n** (``n`` ≥ 1), unbiased, by rejection sampling: when
``n`` = 1 the answer is 0 and no byte is read. Otherwise let ``b`` be the
number of bits of ``n - 1`` (its bit length: 51 = 0b110011 has 6) and
``k = ceil(b / 8)``. Read ``k`` bytes, take them as an unsigned big-endian
integer, keep its low ``b`` bits (``x = value mod 2**b``); if ``x < n`` the
answer is ``x``, else read ``k`` more bytes and try again.

**The shuffle** of a list ``a`` of ``m`` items (Fisher–Yates, Durstenfeld's
form): for ``i`` from ``m - 1`` down to 1, take ``j`` = an integer below
``i + 1`` and swap ``a[i]`` and ``a[j]``. A list of 0 or 1 items reads no byte.

For a deal, the list shuffled is the variant's unshuffled deck
(:func:`remikit.cards.make_deck`: the 52 natural cards ``decks`` times, each 52
in suit order Clubs, Diamonds, Hearts, Spades and within a suit A, 2 … 10, J,
Q, K, then the jokers: ``Ac 2c … Kc Ad … Ks Jk``); the result is the deck as a
record writes it, top card first.

**Where the seeds come from.** A :class:`~remikit.engine.Game` shuffles each
deal with 32 bytes drawn from its ``rng`` (:func:`draw_seed`: a seeded
:class:`random.Random` in simulations and tests, the system's cryptographic
RNG otherwise). A web table shuffles deal ``k`` with
``SHA-256("{table seed}/deal/{k}")`` (:func:`remikit.server.tables.service.deal_seed`)
and stores the deck. A Three-Thirteen round's ``r``-th new stock (R3-5) is
the discard pile but its top card, shuffled with
:func:`remikit.variants.three_thirteen.rules.reshuffle_seed`: the SHA-256 of
the deck's record text, ``|`` and ``r``. The Remi 13 D seat draw (R13-2)
shuffles each fresh deck with :func:`draw_seed` of the caller's ``rng``.

>>> ByteStream(b"remikit").read(4).hex()
'4246d662'
>>> shuffled(range(10), b"remikit")
[5, 1, 3, 0, 7, 4, 9, 8, 6, 2]
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, MutableSequence
from typing import TypeVar

T = TypeVar("T")

BLOCK_INDEX_BYTES = 8
SEED_BYTES = 32
"""The length of the seeds remikit draws for its shuffles."""


class ByteStream:
    """The counter-mode SHA-256 byte stream of ``seed`` (see the module docstring)."""

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes | bytearray):
            raise TypeError(f"a shuffle seed is bytes, not {type(seed).__name__}")
        self.seed = bytes(seed)
        self.block = 0  # the index of the next block to make
        self._buffer = b""

    def read(self, count: int) -> bytes:
        """The next ``count`` bytes of the stream."""
        if count < 0:
            raise ValueError("cannot read a negative number of bytes")
        while len(self._buffer) < count:
            counter = self.block.to_bytes(BLOCK_INDEX_BYTES, "big")
            self._buffer += hashlib.sha256(self.seed + counter).digest()
            self.block += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def below(self, n: int) -> int:
        """An integer from 0 to ``n - 1``, each equally likely (rejection sampling)."""
        if n < 1:
            raise ValueError(f"no integer is below {n} and at least 0")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        size = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            x = int.from_bytes(self.read(size), "big") & mask
            if x < n:
                return x


def shuffle_in_place(items: MutableSequence[T], stream: ByteStream) -> None:
    """Shuffle ``items`` with bytes of ``stream`` (Fisher–Yates, the last place first)."""
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]


def draw_seed(rng: random.Random) -> bytes:
    """A fresh :data:`SEED_BYTES`-byte seed from ``rng``: its next 256 random bits,
    big-endian (from a :class:`random.SystemRandom`, the system's cryptographic RNG)."""
    return rng.getrandbits(8 * SEED_BYTES).to_bytes(SEED_BYTES, "big")


def shuffled(items: Iterable[T], seed: bytes) -> list[T]:
    """A new list of ``items`` in the order the shuffle of ``seed`` gives them."""
    out = list(items)
    shuffle_in_place(out, ByteStream(seed))
    return out
