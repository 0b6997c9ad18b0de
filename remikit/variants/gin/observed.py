"""A seat's view of an OpenSpiel ``gin_rummy`` hand, from that seat's observations only.

:class:`ObservedSeat` is told each observation of its seat as OpenSpiel gives it
(``state.to_observation_struct(seat).to_dict()``: its own hand, the other hand's
size, the upcard, the discard pile, the stock's size, the melds and lay-offs laid,
the phase) and the seat's own actions. From the changes between one observation
and the next it works out the other seat's actions, which are public (a draw from
the stock or of the upcard, a discard, a knock, a meld, a lay-off, a pass), and
keeps the public log of the hand. :meth:`ObservedSeat.view` is then the
:class:`~remikit.views.PlayerView` remikit's engine would give that seat: a bot
playing from it sees nothing an OpenSpiel player in that seat does not.

OpenSpiel player 0 plays first (remikit's first hand, dealt by seat 1, G-1);
its phases map to remikit's (``FirstUpcard`` is ``offer``, then ``draw`` once
both passed; ``Knock`` is ``lay_down``; ``Layoff`` is ``lay_off`` until the
defender passes, or after gin, then ``defend``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from remikit.actions import Action, Discard, Draw, LayOff, MeldCards, Pass, Play
from remikit.bots.strong.determinize import determinize, table_game
from remikit.cards import Card
from remikit.deal import DealPhase, Phase
from remikit.variants.gin import melds
from remikit.variants.gin.actions import Knock
from remikit.variants.gin.options import GinOptions
from remikit.variants.gin.state import GinPhase, GinViewPart
from remikit.views import PlayerView, TableMeld

PHASES: dict[str, DealPhase] = {
    "FirstUpcard": GinPhase.OFFER,
    "Draw": Phase.DRAW,
    "Discard": Phase.DISCARD,
    "Knock": GinPhase.LAY_DOWN,
    "Layoff": GinPhase.LAY_OFF,
    "Wall": GinPhase.WALL,
    "GameOver": Phase.OVER,
}
"""OpenSpiel's phases by name, as remikit's (``Layoff`` and ``FirstUpcard`` refined)."""


def _card(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


def _cards(texts: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in texts)


@dataclass(frozen=True)
class Observation:
    """One observation of a seat (OpenSpiel's observation struct, read)."""

    to_play: int | None
    phase: str
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, int]
    upcard: Card | None
    discard_pile: tuple[Card, ...]
    stock_size: int
    knock_limit: int
    knocked: tuple[bool, bool]
    laid: tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]]
    layoffs: tuple[Card, ...]
    finished_layoffs: bool
    offer_passes: int

    @classmethod
    def read(cls, struct: Mapping[str, Any], seat: int) -> Observation:
        """The observation ``struct`` (``to_dict()`` of OpenSpiel's struct) of ``seat``."""
        if struct["observing_player"] != seat:
            raise ValueError(f"this observation is player {struct['observing_player']}'s")
        player = str(struct["current_player"])
        to_play = int(player.rsplit("_", 1)[1]) if player.startswith("Player_") else None
        hands = struct["hands"]
        laid = struct["layed_melds"]
        return cls(
            to_play=to_play,
            phase=str(struct["phase"]),
            hand=_cards(hands[seat]),
            hand_sizes=(len(hands[0]), len(hands[1])),
            upcard=_card(struct["upcard"]),
            discard_pile=_cards(struct["discard_pile"]),
            stock_size=int(struct["stock_size"]),
            knock_limit=int(struct["knock_card"]),
            knocked=(bool(struct["knocked"][0]), bool(struct["knocked"][1])),
            laid=(tuple(_cards(m) for m in laid[0]), tuple(_cards(m) for m in laid[1])),
            layoffs=_cards(struct["layoffs"]),
            finished_layoffs=bool(struct["finished_layoffs"]),
            offer_passes=sum(bool(p) for p in struct["pass_on_first_upcard"]),
        )

    @property
    def pile(self) -> tuple[Card, ...]:
        """The discard pile as remikit keeps it: the upcard on top."""
        return self.discard_pile + ((self.upcard,) if self.upcard is not None else ())

    @property
    def knocker(self) -> int | None:
        return next((s for s in (0, 1) if self.knocked[s]), None)


