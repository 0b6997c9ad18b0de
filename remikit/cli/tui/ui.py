"""What ``remi play`` shows that differs between variants: the renderer base.

A renderer knows its variant's seat draw, direction of play, status line,
closing, arrangement hints, its own commands and score tables; the session
(:mod:`remikit.cli.tui.session`) does the rest. Each variant's renderer lives
in its package (``remikit/variants/<name>/tui.py``), named by its spec.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table

from remikit.actions import Action, Discard, Draw, Play
from remikit.cards import Card, Rank
from remikit.cli.tui.table import (
    card_markup,
    cards_text,
    hand_table,
    meld_kind,
    meld_text,
    positions,
    scores_table,
    sorted_hand,
)
from remikit.i18n import N_, t
from remikit.kinds import Place
from remikit.melds import Meld
from remikit.views import DealSummary, PlayerView

if TYPE_CHECKING:
    from remikit.cli.tui.session import Session

Step = tuple[Action, tuple[Card, ...]]
"""An action of a turn and the cards it took from the discard pile."""


def taken_by(action: Action, view: PlayerView) -> tuple[Card, ...]:
    """The cards ``action`` takes from the discard pile ``view`` shows (deepest first)."""
    moves = action.moves(view.log[-1] if view.log else None)
    depth = sum(m.size for m in moves if m.source is Place.PILE and m.to is Place.HAND)
    return view.discard_pile[-depth:] if depth else ()


SEATING = {"left": N_("play.seating_left"), "right": N_("play.seating_right")}
"""Where everyone sits, by the side the previous player in turn order sits on."""
SEATING_ORDER = {"left": N_("play.seating_order_left"), "right": N_("play.seating_order_right")}
"""The order of play at a table of other than four, by the same side."""


class VariantUI(ABC):
    """The variant-specific part of the terminal table."""

    previous_on: Literal["left", "right"]
    can_close = False
    auto_words: frozenset[str] = frozenset()
    """Commands that let the variant play its best steps for the person (:meth:`auto_step`)."""

    # -- seating -----------------------------------------------------------

    def seats(self, players: int) -> bool:
        """Whether the terminal table can seat ``players`` (the person and bots)."""
        return players == 4

    def seat_players(
        self, rng: random.Random, names: Sequence[str], lang: str
    ) -> tuple[list[int], list[RenderableType]]:
        """Each player's seat (player 0 is the person) and what to show about it."""
        return list(range(len(names))), []

    def seating(self, session: Session) -> str:
        """Where everyone sits, and whose discard the person may take: the three others by
        side at a table of four, else the order of play."""
        lang = session.lang
        seats = {session.where[s]: s for s in session.where}
        players = session.game.players
        previous = (session.person - 1) % players
        if players != 4:
            order = [(session.person + i) % players for i in range(players + 1)]
            return t(
                SEATING_ORDER[self.previous_on],
                lang,
                order=" → ".join(session.who(s) for s in order),
                previous=session.who(previous),
            )
        return t(
            SEATING[self.previous_on],
            lang,
            left=escape(session.names[seats["left"]]),
            top=escape(session.names[seats["top"]]),
            right=escape(session.names[seats["right"]]),
            previous=session.who(previous),
        )

    # -- during a deal -------------------------------------------------------

    @abstractmethod
    def deal_title(self, session: Session, view: PlayerView) -> str: ...

    def deal_intro(self, session: Session, view: PlayerView) -> str:
        """Who dealt and who plays first, from the person's view as the deal starts."""
        assert view.to_play is not None
        return t(
            "play.deal_intro",
            session.lang,
            dealer=session.who(view.dealer),
            first=session.who(view.to_play),
        )

    @abstractmethod
    def status(self, session: Session, view: PlayerView) -> list[RenderableType]: ...

    def prompt(self, session: Session, view: PlayerView) -> str:
        lang = session.lang
        if view.phase == "draw":
            top = view.top_discard
            if top is None or Draw("discard") not in view.legal_actions:
                return t("play.prompt_draw_stock", lang)
            return t("play.prompt_draw", lang, card=card_markup(top))
        if self.can_close:
            return t("play.prompt_discard_close", lang)
        return t("play.prompt_discard", lang)

    def narrate(
        self,
        session: Session,
        seat: int,
        steps: Sequence[Step],
        view: PlayerView,
        ended: DealSummary | None,
    ) -> str:
        """One sentence for a bot's turn: ``Left (Budi) drew from the stock and discarded 7♥.``
        ``view`` is the person's view after it; ``ended`` the deal's summary if it ended."""
        lang = session.lang
        parts = [self.narrate_step(session, action, taken) for action, taken in steps]
        sentence = t("play.narrate", lang, who=session.who(seat), did=join_parts(parts, lang))
        note = self.turn_note(session, seat, view, ended)
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
        return escape(str(action))

    def pile_line(self, session: Session, view: PlayerView) -> RenderableType:
        """What the person sees at the pause after another player's discard."""
        return ""

    def parse_action(
        self, verb: str, args: Sequence[str], view: PlayerView, lang: str
    ) -> Action | None:
        """An action in the variant's own commands, or None to read the common ones.
        Raises ValueError (or ActionSyntaxError) with a reason for a malformed one."""
        return None

    def seat_columns(self, session: Session, view: PlayerView) -> list[tuple[str, dict[int, str]]]:
        """Extra columns of the seats table: a title and a text per seat."""
        return []

    def pauses_after_discard(self, view: PlayerView) -> bool:
        """Whether the person is asked after every other player's discard (a variant
        with Rummy calls): the same pause whether or not a call is possible."""
        return False

    call_words: frozenset[str] = frozenset()
    """The words that call on a discard at the pause after it (:meth:`call_action`)."""

    def call_action(self, args: Sequence[str]) -> Action | None:
        """The call a call word with ``args`` (at most one) makes, or None for words that
        make none."""
        return None

    def discard_warning(self, session: Session, view: PlayerView, card: Card) -> str | None:
        """A question to ask before the person discards ``card`` (``--warn-playable``)."""
        return None

    def after_person_action(
        self, session: Session, action: Action, before: PlayerView, ended: DealSummary | None
    ) -> tuple[Card, ...]:
        """Tell the person what their action did; the cards it brought into the hand.
        ``before`` is the person's view before it, ``ended`` the summary if it ended the deal."""
        lang = session.lang
        view = session.game.view(session.person)
        if isinstance(action, Draw):
            if action.source == "stock":
                drawn = view.hand[-1]
                session.say(t("play.you_drew", lang, card=card_markup(drawn)))
            else:
                assert before.top_discard is not None
                drawn = before.top_discard
                session.say(t("play.you_took", lang, card=card_markup(drawn)))
            session.say(hand_table(sorted_hand(view.hand), new=drawn, wild=self.wild(view)))
            return (drawn,)
        if isinstance(action, Discard):
            note = self.turn_note(session, session.person, view, ended)
            session.say(
                t("play.you_discarded", lang, card=card_markup(action.card))
                + (f" {note}" if note else "")
            )
        return ()

    def wild(self, view: PlayerView) -> Rank | None:
        """The wild rank to mark in the hand, if the variant has one."""
        return None

    def turn_note(
        self, session: Session, seat: int, view: PlayerView, ended: DealSummary | None
    ) -> str:
        """Anything worth saying after ``seat``'s turn (going out), from the person's view
        after it and the deal's summary if the turn ended the deal."""
        return ""

    def best_close(self, session: Session, view: PlayerView) -> Action | None:
        """The close ``t`` alone means, or None after saying why there is none."""
        session.say("[red]" + t("play.no_closing", session.lang) + "[/red]")
        return None

    def auto_step(self, session: Session, view: PlayerView) -> Action | None:
        """The next step an ``auto_words`` command plays for the person, or None to stop."""
        return None

    @abstractmethod
    def melds(self, session: Session, view: PlayerView) -> list[RenderableType]:
        """The best arrangement of the person's hand now (the ``m`` command)."""

    def help_entries(self) -> list[tuple[str, str]]:
        entries = [
            ("s, stock", N_("play.cmd_stock")),
            ("d, take", N_("play.cmd_take")),
            ("b 7h, b 3", N_("play.cmd_discard")),
        ]
        if self.can_close:
            entries += [("t Ah, t", N_("play.cmd_close"))]
        entries += [
            ("m", N_("play.cmd_melds")),
            ("discard 7h", N_("play.cmd_record")),
            ("Enter", N_("play.cmd_show")),
            ("h", N_("play.cmd_help")),
            ("q", N_("play.cmd_quit")),
        ]
        return entries

    # -- scores ---------------------------------------------------------------

    @abstractmethod
    def deal_result(
        self, session: Session, summary: DealSummary, log: Sequence[Play]
    ) -> list[RenderableType]:
        """The scores of a finished deal; ``log`` is what was played in it."""

    @abstractmethod
    def game_result(self, session: Session) -> list[RenderableType]: ...

    def player_cell(self, session: Session, seat: int, sep: str = "\n") -> str:
        """``Left`` and the name for a bot; the name alone for the person."""
        if seat == session.person:
            return escape(session.names[seat])
        return f"{session.position(seat)}{sep}{escape(session.names[seat])}"

    def summaries(self, session: Session) -> list[DealSummary]:
        return [d.summary for d in session.game.deals if d.summary is not None]

    def scores_by_deal(self, session: Session, deal_key: str, title: str) -> list[RenderableType]:
        """The game's scores: a row per seat, a column per deal (headed by ``deal_key``
        with its number), the totals; then the winner."""
        lang = session.lang
        summaries = self.summaries(session)
        columns = [t("play.col_player", lang)]
        columns += [t(deal_key, lang, number=s.number) for s in summaries]
        columns.append(t("play.col_total", lang))
        rows = [
            [
                self.player_cell(session, seat, " · "),
                *(s.points[seat] for s in summaries),
                session.game.totals[seat],
            ]
            for seat in session.seat_order()
        ]
        return [scores_table(title, columns, rows), self.winner_line(session)]

    winner_key = N_("play.winner")
    no_winner_key = N_("play.winner_none")

    def winner_line(self, session: Session) -> str:
        lang = session.lang
        winner = session.game.winner
        if winner is None:
            return t(self.no_winner_key, lang)
        who = t("play.you_win_who", lang) if winner == session.person else session.who(winner)
        return t(self.winner_key, lang, who=who, points=session.game.totals[winner])


def join_parts(parts: Sequence[str], lang: str) -> str:
    """``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return t("play.comma", lang).join(parts[:-1]) + t("play.and", lang) + parts[-1]


def arrangement_table(
    melds: Sequence[Meld],
    dead: Sequence[Card],
    lang: str,
    *,
    points: bool,
    dead_points: int | None = None,
) -> Table:
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
    dead_row: list[RenderableType] = [
        cards_text(sorted_hand(dead), empty="—"),
        t("score.dead", lang),
    ]
    if points:
        dead_row.append(str(dead_points if dead_points is not None else ""))
    table.add_row(*dead_row)
    return table


# -- Remi 13 D ------------------------------------------------------------------------


def positions_for(ui: VariantUI, person: int, players: int) -> dict[int, str]:
    return positions(person, players, previous_on=ui.previous_on)
