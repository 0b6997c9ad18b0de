"""Two ``remi serve`` processes over one PostgreSQL database behind nginx, routed as
deploy/nginx.conf routes them (tests/cluster.py): both answer through nginx, every request
for one table reaches one process, a killed process's requests go to the other at once and
come back once it runs again; and the Redis server of ``make test`` stops and starts on
demand.

Outside CI these tests skip without PostgreSQL, Redis or nginx; in CI they must run.
"""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Iterator

import httpx
import pytest
import redis

from remikit.server.tables.build import CODE_ALPHABET, CODE_LENGTH
from tests.cluster import Site, needs_postgres, needs_redis, redis_ctl, redis_url, running_site
from tests.proxy import needs_nginx

pytestmark = [needs_postgres, needs_redis, needs_nginx, pytest.mark.slow]

_draw = random.Random(2026)
CODES = ["".join(_draw.choices(CODE_ALPHABET, k=CODE_LENGTH)) for _ in range(24)]
"""Table codes: none of them a table, each routed all the same."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with running_site(tmp_path_factory.mktemp("cluster")) as site:
        yield site


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(trust_env=False, timeout=30) as client:
        yield client


def owner(site: Site, http: httpx.Client, code: str) -> int:
    """The process that answers every request for table ``code`` (its API paths and its
    socket's path), asked twice each."""
    answered = set()
    for path in (f"/api/tables/{code}", f"/api/tables/{code}/qr.svg", f"/ws/tables/{code}") * 2:
        response = http.get(site.url + path)
        assert response.status_code == 404, (path, response.text)  # the server's answer
        answered.add(site.index_of(response))
    assert len(answered) == 1, f"table {code}'s requests reached processes {answered}"
    return answered.pop()


def test_both_processes_answer_through_nginx(site: Site, http: httpx.Client) -> None:
    for index in range(2):
        assert http.get(f"{site.direct_url(index)}/healthz").json() == {"ok": True}
    answered = set()
    for _ in range(40):
        response = http.get(f"{site.url}/healthz")
        assert response.status_code == 200 and response.json() == {"ok": True}
        answered.add(site.index_of(response))
    assert answered == {0, 1}  # paths without a table code spread over both


def test_each_tables_requests_reach_one_process(site: Site, http: httpx.Client) -> None:
    owners = {code: owner(site, http, code) for code in CODES}
    assert set(owners.values()) == {0, 1}  # the tables spread over both
    assert {code: owner(site, http, code) for code in CODES} == owners


def test_a_killed_process_is_skipped_until_it_runs_again(site: Site, http: httpx.Client) -> None:
    owners = {code: owner(site, http, code) for code in CODES}
    site.kill(0)
    try:
        assert {owner(site, http, code) for code in CODES} == {1}
        for _ in range(10):
            assert site.index_of(http.get(f"{site.url}/healthz")) == 1
    finally:
        site.start(0)
    # nginx tries the process again once its fail_timeout has passed
    path = f"{site.url}/api/tables/{next(c for c, index in owners.items() if index == 0)}"
    deadline = time.monotonic() + 60
    while site.index_of(http.get(path)) != 0:
        assert time.monotonic() < deadline, "nginx never sent a request to the restarted process"
        time.sleep(0.2)
    assert {code: owner(site, http, code) for code in CODES} == owners


def test_redis_stops_and_starts_on_demand() -> None:
    ctl = redis_ctl()
    client = redis.Redis.from_url(redis_url(), socket_timeout=5, socket_connect_timeout=5)
    try:
        assert client.ping()
        subprocess.run([ctl, "stop"], check=True, capture_output=True)
        try:
            with pytest.raises(redis.ConnectionError):
                client.ping()
        finally:
            subprocess.run([ctl, "start"], check=True, capture_output=True)
        assert client.ping()
    finally:
        client.close()
