"""Reviews of finished games at the server (docs/protocol.md §3.12): started, polled to
the end, answered from memory when asked again, bounded per client, per game and on the
server, and every refusal in the error shape."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from remikit.server.app import create_app
from remikit.server.reviews import prepare
from remikit.server.settings import Settings
from tests.test_review_service import store_finished

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

JSON = {"content-type": "application/json"}
BOTS = [{"kind": "bot", "level": "greedy"}] * 2


@contextmanager
def running(tmp_path: Path, **settings: Any) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'remikit.db'}"
    options = {"review_budget": 0.0001, "bot_delay": 0.0, **settings}
    with TestClient(create_app(Settings(database_url=url, **options))) as client:
        yield client


def finished_gin(client: TestClient) -> str:
    """A game of Gin Rummy to 1 point between two greedy bots, once it is over."""
    made = client.post(
        "/api/tables", json={"variant": "gin", "options": {"target": 1}, "seats": BOTS}
    )
    assert made.status_code == 201, made.text
    table_id: str = made.json()["table"]["id"]
    poll(lambda: client.get(f"/api/games/{table_id}").status_code == 200, "the game ends")
    return table_id


def poll(done: Any, what: str, tries: int = 3000) -> None:
    for _ in range(tries):
        if done():
            return
        time.sleep(0.02)
    raise AssertionError(f"{what}: not yet")


def review_of(client: TestClient, table_id: str, seat: int, **params: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{table_id}/reviews/{seat}", params=params)
    assert response.status_code == 200, response.text
    review: dict[str, Any] = response.json()["review"]
    return review


def finished_review(client: TestClient, table_id: str, seat: int) -> dict[str, Any]:
    poll(lambda: review_of(client, table_id, seat)["status"] != "running", "the review ends")
    return review_of(client, table_id, seat)


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    message: str = error["message"]
    return message


def test_a_review_runs_in_the_background_and_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[int] = []

    def counted(*args: Any) -> Any:
        runs.append(args[1])
        return prepare(*args)

    monkeypatch.setattr("remikit.server.reviews.prepare", counted)
    with running(tmp_path) as client:
        table_id = finished_gin(client)
        started = client.post(f"/api/games/{table_id}/reviews", json={"seat": 1})
        assert started.status_code == 202, started.text
        first = started.json()["review"]
        assert first["seat"] == 1 and first["budget"] == 0.0001
        assert first["status"] in ("running", "done")
        done = finished_review(client, table_id, 1)
        assert done["status"] == "done" and done["done"] == done["total"]
        review = done["review"]
        decisions = review["decisions"]
        assert len(decisions) == done["total"] == review["game"]["decisions"] > 0
        actions = client.get(f"/api/games/{table_id}").json()["game"]["actions"]
        for decision in decisions:
            assert actions[decision["step"] - 1] == f"p1 {decision['taken']}"
            assert decision["best_play"]["text"] == f"p1 {decision['best']}"
            assert decision["verdict"] in ("best", "good", "inaccuracy", "mistake", "blunder")
            for reason in decision["reasons"]:
                assert reason["key"].startswith("review.reason.") and reason["text"]
            if decision["verdict"] != "best":
                assert decision["reasons"], decision
        # asked again: the same review, not made again
        again = client.post(f"/api/games/{table_id}/reviews", json={"seat": 1})
        assert again.status_code == 200 and again.json()["review"] == done
        assert runs == [1]
        texts = [
            r["text"]
            for d in review_of(client, table_id, 1, lang="id")["review"]["decisions"]
            for r in d["reasons"]
        ]
        english = [r["text"] for d in decisions for r in d["reasons"]]
        assert texts != english or not texts


def test_the_oldest_finished_review_is_dropped(tmp_path: Path) -> None:
    with running(tmp_path, reviews_kept=1) as client:
        table_id = finished_gin(client)
        client.post(f"/api/games/{table_id}/reviews", json={"seat": 0})
        assert finished_review(client, table_id, 0)["status"] == "done"
        client.post(f"/api/games/{table_id}/reviews", json={"seat": 1})
        assert finished_review(client, table_id, 1)["status"] == "done"
        message = error_of(client.get(f"/api/games/{table_id}/reviews/0?lang=id"), 404, "no_review")
        assert "kursi 1" in message


def test_a_review_that_fails_says_so_and_may_be_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("no")

    with running(tmp_path) as client:
        table_id = finished_gin(client)
        monkeypatch.setattr("remikit.server.reviews.rate_decisions", broken)
        client.post(f"/api/games/{table_id}/reviews", json={"seat": 0})
        failed = finished_review(client, table_id, 0)
        assert failed["status"] == "failed" and failed["error"]["code"] == "review_failed"
        monkeypatch.undo()
        again = client.post(f"/api/games/{table_id}/reviews", json={"seat": 0})
        assert again.status_code == 202
        assert finished_review(client, table_id, 0)["status"] == "done"


def test_every_refusal_is_in_the_error_shape(tmp_path: Path) -> None:
    with running(tmp_path, reviews_waiting=0) as client:
        table_id = finished_gin(client)
        start = f"/api/games/{table_id}/reviews"
        error_of(client.post("/api/games/NOSUCHXX/reviews", json={"seat": 0}), 404, "unknown_table")
        error_of(client.get("/api/games/NOSUCHXX/reviews/0"), 404, "unknown_table")
        waiting = client.post("/api/tables", json={"variant": "gin"}).json()["table"]["id"]
        error_of(
            client.post(f"/api/games/{waiting}/reviews", json={"seat": 0}), 409, "not_finished"
        )
        error_of(client.get(f"/api/games/{waiting}/reviews/0"), 409, "not_finished")
        assert "kursi 3" in error_of(
            client.post(f"{start}?lang=id", json={"seat": 2}), 400, "bad_seat"
        )
        error_of(client.get(f"{start}/2"), 400, "bad_seat")
        bodies: list[Any] = [
            {"seat": -1},
            {"seat": "1"},
            {"seat": 1.0},
            {"seat": True},
            {},
            [],
            {"seat": 99},
        ]
        for body in bodies:
            error_of(client.post(start, json=body), 422, "bad_request")
        error_of(client.post(start, content=b"{seat: 1", headers=JSON), 422, "bad_request")
        error_of(client.get(f"{start}/x"), 422, "bad_request")
        error_of(client.get(f"{start}/1"), 404, "no_review")
        busy = client.post(start, json={"seat": 1})
        error_of(busy, 503, "reviews_busy")
        assert busy.headers["retry-after"] == "10"


# -- bounds -------------------------------------------------------------------------------

GAMES = ("GZMXR5W6", "HTEAG5UY", "ABCDEFGH")  # finished games of two seats
Ask = Callable[..., Any]


@contextmanager
def stalled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **settings: Any) -> Iterator[Ask]:
    """A server with the finished :data:`GAMES` whose reviews never get past their first
    step, behind a proxy that says who asks: ``ask(game, seat, address)``."""

    async def never(fn: Callable[..., Any], /, *args: Any) -> Any:
        await asyncio.Event().wait()

    monkeypatch.setattr("remikit.server.reviews.thread_runner", lambda pool: never)
    url = f"sqlite:///{tmp_path / 'remikit.db'}"
    for game in GAMES:
        store_finished(url, game)
    app = create_app(Settings(database_url=url, **settings))
    with TestClient(ProxyHeadersMiddleware(app, trusted_hosts="*")) as client:  # type: ignore[arg-type]

        def ask(game: str, seat: int, address: str, lang: str = "en") -> Any:
            return client.post(
                f"/api/games/{game}/reviews?lang={lang}",
                json={"seat": seat},
                headers={"X-Forwarded-For": address},
            )

        yield ask


def test_a_client_may_have_only_so_many_reviews_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two, three = GAMES
    with stalled(tmp_path, monkeypatch) as ask:
        assert ask(one, 0, "203.0.113.1").status_code == 202
        again = ask(one, 0, "203.0.113.1")  # the one under way, not counted twice
        assert again.status_code == 200 and again.json()["review"]["status"] == "running"
        assert ask(two, 0, "203.0.113.1").status_code == 202
        assert ask(two, 0, "203.0.113.2").status_code == 200  # the same review, for anyone
        refused = ask(three, 0, "203.0.113.1")
        assert "(2)" in error_of(refused, 429, "client_reviews")
        assert refused.headers["retry-after"] == "10"
        assert "alamat Anda" in error_of(ask(three, 1, "203.0.113.1", "id"), 429, "client_reviews")
        assert ask(three, 0, "203.0.113.2").status_code == 202  # another client
        assert ask(one, 0, "203.0.113.1").status_code == 200


def test_a_game_and_the_server_have_only_so_many_reviews_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two, three = GAMES
    with stalled(tmp_path, monkeypatch, reviews_per_table=1, reviews_waiting=2) as ask:
        assert ask(one, 0, "203.0.113.1").status_code == 202
        refused = ask(one, 1, "203.0.113.2")
        assert "this game" in error_of(refused, 429, "table_reviews")
        assert refused.headers["retry-after"] == "10"
        assert "permainan ini" in error_of(ask(one, 1, "203.0.113.2", "id"), 429, "table_reviews")
        assert ask(two, 1, "203.0.113.2").status_code == 202
        busy = ask(three, 0, "203.0.113.3")
        error_of(busy, 503, "reviews_busy")
        assert busy.headers["retry-after"] == "10"


def test_a_finished_review_no_longer_counts(tmp_path: Path) -> None:
    with running(tmp_path, reviews_per_client=1) as client:
        table_id = finished_gin(client)
        assert client.post(f"/api/games/{table_id}/reviews", json={"seat": 0}).status_code == 202
        assert finished_review(client, table_id, 0)["status"] == "done"
        assert client.post(f"/api/games/{table_id}/reviews", json={"seat": 1}).status_code == 202
