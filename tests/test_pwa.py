"""The installable app's routes (docs/protocol.md §2.1) through the real app: the service
worker at the site's root with the shell it keeps, a version that follows the shell's
contents, the manifest, and the pages that link it."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remikit.i18n import LANGUAGES
from remikit.server.app import create_app
from remikit.server.http import shell
from remikit.server.settings import Settings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SHELL_LINE = re.compile(r"^self\.remikitShell = (\{.*\});\n")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'remikit.db'}"))
    with TestClient(app) as running:
        yield running


def worker_shell(client: TestClient) -> dict[str, Any]:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    match = SHELL_LINE.match(response.text)
    assert match, response.text[:200]
    assert response.text[match.end() :] == shell.WORKER.read_text(encoding="utf-8")
    found: dict[str, Any] = json.loads(match.group(1))
    return found


def test_the_worker_names_the_shell_and_every_file_of_it_is_served(client: TestClient) -> None:
    found = worker_shell(client)
    files = found["files"]
    assert files[:2] == ["/", "/verify"]
    for path in ("/static/table.html", "/static/table.js", "/static/style.css", "/static/pwa.js"):
        assert path in files
    assert "/static/icon-512.png" in files and "/static/sw.js" not in files
    assert not [f for f in files if f.startswith("/static/competition/")]
    for path in files + found["texts"]:
        assert client.get(path).status_code == 200, path
    assert sorted(found["texts"]) == sorted(
        f"/api/{what}?lang={lang}" for what in ("messages", "variants") for lang in LANGUAGES
    )
    assert re.fullmatch(r"[0-9a-f]{16}", found["version"])


def test_a_changed_file_changes_the_version_and_its_bytes_only_count(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "a.js").write_text("export const a = 1;\n")
    (static / "sw.js").write_text("// the worker\n")
    monkeypatch.setattr(shell, "STATIC", static)
    monkeypatch.setattr(shell, "WORKER", static / "sw.js")
    first = worker_shell(client)
    assert first["files"] == ["/", "/verify", "/static/a.js"]
    os.utime(static / "a.js", ns=(1, 1))  # the same bytes at another time: the same version
    assert worker_shell(client)["version"] == first["version"]
    (static / "a.js").write_text("export const a = 2;\n")
    assert worker_shell(client)["version"] != first["version"]


def test_the_manifest_names_the_app_under_its_own_address(client: TestClient) -> None:
    response = client.get("/manifest.webmanifest", headers={"Accept-Language": "id"})
    assert response.headers["content-type"].startswith("application/manifest+json")
    assert "Content-Security-Policy" in response.headers
    body = response.json()
    assert body["name"] == body["short_name"] == "remikit"
    assert body["start_url"] == body["scope"] == body["id"] == "./"
    assert body["display"] == "standalone" and body["lang"] == "id"
    assert body["description"] == "Permainan kartu remi bersama teman dan bot."
    assert client.get("/manifest.webmanifest?lang=en").json()["description"].startswith("Rummy")
    for icon in body["icons"]:
        assert client.get(f"/{icon['src']}").headers["content-type"] == "image/png"
    assert {icon["purpose"] for icon in body["icons"]} == {"any", "maskable"}


@pytest.mark.parametrize(
    ("path", "href"),
    [
        ("/", "manifest.webmanifest"),
        ("/verify", "manifest.webmanifest"),
        ("/table/ABCDEFGH", "../manifest.webmanifest"),
        ("/static/replay.html", "../manifest.webmanifest"),
        ("/rules/remi13d", "../manifest.webmanifest"),
        ("/leaderboard", "../manifest.webmanifest"),
        ("/profile/ABCDEFGH", "../manifest.webmanifest"),
    ],
)
def test_every_page_links_the_manifest(client: TestClient, path: str, href: str) -> None:
    assert f'<link rel="manifest" href="{href}">' in client.get(path).text
