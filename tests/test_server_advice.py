"""Hints over the WebSocket (the state's ``advice``, the ``advice`` request, hints off) and
the rules page (/rules/{variant}) with a table's options marked."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remikit.i18n import LANGUAGES, messages
from remikit.server.advice import best_arrangement, state_advice
from remikit.server.rules_page import RULES_DIR
from remikit.variants import VARIANTS, find_variant
from tests.test_server import (
    Message,
    client,
    create,
    db_url,
    hello,
    hub_of,
    join,
    my_turn,
    receive_until,
)

__all__ = ["client", "db_url"]  # the fixtures, imported for the tests here

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parents[1]
T13_TABLE = [{"kind": "person"}, {"kind": "bot", "level": "greedy"}]
GIN_TABLE = T13_TABLE


def seat_view(client: TestClient, table_id: str, seat: int) -> Any:
    return hub_of(client).tables[table_id].view(seat)


# -- advice over the socket -------------------------------------------------------------------


def test_each_seat_state_carries_its_advice_and_a_request_gets_the_best_arrangement(
    client: TestClient,
) -> None:
    table_id = create(client, "three-thirteen", options={"players": 2}, seats=T13_TABLE)
    _, token = join(client, table_id)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws,
        client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
    ):
        seat = hello(ws, token)["seat"]
        hello(spectator)
        state = receive_until(ws, my_turn(-1))
        view = seat_view(client, table_id, seat)
        assert state["advice"] == state_advice(view)
        assert set(state["advice"]["counter"]) == {"deadwood"}  # R3-7
        ws.send_json({"type": "advice", "ref": 5})
        reply = receive_until(ws, lambda m: m["type"] == "advice")
        best = best_arrangement(view)
        assert best is not None
        assert reply == {"type": "advice", "ref": 5, "state_id": state["state_id"], **best}
        watched = receive_until(spectator, lambda m: m["type"] == "state")
        assert "advice" not in watched
        spectator.send_json({"type": "advice", "ref": 1})
        refused = receive_until(spectator, lambda m: m["type"] == "error")
        assert refused["code"] == "spectator" and refused["ref"] == 1


def test_a_table_without_hints_gives_no_advice(client: TestClient) -> None:
    table_id = create(
        client,
        "three-thirteen",
        options={"players": 2},
        seats=T13_TABLE,
        settings={"hints": False},
    )
    _, token = join(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token, lang="id")
        state: Message = receive_until(ws, my_turn(-1))
        assert "advice" not in state
        ws.send_json({"type": "advice", "ref": "a"})
        refused = receive_until(ws, lambda m: m["type"] == "error")
        assert refused["code"] == "hints_off" and refused["ref"] == "a"
        assert refused["message"] == "meja ini tidak memberi petunjuk"


def test_before_the_seat_draw_a_seat_has_no_cards_to_advise_on(client: TestClient) -> None:
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]
    table_id = create(client, "remi13d", seats=seats)
    _, token = join(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        state = receive_until(ws, lambda m: m["type"] == "state")
        assert state["table"]["status"] == "waiting" and state["view"]["hand"] == []
        assert state["advice"] is None  # R13-2: the draw decides whose cards are whose
        ws.send_json({"type": "advice", "ref": 2})
        refused = receive_until(ws, lambda m: m["type"] == "error")
        assert refused["code"] == "no_advice"


def test_a_gin_table_carries_its_hints_and_answers_the_advice_request(
    client: TestClient,
) -> None:
    """G-5, G-6: the knock and the lay-offs beside the deadwood counter, from the seat's view;
    the best arrangement with the knock on request."""
    table_id = create(client, "gin", seats=GIN_TABLE)
    _, token = join(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        seat = hello(ws, token)["seat"]
        offer = receive_until(ws, my_turn(-1))
        assert offer["view"]["phase"] == "offer"  # G-3: seat 0 plays first
        advice = offer["advice"]
        assert advice == state_advice(seat_view(client, table_id, seat))
        assert set(advice["counter"]) == {"deadwood"}
        assert advice["knock"] is None and advice["lay_off"] is None
        ws.send_json({"type": "action", "state_id": offer["state_id"], "action": "draw discard"})
        state = receive_until(ws, my_turn(offer["state_id"]))
        assert state["view"]["phase"] == "discard"
        view = seat_view(client, table_id, seat)
        assert state["advice"] == state_advice(view)
        ws.send_json({"type": "advice", "ref": "g"})
        reply = receive_until(ws, lambda m: m["type"] == "advice")
        best = best_arrangement(view)
        assert best is not None and "knock" in best and best["discard"] is not None
        assert reply == {"type": "advice", "ref": "g", "state_id": state["state_id"], **best}


def test_a_variant_without_hints_says_so(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = VARIANTS["three-thirteen"]
    parts = {k: v for k, v in spec.parts.items() if k != "advice"}
    monkeypatch.setitem(VARIANTS, spec.name, replace(spec, parts=parts))
    table_id = create(client, "three-thirteen", options={"players": 2}, seats=T13_TABLE)
    _, token = join(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token, lang="id")
        state = receive_until(ws, my_turn(-1))
        assert state["advice"] is None
        ws.send_json({"type": "advice", "ref": 4})
        refused = receive_until(ws, lambda m: m["type"] == "error")
        assert refused["code"] == "no_hints" and refused["ref"] == 4
        assert refused["message"] == "permainan ini tidak memberi petunjuk"


# -- the rules page --------------------------------------------------------------------------


def rule_ids(text: str) -> list[str]:
    return re.findall(r"^\s*- \*\*(R\d+-\d+)\b", text, flags=re.MULTILINE)


def test_the_indonesian_rules_have_the_same_sections_and_rule_ids() -> None:
    english = (ROOT / "docs" / "rules.md").read_text()
    indonesian = (ROOT / "docs" / "rules.id.md").read_text()
    assert rule_ids(english) == rule_ids(indonesian) and len(rule_ids(english)) == 37
    headings = re.compile(r"^## (\d+)\. ", re.MULTILINE)
    assert headings.findall(english) == headings.findall(indonesian)


def test_the_package_ships_the_rules_of_the_docs() -> None:
    for name in ("rules.md", "rules.id.md"):
        assert (RULES_DIR / name).read_text() == (ROOT / "docs" / name).read_text()


def test_the_rules_page_in_both_languages_with_anchors_and_no_script(client: TestClient) -> None:
    english = client.get("/rules/remi13d?lang=en")
    assert english.status_code == 200 and english.headers["content-type"].startswith("text/html")
    assert "script-src" not in english.headers["content-security-policy"]  # none allowed
    page = english.text
    assert "<script" not in page and '<html lang="en">' in page
    assert '<li id="R13-7" class="rule">' in page and '<a href="#R13-14">R13-14</a>' in page
    assert 'id="R5-1"' not in page  # only this variant's section (and the common ground)
    assert "Common ground" in page and "Worked examples" in page
    indonesian = client.get("/rules/remi13d?lang=id").text
    assert '<html lang="id">' in indonesian and '<li id="R13-7" class="rule">' in indonesian
    assert "Tutup." in indonesian and "kartu mati" in indonesian
    assert 'href="/rules/remi13d?lang=en"' in indonesian  # the other language
    assert "Worked examples" not in client.get("/rules/rummy500?lang=en").text  # none of R5


def test_the_rules_page_of_a_table_lists_and_marks_its_options(client: TestClient) -> None:
    table_id = create(client, "rummy500", options={"floating": True, "target": 300})
    page = client.get(f"/rules/rummy500?lang=en&table={table_id}").text
    assert f"The options of table {table_id}" in page
    assert '<li class="option changed"><b>Floating</b>: on <a href="#R5-14">R5-14</a></li>' in page
    assert '<li class="option"><b>Rummy! calls</b>: on <a href="#R5-10">R5-10</a></li>' in page
    marked = re.search(r'<li id="R5-14" class="rule table-option">.*?</li>', page, re.DOTALL)
    assert marked is not None and "Floating: on" in marked.group()
    assert '<li id="R5-2" class="rule">' in page  # a rule no option touches
    assert f'href="/table/{table_id}"' in page
    indonesian = client.get(f"/rules/rummy500?lang=id&table={table_id}").text
    assert "<b>Mengambang (floating)</b>: " in indonesian


def test_the_rules_page_refuses_unknown_variants_and_tables(client: TestClient) -> None:
    missing = client.get("/rules/poker")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "bad_variant"
    table_id = create(client, "rummy500")
    other = client.get(f"/rules/remi13d?table={table_id}")
    assert other.status_code == 404 and other.json()["error"]["code"] == "unknown_table"


def test_every_option_has_help_in_both_languages_and_a_rule_on_its_page(
    client: TestClient,
) -> None:
    for variant in client.get("/api/variants").json()["variants"]:
        if find_variant(variant["name"]).rules_section is None:
            continue  # a variant made in tests/ has no rules in docs/rules.md
        page = client.get(f"/rules/{variant['name']}?lang=en").text
        for option in variant["options"]:
            assert option["rule"] and f'id="{option["rule"]}"' in page, option
            for lang in LANGUAGES:
                assert messages(lang)[option["help"]], (lang, option)
