"""State changes (docs/protocol.md §4.3, ``change``): what a seat's state message gained
since the one before it, as a list of ops, and those ops applied. ``static/changes.js``
applies them in the browser, exactly as :func:`patch` does.

An op is ``["set", path, value]`` (replace or add a key or an array's item),
``["append", path, at, items]`` (cut the array at ``at`` items, then add ``items``) or
``["del", path]`` (remove a key); a path is a list of object keys and array indexes.
:func:`diff` takes JSON-shaped data (dicts with string keys, lists, strings, numbers,
booleans, None) and compares it with ``==``, at C speed and at once for the same object
(the log's entries, made once): so ``1`` and ``True``, or two orders of one object's
keys, count as equal. A state's fields keep one type and its objects one order of keys,
so the patched state encodes to exactly the text of the new one (tests/test_changes.py
checks this over random play); where keys come and go, the patched object has them in
the new one's order.

>>> old = {"type": "state", "rev": 1, "view": {"log": ["a", "b"], "hand": ["7h"]}, "hint": 1}
>>> new = {"type": "state", "rev": 2, "view": {"log": ["a", "b", "c"], "hand": []}}
>>> ops = diff(old, new)
>>> ops
[['del', ['hint']], ['append', ['view', 'log'], 2, ['c']], ['set', ['view', 'hand'], []]]
>>> patch(old, ops) == {**new, "rev": 1}, "hint" in old  # old is left as it was
(True, True)
"""

from __future__ import annotations

from operator import eq
from typing import Any

Op = list[Any]
"""One op: ``["set", path, value]``, ``["append", path, at, items]`` or ``["del", path]``."""
State = dict[str, Any]

DEPTH = 2
"""Objects are gone into key by key this deep (the state, then ``view``, ``table``...);
deeper ones are compared whole and set whole when they differ: fewer, larger ops, and
far less work for the server."""
FIXED = frozenset({"type", "rev", "base", "state_id", "table_id"})
"""The top-level keys a change message carries itself: never diffed."""


def diff(old: State, new: State) -> list[Op]:
    """The ops that make state ``new`` of state ``old``, its :data:`FIXED` keys apart."""
    ops: list[Op] = []
    _object(
        {k: v for k, v in old.items() if k not in FIXED},
        {k: v for k, v in new.items() if k not in FIXED},
        (),
        ops,
    )
    return ops


def _object(old: State, new: State, path: tuple[str | int, ...], ops: list[Op]) -> None:
    """Keys gone are deleted, keys changed recursed into, keys added set; a key kept whose
    place in the order changes (one added before it) is deleted and set again."""
    if old.keys() == new.keys() and all(map(eq, old, new)):
        deeper = len(path) + 1 < DEPTH
        for key, value in new.items():  # _value, inline: most keys are unchanged
            was = old[key]
            if was is value:
                continue
            kind = type(value)
            if kind is dict and deeper and type(was) is dict:
                _object(was, value, (*path, key), ops)
            elif kind is list and type(was) is list:
                _array(was, value, (*path, key), ops)
            elif kind is not type(was) or was != value:
                ops.append(["set", [*path, key], value])
        return
    kept = [k for k in old if k in new]
    order = list(new)
    place = 0
    while place < len(kept) and kept[place] == order[place]:
        place += 1
    moved = set(kept[place:])
    for key in old:
        if key not in new or key in moved:
            ops.append(["del", [*path, key]])
    for key in order[:place]:
        _value(old[key], new[key], (*path, key), ops)
    for key in order[place:]:
        ops.append(["set", [*path, key], new[key]])


def _value(old: Any, new: Any, path: tuple[str | int, ...], ops: list[Op]) -> None:
    if old is new:
        return
    kind = type(new)
    if kind is not type(old):
        ops.append(["set", list(path), new])
    elif kind is dict and len(path) < DEPTH:  # the state's parts, and their keys
        _object(old, new, path, ops)
    elif kind is list:
        _array(old, new, path, ops)
    elif old != new:  # deeper, compared whole at C speed: set whole when it differs
        ops.append(["set", list(path), new])


def _array(old: list[Any], new: list[Any], path: tuple[str | int, ...], ops: list[Op]) -> None:
    """The ops from ``old`` to ``new``: the new items when ``new`` starts with ``old`` (the
    log), else the whole array (a hand, the legal actions: short, and changed all over)."""
    size = len(old)
    if len(new) > size and new[:size] == old:  # C speed; the log's entries are the same objects
        ops.append(["append", list(path), size, new[size:]])
    elif new != old:
        ops.append(["set", list(path), new])


def patch(old: State, ops: list[Op]) -> State:
    """State ``old`` with ``ops`` applied: a new dict sharing what the ops leave alone
    (``old`` is never changed; neither are the values in ``ops``)."""
    state = dict(old)
    fresh = {id(state)}  # the containers this patch made: changed in place
    for op in ops:
        *steps, last = op[1]
        parent: Any = state
        for step in steps:
            child = parent[step]
            if id(child) not in fresh:
                child = list(child) if type(child) is list else dict(child)
                fresh.add(id(child))
                parent[step] = child
            parent = child
        if op[0] == "set":
            parent[last] = op[2]
        elif op[0] == "append":
            items = parent[last][: op[2]] + op[3]
            fresh.add(id(items))
            parent[last] = items
        elif op[0] == "del":
            del parent[last]
        else:
            raise ValueError(f"unknown op {op[0]!r}")
    return state


def change_message(old: State, new: State) -> dict[str, Any]:
    """The ``change`` message that makes state message ``new`` of ``old`` (both of one
    table and seat, each with its ``rev``)."""
    return {
        "type": "change",
        "table_id": new["table_id"],
        "state_id": new["state_id"],
        "rev": new["rev"],
        "base": old["rev"],
        "ops": diff(old, new),
    }


def apply_change(state: State, change: dict[str, Any]) -> State:
    """The state message a client holds after ``change``, from ``state`` of its ``base``."""
    if change["base"] != state["rev"]:
        raise ValueError(f"a change from rev {change['base']} to a state of rev {state['rev']}")
    done = patch(state, change["ops"])
    done["state_id"] = change["state_id"]
    done["rev"] = change["rev"]
    return done