class ObservedSeat:
    """What one seat has observed of a hand, and its view (module docstring)."""

    def __init__(self, seat: int, options: GinOptions | None = None) -> None:
        self.seat = seat
        self.options = options if options is not None else GinOptions()
        self.log: list[Play] = []
        self.taken: list[tuple[int, Card]] = []
        self.last: Observation | None = None
        self.knocking: int | None = None  # the seat between OpenSpiel's knock and its discard

    def observe(self, struct: Mapping[str, Any]) -> None:
        """Take the seat's observation now (one at each decision, either seat's)."""
        now = Observation.read(struct, self.seat)
        before = self.last
        self.last = now
        if before is not None and before.to_play not in (None, self.seat):
            self.infer(before.to_play, before, now)

    def played(self, action: Action) -> None:
        """The seat's own action (as remikit's, before OpenSpiel applies its numbers)."""
        seat = self.seat
        assert self.last is not None
        if (isinstance(action, Draw) and action.source == "discard") or (
            isinstance(action, Knock) and self.last.phase == "Wall"
        ):
            assert self.last.upcard is not None
            self.taken.append((seat, self.last.upcard))
        self.log.append(Play(seat, action))

    def infer(self, seat: int, before: Observation, now: Observation) -> None:
        """The other seat's action between two observations, into the log."""
        action = self.action_between(seat, before, now)
        if action is not None:
            self.log.append(Play(seat, action))

    def action_between(self, seat: int, before: Observation, now: Observation) -> Action | None:
        phase = before.phase
        if phase in ("FirstUpcard", "Draw"):
            if (before.offer_passes == 2 and phase == "FirstUpcard") or (
                phase == "Draw" and now.stock_size < before.stock_size
            ):
                return Draw("stock")
            if now.upcard is None and before.upcard is not None:
                self.taken.append((seat, before.upcard))
                return Draw("discard")
            return Pass()
        if phase in ("Discard", "Wall") and now.phase == "Knock" and now.knocked[seat]:
            if phase == "Wall" and before.upcard is not None:
                self.taken.append((seat, before.upcard))
            self.knocking = seat
            return None
        if phase == "Discard":
            return Discard(now.upcard) if now.upcard is not None else None
        if phase == "Knock" and self.knocking == seat:
            self.knocking = None
            return Knock(now.discard_pile[-1])
        if phase in ("Knock", "Layoff") and len(now.laid[seat]) > len(before.laid[seat]):
            return MeldCards(now.laid[seat][-1], (None,) * len(now.laid[seat][-1]))
        if phase == "Layoff" and len(now.layoffs) > len(before.layoffs):
            card = now.layoffs[-1]
            fits = [n for n, m in self.table_melds() if card in melds.layoff_cards(m.cards)]
            return LayOff(card, fits[0]) if fits else None
        return Pass()

    def table_melds(self) -> list[tuple[int, TableMeld]]:
        """The table as the log laid it: melds by number, lay-offs on them."""
        cards: list[list[Card]] = []
        laid_by: list[list[int]] = []
        for play in self.log:
            if isinstance(play.action, MeldCards):
                cards.append(list(play.action.cards))
                laid_by.append([play.seat] * len(play.action.cards))
            elif isinstance(play.action, LayOff):
                cards[play.action.meld - 1].append(play.action.card)
                laid_by[play.action.meld - 1].append(play.seat)
        out = []
        for n, (meld, by) in enumerate(zip(cards, laid_by, strict=True), 1):
            order = sorted(range(len(meld)), key=lambda i: (int(meld[i].rank), -meld[i].suit))
            shown = tuple(meld[i] for i in order)
            out.append((n, TableMeld(n, shown, (None,) * len(shown), tuple(by[i] for i in order))))
        return out

    def phase(self, now: Observation) -> DealPhase:
        if now.phase == "FirstUpcard" and now.offer_passes == 2:
            return Phase.DRAW
        if now.phase == "Layoff":
            knocker = now.knocker
            gin = knocker is not None and now.hand_sizes[knocker] == 0
            defended = any(
                isinstance(p.action, Pass) and p.seat != knocker
                for p in self.log[self._knock_index() :]
            )
            return GinPhase.DEFEND if gin or defended or now.finished_layoffs else GinPhase.LAY_OFF
        return PHASES[now.phase]

    def _knock_index(self) -> int:
        return next((i for i, p in enumerate(self.log) if isinstance(p.action, Knock)), 0)

    def view(self) -> PlayerView:
        """The seat's view now, with its legal actions when it is to play."""
        now = self.last
        if now is None:
            raise ValueError("nothing observed yet")
        view = PlayerView(
            variant="gin",
            seat=self.seat,
            players=2,
            options=self.options,
            deal_number=1,
            dealer=1,
            to_play=now.to_play,
            phase=self.phase(now),
            hand=now.hand,
            hand_sizes=now.hand_sizes,
            stock_size=now.stock_size,
            discard_pile=now.pile,
            log=tuple(self.log),
            totals=(0, 0),
            finished_deals=(),
            table=tuple(m for _, m in self.table_melds()),
            taken_from_discard=tuple(self.taken),
            extra=GinViewPart(knock_limit=now.knock_limit),
        )
        if now.to_play != self.seat:
            return view
        return _with_legal(view)


def _with_legal(view: PlayerView) -> PlayerView:
    """``view`` with its seat's legal actions, as the engine finds them in a position with
    the view's public facts (the hidden cards placed anyhow: they change nothing)."""
    world = determinize(view, random.Random(0))
    deal = table_game(view).resume_deal(view, hands=world.hands, stock=world.stock)
    assert view.seat is not None
    legal = tuple(deal.legal_actions(view.seat))
    return PlayerView(**{**view.__dict__, "legal_actions": legal})
