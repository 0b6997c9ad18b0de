"""The Three-Thirteen renderer of ``remi play``: wild ranks, going out, the round table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from remikit.actions import Play
from remikit.cards import Rank
from remikit.cli.tui.table import (
    card_markup,
    cards_text,
    meld_tokens_text,
    scores_table,
    sorted_hand,
)
from remikit.cli.tui.ui import VariantUI, arrangement_table
from remikit.i18n import N_, t
from remikit.melds import AceMode
from remikit.variants.three_thirteen import scoring as three_thirteen
from remikit.variants.three_thirteen.rules import options_of
from remikit.variants.three_thirteen.state import ThreeThirteenViewPart
from remikit.views import DealSummary, PlayerView

if TYPE_CHECKING:
    from remikit.cli.tui.session import Session


class ThreeThirteenUI(VariantUI):
    """Three-Thirteen: clockwise play, the round and wild rank, going out."""

    previous_on = "right"
    winner_key = N_("play.winner_deadwood")
    no_winner_key = N_("play.winner_deadwood_none")

    def __init__(self) -> None:
        self.announced_out: set[int] = set()

    def help_entries(self) -> list[tuple[str, str]]:
        """The commands, the discard saying that it goes out at deadwood 0 (R3-6)."""
        discard = N_("play.cmd_discard")
        return [
            (command, N_("play.t13_cmd_discard") if key == discard else key)
            for command, key in super().help_entries()
        ]

    @staticmethod
    def table_info(session: Session, number: int) -> tuple[int, AceMode, Rank]:
        ace = cast(AceMode, session.game.options.as_dict().get("ace", "low"))
        return number, ace, three_thirteen.wild_rank(number)

    def deal_title(self, session: Session, view: PlayerView) -> str:
        number = view.deal_number
        _, _, wild = self.table_info(session, number)
        return t(
            "play.round_title",
            session.lang,
            number=number,
            rounds=three_thirteen.ROUNDS,
            size=three_thirteen.hand_size(number),
            wild=wild.label,
        )

    def status(self, session: Session, view: PlayerView) -> list[RenderableType]:
        lang = session.lang
        top = view.top_discard
        discard = card_markup(top) if top is not None else "—"
        part = ThreeThirteenViewPart.of(view)
        lines: list[RenderableType] = [
            t(
                "play.round_line",
                lang,
                number=view.deal_number,
                rounds=three_thirteen.ROUNDS,
                wild=part.wild_rank or "?",
                stock=view.stock_size,
                discard=discard,
                jokers=t("play.and_jokers", lang) if options_of(view).jokers else "",
            )
        ]
        if part.went_out is not None:
            lines.append(t("play.last_turn", lang, who=session.who(part.went_out)))
            if part.shown_melds:
                shown = Text(" · ").join(meld_tokens_text([m]) for m in part.shown_melds)
                lines.append(Text(t("play.shown_melds", lang) + " ").append_text(shown))
        return lines

    def wild(self, view: PlayerView) -> Rank | None:
        return three_thirteen.wild_rank(view.deal_number)

    def turn_note(
        self, session: Session, seat: int, view: PlayerView, ended: DealSummary | None
    ) -> str:
        number = ended.number if ended is not None else view.deal_number
        out = ended.by_seat if ended is not None else ThreeThirteenViewPart.of(view).went_out
        if out == seat and number not in self.announced_out:
            self.announced_out.add(number)
            return t("play.went_out", session.lang)
        return ""

    def melds(self, session: Session, view: PlayerView) -> list[RenderableType]:
        lang = session.lang
        number, ace, _ = self.table_info(session, view.deal_number)
        hand = list(view.hand)
        if view.phase == "discard":
            found = three_thirteen.deadwood(
                hand, round_no=number, ace=ace, discard=True, keep=view.kept_card
            )
            card = card_markup(found.discard) if found.discard is not None else "?"
            key = N_("play.t13_goes_out") if found.points == 0 else N_("play.t13_best_discard")
            title = t(key, lang, card=card, points=found.points)
        else:
            found = three_thirteen.deadwood(hand, round_no=number, ace=ace)
            title = t("play.t13_hand_now", lang, points=found.points)
        return [title, arrangement_table(found.melds, found.dead, lang, points=False)]

    def deal_result(
        self, session: Session, summary: DealSummary, log: Sequence[Play]
    ) -> list[RenderableType]:
        lang = session.lang
        number = summary.number
        if summary.by_seat is not None:
            head = t("play.round_out", lang, number=number, who=session.who(summary.by_seat))
        else:
            head = t("play.round_over", lang, number=number)
        table = Table(title=t("play.round_scores", lang, number=number), show_lines=True)
        table.add_column(t("play.col_player", lang))
        table.add_column(t("score.melds", lang))
        table.add_column(t("score.dead", lang))
        table.add_column(t("play.col_deadwood", lang), justify="right")
        table.add_column(t("play.col_total", lang), justify="right")
        for seat in session.seat_order():
            result = summary.results[seat]
            table.add_row(
                self.player_cell(session, seat),
                meld_tokens_text(result.melds, empty="—"),
                cards_text(sorted_hand(result.dead), empty="—"),
                str(result.points),
                str(session.game.totals[seat]),
                style="bold" if seat == session.person else "",
            )
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
