"""Actions a seat was not offered, for the check that the legal actions offered are
exactly those accepted (:mod:`tests.random_play`): an offered action changed in one field
(any value of the field's type), or with other cards of the hand, compared with those
offered up to the order of their cards. Nothing here names an action kind or a variant:
the fields' types say what to change.
"""

from __future__ import annotations

import random
import types
import typing
from collections.abc import Sequence
from dataclasses import Field, fields, is_dataclass, replace
from typing import Any, Literal, cast

from remikit.action_words import ActionSyntaxError
from remikit.actions import Action, parse_action
from remikit.cards import Card

HINTS: dict[type, dict[str, Any]] = {}


def hints(action: Action) -> dict[str, Any]:
    """The type of each field of ``action``."""
    kind: type = type(action)
    found = HINTS.get(kind)
    if found is None:
        found = HINTS[kind] = typing.get_type_hints(kind)
    return found


def holds_several(action: Action) -> bool:
    """Whether ``action`` has a field of several cards."""
    return any(typing.get_origin(hint) is tuple for hint in hints(action).values())


def _fields(action: Action) -> tuple[Field[Any], ...]:
    """The fields of a kind of action (a frozen dataclass)."""
    assert is_dataclass(action) and not isinstance(action, type)
    return fields(action)


def key(action: Action) -> object:
    """An action up to the order of its cards: the tuples of its fields zipped and sorted
    (a meld's cards with what each joker stands for)."""
    if not holds_several(action):
        return action
    values = [getattr(action, f.name) for f in _fields(action)]
    rows = [v for v in values if isinstance(v, tuple)]
    flat = tuple(v for v in values if not isinstance(v, tuple))
    return (type(action), flat, tuple(sorted(zip(*rows, strict=True), key=str)))


def written(action: Action) -> bool:
    """Whether a record can hold ``action``: its text reads back as the same action
    (``draw stock`` has no depth, a depth or a meld number counts from 1)."""
    try:
        return parse_action(str(action)) == action
    except ActionSyntaxError:
        return False


def optional_card(hint: Any) -> bool:
    """Whether a field's type is an optional card (what a joker stands for), or a tuple
    of them."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) is tuple:
        return bool(args) and optional_card(args[0])
    return Card in args and type(None) in args


def declares_jokers(action: Action) -> bool:
    """Whether ``action`` holds a joker and may say what it stands for: legal-action lists
    spell one declaration of a meld's jokers where the rules accept others (or none, where
    only one fits)."""
    values = [getattr(action, f.name) for f in _fields(action)]
    cards = [c for v in values for c in (v if isinstance(v, tuple) else (v,))]
    return any(isinstance(c, Card) and c.is_joker for c in cards) and any(
        optional_card(hint) for hint in hints(action).values()
    )


def changed(value: object, hint: Any, deck: Sequence[Card], rng: random.Random) -> object:
    """Another value of a field's type: any card of the deck, a small whole number, one
    of a literal's values; anything else unchanged."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Card:
        return rng.choice(deck)
    if hint is int and isinstance(value, int):
        return rng.randint(0, max(3, value + 3))
    if origin is Literal:
        return rng.choice(args)
    if origin in (typing.Union, types.UnionType) and Card in args:
        return rng.choice([None, rng.choice(deck)])
    return value


def mutant(
    action: Action, hand: Sequence[Card], deck: Sequence[Card], rng: random.Random
) -> Action:
    """``action`` with one field changed, or its cards (the fields that hold several)
    replaced by natural cards of ``hand`` in a random order."""
    names = [f.name for f in _fields(action)]
    if not names:
        return action
    kinds = hints(action)
    several = [n for n in names if typing.get_origin(kinds[n]) is tuple]
    naturals = [c for c in hand if not c.is_joker]
    changes: dict[str, object]
    if several and naturals and rng.random() < 0.6:
        size = len(getattr(action, several[0])) + rng.choice((-1, 0, 0, 1))
        cards = tuple(rng.sample(naturals, max(1, min(size, len(naturals)))))
        changes = {
            n: cards if typing.get_args(kinds[n])[0] is Card else (None,) * len(cards)
            for n in several
        }
    else:
        name = rng.choice(names)
        changes = {name: changed(getattr(action, name), kinds[name], deck, rng)}
    return cast(Action, replace(cast(Any, action), **changes))
