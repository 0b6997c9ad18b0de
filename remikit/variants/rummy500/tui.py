"""Rummy 500 at the terminal (RULES.md §2): table melds, the spread pile, Rummy calls.

The table shows every meld numbered as ``layoff CARD to M`` names it, with
who laid each card; the discard pile spread with positions (1 = the top) as
``draw discard K`` and ``rummy K`` count them; per seat the cards in hand,
the points laid this hand and the running total. Commands are short:
``s``, ``d``/``d K``, ``m 7h 8h 9h`` (``Jk=8h`` for a joker), ``l 7h 2``,
``b 7h``, ``r K``, ``decline``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from remikit.actions import Action, Draw, LayOff, MeldCards, Play
from remikit.cards import Card
from remikit.cli.tui.commands import parse_card_arg
from remikit.cli.tui.table import (
    card_markup,
    cards_markup,
    cards_text,
    meld_tokens_text,
    pile_text,
    sorted_hand,
    token_text,
)
from remikit.i18n import N_, t
from remikit.variants.rummy500.actions import CallRummy, Decline
from remikit.variants.rummy500.hints import (
    best_draw,
    laid_points,
    opens_call,
    stock_plan,
    turn_plan,
)
from remikit.variants.rummy500.melds import hand_points, layoff_options, placed_meld
from remikit.variants.rummy500.narration import Rummy500Narration, meld_markup
from remikit.variants.rummy500.options import Rummy500Options
from remikit.variants.rummy500.plan import Rules, table_of
from remikit.variants.rummy500.state import Rummy500ViewPart
from remikit.views import DealSummary, PlayerView, TableMeld

if TYPE_CHECKING:
    from remikit.cli.tui.session import Session

TAKE_WORDS = frozenset({"d", "take", "ambil"})
MELD_WORDS = frozenset({"m", "meld", "turun"})
LAYOFF_WORDS = frozenset({"l", "lay", "layoff", "tempel"})
RUMMY_WORDS = frozenset({"r", "rummy", "remi"})
DECLINE_WORDS = frozenset({"decline", "tolak"})


def _number(token: str, lang: str) -> int:
    if not token.isdigit() or int(token) < 1:
        raise ValueError(t("play.r5_bad_number", lang, token=token))
    return int(token)


def _card(token: str, hand: Sequence[Card], lang: str) -> tuple[Card, Card | None]:
    """A card by its text or number in the shown hand, a joker perhaps ``Jk=8h``."""
    left, eq, right = token.partition("=")
    card = parse_card_arg(left, hand, lang)
    if not eq:
        return card, None
    if not card.is_joker:
        raise ValueError(t("play.r5_declare_joker", lang, token=token))
    return card, parse_card_arg(right, (), lang)


class Rummy500UI(Rummy500Narration):
    """Rummy 500: 2–8 players clockwise, melds on the table, deep draws and Rummy calls."""

    previous_on = "right"

    def seats(self, players: int) -> bool:
        return 2 <= players <= 8

    def seating(self, session: Session) -> str:
        players = session.game.players
        order = [(session.person + i) % players for i in range(players + 1)]
        return t("play.r5_seating", session.lang, order=" → ".join(session.who(s) for s in order))

    # -- during a hand -------------------------------------------------------------

    @staticmethod
    def options(session: Session) -> dict[str, object]:
        return session.game.options.as_dict()

    def deal_title(self, session: Session, view: PlayerView) -> str:
        return t(
            "play.r5_title",
            session.lang,
            number=view.deal_number,
            target=self.options(session)["target"],
        )

    def deal_intro(self, session: Session, view: PlayerView) -> str:
        lang = session.lang
        options = self.options(session)

        def state(name: str) -> str:
            return t("play.on", lang) if options[name] else t("play.off", lang)

        rules = t(
            "play.r5_rules",
            lang,
            calls=state("rummy_calls"),
            floating=state("floating"),
            last=state("unplayable_last_discard"),
            scoring=options["scoring"],
        )
        return super().deal_intro(session, view) + f"\n[dim]{rules}[/dim]"

    def status(self, session: Session, view: PlayerView) -> list[RenderableType]:
        lang = session.lang
        lines: list[RenderableType] = [
            t("play.r5_stock", lang, stock=view.stock_size),
            self.pile_line(session, view),
        ]
        lines.append(self.melds_table(session, view.table))
        owed = Rummy500ViewPart.of(view).must_meld
        if owed is not None and view.to_play == session.person:
            lines.append(t("play.r5_owed", lang, card=card_markup(owed)))
        return lines

    def pile_line(self, session: Session, view: PlayerView) -> RenderableType:
        line = Text(t("play.r5_pile", session.lang) + " ", style="bold")
        return line.append_text(pile_text(view.discard_pile))

    def melds_table(self, session: Session, melds: Sequence[TableMeld]) -> RenderableType:
        """The table's melds by number, each card's owner after the meld."""
        lang = session.lang
        if not melds:
            return Text(t("play.r5_no_table", lang), style="dim")
        table = Table(box=None, pad_edge=False, header_style="bold")
        table.add_column("#", justify="right")
        table.add_column(t("play.r5_col_meld", lang))
        table.add_column(t("play.r5_col_laid_by", lang))
        for meld in melds:
            tokens = placed_meld(meld).tokens()
            shown = Text(" ").join(token_text(tok) for tok in tokens)
            owners: dict[int, list[str]] = {}
            for token, seat in zip(tokens, meld.laid_by, strict=True):
                owners.setdefault(seat, []).append(token)
            laid_by = Text(" · ").join(
                Text(session.names[seat] + " ", style="dim").append_text(
                    Text(" ").join(token_text(tok) for tok in tokens_of)
                )
                for seat, tokens_of in owners.items()
            )
            table.add_row(str(meld.number), shown, laid_by)
        grid = Table.grid()
        grid.add_row(Text(t("play.r5_table_title", lang), style="bold"))
        grid.add_row(table)
        return grid

    def seat_columns(self, session: Session, view: PlayerView) -> list[tuple[str, dict[int, str]]]:
        points = laid_points(view)
        return [
            (
                t("play.r5_col_laid_now", session.lang),
                {seat: f"{p:+d}" if p else "0" for seat, p in enumerate(points)},
            )
        ]

    def prompt(self, session: Session, view: PlayerView) -> str:
        lang = session.lang
        if view.phase == "draw":
            top = view.top_discard
            if view.stock_size == 0:
                return t("play.r5_prompt_empty", lang)
            if top is None:
                return t("play.prompt_draw_stock", lang)
            return t("play.r5_prompt_draw", lang, card=card_markup(top))
        owed = Rummy500ViewPart.of(view).must_meld
        if owed is not None:
            return t("play.r5_prompt_owed", lang, card=card_markup(owed))
        return t("play.r5_prompt_play", lang)

    call_words = RUMMY_WORDS

    def call_action(self, args: Sequence[str]) -> Action | None:
        if args and not args[0].isdigit():
            return None
        return CallRummy(int(args[0]) if args else 1)

    def parse_action(
        self, verb: str, args: Sequence[str], view: PlayerView, lang: str
    ) -> Action | None:
        hand = sorted_hand(view.hand)
        if verb in TAKE_WORDS and len(args) == 1:
            return Draw("discard", _number(args[0], lang))
        if verb in MELD_WORDS and args:
            pairs = [_card(a, hand, lang) for a in args]
            return MeldCards(tuple(c for c, _ in pairs), tuple(s for _, s in pairs))
        if verb in LAYOFF_WORDS and len(args) in (2, 3):
            if len(args) == 3 and args[1].lower() not in ("to", "ke"):
                raise ValueError(t("play.r5_bad_layoff", lang))
            card, stands = _card(args[0], hand, lang)
            return LayOff(card, _number(args[-1], lang), stands)
        if verb in LAYOFF_WORDS:
            raise ValueError(t("play.r5_bad_layoff", lang))
        if verb in RUMMY_WORDS and len(args) <= 1:
            return CallRummy(_number(args[0], lang) if args else 1)
        if verb in DECLINE_WORDS and not args:
            return Decline()
        return None

    def pauses_after_discard(self, view: PlayerView) -> bool:
        return isinstance(view.options, Rummy500Options) and view.options.rummy_calls

    def discard_warning(self, session: Session, view: PlayerView, card: Card) -> str | None:
        table = table_of(view)
        joker_layoff = Rules.of(view).joker_layoff
        for meld in table:
            if layoff_options(meld, card, joker_layoff=joker_layoff):
                return t(
                    "play.r5_warn_playable", session.lang, card=card_markup(card), meld=meld.number
                )
        if len(view.hand) > 1 and opens_call(card, view.discard_pile, table, joker_layoff):
            return t("play.r5_warn_call", session.lang, card=card_markup(card))
        return None

    # -- the hint (m alone) ------------------------------------------------------------

    def melds(self, session: Session, view: PlayerView) -> list[RenderableType]:
        lang = session.lang
        if view.phase == "draw":
            out: list[RenderableType] = []
            choice = best_draw(view)
            if (
                isinstance(choice, CallRummy)
                and Draw("discard", choice.depth) in view.legal_actions
            ):
                choice = Draw("discard", choice.depth)  # a hint never tells of a call
            if isinstance(choice, Draw) and choice.source == "discard":
                taken = view.discard_pile[-choice.depth :]
                out.append(
                    t("play.r5_hint_take", lang, depth=choice.depth, cards=cards_markup(taken))
                )
            elif isinstance(choice, Decline):
                out.append(t("play.r5_hint_decline", lang))
            else:
                out.append(t("play.r5_hint_stock", lang))
            plays = stock_plan(view).plays
            if plays:
                out.append(
                    t("play.r5_hint_hand", lang)
                    + " "
                    + " · ".join(self.play_markup(session, a) for p in plays for a in p.actions)
                )
            return out
        plan = turn_plan(view)
        if plan is None:
            return [t("play.r5_hint_stuck", lang)]
        steps = [self.play_markup(session, a) for p in plan.plays for a in p.actions]
        if plan.discard is not None:
            steps.append(t("play.r5_hint_discard", lang, card=card_markup(plan.discard)))
        laid = sum(p.points for p in plan.plays)
        if plan.ends_hand:
            head = t("play.r5_hint_out", lang, points=laid)
        elif plan.plays:
            head = t("play.r5_hint_plays", lang, points=laid)
        else:
            head = t("play.r5_hint_nothing", lang)
        return [head + " " + " · ".join(steps)]

    def play_markup(self, session: Session, action: Action) -> str:
        if isinstance(action, MeldCards):
            return "m " + meld_markup(action.cards, action.stands_for)
        if isinstance(action, LayOff):
            return f"l {meld_markup((action.card,), (action.stands_for,))} {action.meld}"
        return escape(str(action))

    def help_entries(self) -> list[tuple[str, str]]:
        return [
            ("s", N_("play.r5_cmd_stock")),
            ("d, d K", N_("play.r5_cmd_take")),
            ("m 7h 8h 9h", N_("play.r5_cmd_meld")),
            ("l 7h 2", N_("play.r5_cmd_layoff")),
            ("b 7h, b 3", N_("play.cmd_discard")),
            ("r K", N_("play.r5_cmd_rummy")),
            ("decline", N_("play.r5_cmd_decline")),
            ("m", N_("play.r5_cmd_hint")),
            ("layoff 7h to 2", N_("play.r5_cmd_record")),
            ("Enter", N_("play.cmd_show")),
            ("h", N_("play.cmd_help")),
            ("q", N_("play.cmd_quit")),
        ]

    # -- scores -----------------------------------------------------------------------

    def deal_result(
        self, session: Session, summary: DealSummary, log: Sequence[Play]
    ) -> list[RenderableType]:
        lang = session.lang
        number = summary.number
        if summary.by_seat is not None:
            head = t("play.r5_out", lang, number=number, who=session.who(summary.by_seat))
        else:
            last = log[-1].seat if log else 0
            head = t("play.r5_declined", lang, number=number, who=session.who(last))
        scoring = str(self.options(session)["scoring"])
        table = Table(title=t("play.r5_hand_scores", lang, number=number), show_lines=True)
        table.add_column(t("play.col_player", lang))
        table.add_column(t("play.r5_col_laid", lang))
        table.add_column("+", justify="right")
        table.add_column(t("play.r5_col_in_hand", lang))
        table.add_column("−", justify="right")
        table.add_column(t("play.r5_col_score", lang), justify="right")
        table.add_column(t("play.col_total", lang), justify="right")
        for seat in session.seat_order():
            result = summary.results[seat]
            held = hand_points(result.dead, scoring)
            table.add_row(
                self.player_cell(session, seat),
                meld_tokens_text(result.melds, empty="—"),
                str(result.points + held),
                cards_text(sorted_hand(result.dead), empty="—"),
                str(held),
                str(result.points),
                str(session.game.totals[seat]),
                style="bold" if seat == session.person else "",
            )
        return [head, table]

    def game_result(self, session: Session) -> list[RenderableType]:
        title = t("play.r5_game_scores", session.lang, target=self.options(session)["target"])
        return self.scores_by_deal(session, N_("play.r5_col_hand"), title)
