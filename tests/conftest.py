"""Shared test helpers: stacked decks for scenario tests, the fixtures in tests/data."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.stacked import Stacked, stack_deck

DATA = Path(__file__).resolve().parent / "data"
"""Records and score vectors from an independent implementation (docs/contract.md)."""


@pytest.fixture
def stacked() -> Stacked:
    """:func:`tests.stacked.stack_deck`: a deck that deals chosen hands."""
    return stack_deck


@pytest.fixture
def data() -> Path:
    """tests/data: ``records/`` (games with their expected results) and ``vectors/``."""
    return DATA
