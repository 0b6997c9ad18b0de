"""A web table's settings (remikit.server.tables.table_settings): chosen at creation, shown to
everyone at the table, kept by a restart, refused with a reason when out of range."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from remikit.server.tables.table_settings import SettingRefused, TableSettings
from tests.test_server import create, running


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'remikit.db'}"


def test_settings_are_shown_and_survive_a_restart(db_url: str) -> None:
    wanted = {"turn_time": None, "grace": 20, "stand_in": "random", "bot_speed": "fast"}
    with running(db_url) as client:
        table_id = create(client, "rummy500", settings=wanted, lang="en")
        shown = client.get(f"/api/tables/{table_id}").json()["table"]
    assert shown["settings"] == TableSettings().as_dict() | wanted
    assert shown["lang"] == "en"
    with running(db_url) as client:
        again = client.get(f"/api/tables/{table_id}").json()["table"]
    assert again["settings"] == shown["settings"]


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"turn_time": 5}, "turn_time"),
        ({"turn_time": 10**9}, "turn_time"),
        ({"grace": True}, "grace"),
        ({"bot_speed": "warp"}, "bot_speed"),
        ({"hints": 1}, "hints"),
        ({"speed": "fast"}, "no table setting speed"),
        ({"stand_in": "strong@100"}, "thinks too long"),
        ({"stand_in": "oracle"}, "stand-in bot oracle"),
    ],
)
def test_a_setting_out_of_range_is_refused_saying_which(
    db_url: str, settings: dict[str, Any], words: str
) -> None:
    with running(db_url) as client:
        response = client.post("/api/tables", json={"variant": "remi13d", "settings": settings})
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["code"] == "bad_setting" and words in error["message"]
        assert client.get("/api/tables").json()["tables"] == []


def test_the_bot_speed_scales_the_servers_pause() -> None:
    assert TableSettings(bot_speed="slow").bot_delay(0.8) == pytest.approx(1.6)
    assert TableSettings(bot_speed="fast").bot_delay(0.8) == pytest.approx(0.2)
    with pytest.raises(SettingRefused):
        TableSettings.from_mapping({"bot_speed": None})
