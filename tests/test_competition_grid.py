"""Entering a physical table's game (docs/competition.md §2): a second entry of a game
entered already is answered 409 (``already_entered``) unless the body asks to replace it,
the audit log and the database keep both entries, and a refusal that concerns one hand
names its seat and player and carries the seat (0–3) as the error's ``seat``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from remikit.competition.results import EntryRefused, score_cards
from remikit.storage import Store
from remikit.storage.competition import EntryRow
from tests.test_competition_api import HANDS, Event, client, db_url, error, stored_counts

__all__ = ["client", "db_url"]  # the fixtures

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CLOSES = {"hands": HANDS, "closer": 0, "closing": "Ah"}
PATH = "/rounds/1/tables/1/games/1"


def seated(event: Event) -> list[str]:
    """A table of four made and drawn (positions A–D in game seats 0–3): its names."""
    event.players(4)
    event.make_round()
    table = event.draw(1, 1)
    return [s["name"] for s in table["seats"]]


def stored_entries(db_url: str) -> list[EntryRow]:
    store = Store(db_url)
    try:
        with store.session() as session:
            return list(session.scalars(select(EntryRow).order_by(EntryRow.id)))
    finally:
        store.close()


def test_a_second_entry_is_refused_409_unless_replacing_is_asked(
    client: TestClient, db_url: str
) -> None:
    event = Event(client)
    seated(event)
    first = event.enter(1, 1, 1, {"points": [1, 2, 3, 4], "reason": "lembar skor"})
    before = stored_counts(db_url)
    for body in (CLOSES, CLOSES | {"replace": False}):
        answer = event.post(PATH, body, event.ref2)
        message = error(answer, 409, "already_entered")
        refusal = answer.json()["error"]
        assert refusal["entry"] == first["id"] and refusal["entered_by"] == "Rina"
        assert datetime.fromisoformat(refusal["entered_at"]).tzinfo is not None
        assert "Rina" in message and '"replace": true' in message
    assert error(event.post(PATH, CLOSES | {"replace": "yes"}, event.ref2), 422, "bad_request")
    assert stored_counts(db_url) == before  # nothing stored
    preview = event.ok(event.post(f"{PATH}/preview", CLOSES, event.ref2))  # never 409
    assert preview["entry"]["replaces"] == first["id"]
    assert event.round(1)["tables"][0]["games"][0]["entry"]["id"] == first["id"]

    second = event.enter(1, 1, 1, CLOSES | {"replace": True}, event.ref2)
    assert second["replaces"] == first["id"] and second["entered_by"] == "Tono"
    assert event.round(1)["tables"][0]["games"][0]["entry"]["id"] == second["id"]
    stored = stored_entries(db_url)  # the replaced entry stays stored, not current
    assert [(e.id, e.current) for e in stored] == [(first["id"], False), (second["id"], True)]
    assert stored[0].points == [1, 2, 3, 4] and stored[0].reason == "lembar skor"
    entered = [e for e in event.ok(event.get("/audit", event.org)) if e["what"] == "entry.enter"]
    assert [(e["who"], e["after"]["entry"]) for e in entered] == [
        ("Rina", first["id"]),
        ("Tono", second["id"]),
    ]
    assert entered[0]["before"] is None
    assert entered[1]["before"] == {
        "entry": first["id"],
        "points": [1, 2, 3, 4],
        "closer": None,
        "closing": None,
        "confirmed_by": None,
    }
    error(event.post(f"/entries/{first['id']}/confirm", None, event.ref), 409, "not_current")
    event.confirm(second["id"], event.ref)
    confirmed = event.post(PATH, CLOSES | {"replace": True}, event.ref)
    error(confirmed, 400, "confirmed")  # a confirmed game is corrected, never replaced


def missing_card(seat: int) -> dict[str, Any]:
    hands = [list(h) for h in HANDS]
    hands[seat] = hands[seat][:12]
    return {"hands": hands}


def bad_card(seat: int) -> dict[str, Any]:
    hands = [list(h) for h in HANDS]
    hands[seat][4] = "Zz"
    return {"hands": hands}


ONE_HAND = [  # (body, code, the seat it concerns, what the message says of it)
    (missing_card(1), "hand_size", 1, "12 cards, a hand needs 13"),
    (bad_card(3), "bad_card", 3, "Zz is not a card"),
    ({"hands": [HANDS[0], HANDS[1], HANDS[1], HANDS[3]]}, "too_many_copies", 2, "K♣ appears 3"),
    ({"hands": HANDS[::-1], "closer": 0, "closing": "Ah"}, "close_refused", 0, "cannot close"),
    ({"hands": HANDS, "closer": 0, "closing": "7h"}, "close_refused", 0, "Ace or a Joker"),  # R13-7
    ({"hands": HANDS, "closer": 2, "closing": None}, "close_refused", 2, "give the closing card"),
]  # fmt: skip


@pytest.mark.parametrize(("body", "code", "seat", "says"), ONE_HAND)
def test_a_refusal_about_one_hand_names_its_seat_and_player(
    client: TestClient, db_url: str, body: dict[str, Any], code: str, seat: int, says: str
) -> None:
    event = Event(client)
    names = seated(event)
    before = stored_counts(db_url)
    for path in (PATH, f"{PATH}/preview"):
        answer = event.post(path, body, event.ref)
        message = error(answer, 400, code)
        assert answer.json()["error"]["seat"] == seat
        assert message.startswith(f"Seat {seat + 1} ({names[seat]}): ") and says in message
    indonesian = event.post(f"{PATH}?lang=id", body, event.ref)
    assert error(indonesian, 400, code).startswith(f"Kursi {seat + 1} ({names[seat]}): ")
    assert stored_counts(db_url) == before


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"hands": HANDS, "closer": [0, 1], "closing": "Ah"}, "closed_twice"),
        ({"hands": HANDS[:3]}, "hand_size"),
        ({"points": [1, 2, 3, 2000], "reason": "lembar"}, "bad_points"),
    ],
)
def test_a_refusal_about_no_one_hand_has_no_seat(
    client: TestClient, body: dict[str, Any], code: str
) -> None:
    event = Event(client)
    seated(event)
    answer = event.post(PATH, body, event.ref)
    error(answer, 400, code)
    assert "seat" not in answer.json()["error"]


def test_the_scorer_names_the_hand_a_refusal_concerns() -> None:
    short = [list(h) for h in HANDS]
    short[2] = short[2][:11]
    with pytest.raises(EntryRefused) as caught:
        score_cards(short, closer=None, closing=None)
    assert caught.value.hand == 2 and caught.value.params["seat"] == 3
    assert str(caught.value) == "seat 3: 11 cards, a hand needs 13"
    assert caught.value.text("id") == "kursi 3: 11 kartu, satu tangan perlu 13 kartu"
    with pytest.raises(EntryRefused) as caught:  # the closing Jk is a fifth joker (R13-1)
        score_cards([HANDS[0], HANDS[1], HANDS[2], [*HANDS[3][:12], "Jk"]], closer=1, closing="Jk")
    assert caught.value.code == "too_many_copies" and caught.value.hand == 1
