"""A game in the browser on a site of two processes behind nginx (tests/cluster.py): made
in the lobby, played, then its process killed mid-game; the page reconnects by itself to
the other process, which took the table over, and the game goes on from where it was.

Outside CI these tests skip without Chromium, PostgreSQL, Redis or nginx; in CI they run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import (
    Browser,
    browser,
    create_in_lobby,
    my_turn_ready,
    needs_chromium,
    open_person,
    shot,
    take_simple_turn,
    wait,
)
from tests.cluster import needs_postgres, needs_redis, running_site
from tests.proxy import needs_nginx
from tests.test_cluster import owner_of, site_args

pytestmark = [needs_chromium, needs_postgres, needs_redis, needs_nginx, pytest.mark.slow]
__all__ = ["browser"]  # the fixture


def test_a_browser_game_goes_on_when_its_process_dies(tmp_path: Path, browser: Browser) -> None:
    with running_site(tmp_path, extra=site_args) as site:
        person = open_person(browser)
        code = create_in_lobby(person, site, "three-thirteen", name="Budi")
        for _ in range(2):
            wait(person, lambda: my_turn_ready(person), 60, "Budi's turn")
            take_simple_turn(person)
        owner = owner_of(site, code)
        assert owner is not None
        seen = int(person.board()["stateId"])
        site.kill(owner)
        # the page reconnects through nginx to the other process, which takes the table
        # over once the lease runs out, and shows the same game again
        wait(person, lambda: owner_of(site, code) == 1 - owner, 60, "the takeover")
        wait(person, lambda: my_turn_ready(person), 60, "Budi's turn after the takeover")
        assert int(person.board()["stateId"]) >= seen
        before = person.board()["stateId"]
        take_simple_turn(person)
        assert person.board()["stateId"] != before  # played on the new owner
        shot(person.page, "cluster_after_takeover")
        lost = [e for e in person.errors if "WebSocket" not in e and "ERR_" not in e]
        assert not lost, f"errors in the page: {lost}"
        person.page.context.close()
