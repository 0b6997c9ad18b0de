"""Table options are exact (CONTRACT.md "Table options"): a value of the wrong type is
refused with a reason naming the option, never rounded or coerced; ``--option`` text is
parsed strictly."""

from __future__ import annotations

import time

import pytest

from remikit.engine import OptionError, OptionInfo, OptionRefused, Options, OptionText
from remikit.variants import playable
from remikit.variants.remi13d.rules import Remi13DOptions


def every_option(*kinds: str) -> list[object]:
    """Each option of each playable variant (of the given kinds), as test parameters."""
    return [
        pytest.param(spec.game_class().options_type, info, id=f"{spec.name}.{info.name}")
        for spec in playable()
        for info in spec.game_class().options_type.describe()
        if not kinds or info.kind in kinds
    ]


WRONG_VALUES: dict[str, list[object]] = {
    "boolean": [0, 1, 1.0, "true", "false", None, [True]],
    "integer": [3.7, 2.0, float("nan"), True, False, "3", None, [3], {"n": 3}],
    "string": [0, 1.5, True, None, ["low"]],
}
WRONG_TEXTS: dict[str, list[str]] = {
    "boolean": ["1", "0", "yes", "off", "True", "FALSE", " true", ""],
    "integer": ["3.7", "2.0", "²", "٣", "1e3", "0x3", "3_0", " 3", "3 ", "--3", "", "true"],
}


def text_of(value: object) -> str:
    """A value in the spelling of CONTRACT.md and ``--option``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@pytest.mark.parametrize(("options", "info"), every_option())
def test_a_value_of_the_wrong_type_is_refused_naming_the_option(
    options: type[Options], info: OptionInfo
) -> None:
    for value in WRONG_VALUES[info.kind]:
        with pytest.raises(OptionError, match=f"option {info.name} takes "):
            options.from_mapping({info.name: value})


@pytest.mark.parametrize(("options", "info"), every_option())
def test_text_is_parsed_strictly(options: type[Options], info: OptionInfo) -> None:
    for text in WRONG_TEXTS.get(info.kind, []):
        with pytest.raises(OptionError, match=f"option {info.name} takes "):
            options.from_mapping({info.name: OptionText(text)})


@pytest.mark.parametrize(("options", "info"), every_option())
def test_the_default_as_value_or_as_text_is_the_default(
    options: type[Options], info: OptionInfo
) -> None:
    default = options()
    assert options.from_mapping({info.name: info.default}) == default
    parsed = options.from_mapping({info.name: OptionText(text_of(info.default))})
    assert parsed == default and type(getattr(parsed, info.name)) is type(info.default)


@pytest.mark.parametrize(("options", "info"), every_option("integer"))
def test_a_huge_number_is_refused_as_out_of_range_at_once(
    options: type[Options], info: OptionInfo
) -> None:
    for text in ("9" * 5000, "-" + "9" * 5000, "+" + "0" * 4000 + "9" * 5000):
        start = time.perf_counter()
        with pytest.raises(OptionError, match=f"option {info.name} must be "):
            options.from_mapping({info.name: OptionText(text)})
        assert time.perf_counter() - start < 0.1
    with pytest.raises(OptionError, match=f"option {info.name} must be .* not 1000"):
        options.from_mapping({info.name: 10**4000})


def test_signs_and_leading_zeros_are_decimal_digits() -> None:
    assert Remi13DOptions.from_mapping({"games": OptionText("+007")}).games == 7
    with pytest.raises(OptionError, match="must be from 1 to 100, not -3"):
        Remi13DOptions.from_mapping({"games": OptionText("-3")})


def test_an_unknown_option_is_named_with_the_known_ones() -> None:
    with pytest.raises(OptionError, match="unknown option 'colour'; options: discard_taken"):
        Remi13DOptions.from_mapping({"colour": "red"})


def test_refusals_read_in_both_languages() -> None:
    with pytest.raises(OptionRefused) as refused:
        Remi13DOptions.from_mapping({"games": 3.7})
    assert str(refused.value) == "option games takes a whole number, not 3.7"
    assert refused.value.text("id") == "opsi games bernilai bilangan bulat, bukan 3.7"
