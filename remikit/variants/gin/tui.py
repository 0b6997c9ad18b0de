"""Gin Rummy at the terminal (RULES.md §4): the upcard offer, the knock, the laying down.

The status shows the stock, the upcard, the knock limit (G-5), the wall (G-8)
and the person's deadwood; once someone knocks, the table shows the melds laid
down by number (``l 8s 2`` lays off on meld 2), the lay-offs marked ``+``.
Commands: ``d``/``p`` at the first upcard, ``s``/``d`` to draw, ``b 7h`` or
``k 7h`` (knock, discarding 7h), ``m 7h 8h 9h``, ``l 8s 2``, ``p`` when done,
and ``lay``: the best lay-down (or lay-offs and melds) in one go. The hand's
scores give both sides' melds, lay-offs and deadwood, the gin or undercut
bonus; the game's give the bonuses of G-10.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from remikit.actions import Action, Draw, LayOff, MeldCards, Pass, Play
from remikit.cards import Card
from remikit.cli.tui.commands import parse_card_arg
from remikit.cli.tui.table import (
    card_markup,
    card_text,
    cards_markup,
    cards_text,
    hand_table,
    scores_table,
    sorted_hand,
)
from remikit.cli.tui.ui import Step, VariantUI, arrangement_table, join_parts
from remikit.deal import DealPhase, Phase
from remikit.i18n import N_, t
from remikit.variants.gin import melds as gin_melds
from remikit.variants.gin.actions import Knock
from remikit.variants.gin.game import BOX_BONUS, GAME_BONUS, GinGame
from remikit.variants.gin.laydown import best_melds, next_step
from remikit.variants.gin.options import options_of
from remikit.variants.gin.rules import GinDeal
from remikit.variants.gin.scoring import deadwood
from remikit.variants.gin.state import LAY_PHASES, GinEnding, GinPhase, GinViewPart, view_limit
from remikit.views import DealSummary, PlayerView, TableMeld

if TYPE_CHECKING:
    from remikit.cli.tui.session import Session

PASS_WORDS = frozenset({"p", "pass", "lewat"})
KNOCK_WORDS = frozenset({"k", "knock", "ketuk"})
MELD_WORDS = frozenset({"m", "meld", "turun"})
LAYOFF_WORDS = frozenset({"l", "layoff", "tempel"})


def table_melds_text(melds: Sequence[TableMeld], owner: int) -> Text:
    """The melds of ``owner`` with the other side's lay-offs marked ``+``."""
    parts = []
    for meld in melds:
        cards = [
            card_text(c, extra="+" if by != owner else "")
            for c, by in zip(meld.cards, meld.laid_by, strict=True)
        ]
        parts.append(Text(f"{meld.number}: ").append_text(Text(" ").join(cards)))
    return Text(" · ").join(parts) if parts else Text("—")


def owner_of(meld: TableMeld, knocker: int | None) -> int:
    """Who laid ``meld`` down: lay-offs go only on the knocker's melds (G-6)."""
    if knocker is not None and knocker in meld.laid_by:
        return knocker
    return meld.laid_by[0]


