"""The organiser's tools in a real browser (docs/competition.md §8): a CSV file with
faults shows each faulty line and registers nobody; the corrected file registers the
field; everyone is checked in with one button; the competition is exported, imported
on the new competition's page, archived and deleted with its name typed again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.browser import Browser, Served, browser, needs_chromium, open_person, shot

pytestmark = [needs_chromium, pytest.mark.slow]
__all__ = ["browser"]  # the fixture

BAD = "nama;klub;kontak\nAyu;Medan;0812\n;Solo;\nAyu;Medan;\n"
GOOD = "\ufeffnama;klub;kontak\r\n" + "".join(f"Pemain {i};Klub {i % 3};\r\n" for i in range(1, 9))


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = Served(tmp_path_factory.mktemp("browser-competition-tools"))
    try:
        yield running
    finally:
        running.stop()


def test_the_organisers_tools(served: Served, browser: Browser, tmp_path: Path) -> None:
    body = {
        "name": "Piala Arsip",
        "date": "2026-12-05",
        "rounds": 2,
        "organiser_password": "panitia-arsip",
        "referee_password": "wasit-arsip",
    }
    made = httpx.post(f"{served.url}/api/competitions", json=body).json()
    cid, token = made["competition"]["id"], made["token"]
    organiser = open_person(browser)
    page = organiser.page
    page.goto(f"{served.url}/competitions/{cid}/admin")
    kept = json.dumps({"token": token, "name": "organiser"})
    page.evaluate(f"() => localStorage.setItem('remikit.competition.{cid}.organiser', '{kept}')")
    page.reload()
    page.wait_for_selector("#csv-form")

    bad, good = tmp_path / "bad.csv", tmp_path / "good.csv"
    bad.write_text(BAD, encoding="utf-8")
    good.write_text(GOOD, encoding="utf-8")
    page.set_input_files("#csv-file", str(bad))
    page.click("#csv-import")
    page.wait_for_selector("#csv-errors li")
    lines = page.eval_on_selector_all("#csv-errors li", "els => els.map(e => e.dataset.line)")
    assert lines == ["3", "4"]
    shot(page, "competition-tools-csv-errors")
    assert page.locator("#player-list tbody tr").count() == 0

    page.set_input_files("#csv-file", str(good))
    page.click("#csv-import")
    page.wait_for_selector("#player-list tbody tr >> nth=7")
    page.click("#check-in-all")
    page.wait_for_selector('#player-list tr[data-status="checked_in"] >> nth=7')
    assert page.inner_text("#players h2").endswith("8 registered, 8 checked in")

    with page.expect_download() as download:
        page.click("#export")
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["competition"]["id"] == cid and exported["hash"]

    page.click("#archive")
    page.wait_for_selector("#archived-note")
    assert page.locator("#csv-form").count() == 0
    shot(page, "competition-tools-archived", full_page=True)
    assert not [e for e in organiser.errors if "Failed to load resource" not in e]

    page.fill("#delete-confirm", "Piala")
    assert page.is_disabled("#delete")
    page.fill("#delete-confirm", "piala arsip")
    page.click("#delete")
    page.wait_for_url(f"{served.url}/")
    gone = httpx.get(f"{served.url}/api/competitions/{cid}")
    assert gone.status_code == 404

    importer = open_person(browser).page
    importer.goto(f"{served.url}/competitions/new")
    path = tmp_path / "event.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    importer.set_input_files("#event-file", str(path))
    importer.click("#event-import-submit")
    importer.wait_for_url("**/admin")
    importer.wait_for_selector("#player-list tbody tr >> nth=7")  # exported before archived
    assert importer.locator('#player-list tr[data-status="checked_in"]').count() == 8
    assert importer.locator("#archived-note").count() == 0
