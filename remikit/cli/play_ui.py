"""What ``remi play`` shows that differs between variants: one renderer per variant.

A renderer knows its variant's seat draw, direction of play, status line,
closing, arrangement hints, its own commands and score tables; the session
in :mod:`remikit.cli.play` does the rest. Rummy 500's renderer lives in
:mod:`remikit.cli.play_rummy500`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal, cast

from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from remikit.actions import Action, CallRummy, Close, Discard, Draw
from remikit.bots.greedy import kept_card
from remikit.cards import Card, Rank
from remikit.engine import Deal
from remikit.errors import IllegalAction
from remikit.i18n import t
from remikit.melds import AceMode, Meld
from remikit.scoring import remi13d, three_thirteen
from remikit.solver import Goal
from remikit.variants.remi13d import draw_seats
from remikit.views import DealSummary, PlayerView

from .table import (
    card_markup,
    cards_text,
    hand_table,
    meld_kind,
    meld_text,
    meld_tokens_text,
    positions,
    scores_table,
    sorted_hand,
)

if TYPE_CHECKING:
    from .play import Session

Step = tuple[Action, tuple[Card, ...]]
"""An action of a turn and the cards it took from the discard pile."""


def taken_by(action: Action, view: PlayerView) -> tuple[Card, ...]:
    """The cards ``action`` takes from the discard pile ``view`` shows (deepest first)."""
    if (isinstance(action, Draw) and action.source == "discard") or isinstance(action, CallRummy):
        return view.discard_pile[-action.depth:]
    return ()


class VariantUI(ABC):
    """The variant-specific part of the terminal table."""

    previous_on: Literal["left", "right"]
    can_close = False

    # -- seating -----------------------------------------------------------

    def seats(self, players: int) -> bool:
        """Whether the terminal table can seat ``players`` (the person and bots)."""
        return players == 4

    def seat_players(self, rng: random.Random, names: Sequence[str], lang: str
                     ) -> tuple[list[int], list[RenderableType]]:
        """Each player's seat (player 0 is the person) and what to show about it."""
        return list(range(len(names))), []

    def seating(self, session: Session) -> str:
        """Where everyone sits, and whose discard the person may take."""
        lang = session.lang
        seats = {session.where[s]: s for s in session.where}
        previous = (session.person - 1) % session.game.players
        return t(f"play.seating_{self.previous_on}", lang,
                 left=escape(session.names[seats["left"]]),
                 top=escape(session.names[seats["top"]]),
                 right=escape(session.names[seats["right"]]),
                 previous=session.who(previous))

    # -- during a deal -------------------------------------------------------

    @abstractmethod
    def deal_title(self, session: Session, deal: Deal) -> str: ...

    def deal_intro(self, session: Session, deal: Deal) -> str:
        return t("play.deal_intro", session.lang, dealer=session.who(deal.dealer),
                 first=session.who(deal.first))

    @abstractmethod
    def status(self, session: Session, view: PlayerView) -> list[RenderableType]: ...

    def prompt(self, session: Session, view: PlayerView) -> str:
        lang = session.lang
        if view.phase == "draw":
            top = view.top_discard
            if top is None or Draw("discard") not in view.legal_actions:
                return t("play.prompt_draw_stock", lang)
            return t("play.prompt_draw", lang, card=card_markup(top))
        return t("play.prompt_discard_close" if self.can_close else "play.prompt_discard", lang)

    def narrate(self, session: Session, seat: int, steps: Sequence[Step], deal: Deal) -> str:
        """One sentence for a bot's turn: ``Left (Budi) drew from the stock and discarded 7♥.``"""
        lang = session.lang
        parts = [self.narrate_step(session, action, taken) for action, taken in steps]
        sentence = t("play.narrate", lang, who=session.who(seat), did=join_parts(parts, lang))
        note = self.turn_note(session, seat, deal)
        return f"{sentence} {note}" if note else sentence

    def narrate_step(self, session: Session, action: Action, taken: Sequence[Card]) -> str:
        """What one action of a bot's turn did, as part of a sentence."""
        lang = session.lang
        if isinstance(action, Draw):
            if action.source == "stock":
                return t("play.did_draw_stock", lang)
            card = card_markup(taken[-1]) if taken else "?"
            return t("play.did_take", lang, card=card)
        if isinstance(action, Discard):
            return t("play.did_discard", lang, card=card_markup(action.card))
        if isinstance(action, Close):
            return t("play.did_close", lang, card=card_markup(action.card))
        return escape(str(action))

    def pile_line(self, session: Session, view: PlayerView) -> RenderableType:
        """What the person sees at the pause after another player's discard."""
        return ""

    def parse_action(self, verb: str, args: Sequence[str], view: PlayerView, lang: str
                     ) -> Action | None:
        """An action in the variant's own commands, or None to read the common ones.
        Raises ValueError (or ActionSyntaxError) with a reason for a malformed one."""
        return None

    def seat_columns(self, session: Session, view: PlayerView
                     ) -> list[tuple[str, dict[int, str]]]:
        """Extra columns of the seats table: a title and a text per seat."""
        return []

    def discard_warning(self, session: Session, view: PlayerView, card: Card) -> str | None:
        """A question to ask before the person discards ``card`` (``--warn-playable``)."""
        return None

    def after_person_action(self, session: Session, action: Action, before: PlayerView,
                            deal: Deal) -> tuple[Card, ...]:
        """Tell the person what their action did; the cards it brought into the hand."""
        lang = session.lang
        if isinstance(action, Draw):
            view = session.game.view(session.person)
            if action.source == "stock":
                drawn = deal.hands[session.person][-1]
                session.say(t("play.you_drew", lang, card=card_markup(drawn)))
            else:
                assert before.top_discard is not None
                drawn = before.top_discard
                session.say(t("play.you_took", lang, card=card_markup(drawn)))
            session.say(hand_table(sorted_hand(view.hand), new=drawn, wild=self.wild(view)))
            return (drawn,)
        if isinstance(action, Discard):
            note = self.turn_note(session, session.person, deal)
            session.say(t("play.you_discarded", lang, card=card_markup(action.card))
                        + (f" {note}" if note else ""))
        elif isinstance(action, Close):
            session.say(t("play.you_closed", lang, card=card_markup(action.card)))
        return ()

    def wild(self, view: PlayerView) -> Rank | None:
        """The wild rank to mark in the hand, if the variant has one."""
        return None

    def turn_note(self, session: Session, seat: int, deal: Deal) -> str:
        """Anything worth saying after ``seat``'s turn (going out)."""
        return ""

    def best_close(self, session: Session, view: PlayerView) -> Action | None:
        """The close ``t`` alone means, or None after saying why there is none."""
        session.say(f"[red]{t('play.no_closing', session.lang)}[/red]")
        return None

    @abstractmethod
    def melds(self, session: Session, view: PlayerView) -> list[RenderableType]:
        """The best arrangement of the person's hand now (the ``m`` command)."""

    def help_entries(self) -> list[tuple[str, str]]:
        entries = [
            ("s, stock", "play.cmd_stock"),
            ("d, take", "play.cmd_take"),
            ("b 7h, b 3", "play.cmd_discard"),
        ]
        if self.can_close:
            entries += [("t Ah, t", "play.cmd_close")]
        entries += [
            ("m", "play.cmd_melds"),
            ("discard 7h", "play.cmd_record"),
            ("Enter", "play.cmd_show"),
            ("h", "play.cmd_help"),
            ("q", "play.cmd_quit"),
        ]
        return entries

    # -- scores ---------------------------------------------------------------

    @abstractmethod
    def deal_result(self, session: Session, deal: Deal) -> list[RenderableType]: ...

    @abstractmethod
    def game_result(self, session: Session) -> list[RenderableType]: ...

    def player_cell(self, session: Session, seat: int, sep: str = "\n") -> str:
        """``Left`` and the name for a bot; the name alone for the person."""
        if seat == session.person:
            return escape(session.names[seat])
        return f"{session.position(seat)}{sep}{escape(session.names[seat])}"

    def summaries(self, session: Session) -> list[DealSummary]:
        return [d.summary for d in session.game.deals if d.summary is not None]

    def scores_by_deal(self, session: Session, deal_key: str, title: str
                       ) -> list[RenderableType]:
        """The game's scores: a row per seat, a column per deal (headed by ``deal_key``
        with its number), the totals; then the winner."""
        lang = session.lang
        summaries = self.summaries(session)
        columns = [t("play.col_player", lang)]
        columns += [t(deal_key, lang, number=s.number) for s in summaries]
        columns.append(t("play.col_total", lang))
        rows = [[self.player_cell(session, seat, " · "), *(s.points[seat] for s in summaries),
                 session.game.totals[seat]] for seat in session.seat_order()]
        return [scores_table(title, columns, rows), self.winner_line(session)]

    winner_key = "play.winner"

    def winner_line(self, session: Session) -> str:
        lang = session.lang
        winner = session.game.winner
        if winner is None:
            return t(f"{self.winner_key}_none", lang)
        who = t("play.you_win_who", lang) if winner == session.person else session.who(winner)
        return t(self.winner_key, lang, who=who, points=session.game.totals[winner])


