"""The Remi 13 D renderer of ``remi play``: the seat draw, closing, the match table."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from remikit.actions import Action, Play
from remikit.cards import Card
from remikit.cli.tui.commands import CLOSE_WORDS, parse_card_arg
from remikit.cli.tui.table import (
    card_markup,
    cards_text,
    meld_tokens_text,
    sorted_hand,
)
from remikit.cli.tui.ui import VariantUI, arrangement_table
from remikit.errors import IllegalAction
from remikit.i18n import N_, t
from remikit.variants.remi13d import scoring as remi13d
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.hints import arrange
from remikit.variants.remi13d.rules import pure_rule_of
from remikit.variants.remi13d.seating import draw_seats
from remikit.views import DealSummary, PlayerView

if TYPE_CHECKING:
    from remikit.cli.tui.session import Session


class Remi13DUI(VariantUI):
    """Remi 13 D: the seat draw, play to the right, closing (tutup)."""

    previous_on = "left"
    can_close = True

    def seat_players(
        self, rng: random.Random, names: Sequence[str], lang: str
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
        return list(drawn.seats), [table, "[dim]" + t("play.seat_draw_rule", lang) + "[/dim]"]

    def deal_title(self, session: Session, view: PlayerView) -> str:
        games = cast(int, session.game.options.as_dict()["games"])
        return t("play.game_title", session.lang, number=view.deal_number, games=games)

    def status(self, session: Session, view: PlayerView) -> list[RenderableType]:
        lang = session.lang
        top = view.top_discard
        if top is None:
            discard = t("play.no_discard_yet", lang)
        else:
            previous = (view.to_play - 1) % view.players if view.to_play is not None else 0
            discard = t("play.discard_from", lang, who=session.who(previous), card=card_markup(top))
        return [t("play.stock_line", lang, stock=view.stock_size, discard=discard)]

    def parse_action(
        self, verb: str, args: Sequence[str], view: PlayerView, lang: str
    ) -> Action | None:
        if verb in CLOSE_WORDS and len(args) == 1:  # ``t`` alone: the best close
            return Close(parse_card_arg(args[0], sorted_hand(view.hand), lang))
        return None

    def narrate_step(self, session: Session, action: Action, taken: Sequence[Card]) -> str:
        if isinstance(action, Close):
            return t("play.did_close", session.lang, card=card_markup(action.card))
        return super().narrate_step(session, action, taken)

    def after_person_action(
        self, session: Session, action: Action, before: PlayerView, ended: DealSummary | None
    ) -> tuple[Card, ...]:
        if isinstance(action, Close):
            session.say(t("play.you_closed", session.lang, card=card_markup(action.card)))
            return ()
        return super().after_person_action(session, action, before, ended)

    def best_close(self, session: Session, view: PlayerView) -> Action | None:
        lang = session.lang
        closes = [a for a in view.legal_actions if isinstance(a, Close)]
        if closes:
            best = remi13d.best_close(view.hand, pure_run=pure_rule_of(view))
            if best is not None and best.closing is not None and Close(best.closing) in closes:
                return Close(best.closing)
            return closes[0]
        if view.phase != "discard":
            session.say("[red]" + escape(IllegalAction("draw_first").text(lang)) + "[/red]")
            return None
        candidates = remi13d.closing_candidates(view.hand)
        if not candidates:
            session.say("[red]" + t("play.no_closing_card", lang) + "[/red]")
            return None
        try:
            session.game.verify(session.person, Close(candidates[0]))
        except IllegalAction as exc:
            session.say(f"[red]{escape(exc.text(lang))}[/red]")
        return None

    def melds(self, session: Session, view: PlayerView) -> list[RenderableType]:
        lang = session.lang
        fourteen = len(view.hand) > remi13d.HAND_SIZE
        best = arrange(view.hand, pure_run=pure_rule_of(view), keep=view.kept_card)
        card = card_markup(best.discard) if best.discard is not None else "?"
        if best.close is not None:
            bonus = remi13d.closing_bonus(best.close)
            closing = card_markup(best.close)
            title = t("play.can_close", lang, card=closing, points=best.points, bonus=bonus)
            return [title, arrangement_table(best.melds, (), lang, points=True, dead_points=0)]
        if not best.melds:
            return [t("play.no_melds", lang, points=best.points)]
        if not best.pure:
            if fourteen:
                title = t("play.no_pure_discard", lang, card=card, points=best.points)
            else:
                title = t("play.no_pure_now", lang, points=best.points)
            return [title, arrangement_table(best.melds, best.dead, lang, points=False)]
        if fourteen:
            title = t("play.best_discard", lang, card=card, points=best.points)
        else:
            title = t("play.hand_now", lang, points=best.points)
        dead_points = remi13d.dead_points(best.dead)
        table = arrangement_table(best.melds, best.dead, lang, points=True, dead_points=dead_points)
        return [title, table]

    def deal_result(
        self, session: Session, summary: DealSummary, log: Sequence[Play]
    ) -> list[RenderableType]:
        lang = session.lang
        if summary.ended_by == "close" and summary.by_seat is not None:
            closer = summary.results[summary.by_seat]
            assert closer.closing is not None
            head = t(
                "play.closed_by",
                lang,
                who=session.who(summary.by_seat),
                card=card_markup(closer.closing),
                bonus=closer.bonus,
            )
        else:
            head = t("play.stock_out", lang)
        table = Table(title=t("play.game_scores", lang, number=summary.number), show_lines=True)
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
            table.add_row(
                self.player_cell(session, seat),
                meld_tokens_text(result.melds, empty="—"),
                dead,
                closing,
                str(result.points),
                str(session.game.totals[seat]),
                style="bold" if seat == session.person else "",
            )
        return [head, table]

    def game_result(self, session: Session) -> list[RenderableType]:
        return self.scores_by_deal(
            session, N_("play.col_game"), t("play.match_scores", session.lang)
        )


# -- Three-Thirteen -------------------------------------------------------------------
