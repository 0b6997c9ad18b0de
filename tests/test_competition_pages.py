"""The competition's page routes (remikit/server/competition/pages.py): every page is the
shell of its module with the competition's id, an unknown page is the documented 404,
and the QR code is of the competition's public page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from remikit.server.app import create_app
from remikit.server.clock import ManualClock
from remikit.server.settings import Settings
from remikit.server.share import qr_svg

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

STATIC = Path(__file__).resolve().parent.parent / "remikit" / "server" / "static"
PAGES = {
    "/competitions/new": "new",
    "/competitions/K1": "public",
    "/competitions/K1/admin": "admin",
    "/competitions/K1/referee": "referee",
    "/competitions/K1/projector": "projector",
    "/competitions/K1/print/pairings": "print_pairings",
    "/competitions/K1/print/schedule": "print_schedule",
    "/competitions/K1/print/sheets": "print_sheets",
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'remikit.db'}", public_url="https://remi.example"
    )
    with TestClient(create_app(settings, clock=ManualClock())) as client:
        yield client


@pytest.mark.parametrize(("path", "module"), PAGES.items())
def test_each_page_runs_its_module(client: TestClient, path: str, module: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    assert f'src="/static/competition/{module}.js"' in answer.text
    assert (STATIC / "competition" / f"{module}.js").is_file()
    if module != "new":
        assert 'data-competition="K1"' in answer.text


@pytest.mark.parametrize("path", ["/competitions/K1/nope", "/competitions/K1/print/nope"])
def test_an_unknown_page_is_not_found(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"


def test_the_qr_code_is_of_the_public_page(client: TestClient) -> None:
    body = {
        "name": "Piala Remi",
        "date": "2026-12-05",
        "rounds": 2,
        "organiser_password": "rahasia-panitia",
        "referee_password": "rahasia-wasit",
    }
    made = client.post("/api/competitions", json=body)
    assert made.status_code == 201, made.text
    cid = made.json()["competition"]["id"]
    answer = client.get(f"/api/competitions/{cid}/qr.svg")
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
    assert answer.content == qr_svg(f"https://remi.example/competitions/{cid}")
    assert client.get(f"/api/competitions/{cid.lower()}/qr.svg").content == answer.content
    unknown = client.get("/api/competitions/NOSUCH/qr.svg")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "unknown_competition"
