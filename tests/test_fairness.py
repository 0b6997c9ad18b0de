"""Fair deals (docs/fairness.md): the known-answer vectors, records that verify, every
kind of tampering caught and named, and the statistics of the shuffle the key drives."""

from __future__ import annotations

import copy
import hashlib
import json
import math
from collections import Counter
from collections.abc import Callable, Sequence
from statistics import NormalDist
from typing import Any

import pytest

from remikit.actions import Draw
from remikit.cards import Card, make_deck
from remikit.fairness import (
    DealCheck,
    DealFairness,
    Mismatch,
    commitment,
    deal_key,
    deck_seed,
    fair_deck,
    verify_record,
)
from remikit.records import RecordError, new_game, replay
from remikit.shuffle import ByteStream, shuffled
from remikit.variants import VariantSpec, find_playable, playable
from remikit.variants.three_thirteen.rules import ThreeThirteenDeal, ThreeThirteenOptions
from remikit.variants.three_thirteen.rules import reshuffle_seed as three_thirteen_seed
from tests import fairness_vectors
from tests.fair_records import TABLE, fair_record

# -- the known-answer vectors ---------------------------------------------------------


@pytest.fixture(scope="module")
def vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(fairness_vectors.JSON_PATH.read_text(encoding="utf-8"))
    return data


def test_the_vectors_cover_every_case_the_doc_promises(vectors: dict[str, Any]) -> None:
    tables = [(v["variant"], v["options"]) for v in vectors["vectors"]]
    for table in [
        ("remi13d", {}),
        ("rummy500", {"players": 3}),
        ("rummy500", {"players": 6}),
        ("three-thirteen", {"players": 4, "jokers": 2}),
    ]:
        assert table in tables
    given = [[c is not None for c in v["contributions"]] for v in vectors["vectors"]]
    assert any(len(g) == 4 and any(g) and not all(g) for g in given)
    assert any(not any(g) for g in given)


def test_a_change_of_the_scheme_changes_the_first_vector(vectors: dict[str, Any]) -> None:
    """Hard-coded here as well as in the JSON: regenerating the vectors cannot hide it."""
    first = vectors["vectors"][0]
    assert first["commitment"] == (
        "bbca9999a03df0e27483d3a3387d82b84db881bf5534e869e84daec795ef1cdd"
    )
    assert first["key"] == "145e96f1af417f3eff4f58a878c2af5d55b41f19263980cbe3604a1c21e86aa6"
    assert first["deck_seed"] == (
        "396ea3c80f3547e519bbe9604640e92ec579819d45703266dd55f1e864096b53"
    )
    assert first["deck"][:6] == ["Qc", "Ac", "4d", "4s", "3d", "8c"]


def _full(vector: dict[str, Any]) -> list[Card]:
    return [Card.parse(c) for c in fairness_vectors.full_deck(vector["variant"], vector["options"])]


