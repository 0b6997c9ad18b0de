"""The test vectors of docs/fairness.md: their inputs, what remikit computes from them,
and the doc's text of them.

``python -m tests.fairness_vectors`` (from the repository) writes
``tests/data/fairness_vectors.json`` and the vectors section of docs/fairness.md;
tests/test_fairness.py checks that both agree with :mod:`remikit.fairness`. The hashes'
inputs are written out here field by field (not through :mod:`remikit.fairness`), so
the vectors also show the exact bytes each hash reads.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from remikit.cards import Card
from remikit.fairness import fair_deck
from remikit.shuffle import ByteStream, shuffled
from remikit.variants import find_playable
from remikit.variants.three_thirteen.rules import reshuffle_seed

ROOT = Path(__file__).resolve().parent.parent
JSON_PATH = ROOT / "tests" / "data" / "fairness_vectors.json"
DOC_PATH = ROOT / "docs" / "fairness.md"
BEGIN = "<!-- vectors: written by `python -m tests.fairness_vectors`; do not edit -->"
END = "<!-- end of vectors -->"

# (title, variant, options, table, deal, the seats that contribute)
CASES: list[tuple[str, str, dict[str, object], str, int, list[bool]]] = [
    ("Remi 13 D", "remi13d", {}, "HTEAG5UY", 1, [True] * 4),
    ("Rummy 500, 3 players", "rummy500", {"players": 3}, "K7QM2XWD", 2, [True] * 3),
    ("Rummy 500, 6 players", "rummy500", {"players": 6}, "P3NVY6RA", 1, [True] * 6),
    (
        "Three-Thirteen, 2 jokers",
        "three-thirteen",
        {"players": 4, "jokers": 2},
        "ZB4TC8HE",
        3,
        [True] * 4,
    ),
    (
        "4 seats, two without a contribution (Rummy 500 without jokers)",
        "rummy500",
        {"players": 4, "jokers": False},
        "W2DKS9FM",
        5,
        [True, False, True, False],
    ),
    (
        "No contribution at all (a table of bots; Three-Thirteen, 4 jokers)",
        "three-thirteen",
        {"players": 2, "jokers": 4},
        "B8TSNLY4",
        11,
        [False, False],
    ),
]
FIRST_SWAPS = 6
"""How many Fisher–Yates steps of each deck's shuffle a vector lists."""
STREAM_BYTES = 40
"""How many bytes of each deck seed's stream a vector lists (block 0 and some of block 1)."""
RESHUFFLE_PILE = 12
"""The size of the discard pile of the reshuffle vector."""


def sha256(text: str) -> bytes:
    return hashlib.sha256(text.encode("ascii")).digest()


def fields(*items: bytes) -> bytes:
    """The bytes a hash of the scheme reads: each field's 4-byte big-endian length, then it."""
    return b"".join(len(item).to_bytes(4, "big") + item for item in items)


def full_deck(variant: str, options: Mapping[str, object]) -> list[str]:
    game_class = find_playable(variant).game_class()
    game = game_class(game_class.options_type.from_mapping(options), auto_deal=False)
    return [str(card) for card in game.full_deck()]


def first_swaps(size: int, seed: bytes) -> list[list[int]]:
    """The first :data:`FIRST_SWAPS` steps ``[i, j]`` of the shuffle of ``size`` items."""
    stream = ByteStream(seed)
    return [[i, stream.below(i + 1)] for i in range(size - 1, size - 1 - FIRST_SWAPS, -1)]


def vector(
    n: int,
    title: str,
    variant: str,
    options: dict[str, object],
    table: str,
    deal: int,
    contributes: Sequence[bool],
) -> dict[str, Any]:
    """Vector ``n``: its inputs and every value computed from them."""
    secret = sha256(f"remikit test vector {n} secret")
    contributions = [
        sha256(f"remikit test vector {n} seat {seat}") if given else None
        for seat, given in enumerate(contributes)
    ]
    commitment_input = fields(
        b"remikit/fairness/1/commitment", table.encode("utf-8"), deal.to_bytes(4, "big"), secret
    )
    key_input = fields(
        b"remikit/fairness/1/key",
        secret,
        len(contributions).to_bytes(4, "big"),
        *(c or b"" for c in contributions),
    )
    key = hashlib.sha256(key_input).digest()
    seed_input = fields(b"remikit/fairness/1/deck", key)
    seed = hashlib.sha256(seed_input).digest()
    unshuffled = full_deck(variant, options)
    deck = [str(c) for c in fair_deck([Card.parse(c) for c in unshuffled], secret, contributions)]
    return {
        "title": title,
        "variant": variant,
        "options": options,
        "cards": len(unshuffled),
        "table": table,
        "deal": deal,
        "secret": secret.hex(),
        "contributions": [c.hex() if c is not None else None for c in contributions],
        "commitment_input": commitment_input.hex(),
        "commitment": hashlib.sha256(commitment_input).hexdigest(),
        "key_input": key_input.hex(),
        "key": key.hex(),
        "deck_seed_input": seed_input.hex(),
        "deck_seed": seed.hex(),
        "stream": ByteStream(seed).read(STREAM_BYTES).hex(),
        "first_swaps": first_swaps(len(unshuffled), seed),
        "deck": deck,
    }


