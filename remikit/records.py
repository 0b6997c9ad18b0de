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

from remikit.actions import Action, ActionSyntaxError, parse_seat_action
from remikit.cards import CardError, parse_cards
from remikit.engine import Game, OptionError
from remikit.errors import IllegalAction
from remikit.variants import find_playable


class RecordError(ValueError):
    """A record that is not well formed (as opposed to an illegal action in it)."""


@dataclass(frozen=True)
class ReplayResult:
    """What replaying a record gave: the scores, or the first illegal action."""

    ok: bool
    game: Game | None
    finished: bool = False
    index: int | None = None
    action: str | None = None
    reason: str | None = None

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
        out = {"ok": True, "finished": self.finished, "hand_scores": [list(p) for p in done],
               "totals": list(self.game.totals)}
        if self.finished:
            out["winner"] = self.game.winner
        return out


def load_record(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from None
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
    except (ValueError, OptionError) as exc:
        raise RecordError(str(exc)) from None


def replay(record: Mapping[str, Any]) -> ReplayResult:
    """Replay a record up to its end or its first illegal action."""
    try:
        game = new_game(record)
    except RecordError as exc:
        return ReplayResult(False, None, reason=str(exc))
    hands = record.get("hands")
    if not isinstance(hands, list):
        return ReplayResult(False, game, reason="the record has no list of hands")
    index = 0
    for number, hand in enumerate(hands, start=1):
        try:
            _start(game, hand, number)
        except RecordError as exc:
            return ReplayResult(False, game, reason=str(exc))
        actions = hand.get("actions", [])
        if not isinstance(actions, list):
            return ReplayResult(False, game, reason=f"hand {number}: actions must be a list")
        for text in actions:
            try:
                seat, action = parse_seat_action(str(text))
                apply_recorded(game, seat, action)
            except (ActionSyntaxError, IllegalAction) as exc:
                return ReplayResult(False, game, index=index, action=str(text), reason=str(exc))
            index += 1
        if number < len(hands) and not game.needs_deal:
            reason = f"hand {number} is not over but another hand follows"
            return ReplayResult(False, game, reason=reason)
    return ReplayResult(True, game, finished=game.over)


def apply_recorded(game: Game, seat: int, action: Action) -> None:
    """Apply one action of a record. A record may leave out the passes of a Rummy call
    window (those written before the window was a phase of its own list only the call
    that won): a call by a seat further down the call order, or the next player's draw,
    stands for passes by the seats asked before it (R5-10)."""
    for play in game.current().implied_passes(seat, action):
        game.apply(play.seat, play.action)
    game.apply(seat, action)


def _start(game: Game, hand: Any, number: int) -> None:
    if not isinstance(hand, dict):
        raise RecordError(f"hand {number} is not an object")
    if not game.needs_deal:
        raise RecordError(f"hand {number}: the game is over" if game.over else
                          f"hand {number}: the previous hand is not over")
    try:
        deck = parse_cards([str(c) for c in hand.get("deck", [])])
    except CardError as exc:
        raise RecordError(f"hand {number}: {exc}") from None
    dealer, first = hand.get("dealer"), hand.get("first")
    for name, value in (("dealer", dealer), ("first", first)):
        if value is not None and not isinstance(value, int):
            raise RecordError(f"hand {number}: {name} must be a seat number")
    try:
        game.start_deal(deck, dealer=dealer, first=first)
    except ValueError as exc:
        raise RecordError(f"hand {number}: {exc}") from None
