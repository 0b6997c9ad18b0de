"""Who made which table survives a restart (docs/protocol.md §3.11): the key of the hash
that stands for a client's address is drawn once and kept in the database (or given),
so the per-client limits still count the tables a restart rebuilds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from remikit.server.clock import ManualClock
from remikit.server.limits import Limits, client_key
from remikit.server.settings import Settings
from remikit.storage import KeyRow, Store, server_key
from remikit.storage import keys as keys_module
from tests.test_lobby import serving

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'remikit.db'}"


def test_a_restart_still_counts_the_tables_a_client_made(db_url: str) -> None:
    limits: dict[str, Any] = {"create_rate": 0, "max_client_tables": 2}
    with serving(db_url, **limits) as server:
        server.made(), server.made()
        assert server.create().status_code == 429
    with serving(db_url, **limits) as server:  # the same database, a new process's app
        assert len(server.hub.tables) == 2
        refused = server.create(lang="en")
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "client_tables"
        server.made("203.0.113.2")  # another client still may


def test_the_key_is_drawn_once_and_shared_by_every_server(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = Store(db_url), Store(db_url)
    try:
        key = server_key(first, "client")
        assert len(key) == 64 and int(key, 16) >= 0
        assert server_key(second, "client") == key == server_key(first, "client")
        assert server_key(first, "other") != key

        def drawn_while_another_stores_it(_: int) -> str:  # two servers start at once
            with second.transaction() as session:
                session.add(KeyRow(name="race", value="theirs"))
            return "mine"

        monkeypatch.setattr(keys_module, "token_hex", drawn_while_another_stores_it)
        assert server_key(first, "race") == "theirs"
    finally:
        first.close()
        second.close()


def test_a_configured_secret_is_the_key(db_url: str) -> None:
    clock = ManualClock()
    given = Limits(Settings(database_url=db_url, client_secret="s3cret"), clock)
    assert given.client("203.0.113.1") == client_key("203.0.113.1", b"s3cret")
    stored = Limits(Settings(database_url=db_url), clock)
    again = Limits(Settings(database_url=db_url), clock)
    assert stored.client("203.0.113.1") == again.client("203.0.113.1")
    assert stored.client("203.0.113.1") != given.client("203.0.113.1")
