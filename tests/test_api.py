"""The Python API of CONTRACT.md: ``remikit.score``, ``parse_cards``, ``parse_card``,
``__version__``, and an ``import remikit`` that stays light."""

from __future__ import annotations

import subprocess
import sys

import pytest

import remikit
from remikit.cards import CardError

CLOSING_HAND = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk"  # RULES.md §5


def test_the_contract_examples() -> None:
    cards = remikit.parse_cards("As 2s 3s 7h 7d 7c Kd Kc Ks 9h")
    assert remikit.score("gin", cards).points == 9  # RULES.md §4: minimum deadwood
    cards13 = remikit.parse_cards(CLOSING_HAND)
    closed = remikit.score("remi13d", cards13, closing=remikit.parse_card("Ah"))
    assert closed.points == 135 and closed.dead == ()  # R13-7, R13-11
    assert sorted(len(m) for m in closed.melds) == [3, 3, 3, 4]
    assert (
        remikit.score("three-thirteen", remikit.parse_cards("3h 9c 9d"), round=1, ace="low").points
        == 0
    )  # R3-7


def test_points_agree_with_remi_score_and_text_is_read() -> None:
    """R13-12 and R3-7 worked examples (RULES.md §5), cards as text or as Card objects."""
    no_close = "2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs"
    assert remikit.score("remi13d", no_close).points == 25
    assert remikit.score("13d", no_close.split()).points == 25
    assert remikit.score("R13", remikit.parse_cards(no_close)).dead != ()
    assert remikit.score("3-13", "3h 9c Kd", round=1).points == 34
    assert remikit.score("remi13d", CLOSING_HAND, closing="Jk").points == 75 + 85


def test_an_impossible_close_raises_value_error_with_the_reason() -> None:
    """R13-7: a closing card is an ace or a joker; the other 13 cards all in melds."""
    with pytest.raises(ValueError, match="closing card must be an ace or a joker, not 7♥"):
        remikit.score("remi13d", CLOSING_HAND, closing=remikit.parse_card("7h"))
    with pytest.raises(ValueError, match="not every card is in a meld"):
        remikit.score("remi13d", "2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs", closing="As")


@pytest.mark.parametrize(
    ("variant", "cards", "keywords", "message"),
    [
        ("canasta", "As", {}, "unknown variant: 'canasta' (choose one of remi13d, three-"),
        ("500", "As", {}, "remi score does not score rummy500: its score is not that of a hand"),
        ("gin", "As 2s 3s", {}, "gin: 10 cards (or 11, then the best discard), not 3"),
        ("gin", "As 2s 3s 7h 7d 7c Kd Kc Ks 9h", {"round": 2}, "gin takes no"),
        ("remi13d", "As Ks", {}, "Remi 13 D: a hand has 13 cards"),
        ("remi13d", CLOSING_HAND, {"round": 1}, "round and ace are for three-thirteen only"),
        ("three-thirteen", "3h 9c Kd", {}, "Three-Thirteen needs the round: 1–11"),
        ("three-thirteen", "3h 9c Kd", {"round": 12}, "a round is 1 to 11, not 12"),
        ("three-thirteen", "3h 9c Kd", {"round": 1.0}, "a round is 1 to 11, not 1.0"),
        ("three-thirteen", "3h 9c Kd", {"round": True}, "a round is 1 to 11, not true"),
        ("three-thirteen", "3h 9c Kd", {"round": 1, "ace": "middle"}, 'not "middle"'),
        ("three-thirteen", "3h 9c Kd 4d", {"round": 1}, "round 1 deals 3 cards; this hand has 4"),
        (
            "three-thirteen",
            "3h 9c Kd",
            {"round": 1, "closing": "Ah"},
            "closing card is for remi13d",
        ),
        ("gin", "As As 3s 7h 7d 7c Kd Kc Ks 9h", {}, "impossible hand: 2 × As"),
        ("gin", "As Qx", {}, "not a card: 'Qx'"),
    ],
)
def test_input_errors_raise_value_error_in_english(
    variant: str, cards: str, keywords: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError) as refused:
        remikit.score(variant, cards, **keywords)  # type: ignore[arg-type]
    assert message in str(refused.value)


def test_parse_card_reads_one_card() -> None:
    assert remikit.parse_card("10h") is remikit.parse_card("Th") is remikit.Card.parse("th")
    with pytest.raises(CardError):
        remikit.parse_card("As Ks")
    assert [str(c) for c in remikit.parse_cards("As, 10h *")] == ["As", "Th", "Jk"]


def test_version_comes_from_the_package_metadata() -> None:
    assert isinstance(remikit.__version__, str) and remikit.__version__


def test_import_remikit_stays_light() -> None:
    """``import remikit`` loads no front end, and no variant until one is scored."""
    code = (
        "import sys, remikit\n"
        "heavy = ('remikit.bots', 'remikit.cli', 'remikit.server', 'remikit.storage', 'rich',"
        " 'fastapi', 'sqlalchemy', 'remikit.variants', 'remikit.solver')\n"
        "print([m for m in sys.modules if m.startswith(heavy)])\n"
        "remikit.score('gin', 'As 2s 3s 7h 7d 7c Kd Kc Ks 9h')\n"
        "print([m for m in sys.modules if m.startswith(heavy[:7])])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["[]", "[]"]
