"""Fair deals at the web table (docs/fairness.md, docs/protocol.md §11): a commitment
before every deal, contributions from the people at the table, the secret after the deal,
and no secret of a deal in play, or still to come, in any message to anyone."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from remikit.fairness import commitment, fair_deck, verify_record
from remikit.records import new_game
from remikit.server.tables.fair_deals import FairDeal
from remikit.storage import Store, StoredTable
from remikit.storage.store import now
from tests.hidden import check_no_early_secret
from tests.test_server import (
    Message,
    create,
    create_seeded,
    db_url,
    finished_record,
    hello,
    hub_of,
    join,
    receive_until,
    running,
    simple_choice,
)

__all__ = ["db_url"]  # the fixture

PERSON_AND_BOTS = [{"kind": "person"}] + [{"kind": "bot", "level": "random"}] * 3


def entropy() -> str:
    return secrets.token_bytes(32).hex()


def secrets_of(client: TestClient, table_id: str) -> dict[int, str]:
    stored = hub_of(client).store.load(table_id)
    assert stored is not None
    return {f.number: f.secret for f in stored.fair}


def play_until(ws: Any, wanted: Any, seen: list[Message]) -> Message:
    """Play this seat's turns simply until a state ``wanted`` accepts; that state. The
    latest state already in ``seen`` counts too (waiting for an answer may have read the
    state that gave this seat its turn)."""
    acted = -1
    message = next((m for m in reversed(seen) if m["type"] == "state"), None)
    for _ in range(2000):
        if message is not None:
            if wanted(message):
                return message
            view = message["view"]
            if view["legal_actions"] and message["state_id"] > acted:
                acted = message["state_id"]
                ws.send_json({"type": "action", "state_id": acted, "action": simple_choice(view)})
        message = receive_until(ws, lambda m: m["type"] == "state", seen)
    raise AssertionError("the wanted state did not come")


def test_a_person_contributes_and_every_deal_is_committed_before_and_revealed_after(
    db_url: str,
) -> None:
    with running(db_url) as client:
        table_id = create(client, options={"games": 2}, seats=PERSON_AND_BOTS)
        seen: list[Message] = []
        watched: list[Message] = []
        with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
            hello(spectator)
            waiting = receive_until(spectator, lambda m: m["type"] == "state", watched)
            fair = waiting["fairness"]
            assert fair["deal"] is None and fair["ended"] is None
            assert fair["next"]["deal"] == 1 and not fair["next"]["open"]
            first_commitment = fair["next"]["commitment"]
            assert waiting["view"]["hand_sizes"] == [0, 0, 0, 0]  # nothing dealt yet
            given = entropy()
            seat, token = join(client, table_id, "Budi", entropy=given)  # the last seat
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                hello(ws, token)
                start = receive_until(ws, lambda m: m["type"] == "state", seen)
                fair = start["fairness"]
                assert fair["deal"]["commitment"] == first_commitment
                assert fair["deal"]["contributions"][seat] == given
                assert fair["deal"]["secret"] is None
                dealt, dealer = start["view"]["hand"], start["view"]["dealer"]
                assert fair["next"]["deal"] == 2 and fair["next"]["open"]
                second_commitment = fair["next"]["commitment"]

                later = entropy()
                ws.send_json({"type": "contribute", "deal": 2, "entropy": later, "ref": 5})
                ack = receive_until(ws, lambda m: m["type"] != "state", seen)
                assert ack == {"type": "contributed", "deal": 2, "ref": 5}
                mine = receive_until(ws, lambda m: m["type"] == "state", seen)
                assert mine["fairness"]["next"] == {
                    "deal": 2,
                    "commitment": second_commitment,
                    "open": False,
                    "mine": later,
                }
                ws.send_json({"type": "contribute", "deal": 2, "entropy": later, "ref": 6})
                assert receive_until(ws, lambda m: m["type"] != "state", seen)["ref"] == 6
                refusals = [
                    ({"deal": 2, "entropy": entropy()}, "contributed_already"),
                    ({"deal": 1, "entropy": entropy()}, "contribution_closed"),
                    ({"deal": 3, "entropy": entropy()}, "contribution_closed"),
                    ({"deal": 2, "entropy": later.upper()}, "bad_message"),
                    ({"deal": 2, "entropy": later[:-2]}, "bad_message"),
                    ({"deal": True, "entropy": later}, "bad_message"),
                ]
                for body, code in refusals:
                    ws.send_json({"type": "contribute", **body})
                    error = receive_until(ws, lambda m: m["type"] == "error", seen)
                    assert error["code"] == code, body
                spectator.send_json({"type": "contribute", "deal": 2, "entropy": entropy()})
                assert receive_until(spectator, lambda m: m["type"] == "error")["code"] == (
                    "spectator"
                )

                second = play_until(ws, lambda m: m["fairness"]["ended"] is not None, seen)
                ended = second["fairness"]["ended"]
                assert ended["deal"] == 1 and ended["contributions"][seat] == given
                secret = bytes.fromhex(ended["secret"])
                assert commitment(table_id, 1, secret).hex() == first_commitment
                assert second["fairness"]["deal"]["commitment"] == second_commitment
                assert second["fairness"]["deal"]["contributions"][seat] == later
                # the deck the secret and contributions give dealt this seat its hand
                game = new_game({"variant": "remi13d", "options": {"games": 2}})
                contributions = [bytes.fromhex(c) if c else None for c in ended["contributions"]]
                deck = [str(c) for c in fair_deck(game.full_deck(), secret, contributions)]
                offset = (seat - dealer - 1) % 4
                assert sorted(dealt) == sorted(deck[offset : 13 * 4 : 4])
                stored = hub_of(client).store.load(table_id)
                assert stored is not None and list(stored.decks[0]) == deck
                spectator.send_json({"type": "ping"})
                receive_until(spectator, lambda m: m["type"] == "pong", watched)
        table_secrets = secrets_of(client, table_id)
        assert len(table_secrets) == 3  # deal 3's drawn when deal 2 started
        assert check_no_early_secret(table_secrets, seen) > 20
        assert check_no_early_secret(table_secrets, watched) > 2


def test_the_seat_draw_moves_each_contribution_with_its_person_and_a_restart_keeps_them(
    db_url: str,
) -> None:
    given = [entropy() for _ in range(4)]
    with running(db_url) as client:
        table_id = create(client, options={}, seats=[{"kind": "person"}] * 4)
        before = client.get(f"/api/tables/{table_id}").json()
        for i in range(2):
            join(client, table_id, f"P{i}", seat=i, entropy=given[i])
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws)
            state = receive_until(ws, lambda m: m["type"] == "state")
            promised = state["fairness"]["next"]["commitment"]
    with running(db_url) as client:  # a restart keeps the secret and the contributions
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws)
            state = receive_until(ws, lambda m: m["type"] == "state")
            assert state["fairness"]["next"]["commitment"] == promised
        join(client, table_id, "P2", seat=2)  # no contribution from this one
        join(client, table_id, "P3", seat=3, entropy=given[3])
        table = client.get(f"/api/tables/{table_id}").json()["table"]
        stored = hub_of(client).store.load(table_id)
        assert stored is not None and before["table"]["seat_draw"] is None
    joined = [d["joined"] for d in table["seat_draw"]]
    sent = [None if j == 2 else given[j] for j in joined]
    first = FairDeal.from_stored(stored.fair[0])
    assert first.commitment.hex() == promised
    assert list(first.hex()) == sent
    full = new_game({"variant": "remi13d", "options": {}}).full_deck()
    assert list(stored.decks[0]) == [str(c) for c in first.deck(full)]


def test_a_table_made_with_a_fixed_seed_takes_no_contribution(db_url: str) -> None:
    with running(db_url) as client:
        table_id = create_seeded(client, 7, "remi13d", options={}, seats=PERSON_AND_BOTS)
        _, token = join(client, table_id, "Budi", entropy=entropy())
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            state = receive_until(ws, lambda m: m["type"] == "state")
            assert state["fairness"]["deal"]["contributions"] == [None] * 4
            assert state["fairness"]["next"]["open"] is False
            ws.send_json({"type": "contribute", "deal": 2, "entropy": entropy()})
            assert receive_until(ws, lambda m: m["type"] == "error")["code"] == (
                "contribution_closed"
            )


def test_a_table_of_bots_verifies_and_a_server_that_changed_a_secret_is_caught(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running(db_url) as client:
        honest = create(
            client, options={"games": 2}, seats=[{"kind": "bot", "level": "random"}] * 4
        )
        record = finished_record(client, honest)
        checks = verify_record(record)
        assert [c.deal for c in checks] == [1, 2] and all(c.verified for c in checks)
        assert all(h["fairness"]["contributions"] == [None] * 4 for h in record["hands"])

        draw = FairDeal.draw.__func__  # type: ignore[attr-defined]

        def changed_after_committing(
            cls: type[FairDeal], table: str, number: int, players: int, seed: str | None
        ) -> FairDeal:
            fair: FairDeal = draw(cls, table, number, players, seed)
            if number == 2:  # committed to one secret, deals and reveals another
                fair.secret = secrets.token_bytes(32)
            return fair

        monkeypatch.setattr(FairDeal, "draw", classmethod(changed_after_committing))
        cheat = create(client, options={"games": 2}, seats=[{"kind": "bot", "level": "random"}] * 4)
        record = finished_record(client, cheat)
    checks = verify_record(record)
    assert checks[0].verified and not checks[1].verified
    assert [p.code for p in checks[1].problems] == ["commitment"]


def test_the_downloaded_record_carries_what_a_verifier_needs(db_url: str, tmp_path: Path) -> None:
    with running(db_url) as client:
        table_id = create(
            client, options={"games": 1}, seats=[{"kind": "bot", "level": "greedy"}] * 4
        )
        record = finished_record(client, table_id)
    (hand,) = record["hands"]
    fairness = hand["fairness"]
    assert set(fairness) == {"version", "table", "deal", "commitment", "contributions", "secret"}
    assert (fairness["version"], fairness["table"], fairness["deal"]) == (1, table_id, 1)
    secret = bytes.fromhex(fairness["secret"])
    assert commitment(table_id, 1, secret).hex() == fairness["commitment"]
    tampered = json.loads(json.dumps(record))
    deck = tampered["hands"][0]["deck"]
    deck[3], deck[40] = deck[40], deck[3]
    problems = verify_record(tampered)[0].problems
    assert [p.code for p in problems] == ["deck"] and problems[0].fields["position"] == 4


def test_a_table_dealt_before_fair_deals_goes_on_with_them(db_url: str) -> None:
    game = new_game({"variant": "remi13d", "options": {"games": 2}})
    old_deck = [str(c) for c in game.new_deck(b"dealt before fair deals")]
    store = Store(db_url)
    try:
        store.create_table(
            StoredTable(
                id="PASTDEAL",
                variant="remi13d",
                options={"games": 2},
                seed="1",
                seats=[{"kind": "bot", "level": "random", "name": f"Bot {i}"} for i in range(4)],
                title="Remi 13 D",
                created_at=now(),
            )
        )
        store.append_deal("PASTDEAL", 1, old_deck)  # as stored before fair deals
    finally:
        store.close()
    with running(db_url) as client:
        record = finished_record(client, "PASTDEAL")
    assert record["hands"][0]["deck"] == old_deck and "fairness" not in record["hands"][0]
    first, second = verify_record(record)
    assert [p.code for p in first.problems] == ["no_fairness"] and second.verified


UNSHUFFLED = [
    ("remi13d", {}),
    ("rummy500", {"players": 2}),
    ("rummy500", {"players": 6, "jokers": False}),
    ("three-thirteen", {"players": 3, "jokers": 4}),
    ("gin", {"knock": 5}),
]


@pytest.mark.parametrize(("variant", "options"), UNSHUFFLED, ids=lambda o: json.dumps(o))
def test_a_table_and_the_api_name_the_variants_own_unshuffled_deck(
    db_url: str, variant: str, options: dict[str, Any]
) -> None:
    """The browser shuffles the deck the server names (docs/fairness.md §4): a table's
    states carry it, and ``POST /api/deck`` gives it for a record's variant and options;
    both are the variant's own game's ``full_deck()``, for every variant."""
    game = new_game({"variant": variant, "options": options})
    expected = [str(card) for card in game.full_deck()]
    with running(db_url) as client:
        bots = [{"kind": "bot", "level": "random"}] * game.players
        table_id = create(client, variant, options=options, seats=[{"kind": "person"}, *bots[1:]])
        shown = client.get(f"/api/tables/{table_id}").json()["fairness"]
        assert shown["deck"] == expected
        body = {"variant": variant.upper(), "options": options}
        answer = client.post("/api/deck", json=body)
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"variant": game.name, "players": game.players, "deck": expected}


def test_the_deck_api_refuses_what_names_no_game(db_url: str) -> None:
    with running(db_url) as client:
        refusals = [
            ({"variant": "poker"}, 400, "bad_variant"),
            ({"variant": "rummy500", "options": {"players": 9}}, 400, "bad_option"),
            ({"variant": "rummy500", "options": {"jokers": "yes"}}, 400, "bad_option"),
            ({"variant": "gin", "options": {"colour": "red"}}, 400, "bad_option"),
            ({"options": {}}, 422, "bad_request"),
        ]
        for body, status, code in refusals:
            answer = client.post("/api/deck", json=body)
            assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), body
