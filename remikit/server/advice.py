"""Hints at a web table whose setting ``hints`` is on: what a seat's own view allows now.

Each variant gives its hints through its ``advice`` part (an :class:`Advisor`, in its own
package), which reads one :class:`~remikit.views.PlayerView` of the seat (its own hand
and what everyone sees: the pile, the table melds, the log), never another hand, so the
advice cannot leak a hidden card. This module knows no variant: it finds the part in the
registry and shapes the answers.

:func:`state_advice` is what every state message of a seat carries (cheap: a few
milliseconds); :func:`best_arrangement` answers the ``advice`` request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from remikit.actions import Discard
from remikit.cards import Card
from remikit.i18n import N_
from remikit.melds import Meld
from remikit.server.problems import Problem
from remikit.server.serialize import cards_json
from remikit.variants import VariantSpec, find_playable
from remikit.views import PlayerView

if TYPE_CHECKING:
    from remikit.server.tables.service import Table


class StateAdvice(TypedDict):
    """The ``advice`` of a seat's state message (docs/protocol.md §4.3); a variant may add
    keys of its own (a subclass)."""

    can_close: bool
    close_card: str | None
    can_go_out: bool
    go_out_discard: str | None
    counter: dict[str, Any]
    warnings: list[dict[str, Any]]


class MeldJson(TypedDict):
    """A meld of an arrangement: its cards, what each joker stands for, its points."""

    kind: str
    cards: list[str]
    stands_for: list[str | None]
    points: int


class BestArrangement(TypedDict):
    """The answer to the ``advice`` request, less its envelope (docs/protocol.md §4.2); a
    variant may add keys of its own (a subclass)."""

    melds: list[MeldJson]
    plays: list[dict[str, Any]]
    dead: list[str]
    points: int
    discard: str | None
    close: str | None
    goes_out: bool


class Advisor(Protocol):
    """A variant's hints (its ``advice`` part), asked only for a seat that holds cards in a
    game still running, and reading nothing but that seat's view."""

    def state(self, view: PlayerView) -> StateAdvice:
        """What the seat's state message carries."""
        ...

    def best(self, view: PlayerView) -> BestArrangement:
        """The best arrangement of the seat's hand now (the terminal's ``m``)."""
        ...


def meld_json(meld: Meld) -> MeldJson:
    """A meld of an arrangement as JSON (:class:`MeldJson`)."""
    return {
        "kind": str(meld.kind),
        "cards": cards_json(meld.cards),
        "stands_for": [None if c is None else str(c) for c in meld.stands_for],
        "points": meld.points,
    }


def arrangement(
    melds: Sequence[Meld],
    dead: Sequence[Card],
    points: int,
    *,
    discard: Card | None = None,
    close: Card | None = None,
) -> BestArrangement:
    """An arrangement as the ``advice`` request answers it; it goes out where it closes."""
    return {
        "melds": [meld_json(m) for m in melds],
        "plays": [],
        "dead": cards_json(dead),
        "points": points,
        "discard": None if discard is None else str(discard),
        "close": None if close is None else str(close),
        "goes_out": close is not None,
    }


def discards(view: PlayerView) -> list[Card]:
    """The distinct cards of the hand the seat may discard now."""
    allowed = {a.card for a in view.legal_actions if isinstance(a, Discard)}
    return [c for c in dict.fromkeys(view.hand) if c in allowed]


_ADVISORS: dict[str, tuple[VariantSpec, Advisor | None]] = {}
"""Each variant's advisor, made once (by name, with the spec it was made for)."""


def advisor(view: PlayerView) -> Advisor | None:
    """The hints of the view's variant, or None for a variant that gives none."""
    spec = find_playable(view.variant)
    kept = _ADVISORS.get(spec.name)
    if kept is None or kept[0] is not spec:
        kept = _ADVISORS[spec.name] = (spec, spec.part("advice")() if spec.has("advice") else None)
    return kept[1]


def _in_play(view: PlayerView) -> bool:
    return view.seat is not None and bool(view.hand) and not view.game_over


def state_key(view: PlayerView) -> Hashable | None:
    """What the state advice of ``view`` reads, where the variant's advisor says so (its
    optional ``state_key(view)``): two views of a seat with equal keys get equal advice,
    so a table makes it again only when the key changes. None: no key (a variant without
    one, a view its advisor gives none for, or a seat the advice is None for)."""
    advise = advisor(view)
    key = getattr(advise, "state_key", None)
    if key is None or not _in_play(view):
        return None
    found: Hashable = key(view)
    return found


def state_advice(view: PlayerView) -> StateAdvice | None:
    """The advice of a seat's state message: ``can_close``, ``can_go_out``, the meld
    ``counter`` and the discard ``warnings``, and what the variant adds (None when the
    seat holds no cards or the variant gives no hints)."""
    advise = advisor(view)
    if advise is None or not _in_play(view):
        return None
    return advise.state(view)


def best_arrangement(view: PlayerView) -> BestArrangement | None:
    """The best arrangement of the seat's hand (the terminal's ``m``): ``melds`` (or the
    ``plays`` to make), ``dead`` cards, ``points`` and the ``discard`` or ``close`` it asks
    for, and what the variant adds; None when the seat holds no cards or the variant gives
    no hints."""
    advise = advisor(view)
    if advise is None or not _in_play(view):
        return None
    return advise.best(view)


async def advice_message(
    table: Table,
    seat: int | None,
    ref: Any,
    run: Callable[..., Awaitable[BestArrangement | None]],
) -> dict[str, Any]:
    """The answer to a seat's ``{"type": "advice"}``: its best arrangement now, worked out
    by ``run`` (in a worker process, or a thread: off the event loop); :class:`Problem`
    for a spectator, a table without hints, a variant that gives none, or a seat with no
    cards."""
    if seat is None:
        raise Problem("spectator", "server.spectator", status=403)
    if not table.settings.hints:
        raise Problem("hints_off", N_("server.hints_off"), status=403)
    state_id, view = table.state_id, table.view(seat)
    if advisor(view) is None:
        raise Problem("no_hints", N_("server.no_hints"), status=409)
    best = await run(best_arrangement, view)
    if best is None:
        raise Problem("no_advice", N_("server.no_advice"), status=409)
    return {"type": "advice", "ref": ref, "state_id": state_id, **best}
