"""What the benchmarks share: combining repeated runs, and printing tables of figures."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any


def combine(runs: Sequence[Any]) -> Any:
    """The runs' results in one: the median of each number (of a whole number, the lower
    middle one), the first run's other values."""
    first = runs[0]
    if isinstance(first, dict):
        return {key: combine([run[key] for run in runs]) for key in first}
    if isinstance(first, float):
        return statistics.median(runs)
    if isinstance(first, int) and not isinstance(first, bool):
        return statistics.median_low(runs)
    return first


def table(title: str, columns: str, rows: Sequence[Sequence[str]], *notes: str) -> None:
    """A titled table: ``columns`` is ``name:width`` pairs (``_`` for a space in a name);
    the first column is left-aligned, the others right-aligned."""
    widths = [(n.replace("_", " "), int(w)) for n, w in (c.split(":") for c in columns.split())]
    print(f"\n{title}")
    for i, row in enumerate([[n for n, _ in widths], *rows]):
        cells = [
            f"{c:<{w}}" if j == 0 else f"{c:>{w}}"
            for j, (c, (_, w)) in enumerate(zip(row, widths, strict=True))
        ]
        line = " ".join(cells).rstrip()
        print(line)
        if i == 0:
            print("-" * len(line))
    for note in notes:
        print(note)


def ratio(a: float, b: float) -> str:
    return f"{a / b:.3f}" if a / b < 10 else f"{a / b:.1f}"
