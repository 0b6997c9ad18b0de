"""Tujuh at the terminal table (``remi play tujuh``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.table import Table

from remikit.actions import Action, Play
from remikit.cards import Card
from remikit.cli.tui.table import (
    card_markup,
    cards_text,
    meld_tokens_text,
    scores_table,
    sorted_hand,
)
from remikit.cli.tui.ui import VariantUI, arrangement_table
from remikit.i18n import t
from remikit.solver import Goal
from remikit.views import DealSummary, PlayerView
from tests.toy.rules import Show, solver

if TYPE_CHECKING:
    from remikit.cli.tui.session import Session


class TujuhUI(VariantUI):
    """Tujuh: clockwise play, a show ends the deal."""

    previous_on = "right"

    def seats(self, players: int) -> bool:
        return 2 <= players <= 4  # T-1

    def deal_title(self, session: Session, view: PlayerView) -> str:
        deals = session.game.options.as_dict()["deals"]
        return t("tujuh.deal_title", session.lang, number=view.deal_number, deals=deals)

    def status(self, session: Session, view: PlayerView) -> list[RenderableType]:
        top = view.top_discard
        return [
            t(
                "tujuh.status",
                session.lang,
                stock=view.stock_size,
                discard=card_markup(top) if top is not None else "—",
            )
        ]

    def after_person_action(
        self, session: Session, action: Action, before: PlayerView, ended: DealSummary | None
    ) -> tuple[Card, ...]:
        if isinstance(action, Show):
            session.say(t("tujuh.you_showed", session.lang, card=card_markup(action.card)))
            return ()
        return super().after_person_action(session, action, before, ended)

    def help_entries(self) -> list[tuple[str, str]]:
        return [("show 7h", "tujuh.cmd_show"), *super().help_entries()]

    def melds(self, session: Session, view: PlayerView) -> list[RenderableType]:
        discard = len(view.hand) > 7
        found = solver().solve(list(view.hand), goal=Goal(discard=discard, keep=view.kept_card))
        assert found is not None
        title = t("tujuh.deadwood", session.lang, points=-found.value)
        return [title, arrangement_table(found.melds, found.dead, session.lang, points=False)]

    def deal_result(
        self, session: Session, summary: DealSummary, log: Sequence[Play]
    ) -> list[RenderableType]:
        lang = session.lang
        table = Table(title=t("tujuh.deal_title", lang, number=summary.number, deals="·"))
        for key in ("play.col_player", "score.melds", "score.dead", "play.col_total"):
            table.add_column(t(key, lang))
        for seat in session.seat_order():
            result = summary.results[seat]
            table.add_row(
                self.player_cell(session, seat),
                meld_tokens_text(result.melds, empty="—"),
                cards_text(sorted_hand(result.dead), empty="—"),
                str(result.points),
            )
        return [table]

    def game_result(self, session: Session) -> list[RenderableType]:
        order = session.seat_order()
        columns = ["#", *(self.player_cell(session, s, " · ") for s in order)]
        rows = [[s.number, *(s.points[i] for i in order)] for s in self.summaries(session)]
        total = [t("play.col_total", session.lang), *(session.game.totals[s] for s in order)]
        return [scores_table("Tujuh", columns, rows, total_row=total), self.winner_line(session)]
