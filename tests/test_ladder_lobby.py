"""The ladder ships with each variant and the lobby's list of variants carries it: each
offered bot level's measured strength (docs/protocol.md §3.1, docs/strength.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remikit.bots import StrongBot, levels_for, make_bot
from remikit.server.app import create_app
from remikit.server.settings import Settings
from remikit.server.tables.build import level_strength
from remikit.variants import find_playable, playable, spec

STRENGTH_KEYS = {
    "measured",
    "budget",
    "rating",
    "interval",
    "win_rate",
    "win_rate_ci95",
    "par",
    "deals",
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'remikit.db'}"))
    with TestClient(app) as client:
        yield client


def entry(level: str, mu: float, win_rate: float) -> dict[str, Any]:
    return {
        "level": level,
        "mu": mu,
        "sigma": 0.5,
        "interval": [mu - 1, mu + 1],
        "ordinal": mu - 1.5,
        "deals": 400,
        "wins": win_rate * 400,
        "win_rate": win_rate,
        "win_rate_ci95": [win_rate - 0.05, win_rate + 0.05],
        "par": 0.5,
        "mean_points": 3.0,
    }


BUILT_IN = {"remi13d", "three-thirteen", "rummy500", "gin"}


def test_each_variant_ships_its_ladder_of_the_levels_it_offers() -> None:
    measured = [info for info in playable() if info.ladder is not None]
    assert {info.name for info in measured} >= BUILT_IN
    for info in measured:
        ladder = info.ladder_json()
        assert ladder is not None, info.name
        assert ladder["variant"] == info.name
        levels = {e["level"].split("@")[0] for e in ladder["levels"]}
        assert levels == set(levels_for(info.name)), info.name
        assert all(table["deals"] == ladder["deals"] for table in ladder["tables"])


def test_the_variants_list_carries_each_measured_level(client: TestClient) -> None:
    variants = {v["name"]: v for v in client.get("/api/variants").json()["variants"]}
    for info in playable():
        sent = variants[info.name]["strength"]
        ladder = info.ladder_json()
        if ladder is None:  # a variant never measured (one from another package)
            assert sent == {}
            continue
        entries = {e["level"].split("@")[0]: e for e in ladder["levels"]}
        assert set(sent) == set(entries) & set(variants[info.name]["bots"])
        for level, strength in sent.items():
            assert set(strength) == STRENGTH_KEYS
            measured = entries[level]
            assert strength["measured"] == measured["level"]
            assert strength["rating"] == measured["mu"]
            assert strength["win_rate"] == measured["win_rate"]
            assert strength["deals"] == measured["deals"]
            # a searching level measured with a budget says how long it thought
            bot = make_bot(measured["level"], seed=0)
            if isinstance(bot, StrongBot) and "@" in measured["level"]:
                assert strength["budget"] == round(bot.budget, 3)
            else:
                assert strength["budget"] is None


def test_the_levels_are_offered_weakest_first(client: TestClient) -> None:
    """The lobby's level picker lists the levels from random to expert, not by name."""
    variants = {v["name"]: v for v in client.get("/api/variants").json()["variants"]}
    for name in BUILT_IN:
        assert variants[name]["bots"] == ["random", "greedy", "strong", "expert"], name


def test_a_level_takes_its_own_entry_else_its_longest_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ladder = {
        "levels": [
            entry("strong@0.1", 30.0, 0.6),
            entry("strong@0.5", 31.5, 0.62),
            entry("greedy@0.2", 25.0, 0.5),
            entry("greedy", 26.0, 0.52),
            entry("clever", 99.0, 0.9),  # no level of remikit: left out
        ]
    }
    monkeypatch.setattr(spec, "package_json", lambda target: ladder)
    strength = level_strength(find_playable("gin"))
    assert set(strength) == {"strong", "greedy"}  # random and expert were not measured
    assert strength["strong"]["measured"] == "strong@0.5"
    assert strength["strong"]["budget"] == 0.5 and strength["strong"]["rating"] == 31.5
    assert strength["greedy"]["measured"] == "greedy"
    assert strength["greedy"]["budget"] is None and strength["greedy"]["win_rate"] == 0.52


def test_a_variant_without_a_ladder_shows_no_strength(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spec, "package_json", lambda target: None)
    assert level_strength(find_playable("remi13d")) == {}
