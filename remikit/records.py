"""Game records (CONTRACT.md): load, check and replay them.

A record fixes every deal (the whole shuffled deck) and every action, so a
game can be stored, shared, replayed and checked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from remikit.action_words import ActionSyntaxError
from remikit.actions import Action, parse_seat_action
from remikit.cards import Card, CardError
from remikit.engine import Game
from remikit.errors import IllegalAction
from remikit.i18n import brief
from remikit.variants import find_playable


class RecordError(ValueError):
    """A record that is not well formed (as opposed to an illegal action in it)."""


MAX_NAME = 40


@dataclass(frozen=True)
class ReplayResult:
    """What replaying a record gave: the scores, or the first illegal action; ``players``
    the names the record gives its seats (none: the record names nobody)."""

    ok: bool
    game: Game | None
    finished: bool = False
    index: int | None = None
    action: str | None = None
    reason: str | None = None
    players: tuple[str, ...] | None = None

    def as_json(self) -> dict[str, Any]:
        if not self.ok:
            out: dict[str, Any] = {"ok": False}
            if self.index is not None:
                out["index"] = self.index
                out["action"] = self.action
            out["reason"] = self.reason
            return out
        assert self.game is not None
        done = [d.summary.points for d in self.game.deals if d.summary is not None]
        out = {
            "ok": True,
            "finished": self.finished,
            "hand_scores": [list(p) for p in done],
            "totals": list(self.game.totals),
        }
        if self.players is not None:
            out["players"] = list(self.players)
        if self.finished:
            out["winner"] = self.game.winner
        return out


def player_names(record: Mapping[str, Any], seats: int) -> tuple[str, ...] | None:
    """A record's ``players``, one name per seat (1 to 40 characters), or None when it has
    none; :class:`RecordError` when they are not that."""
    names = record.get("players")
    if names is None:
        return None
    if (
        not isinstance(names, list)
        or len(names) != seats
        or not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names)
    ):
        raise RecordError(f"players must be a list of {seats} names of 1 to {MAX_NAME} characters")
    return tuple(names)


def load_record(path: str | Path) -> dict[str, Any]:
    """The JSON object of a record file; :class:`RecordError` for anything else."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path} is not UTF-8 text (byte {exc.start})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise RecordError(f"{path} is not a record: its JSON nests too deeply") from None
    except ValueError:  # an integer of more digits than Python converts
        raise RecordError(f"{path} is not a record: it holds a number too long to read") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data


def new_game(record: Mapping[str, Any]) -> Game:
    """An empty game for a record's variant and options (no deal started)."""
    variant = record.get("variant")
    if not isinstance(variant, str):
        raise RecordError("the record has no variant")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("options must be an object")
    try:
        game = find_playable(variant).game_class()
        return game(game.options_type.from_mapping(options), auto_deal=False)
    except ValueError as exc:  # OptionError included
        raise RecordError(str(exc)) from None


def replay(record: Mapping[str, Any]) -> ReplayResult:
    """Replay a record up to its end, its first illegal action or its first malformed hand
    (a malformed hand changes nothing: its deal does not start)."""
    try:
        game = new_game(record)
        players = player_names(record, game.players)
    except RecordError as exc:
        return ReplayResult(False, None, reason=str(exc))
    hands = record.get("hands")
    if not isinstance(hands, list):
        return ReplayResult(False, game, reason="hands must be a list (one entry per deal)")
    index = 0
    for number, hand in enumerate(hands, start=1):
        try:
            actions = start_hand(game, hand, number)
        except RecordError as exc:
            return ReplayResult(False, game, reason=str(exc))
        for text in actions:
            try:
                seat, action = parse_seat_action(text)
                apply_recorded(game, seat, action)
            except (ActionSyntaxError, IllegalAction) as exc:
                return ReplayResult(False, game, index=index, action=text, reason=str(exc))
            index += 1
        if number < len(hands) and not game.needs_deal:
            reason = f"hand {number} is not over but another hand follows"
            return ReplayResult(False, game, reason=reason)
    return ReplayResult(True, game, finished=game.over, players=players)


def apply_recorded(game: Game, seat: int, action: Action) -> None:
    """Apply one action of a record. A record may leave out the passes of a Rummy call
    window (those written before the window was a phase of its own list only the call
    that won): a call by a seat further down the call order, or the next player's draw,
    stands for passes by the seats asked before it (R5-10)."""
    for play in game.current().implied_passes(seat, action):
        game.apply(play.seat, play.action)
    game.apply(seat, action)


def start_hand(game: Game, hand: object, number: int) -> list[str]:
    """Check hand ``number`` of a record (an object with ``deck`` and optionally
    ``dealer``, ``first`` and ``actions``) and start its deal; its actions.
    :class:`RecordError` for a malformed hand."""
    where = f"hand {number}"
    if not isinstance(hand, dict):
        raise RecordError(f"{where} is not an object")
    if not game.needs_deal:
        raise RecordError(
            f"{where}: the game is over" if game.over else f"{where}: the previous hand is not over"
        )
    cards = read_deck(hand.get("deck"), where)
    actions = _strings(hand.get("actions", []), f"{where}: actions must be a list of strings")
    dealer = _seat(hand.get("dealer"), f"{where}: dealer", game.players)
    first = _seat(hand.get("first"), f"{where}: first", game.players)
    rule = game.next_dealer()
    if dealer is not None and game.deals and dealer != rule:
        raise RecordError(
            f"{where}: dealer must be seat {rule}, the dealer the rules pick, not {dealer}"
        )
    after = ((rule if dealer is None else dealer) + 1) % game.players
    if first is not None and first != after:  # RULES.md §0 "Who plays first"
        raise RecordError(
            f"{where}: first must be seat {after}, the seat after the dealer, not {first}"
        )
    try:
        game.start_deal(cards, dealer=dealer)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None
    return actions


def read_deck(value: object, where: str) -> list[Card]:
    """The cards of a hand's ``deck``; :class:`RecordError` naming a malformed one."""
    cards = []
    for position, text in enumerate(
        _strings(value, f"{where}: deck must be a list of card strings")
    ):
        try:
            cards.append(Card.parse(text))
        except CardError:
            raise RecordError(
                f"{where}: deck card {position} is not a card: {brief(text)} "
                "(write rank then suit, e.g. As, 10h, Td, 7c, or Jk)"
            ) from None
    return cards


def _strings(value: object, message: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise RecordError(message)
    return value


def _seat(value: object, name: str, players: int) -> int | None:
    """A seat number of the record (None when left out); a bool is no seat."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise RecordError(f"{name} must be a seat from 0 to {players - 1}, not {brief(value)}")
    return value