class GinUI(VariantUI):
    """Gin Rummy: two players, the first upcard's offer, knock or gin, lay-offs."""

    previous_on = "right"
    auto_words = frozenset({"lay", "best", "terbaik"})

    def seats(self, players: int) -> bool:
        return players == 2

    def seating(self, session: Session) -> str:
        other = 1 - session.person
        return t("play.gin_seating", session.lang, who=session.who(other))

    # -- during a hand ----------------------------------------------------------------

    def deal_title(self, session: Session, view: PlayerView) -> str:
        target = options_of(view).target
        return t("play.gin_title", session.lang, number=view.deal_number, target=target)

    def deal_intro(self, session: Session, view: PlayerView) -> str:
        options = options_of(view)
        rules = t(
            "play.gin_rules",
            session.lang,
            limit=view_limit(view, options.knock),
            gin=options.gin_bonus,
            undercut=options.undercut_bonus,
        )
        if options.oklahoma:
            rules += " " + t("play.gin_oklahoma", session.lang)
        return super().deal_intro(session, view) + f"\n[dim]{rules}[/dim]"

    def status(self, session: Session, view: PlayerView) -> list[RenderableType]:
        lang = session.lang
        top = view.top_discard
        lines: list[RenderableType] = [
            t(
                "play.gin_status",
                lang,
                stock=view.stock_size,
                card=card_markup(top) if top is not None else "—",
                limit=GinViewPart.of(view).knock_limit,
            )
        ]
        if view.phase is GinPhase.OFFER:
            lines.append(t("play.gin_offer", lang))
        elif view.phase is GinPhase.WALL:
            lines.append("[bold]" + t("play.gin_wall", lang) + "[/bold]")
        if view.table:
            knocker = self.knocker(view)
            for seat in session.seat_order():
                own = [m for m in view.table if owner_of(m, knocker) == seat]
                if own:
                    head = Text(t("play.gin_melds_of", lang, who=session.names[seat]) + " ")
                    lines.append(head.append_text(table_melds_text(own, seat)))
        lines.append(self.deadwood_line(session, view))
        return lines

    @staticmethod
    def knocker(view: PlayerView) -> int | None:
        return next((p.seat for p in view.log if isinstance(p.action, Knock)), None)

    def deadwood_line(self, session: Session, view: PlayerView) -> str:
        lang = session.lang
        found = deadwood(view.hand)
        if view.phase is Phase.DISCARD and found.discard is not None:
            card = card_markup(found.discard)
            return t("play.gin_deadwood_discard", lang, points=found.points, card=card)
        if view.phase in LAY_PHASES:
            return t("play.gin_deadwood_left", lang, points=gin_melds.points(view.hand))
        return t("play.gin_deadwood", lang, points=found.points)

    def prompt(self, session: Session, view: PlayerView) -> str:
        lang = session.lang
        top = card_markup(view.top_discard) if view.top_discard is not None else "—"
        if view.phase is GinPhase.OFFER:
            return t("play.gin_prompt_offer", lang, card=top)
        if view.phase is GinPhase.WALL:
            return t("play.gin_prompt_wall", lang, card=top)
        if view.phase is Phase.DISCARD:
            return t("play.gin_prompt_discard", lang)
        if view.phase is GinPhase.LAY_DOWN:
            return t("play.gin_prompt_lay_down", lang)
        if view.phase is GinPhase.LAY_OFF:
            return t("play.gin_prompt_lay_off", lang)
        if view.phase is GinPhase.DEFEND:
            return t("play.gin_prompt_defend", lang)
        return super().prompt(session, view)

    def parse_action(
        self, verb: str, args: Sequence[str], view: PlayerView, lang: str
    ) -> Action | None:
        hand = sorted_hand(view.hand)
        if verb in PASS_WORDS and not args:
            return Pass()
        if verb in KNOCK_WORDS and len(args) == 1:
            return Knock(parse_card_arg(args[0], hand, lang))
        if verb in MELD_WORDS and args:
            cards = tuple(parse_card_arg(a, hand, lang) for a in args)
            return MeldCards(cards, (None,) * len(cards))
        if verb in LAYOFF_WORDS and len(args) in (2, 3):
            if len(args) == 3 and args[1].lower() not in ("to", "ke"):
                raise ValueError(t("play.r5_bad_layoff", lang))
            number = args[-1]
            if not number.isdigit() or int(number) < 1:
                raise ValueError(t("play.r5_bad_number", lang, token=number))
            return LayOff(parse_card_arg(args[0], hand, lang), int(number))
        if verb in LAYOFF_WORDS:
            raise ValueError(t("play.r5_bad_layoff", lang))
        return None

    def auto_step(self, session: Session, view: PlayerView) -> Action | None:
        step = next_step(view)
        if step is None:
            session.say("[red]" + t("play.gin_no_lay", session.lang) + "[/red]")
        return step

    # -- what happened ------------------------------------------------------------------

    def narrate(
        self,
        session: Session,
        seat: int,
        steps: Sequence[Step],
        view: PlayerView,
        ended: DealSummary | None,
    ) -> str:
        """A bot's turn; the ``pass`` that ends its laying down goes unsaid."""
        shown = [s for s in steps if not isinstance(s[0], Pass)] or list(steps[:1])
        return super().narrate(session, seat, shown, view, ended)

    def narrate_step(self, session: Session, action: Action, taken: Sequence[Card]) -> str:
        lang = session.lang
        if isinstance(action, Knock):
            return t("play.gin_did_knock", lang, card=card_markup(action.card))
        if isinstance(action, MeldCards):
            return t("play.gin_did_meld", lang, cards=cards_markup(action.cards))
        if isinstance(action, LayOff):
            card = card_markup(action.card)
            return t("play.gin_did_layoff", lang, card=card, meld=action.meld)
        if isinstance(action, Pass):
            return t("play.gin_did_pass", lang)
        return super().narrate_step(session, action, taken)

    def after_person_action(
        self, session: Session, action: Action, before: PlayerView, ended: DealSummary | None
    ) -> tuple[Card, ...]:
        lang = session.lang
        if isinstance(action, Draw) and before.phase is GinPhase.OFFER:
            assert before.top_discard is not None
            session.say(t("play.gin_you_took_upcard", lang, card=card_markup(before.top_discard)))
            now = session.game.view(session.person)
            session.say(hand_table(sorted_hand(now.hand), new=before.top_discard))
            return (before.top_discard,)
        if isinstance(action, Knock):
            session.say(t("play.gin_you_knocked", lang, card=card_markup(action.card)))
        elif isinstance(action, MeldCards):
            session.say(t("play.gin_you_melded", lang, cards=cards_markup(action.cards)))
        elif isinstance(action, LayOff):
            card = card_markup(action.card)
            session.say(t("play.gin_you_laid_off", lang, card=card, meld=action.meld))
        elif isinstance(action, Pass):
            passed: dict[DealPhase, str] = {
                GinPhase.OFFER: N_("play.gin_you_passed_upcard"),
                GinPhase.WALL: N_("play.gin_you_passed_wall"),
            }
            key = passed.get(before.phase, N_("play.gin_you_done"))
            session.say(t(key, lang))
        else:
            return super().after_person_action(session, action, before, ended)
        if ended is None and session.game.to_play == session.person:
            now = session.game.view(session.person)
            if now.phase in LAY_PHASES:
                session.say(*self.status(session, now)[1:])
                session.say(hand_table(sorted_hand(now.hand)))
        return ()

    # -- the hint (m alone) ---------------------------------------------------------------

    def melds(self, session: Session, view: PlayerView) -> list[RenderableType]:
        lang = session.lang
        found = deadwood(view.hand)
        limit = view_limit(view, 0)
        if view.phase is Phase.DISCARD and found.discard is not None:
            card = card_markup(found.discard)
            if found.points == 0:
                head = t("play.gin_hint_gin", lang, card=card)
            elif found.points <= limit:
                head = t("play.gin_hint_knock", lang, card=card, points=found.points)
            else:
                head = t("play.gin_hint_discard", lang, card=card, points=found.points)
        elif view.phase in LAY_PHASES:
            laid = " · ".join(cards_markup(m) for m in best_melds(view.hand)) or "—"
            head = t("play.gin_hint_lay", lang, melds=laid)
        else:
            head = t("play.gin_hint_hand", lang, points=found.points)
        return [head, arrangement_table(found.melds, found.dead, lang, points=False)]

    def help_entries(self) -> list[tuple[str, str]]:
        return [
            ("d, p", N_("play.gin_cmd_offer")),
            ("s, d", N_("play.gin_cmd_draw")),
            ("b 7h, b 3", N_("play.cmd_discard")),
            ("k 7h", N_("play.gin_cmd_knock")),
            ("lay", N_("play.gin_cmd_lay")),
            ("m 7h 8h 9h", N_("play.gin_cmd_meld")),
            ("l 8h 2", N_("play.gin_cmd_layoff")),
            ("p", N_("play.gin_cmd_pass")),
            ("m", N_("play.gin_cmd_hint")),
            ("knock 7h", N_("play.r5_cmd_record")),
            ("Enter", N_("play.cmd_show")),
            ("h", N_("play.cmd_help")),
            ("q", N_("play.cmd_quit")),
        ]

    # -- scores ---------------------------------------------------------------------------

    def deal_result(
        self, session: Session, summary: DealSummary, log: Sequence[Play]
    ) -> list[RenderableType]:
        lang = session.lang
        number = summary.number
        knocker = summary.by_seat
        deal = next(d for d in session.game.deals if d.number == number)
        assert isinstance(deal, GinDeal)
        table_melds = [m.view(n) for n, m in enumerate(deal.table, 1)]
        head = self.result_head(session, summary)
        table = Table(title=t("play.gin_hand_scores", lang, number=number), show_lines=True)
        table.add_column(t("play.col_player", lang))
        table.add_column(t("play.gin_col_melds", lang))
        table.add_column(t("play.gin_col_deadwood_cards", lang))
        table.add_column(t("play.col_deadwood", lang), justify="right")
        table.add_column(t("play.gin_col_points", lang), justify="right")
        table.add_column(t("play.col_total", lang), justify="right")
        for seat in session.seat_order():
            result = summary.results[seat]
            own = [m for m in table_melds if owner_of(m, knocker) == seat]
            points = str(result.points)
            if result.bonus:
                points += " " + t("play.gin_with_bonus", lang, bonus=result.bonus)
            table.add_row(
                self.player_cell(session, seat),
                table_melds_text(own, seat) if own else Text("—"),
                cards_text(sorted_hand(result.dead), empty="—"),
                str(gin_melds.points(result.dead)),
                points,
                str(session.game.totals[seat]),
                style="bold" if seat == session.person else "",
            )
        return [head, table, "[dim]" + t("play.gin_layoff_mark", lang) + "[/dim]"]

    def result_head(self, session: Session, summary: DealSummary) -> str:
        lang = session.lang
        number = summary.number
        knocker = summary.by_seat
        if summary.ended_by is GinEnding.WALL:
            return t("play.gin_ended_wall", lang, number=number)
        if knocker is None:
            return t("play.gin_ended_limit", lang, number=number)
        who = session.who(knocker)
        results = summary.results
        if results[knocker].bonus and not gin_melds.points(results[knocker].dead):
            return t("play.gin_ended_gin", lang, number=number, who=who)
        defender = 1 - knocker
        if results[defender].points:
            return t(
                "play.gin_ended_undercut", lang, number=number, who=session.who(defender), by=who
            )
        if results[knocker].points:
            return t("play.gin_ended_knock", lang, number=number, who=who)
        return t("play.gin_ended_tie", lang, number=number, who=who)

    def game_result(self, session: Session) -> list[RenderableType]:
        lang = session.lang
        game = session.game
        assert isinstance(game, GinGame)
        summaries = self.summaries(session)
        order = session.seat_order()
        columns = [t("play.col_player", lang)]
        columns += [t("play.r5_col_hand", lang, number=s.number) for s in summaries]
        columns += [t("play.gin_col_bonuses", lang), t("play.col_total", lang)]
        bonuses = game.bonuses or (0,) * game.players
        rows = [
            [
                self.player_cell(session, seat, " · "),
                *(s.points[seat] for s in summaries),
                bonuses[seat],
                game.totals[seat],
            ]
            for seat in order
        ]
        title = t("play.gin_game_scores", lang, target=game.options.target)
        lines: list[RenderableType] = [scores_table(title, columns, rows)]
        for seat in order:
            if bonuses[seat]:
                won = sum(s.points[seat] > 0 for s in summaries)
                lines.append(self.bonus_line(session, seat, won, bonuses[seat]))
        lines.append(self.winner_line(session))
        return lines

    def bonus_line(self, session: Session, seat: int, won: int, bonus: int) -> str:
        """What a seat's G-10 bonuses are made of: the boxes, the game, a shutout."""
        lang = session.lang
        parts = [t("play.gin_bonus_boxes", lang, won=won, points=BOX_BONUS * won)]
        game_part = bonus - BOX_BONUS * won
        if game_part == GAME_BONUS:
            parts.append(t("play.gin_bonus_game", lang, points=GAME_BONUS))
        elif game_part > GAME_BONUS:
            parts.append(t("play.gin_bonus_shutout", lang, points=game_part))
        return t(
            "play.gin_bonus_line",
            lang,
            who=escape(session.names[seat]),
            parts=join_parts(parts, lang),
            points=bonus,
        )