def reshuffle(three_thirteen: Mapping[str, Any]) -> dict[str, Any]:
    """The first new stock of the round of a Three-Thirteen vector, for a discard pile of
    its deck's first :data:`RESHUFFLE_PILE` cards (bottom first): all of them but the
    top one, shuffled (the new stock's top card is the last)."""
    deck = [Card.parse(c) for c in three_thirteen["deck"]]
    pile = deck[:RESHUFFLE_PILE]
    seed = reshuffle_seed(deck, 1)
    return {
        "vector": three_thirteen["title"],
        "count": 1,
        "seed_input": " ".join(map(str, deck)) + "|1",
        "seed": seed.hex(),
        "pile": [str(c) for c in pile],
        "shuffled": [str(c) for c in shuffled(pile[:-1], seed)],
    }


def compute() -> dict[str, Any]:
    """Every vector, computed now."""
    vectors = [vector(n, *case) for n, case in enumerate(CASES, start=1)]
    three = next(v for v in vectors if v["variant"] == "three-thirteen")
    return {
        "version": 1,
        "vectors": vectors,
        "reshuffle": reshuffle(three),
        "shuffle": {
            "seed": b"remikit".hex(),
            "items": 10,
            "order": shuffled(range(10), b"remikit"),
        },
    }


def _hex_lines(label: str, value: str) -> list[str]:
    width = 64
    chunks = [value[i : i + width] for i in range(0, len(value), width)] or [""]
    pad = " " * 18
    return [f"{label:<18}{chunks[0]}", *(pad + c for c in chunks[1:])]


def _cards(label: str, cards: Sequence[str]) -> list[str]:
    rows = [" ".join(cards[i : i + 18]) for i in range(0, len(cards), 18)] or [""]
    pad = " " * 18
    return [f"{label:<18}{rows[0]}", *(pad + r for r in rows[1:])]


def render(data: Mapping[str, Any]) -> str:
    """The vectors section of docs/fairness.md (between :data:`BEGIN` and :data:`END`)."""
    out = [BEGIN, ""]
    for n, v in enumerate(data["vectors"], start=1):
        out += [f"### Vector {n}: {v['title']}", "", "```text"]
        out.append(f"{'variant':<18}{v['variant']} {json.dumps(v['options'])} ({v['cards']} cards)")
        out.append(f"{'table':<18}{v['table']}")
        out.append(f"{'deal':<18}{v['deal']}")
        out += _hex_lines("secret", v["secret"])
        for seat, c in enumerate(v["contributions"]):
            out += _hex_lines(f"contribution {seat}", c if c is not None else "null")
        out += _hex_lines("commitment input", v["commitment_input"])
        out += _hex_lines("commitment", v["commitment"])
        out += _hex_lines("key input", v["key_input"])
        out += _hex_lines("key", v["key"])
        out += _hex_lines("deck seed input", v["deck_seed_input"])
        out += _hex_lines("deck seed", v["deck_seed"])
        out += _hex_lines("stream bytes", v["stream"])
        swaps = ", ".join(f"{i}↔{j}" for i, j in v["first_swaps"])
        out.append(f"{'first swaps i↔j':<18}{swaps}")
        out += _cards("deck (top first)", v["deck"])
        out += ["```", ""]
    r = data["reshuffle"]
    out += [f"### A Three-Thirteen reshuffle (the deck of “{r['vector']}”)", "", "```text"]
    words = r["seed_input"].split(" ")
    text = f"{' '.join(words[:4])} … {' '.join(words[-2:])}"
    out.append(f"{'seed input':<18}the ASCII text “{text}” (the deck, then |1)")
    out += _hex_lines("reshuffle 1 seed", r["seed"])
    out += _cards("pile, bottom up", r["pile"])
    out += _cards("shuffled", r["shuffled"])
    out += [
        "```",
        "",
        f"{r['pile'][-1]}, the pile's top card, stays the discard pile; the new stock's first "
        f"card drawn is {r['shuffled'][-1]}.",
        "",
    ]
    s = data["shuffle"]
    out += [
        "### The shuffle alone",
        "",
        f"The seed `{s['seed']}` (the ASCII text `remikit`) shuffles the list 0, 1, …, "
        f"{s['items'] - 1} into {', '.join(map(str, s['order']))}.",
        "",
        END,
    ]
    return "\n".join(out)


def doc_section(doc: str) -> str:
    """The vectors section of ``doc`` (docs/fairness.md's text)."""
    start = doc.index(BEGIN)
    return doc[start : doc.index(END, start) + len(END)]


def main() -> None:
    data = compute()
    JSON_PATH.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    doc = DOC_PATH.read_text(encoding="utf-8")
    DOC_PATH.write_text(doc.replace(doc_section(doc), render(data)), encoding="utf-8")


if __name__ == "__main__":
    main()