def join_parts(parts: Sequence[str], lang: str) -> str:
    """``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return t("play.comma", lang).join(parts[:-1]) + t("play.and", lang) + parts[-1]


def arrangement_table(melds: Sequence[Meld], dead: Sequence[Card], lang: str, *,
                      points: bool, dead_points: int | None = None) -> Table:
    """Melds with their kind (and points), then the dead cards."""
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column()
    table.add_column(style="dim")
    if points:
        table.add_column(justify="right")
    for meld in melds:
        row: list[RenderableType] = [meld_text(meld), meld_kind(meld, lang)]
        if points:
            row.append(str(meld.points))
        table.add_row(*row)
    dead_row: list[RenderableType] = [cards_text(sorted_hand(dead), empty="—"),
                                      t("score.dead", lang)]
    if points:
        dead_row.append(str(dead_points if dead_points is not None else ""))
    table.add_row(*dead_row)
    return table


# -- Remi 13 D ------------------------------------------------------------------------


class Remi13DUI(VariantUI):
    """Remi 13 D: the seat draw, play to the right, closing (tutup)."""

    previous_on = "left"
    can_close = True

    def seat_players(self, rng: random.Random, names: Sequence[str], lang: str
                     ) -> tuple[list[int], list[RenderableType]]:
        drawn = draw_seats(rng, len(names))
        table = Table(title=t("play.seat_draw_title", lang))
        table.add_column(t("play.col_player", lang))
        table.add_column(t("play.col_drawn", lang))
        table.add_column(t("play.col_order", lang))
        for player in sorted(range(len(names)), key=lambda p: drawn.seats[p]):
            seat = drawn.seats[player]
            role = ""
            if seat == 0:
                role = " " + t("play.plays_first", lang)
            elif seat == len(names) - 1:
                role = " " + t("play.deals", lang)
            cards = " → ".join(card_markup(c) for c in drawn.draws[player])
            table.add_row(escape(names[player]), cards, f"{seat + 1}{role}")
        return list(drawn.seats), [table, f"[dim]{t('play.seat_draw_rule', lang)}[/dim]"]

    def deal_title(self, session: Session, deal: Deal) -> str:
        games = cast(int, session.game.options.as_dict()["games"])
        return t("play.game_title", session.lang, number=deal.number, games=games)

    def status(self, session: Session, view: PlayerView) -> list[RenderableType]:
        lang = session.lang
        top = view.top_discard
        if top is None:
            discard = t("play.no_discard_yet", lang)
        else:
            previous = (view.to_play - 1) % view.players if view.to_play is not None else 0
            discard = t("play.discard_from", lang, who=session.who(previous),
                        card=card_markup(top))
        return [t("play.stock_line", lang, stock=view.stock_size, discard=discard)]

    def best_close(self, session: Session, view: PlayerView) -> Action | None:
        lang = session.lang
        closes = [a for a in view.legal_actions if isinstance(a, Close)]
        if closes:
            best = remi13d.best_close(view.hand)
            if best is not None and best.closing is not None and Close(best.closing) in closes:
                return Close(best.closing)
            return closes[0]
        if view.phase != "discard":
            session.say(f"[red]{escape(IllegalAction('draw_first').text(lang))}[/red]")
            return None
        candidates = remi13d.closing_candidates(view.hand)
        if not candidates:
            session.say(f"[red]{t('play.no_closing_card', lang)}[/red]")
            return None
        try:
            session.game.verify(session.person, Close(candidates[0]))
        except IllegalAction as exc:
            session.say(f"[red]{escape(exc.text(lang))}[/red]")
        return None

    def melds(self, session: Session, view: PlayerView) -> list[RenderableType]:
        lang = session.lang
        hand = list(view.hand)
        solver = remi13d.SOLVER
        if len(hand) > remi13d.HAND_SIZE:
            best = remi13d.best_close(hand)
            if best is not None and best.closing is not None:
                title = t("play.can_close", lang, card=card_markup(best.closing),
                          points=best.points, bonus=best.bonus)
                return [title, arrangement_table(best.melds, (), lang, points=True,
                                                 dead_points=0)]
            keep = kept_card(view)
            found = solver.solve(hand, goal=Goal(discard=True, need_pure=True, keep=keep))
            if found is not None and found.discard is not None:
                title = t("play.best_discard", lang, card=card_markup(found.discard),
                          points=found.value)
                return [title, arrangement_table(found.melds, found.dead, lang, points=True,
                                                 dead_points=remi13d.dead_points(found.dead))]
            relaxed = solver.solve(hand, goal=Goal(discard=True, keep=keep))
            assert relaxed is not None
            rest = list(hand)
            if relaxed.discard is not None:
                rest.remove(relaxed.discard)
            if not relaxed.melds:
                return [t("play.no_melds", lang, points=remi13d.dead_points(rest))]
            title = t("play.no_pure_discard", lang,
                      card=card_markup(relaxed.discard) if relaxed.discard else "?",
                      points=remi13d.dead_points(rest))
            return [title, arrangement_table(relaxed.melds, relaxed.dead, lang, points=False)]
        score = remi13d.hand_score(hand)
        if score.melds:
            title = t("play.hand_now", lang, points=score.points)
            return [title, arrangement_table(score.melds, score.dead, lang, points=True,
                                             dead_points=remi13d.dead_points(score.dead))]
        relaxed = solver.solve(hand)
        assert relaxed is not None
        if not relaxed.melds:
            return [t("play.no_melds", lang, points=score.points)]
        title = t("play.no_pure_now", lang, points=score.points)
        return [title, arrangement_table(relaxed.melds, relaxed.dead, lang, points=False)]

    def deal_result(self, session: Session, deal: Deal) -> list[RenderableType]:
        lang = session.lang
        summary = deal.summary
        assert summary is not None
        if summary.ended_by == "close" and summary.by_seat is not None:
            closer = summary.results[summary.by_seat]
            assert closer.closing is not None
            head = t("play.closed_by", lang, who=session.who(summary.by_seat),
                     card=card_markup(closer.closing), bonus=closer.bonus)
        else:
            head = t("play.stock_out", lang)
        table = Table(title=t("play.game_scores", lang, number=deal.number), show_lines=True)
        table.add_column(t("play.col_player", lang))
        table.add_column(t("score.melds", lang))
        table.add_column(t("score.dead", lang))
        table.add_column(t("play.col_closing", lang))
        table.add_column(t("score.points", lang), justify="right")
        table.add_column(t("play.col_total", lang), justify="right")
        for seat in session.seat_order():
            result = summary.results[seat]
            dead = cards_text(sorted_hand(result.dead), empty="—")
            if result.dead:
                dead.append(f"  ({remi13d.dead_points(result.dead)})", style="dim")
            closing: RenderableType = "—"
            if result.closing is not None:
                closing = Text.from_markup(f"{card_markup(result.closing)} +{result.bonus}")
            table.add_row(self.player_cell(session, seat),
                          meld_tokens_text(result.melds, empty="—"), dead, closing,
                          str(result.points), str(session.game.totals[seat]),
                          style="bold" if seat == session.person else "")
        return [head, table]

    def game_result(self, session: Session) -> list[RenderableType]:
        return self.scores_by_deal(session, "play.col_game", t("play.match_scores", session.lang))


# -- Three-Thirteen -------------------------------------------------------------------


class ThreeThirteenUI(VariantUI):
    """Three-Thirteen: clockwise play, the round and wild rank, going out."""

    previous_on = "right"
    winner_key = "play.winner_deadwood"

    def __init__(self) -> None:
        self.announced_out: set[int] = set()

    @staticmethod
    def table_info(session: Session, number: int) -> tuple[int, AceMode, Rank]:
        ace = cast(AceMode, session.game.options.as_dict().get("ace", "low"))
        return number, ace, three_thirteen.wild_rank(number)

    def deal_title(self, session: Session, deal: Deal) -> str:
        _, _, wild = self.table_info(session, deal.number)
        return t("play.round_title", session.lang, number=deal.number,
                 rounds=three_thirteen.ROUNDS, size=three_thirteen.hand_size(deal.number),
                 wild=wild.label)

    def status(self, session: Session, view: PlayerView) -> list[RenderableType]:
        lang = session.lang
        top = view.top_discard
        discard = card_markup(top) if top is not None else "—"
        lines: list[RenderableType] = [
            t("play.round_line", lang, number=view.deal_number, rounds=three_thirteen.ROUNDS,
              wild=view.wild_rank or "?", stock=view.stock_size, discard=discard,
              jokers=t("play.and_jokers", lang) if view.options.get("jokers") else "")
        ]
        if view.went_out is not None:
            lines.append(t("play.last_turn", lang, who=session.who(view.went_out)))
            if view.shown_melds:
                shown = Text(" · ").join(meld_tokens_text([m]) for m in view.shown_melds)
                lines.append(Text(t("play.shown_melds", lang) + " ").append_text(shown))
        return lines

    def wild(self, view: PlayerView) -> Rank | None:
        return three_thirteen.wild_rank(view.deal_number)

    def turn_note(self, session: Session, seat: int, deal: Deal) -> str:
        out = getattr(deal, "went_out", None)
        if out == seat and deal.number not in self.announced_out:
            self.announced_out.add(deal.number)
            return t("play.went_out", session.lang)
        return ""

    def melds(self, session: Session, view: PlayerView) -> list[RenderableType]:
        lang = session.lang
        number, ace, _ = self.table_info(session, view.deal_number)
        hand = list(view.hand)
        if view.phase == "discard":
            found = three_thirteen.deadwood(hand, round_no=number, ace=ace, discard=True,
                                            keep=kept_card(view))
            card = card_markup(found.discard) if found.discard is not None else "?"
            key = "play.t13_goes_out" if found.points == 0 else "play.t13_best_discard"
            title = t(key, lang, card=card, points=found.points)
        else:
            found = three_thirteen.deadwood(hand, round_no=number, ace=ace)
            title = t("play.t13_hand_now", lang, points=found.points)
        return [title, arrangement_table(found.melds, found.dead, lang, points=False)]

    def deal_result(self, session: Session, deal: Deal) -> list[RenderableType]:
        lang = session.lang
        summary = deal.summary
        assert summary is not None
        if summary.by_seat is not None:
            head = t("play.round_out", lang, number=deal.number, who=session.who(summary.by_seat))
        else:
            head = t("play.round_over", lang, number=deal.number)
        table = Table(title=t("play.round_scores", lang, number=deal.number), show_lines=True)
        table.add_column(t("play.col_player", lang))
        table.add_column(t("score.melds", lang))
        table.add_column(t("score.dead", lang))
        table.add_column(t("play.col_deadwood", lang), justify="right")
        table.add_column(t("play.col_total", lang), justify="right")
        for seat in session.seat_order():
            result = summary.results[seat]
            table.add_row(self.player_cell(session, seat),
                          meld_tokens_text(result.melds, empty="—"),
                          cards_text(sorted_hand(result.dead), empty="—"), str(result.points),
                          str(session.game.totals[seat]),
                          style="bold" if seat == session.person else "")
        return [head, table]

    def game_result(self, session: Session) -> list[RenderableType]:
        lang = session.lang
        order = session.seat_order()
        columns = [t("play.col_round", lang)]
        columns += [self.player_cell(session, s, " · ") for s in order]
        rows = []
        for summary in self.summaries(session):
            wild = three_thirteen.wild_rank(summary.number).label
            rows.append([f"{summary.number} ({wild})", *(summary.points[s] for s in order)])
        total = [t("play.col_total", lang), *(session.game.totals[s] for s in order)]
        table = scores_table(t("play.round_table", lang), columns, rows, total_row=total)
        return [table, self.winner_line(session)]


def _rummy500() -> VariantUI:
    from .play_rummy500 import Rummy500UI  # it builds on this module

    return Rummy500UI()


UIS: dict[str, Callable[[], VariantUI]] = {"remi13d": Remi13DUI,
                                           "three-thirteen": ThreeThirteenUI,
                                           "rummy500": _rummy500}


def ui_for(variant: str) -> VariantUI | None:
    """A fresh renderer for the variant's canonical name, or None when there is none."""
    make = UIS.get(variant)
    return make() if make is not None else None


def positions_for(ui: VariantUI, person: int, players: int) -> dict[int, str]:
    return positions(person, players, previous_on=ui.previous_on)