@pytest.mark.parametrize("n", range(len(fairness_vectors.CASES)))
def test_remikit_computes_each_vector(vectors: dict[str, Any], n: int) -> None:
    v = vectors["vectors"][n]
    secret = bytes.fromhex(v["secret"])
    contributions = [None if c is None else bytes.fromhex(c) for c in v["contributions"]]
    assert commitment(v["table"], v["deal"], secret).hex() == v["commitment"]
    key = deal_key(secret, contributions)
    assert key.hex() == v["key"]
    seed = deck_seed(key)
    assert seed.hex() == v["deck_seed"]
    for name in ("commitment", "key", "deck_seed"):
        assert hashlib.sha256(bytes.fromhex(v[f"{name}_input"])).hexdigest() == v[name]
    assert ByteStream(seed).read(len(v["stream"]) // 2).hex() == v["stream"]
    assert fairness_vectors.first_swaps(v["cards"], seed) == v["first_swaps"]
    full = _full(v)
    assert len(full) == v["cards"]
    assert [str(c) for c in fair_deck(full, secret, contributions)] == v["deck"]
    fair = DealFairness.drawn(v["table"], v["deal"], secret, contributions)
    assert [str(c) for c in fair.deck(full)] == v["deck"]


@pytest.mark.parametrize("n", range(len(fairness_vectors.CASES)))
def test_the_vectors_deal_as_the_doc_says(vectors: dict[str, Any], n: int) -> None:
    """docs/fairness.md §5: seat s gets deck[(s - dealer - 1) mod n + j·n]; the next card
    turns up in Rummy 500 and Three-Thirteen; the stock is drawn from its start."""
    v = vectors["vectors"][n]
    game_class = find_playable(v["variant"]).game_class()
    game = game_class(game_class.options_type.from_mapping(v["options"]), auto_deal=False)
    deck = [Card.parse(c) for c in v["deck"]]
    seats = game.players
    for dealer in range(seats):
        deal = game.make_deal(number=v["deal"], dealer=dealer, first=(dealer + 1) % seats)
        deal.deal(deck)
        size = deal.hand_size()
        for seat in range(seats):
            first = (seat - dealer - 1) % seats
            assert deal.hands[seat] == [deck[first + j * seats] for j in range(size)]
        rest = deck[size * seats :]
        if v["variant"] != "remi13d":
            assert deal.discard_pile == rest[:1]
            rest = rest[1:]
        deal.apply(deal.first, Draw("stock"))
        assert deal.hands[deal.first][-1] == rest[0]


def test_the_reshuffle_vector_is_the_engines_new_stock(vectors: dict[str, Any]) -> None:
    r = vectors["reshuffle"]
    source = next(v for v in vectors["vectors"] if v["title"] == r["vector"])
    deck = [Card.parse(c) for c in source["deck"]]
    assert r["seed_input"] == " ".join(source["deck"]) + "|1"
    assert hashlib.sha256(r["seed_input"].encode("ascii")).hexdigest() == r["seed"]
    assert three_thirteen_seed(deck, 1).hex() == r["seed"]
    options = ThreeThirteenOptions.from_mapping(source["options"])
    deal = ThreeThirteenDeal(number=source["deal"], players=4, dealer=3, first=0, options=options)
    deal.deal(deck)
    deal.discard_pile = [Card.parse(c) for c in r["pile"]]
    deal.reshuffle()
    assert [str(c) for c in deal.discard_pile] == r["pile"][-1:]
    assert [str(c) for c in deal.stock] == r["shuffled"]  # the end of the list is the top


def test_the_shuffle_vector(vectors: dict[str, Any]) -> None:
    s = vectors["shuffle"]
    assert shuffled(range(s["items"]), bytes.fromhex(s["seed"])) == s["order"]


def test_the_json_is_what_the_generator_writes(vectors: dict[str, Any]) -> None:
    assert fairness_vectors.compute() == vectors


def test_the_doc_shows_the_json_vectors(vectors: dict[str, Any]) -> None:
    doc = fairness_vectors.DOC_PATH.read_text(encoding="utf-8")
    assert fairness_vectors.doc_section(doc) == fairness_vectors.render(vectors)
    for v in vectors["vectors"]:
        assert v["commitment"] in doc and v["key"] in doc


# -- the unshuffled decks ----------------------------------------------------------------


def in_deck_order(cards: Sequence[Card]) -> list[Card]:
    """``cards`` in the order of an unshuffled deck (docs/fairness.md §4), the order
    static/fairness.js requires of the deck the server names: each natural card in order,
    once per copy, round after round, then the jokers."""
    copies = Counter(cards)
    naturals = [c for c in make_deck() if copies[c]]
    rounds = max((copies[c] for c in naturals), default=0)
    ordered = [c for n in range(rounds) for c in naturals if copies[c] > n]
    return ordered + [c for c in cards if c.is_joker]


def option_sets(spec: VariantSpec) -> list[dict[str, object]]:
    """The defaults, and each value of each option with choices, a boolean or a range of
    at most ten, the others at their defaults."""
    sets: list[dict[str, object]] = [{}]
    for info in spec.options():
        values: Sequence[object] = ()
        if info.choices is not None:
            values = info.choices
        elif info.kind == "boolean":
            values = (False, True)
        elif info.low is not None and info.high is not None and info.high - info.low < 10:
            values = range(info.low, info.high + 1)
        sets += [{info.name: value} for value in values]
    return sets


@pytest.mark.parametrize("spec", playable(), ids=lambda s: s.name)
def test_every_unshuffled_deck_is_in_the_order_the_browser_checks(spec: VariantSpec) -> None:
    decks = set()
    for options in option_sets(spec):
        try:
            deck = new_game({"variant": spec.name, "options": options}).full_deck()
        except RecordError:  # a value the other defaults refuse (R3-1: 8 players, no jokers)
            continue
        assert deck == in_deck_order(deck), (spec.name, options)
        decks.add(len(deck))
    assert decks, spec.name


def test_the_order_check_catches_another_order() -> None:
    deck = make_deck(decks=2, jokers=4)
    assert in_deck_order(deck) == deck
    assert in_deck_order(sorted(deck)) == deck != sorted(deck)
    assert in_deck_order(deck[::-1]) == deck


# -- records that verify ---------------------------------------------------------------

GAMES: list[tuple[str, dict[str, object], frozenset[int] | None]] = [
    ("remi13d", {"games": 2}, None),
    ("rummy500", {"players": 3, "target": 200}, frozenset({0})),
    ("rummy500", {"players": 6, "target": 100}, None),
    ("three-thirteen", {"players": 3, "jokers": 2}, frozenset({0, 2})),
]


@pytest.fixture(scope="module", params=range(len(GAMES)), ids=lambda i: GAMES[i][0])
def record(request: pytest.FixtureRequest) -> dict[str, Any]:
    variant, options, contributing = GAMES[request.param]
    return fair_record(variant, options, seed=request.param + 1, contributing=contributing)


def test_a_fair_record_verifies_and_replays(record: dict[str, Any]) -> None:
    checks = verify_record(record)
    assert [c.deal for c in checks] == list(range(1, len(record["hands"]) + 1))
    assert all(c.verified for c in checks), [c.as_json() for c in checks if not c.verified]
    assert [c.as_json() for c in checks] == [
        {"deal": n, "verified": True} for n in range(1, len(checks) + 1)
    ]
    assert replay(record).as_json()["ok"] is True


def test_a_three_thirteen_game_that_reshuffles_verifies() -> None:
    """The verdict on the deck covers the new stocks (docs/fairness.md §6): random bots
    run the stock out, and the record still replays and verifies."""
    record = fair_record("three-thirteen", {"players": 2}, seed=5)
    result = replay(record)
    assert result.ok and result.game is not None
    assert any(isinstance(d, ThreeThirteenDeal) and d.reshuffles for d in result.game.deals)
    assert all(c.verified for c in verify_record(record))


# -- tampering is caught and named -----------------------------------------------------


@pytest.fixture(scope="module")
def base() -> dict[str, Any]:
    """A Rummy 500 record of at least three hands, every seat contributing."""
    record = fair_record("rummy500", {"players": 3, "target": 300}, seed=7)
    assert len(record["hands"]) >= 3
    return record


def _checks(record: dict[str, Any]) -> dict[int, list[dict[str, Any]]]:
    """The problems of each deal that does not verify."""
    return {c.deal: [p.as_json() for p in c.problems] for c in verify_record(record) if c.problems}


def _fair(record: dict[str, Any], hand: int) -> dict[str, Any]:
    fair: dict[str, Any] = record["hands"][hand - 1]["fairness"]
    return fair


def _first_other(deck: Sequence[str], start: int) -> int:
    return next(i for i in range(start + 1, len(deck)) if deck[i] != deck[start])


def test_one_card_swapped_names_the_position_and_both_cards(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    deck = record["hands"][1]["deck"]
    other = _first_other(deck, 16)
    deck[16], deck[other] = deck[other], deck[16]
    expected = {"position": 17, "found": deck[16], "expected": deck[other], "differ": 2}
    assert _checks(record) == {2: [{"code": "deck", **expected}]}


def test_a_changed_contribution_gives_another_deck(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    _fair(record, 1)["contributions"][1] = "ab" * 32
    (problem,) = _checks(record)[1]
    assert problem["code"] == "deck" and problem["differ"] > 40
    assert list(_checks(record)) == [1]


def test_a_secret_changed_after_the_commitment_is_caught(base: dict[str, Any]) -> None:
    """A server that reveals another secret than the one it committed to: the commitment
    does not match (and the deck, dealt from the first secret, neither)."""
    record = copy.deepcopy(base)
    _fair(record, 2)["secret"] = "0" * 64
    codes = [p["code"] for p in _checks(record)[2]]
    assert codes == ["commitment", "deck"]


def test_a_secret_changed_with_a_deck_to_match_still_fails_the_commitment(
    base: dict[str, Any],
) -> None:
    """A server that deals a deck of its choosing and reveals the secret that gives it."""
    record = copy.deepcopy(base)
    fair = DealFairness.from_json(_fair(record, 2))
    chosen = bytes(32)
    full = [Card.parse(c) for c in fairness_vectors.full_deck("rummy500", {"players": 3})]
    record["hands"][1]["deck"] = [str(c) for c in fair_deck(full, chosen, fair.contributions)]
    _fair(record, 2)["secret"] = chosen.hex()
    assert _checks(record) == {2: [{"code": "commitment"}]}


def test_a_changed_commitment_is_caught(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    _fair(record, 3)["commitment"] = "f" * 64
    assert _checks(record) == {3: [{"code": "commitment"}]}


def test_a_removed_contribution_is_caught(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    del _fair(record, 1)["contributions"][2]
    problems = _checks(record)[1]
    assert problems[0] == {"code": "seats", "found": 2, "expected": 3}
    assert [p["code"] for p in problems] == ["seats", "deck"]


def test_a_contribution_made_null_is_caught(base: dict[str, Any]) -> None:
    """A server that drops a contribution it had accepted (docs/fairness.md §9)."""
    record = copy.deepcopy(base)
    _fair(record, 1)["contributions"][0] = None
    assert [p["code"] for p in _checks(record)[1]] == ["deck"]


def test_a_changed_table_is_named(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    _fair(record, 2)["table"] = "ZZZZZZZZ"
    problems = _checks(record)[2]
    assert problems == [
        {"code": "table", "found": "ZZZZZZZZ", "expected": TABLE},
        {"code": "commitment"},
    ]


def test_a_changed_deal_number_is_named(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    _fair(record, 3)["deal"] = 9
    problems = _checks(record)[3]
    assert problems == [{"code": "deal_number", "found": 9, "expected": 3}, {"code": "commitment"}]


def test_hands_in_another_order_are_named(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    record["hands"][0]["fairness"], record["hands"][1]["fairness"] = _fair(base, 2), _fair(base, 1)
    checks = _checks(record)
    assert checks[1][0] == {"code": "deal_number", "found": 2, "expected": 1}
    assert checks[2][0] == {"code": "deal_number", "found": 1, "expected": 2}


def test_a_hand_spliced_from_another_table_is_named(base: dict[str, Any]) -> None:
    """A deal of another table, its own deck and fairness data intact, is no deal of
    this table's."""
    other = fair_record("rummy500", {"players": 3, "target": 300}, seed=8, table="K7QM2XWD")
    record = copy.deepcopy(base)
    record["hands"][1] = copy.deepcopy(other["hands"][1])
    assert _checks(record) == {2: [{"code": "table", "found": "K7QM2XWD", "expected": TABLE}]}


def test_a_missing_fairness_object_is_named(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    del record["hands"][1]["fairness"]
    assert _checks(record) == {2: [{"code": "no_fairness"}]}


def test_an_unrevealed_secret_is_named(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    _fair(record, 1)["secret"] = None
    assert _checks(record) == {1: [{"code": "no_secret"}]}


def test_a_truncated_deck_is_named(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    record["hands"][0]["deck"] = record["hands"][0]["deck"][:50]
    assert _checks(record) == {
        1: [
            {
                "code": "deck",
                "position": 51,
                "found": None,
                "expected": base["hands"][0]["deck"][50],
                "differ": 4,
            }
        ]
    }


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("upper-case hex", lambda f: f.update(secret=f["secret"].upper()), "secret must be 32 bytes"),
    ("short hex", lambda f: f.update(commitment=f["commitment"][:62]), "commitment must be 32"),
    ("not hex", lambda f: f["contributions"].__setitem__(0, "xy" * 32), "contribution of seat 0"),
    ("a number", lambda f: f.update(secret=7), "secret must be 32 bytes"),
    ("unknown version", lambda f: f.update(version=2), "version 2 is not one remikit knows"),
    ("no version", lambda f: f.pop("version"), "version null is not one remikit knows"),
    ("version true", lambda f: f.update(version=True), "is not one remikit knows"),
    ("no table", lambda f: f.update(table=""), "table must be the table's id"),
    ("table not UTF-8", lambda f: f.update(table="\ud800"), "table must be the table's id"),
    ("deal 0", lambda f: f.update(deal=0), "deal must be a deal number from 1"),
    ("contributions not a list", lambda f: f.update(contributions="00"), "must be a list"),
]


@pytest.mark.parametrize(("what", "spoil", "reason"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_fairness_data_is_named(
    base: dict[str, Any], what: str, spoil: Callable[[dict[str, Any]], None], reason: str
) -> None:
    record = copy.deepcopy(base)
    spoil(_fair(record, 2))
    ((problem,),) = _checks(record).values()
    assert problem["code"] == "malformed" and reason in problem["reason"], problem
    assert list(_checks(record)) == [2]


def test_fairness_that_is_not_an_object_is_malformed(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    record["hands"][0]["fairness"] = ["not", "an", "object"]
    assert _checks(record)[1] == [{"code": "malformed", "reason": "fairness must be an object"}]


def test_a_record_without_fairness_data_says_so_for_every_deal(base: dict[str, Any]) -> None:
    record = copy.deepcopy(base)
    for hand in record["hands"]:
        del hand["fairness"]
    checks = verify_record(record)
    assert checks == [DealCheck(n, (Mismatch("no_fairness"),)) for n in range(1, len(checks) + 1)]


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ({"variant": "poker", "hands": []}, "unknown variant"),
        ({"variant": "rummy500", "hands": []}, "hands must be a list"),
        ({"variant": "rummy500", "hands": "x"}, "hands must be a list"),
        ({"variant": "rummy500", "hands": [7]}, "hand 1 is not an object"),
        ({"variant": "rummy500", "hands": [{"deck": "Ah"}]}, "deck must be a list"),
    ],
)
def test_a_record_that_is_not_one_is_refused(record: dict[str, Any], reason: str) -> None:
    with pytest.raises(RecordError, match=reason):
        verify_record(record)


# -- the statistics of the shuffle the key drives --------------------------------------

CARDS = 52
DEALS = CARDS * 200
"""Deals of the uniformity check: each card is expected 200 times in each position."""
ALPHA = 0.001
"""Two-sided: the chance that a shuffle without any bias fails the chi-square check."""
CELL_SIGMAS = 5.0
"""How far (in standard deviations) one card's count in one position may stray."""


def _position_counts(decks: Sequence[Sequence[Card]]) -> list[list[int]]:
    """``counts[c][p]``: how many of ``decks`` hold card ``c`` (of the 52) at position ``p``."""
    index = {card: i for i, card in enumerate(make_deck(decks=1))}
    counts = [[0] * CARDS for _ in range(CARDS)]
    for deck in decks:
        for position, card in enumerate(deck):
            counts[index[card]][position] += 1
    return counts


def chi_square_quantile(df: int, q: float) -> float:
    """The ``q`` quantile of the chi-square distribution with ``df`` degrees of freedom,
    by Wilson and Hilferty's normal approximation (the cube root of chi-square/df is
    nearly normal, mean 1 - 2/(9 df), variance 2/(9 df)); its relative error is far
    below 1e-3 at the 2,601 degrees of freedom used here. (scipy would give it exactly,
    but is no dependency of remikit.)"""
    z = NormalDist().inv_cdf(q)
    v = 2 / (9 * df)
    return df * (1 - v + z * math.sqrt(v)) ** 3


def uniformity(counts: list[list[int]], deals: int) -> tuple[float, float, float, float]:
    """The chi-square statistic of ``counts`` against a uniform shuffle, its acceptance
    interval, and the largest deviation of one count in standard deviations.

    Each count is binomial (``deals``, p = 1/n), but the counts of one deal form a
    permutation matrix: their covariance is that of the (n-1)²-dimensional space of
    matrices whose rows and columns sum to 0, the same in every direction. So the
    Pearson sum Σ (O - E)² / E is n/(n-1) times a chi-square with (n-1)² degrees of
    freedom; the statistic returned is scaled back by (n-1)/n."""
    n = len(counts)
    p = 1 / n
    expected = deals * p
    pearson = sum((o - expected) ** 2 / expected for row in counts for o in row)
    df = (n - 1) ** 2
    low = chi_square_quantile(df, ALPHA / 2)
    high = chi_square_quantile(df, 1 - ALPHA / 2)
    sd = math.sqrt(deals * p * (1 - p))
    worst = max(abs(o - expected) / sd for row in counts for o in row)
    return pearson * (n - 1) / n, low, high, worst


def _secrets() -> list[bytes]:
    """Secret i = SHA-256 of i in decimal."""
    return [hashlib.sha256(str(i).encode("ascii")).digest() for i in range(DEALS)]


def test_the_key_driven_shuffle_puts_every_card_everywhere_evenly() -> None:
    full = make_deck(decks=1)
    contribution = hashlib.sha256(b"a person").digest()
    decks = [fair_deck(full, s, [None, contribution, None]) for s in _secrets()]
    statistic, low, high, worst = uniformity(_position_counts(decks), DEALS)
    assert low < statistic < high, (low, statistic, high)
    assert worst < CELL_SIGMAS


def _biased(
    full: Sequence[Card], seed: bytes, pick: Callable[[ByteStream, int], int]
) -> list[Card]:
    items = list(full)
    stream = ByteStream(seed)
    for i in range(len(items) - 1, 0, -1):
        j = pick(stream, i)
        items[i], items[j] = items[j], items[i]
    return items


@pytest.mark.parametrize(
    "pick",
    [
        lambda stream, i: stream.below(CARDS),  # every swap with any place: the naive shuffle
        lambda stream, i: stream.read(1)[0] % (i + 1),  # modulo bias instead of rejection
    ],
    ids=["any-place", "modulo"],
)
def test_the_check_rejects_a_biased_shuffle(pick: Callable[[ByteStream, int], int]) -> None:
    full = make_deck(decks=1)
    decks = [_biased(full, deck_seed(deal_key(s, [None])), pick) for s in _secrets()]
    statistic, _, high, _ = uniformity(_position_counts(decks), DEALS)
    assert statistic > high
