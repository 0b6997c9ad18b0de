"""remikit.shuffle: the byte stream, rejection sampling and the Fisher–Yates shuffle are
pinned to fixed values, so a deck dealt from a seed is the same on every Python and
anyone can check it; and the shuffle is a permutation, without bias."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from itertools import permutations

import pytest

from remikit.cards import make_deck
from remikit.engine import Game
from remikit.shuffle import ByteStream, draw_seed, shuffle_in_place, shuffled
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
from remikit.variants.remi13d.seating import draw_seats
from remikit.variants.rummy500.game import Rummy500Game
from remikit.variants.rummy500.options import Rummy500Options
from remikit.variants.three_thirteen.rules import (
    ThreeThirteenGame,
    ThreeThirteenOptions,
    reshuffle_seed,
)

SEED = bytes(range(32))


def reference_shuffle(items: list[int], seed: bytes) -> list[int]:
    """The shuffle written again from the module docstring alone, as simply as it goes."""
    stream = b"".join(
        hashlib.sha256(seed + i.to_bytes(8, "big")).digest() for i in range(4 * len(items) + 4)
    )
    pos = 0
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        bits = (n - 1).bit_length()
        size = (bits + 7) // 8
        while True:
            x = int.from_bytes(stream[pos : pos + size], "big") % 2**bits
            pos += size
            if x < n:
                break
        out[i], out[x] = out[x], out[i]
    return out


# -- the stream and the integers below n ------------------------------------------------


def test_the_stream_is_sha256_of_the_seed_and_an_8_byte_big_endian_counter() -> None:
    stream = ByteStream(b"remikit")
    first = stream.read(40)
    assert first[:32] == hashlib.sha256(b"remikit" + bytes(8)).digest()
    assert first[32:] == hashlib.sha256(b"remikit" + (1).to_bytes(8, "big")).digest()[:8]
    assert first[:8].hex() == "4246d662c73ebcea"
    assert stream.block == 2
    assert (
        stream.read(0) == b""
        and stream.read(24) == hashlib.sha256(b"remikit\0\0\0\0\0\0\0\1").digest()[8:]
    )
    assert ByteStream(b"").read(4).hex() == "af5570f5"


def test_a_read_runs_on_across_blocks_and_reads_no_byte_twice() -> None:
    whole = ByteStream(b"seed").read(100)
    stream = ByteStream(b"seed")
    parts = [stream.read(n) for n in (1, 30, 3, 33, 0, 33)]
    assert b"".join(parts) == whole


def test_integers_below_n_reject_what_the_mask_lets_through_above_n() -> None:
    # below(5): 3 bits per byte; the bytes 42 46 d6 62 … give 2, (6: again), (6: again), 2 …
    stream = ByteStream(b"remikit")
    assert [stream.below(5) for _ in range(12)] == [2, 2, 4, 2, 0, 4, 1, 1, 0, 3, 0, 1]
    assert stream.read(1).hex() == "3d"
    two_bytes = ByteStream(b"remikit")  # 300 needs 9 bits: two bytes each
    assert [two_bytes.below(300) for _ in range(6)] == [70, 98, 234, 4, 294, 296]
    assert 0x4246 & 0x1FF == 70


def test_below_one_reads_nothing_and_below_zero_is_refused() -> None:
    stream = ByteStream(b"x")
    assert stream.below(1) == 0 and stream.block == 0
    with pytest.raises(ValueError):
        stream.below(0)
    with pytest.raises(TypeError):
        ByteStream("text")  # type: ignore[arg-type]


# -- the shuffle and the decks of every variant ---------------------------------------


def test_the_shuffle_of_ten_items_is_pinned() -> None:
    assert shuffled(range(10), b"remikit") == [5, 1, 3, 0, 7, 4, 9, 8, 6, 2]
    assert shuffled([], b"remikit") == [] and shuffled("a", b"remikit") == ["a"]


def test_the_shuffle_is_the_one_the_docstring_describes() -> None:
    for length in (2, 3, 7, 52, 108):
        for k in range(20):
            seed = bytes([k, length])
            assert shuffled(range(length), seed) == reference_shuffle(list(range(length)), seed)


def first_ten(game: Game) -> str:
    return " ".join(str(c) for c in game.new_deck(SEED)[:10])


def test_each_variant_deals_the_pinned_deck_of_a_seed() -> None:
    # 108 cards (two decks and four jokers) shuffle alike whichever variant deals them
    two_decks = "6c 9h Ks 8d 4d Jh 2d 2s 5d 9c"
    assert first_ten(Remi13DGame(Remi13DOptions(), auto_deal=False)) == two_decks
    assert first_ten(Rummy500Game(Rummy500Options(players=3), auto_deal=False)) == (
        "5s 7s 5h Jc 8d Qs Tc 3h 4c 2s"  # one deck, two jokers
    )
    assert first_ten(Rummy500Game(Rummy500Options(players=6), auto_deal=False)) == two_decks
    three = {
        jokers: first_ten(ThreeThirteenGame(ThreeThirteenOptions(jokers=jokers), auto_deal=False))
        for jokers in (0, 2, 4)
    }
    assert three == {
        0: "4d 6c 9h 7d Qd Kc Jh Qd 2s 6d",
        2: "6c 9h Ks 8d 4d Jh 2d 2s 8d 8c",
        4: two_decks,
    }


def test_a_game_deals_each_deal_with_32_bytes_from_its_rng() -> None:
    game = Remi13DGame(Remi13DOptions(), rng=random.Random(7))
    again = random.Random(7)
    first = again.getrandbits(256).to_bytes(32, "big")
    assert list(game.deals[0].deck) == shuffled(make_deck(decks=2, jokers=4), first)
    assert draw_seed(random.Random(7)) == first
    second = again.getrandbits(256).to_bytes(32, "big")
    assert game.new_deck() == shuffled(game.full_deck(), second)


def test_the_three_thirteen_reshuffle_seed_is_the_sha256_of_the_deck_text_and_count() -> None:
    deck = ThreeThirteenGame(ThreeThirteenOptions(), auto_deal=False).new_deck(SEED)
    text = " ".join(str(c) for c in deck) + "|1"
    assert reshuffle_seed(deck, 1) == hashlib.sha256(text.encode("ascii")).digest()
    assert reshuffle_seed(deck, 1).hex() == (
        "081ad5cd56181d499bfb8a1f0dcf36770cfadeb126eb2c0093bbe7a37fadc3b3"
    )
    assert shuffled(range(12), reshuffle_seed(deck, 1)) == [7, 6, 1, 3, 0, 5, 8, 11, 2, 10, 4, 9]


def test_the_seat_draw_shuffles_with_remikits_shuffle() -> None:
    rng = random.Random(3)
    deck = shuffled(make_deck(decks=2, jokers=4), draw_seed(random.Random(3)))
    draw = draw_seats(rng, 4)
    assert draw.draws[0][0] == deck[-1]  # the first player draws the top: the list's end


# -- a permutation, without bias --------------------------------------------------------


def test_the_shuffle_is_a_permutation() -> None:
    deck = make_deck(decks=2, jokers=4)
    for k in range(200):
        out = shuffled(deck, k.to_bytes(4, "big"))
        assert Counter(out) == Counter(deck) and len(out) == len(deck)
    items = list(range(30))
    shuffle_in_place(items, ByteStream(b"in place"))
    assert sorted(items) == list(range(30)) and items != list(range(30))


def test_every_order_of_four_items_is_about_as_likely() -> None:
    # 24 orders, 24,000 deterministic seeds: about 1,000 each; the classic biased
    # shuffle (j below n rather than below i + 1) puts some orders near 750, others 1,220
    counts = Counter(tuple(shuffled("abcd", k.to_bytes(4, "big"))) for k in range(24_000))
    assert set(counts) == set(permutations("abcd"))
    assert all(800 < n < 1200 for n in counts.values()), counts


def test_integers_below_n_are_uniform() -> None:
    stream = ByteStream(b"uniform")
    counts = Counter(stream.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_400 < n < 10_600 for n in counts.values()), counts
    # a card goes to each place of a 52-card deck about as often as to any other
    places = Counter(shuffled(range(52), k.to_bytes(4, "big")).index(0) for k in range(10_400))
    assert all(120 < places[p] < 290 for p in range(52)), places
