"""One person against bots at the terminal: the session of ``remi play``.

The session is generic; what differs between variants (the seat draw, the
status line, closing, melds on the table, the score tables) lives in a
renderer per variant (``tui`` in the variant's spec, built on
:class:`remikit.cli.tui.ui.VariantUI`). Input and output are injectable: a Rich
``Console`` and an ``input`` callable, so a test can script a whole game.

Rummy calls (R5-10): after every discard while calls are open, the seats
but the discarder are asked in priority order, as the bot runner does
(:mod:`remikit.bots.runner`). The person is asked at every discard of
another player, with the same prompt whether or not a call is possible, so
the table never gives away that one is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table

from remikit.actions import Discard, Pass
from remikit.bots import Bot, level_title
from remikit.cards import Card
from remikit.cli.tui.commands import HELP_WORDS, QUIT_WORDS, TABLE_WORDS, parse_command
from remikit.cli.tui.table import POSITION_ORDER, POSITIONS, hand_table, sorted_hand
from remikit.cli.tui.ui import Step, VariantUI, positions_for, taken_by
from remikit.deal import Deal, Phase
from remikit.engine import Game
from remikit.errors import IllegalAction
from remikit.i18n import t, tn
from remikit.records import MAX_NAME
from remikit.views import PlayerView

YES = frozenset({"y", "ya", "yes", "iya"})

T = TypeVar("T")
InputFn = Callable[[str], str]


class Quit(Exception):
    """The person left the table."""


def record_json(record: dict[str, Any]) -> str:
    """A game record as JSON text, one line per deal."""
    head = {k: v for k, v in record.items() if k != "hands"}
    lines = [json.dumps(head)[:-1] + ', "hands": [']
    hands = [json.dumps(h) for h in record.get("hands", [])]
    lines += [f" {h}," for h in hands[:-1]] + [f" {h}" for h in hands[-1:]]
    return "\n".join(lines) + "\n]}\n"


class Session:
    """One person (at ``person``) against bots, from the seat draw to the final scores."""

    def __init__(
        self,
        *,
        ui: VariantUI,
        game: Game,
        bots: dict[int, Bot],
        names: dict[int, str],
        person: int,
        console: Console,
        input_fn: InputFn,
        lang: str,
        record: Path | None = None,
        warn_playable: bool = False,
    ) -> None:
        self.ui = ui
        self.game = game
        self.bots = bots
        self.names = names
        self.person = person
        self.console = console
        self.input_fn = input_fn
        self.lang = lang
        self.record_path = record
        self.warn_playable = warn_playable
        self.where = positions_for(ui, person, game.players)
        self.shown_deals = 0
        self.news: list[str] = []  # what happened since the person's last turn
        self.started: dict[int, list[Step]] = {}  # a caller's turn so far
        self.called_on: dict[int, int] = {}  # caller → the discarder it called on
        self.new_cards: tuple[Card, ...] = ()  # cards the person's call just took

    # -- names ---------------------------------------------------------------

    def position(self, seat: int) -> str:
        return t(POSITIONS[self.where[seat]], self.lang)

    def who(self, seat: int) -> str:
        """``Left (Budi)`` for a bot, the person's name for the person (markup-escaped)."""
        if seat == self.person:
            return escape(self.names[seat])
        return f"{self.position(seat)} ({escape(self.names[seat])})"

    def seat_order(self) -> list[int]:
        """Seats as shown: from the person's left round to their right, then the person."""
        return sorted(self.where, key=lambda s: POSITION_ORDER.index(self.where[s]))

    # -- input/output --------------------------------------------------------

    def say(self, *items: RenderableType) -> None:
        for item in items:
            self.console.print(item)

    def ask(self, prompt: str) -> str:
        self.console.print(prompt, end="")
        try:
            return self.input_fn("")
        except EOFError:
            self.console.print()
            raise Quit from None

    def confirm(self, question: str) -> bool:
        answer = self.ask(question + " ")
        return answer.strip().lower() in YES

    def confirm_quit(self) -> bool:
        return self.confirm(t("play.confirm_quit", self.lang))

    def save_record(self) -> None:
        if self.record_path is None:
            return
        names = [self.names[seat][:MAX_NAME] for seat in range(self.game.players)]
        record = self.game.record() | {"players": names}
        self.record_path.write_text(record_json(record), encoding="utf-8")
        self.say(t("play.record_saved", self.lang, path=escape(str(self.record_path))))

    # -- the game ------------------------------------------------------------

    def play(self) -> int:
        """Play to the end (or until the person quits); the exit status."""
        try:
            self.loop()
        except Quit:
            self.say(t("play.bye", self.lang))
            self.save_record()
            return 0
        except KeyboardInterrupt:
            self.save_record()
            raise
        self.say(*self.ui.game_result(self))
        self.save_record()
        return 0

    def loop(self) -> None:
        announced = 0
        while not self.game.over:
            deal = self.game.deal
            assert deal is not None
            if deal.number > announced:
                announced = deal.number
                view = self.game.view(self.person)
                self.say(Rule(self.ui.deal_title(self, view)), self.ui.deal_intro(self, view))
            seat = self.game.to_play
            assert seat is not None
            if deal.phase.is_call_window:
                self.answer_call(seat, deal)
            elif seat == self.person:
                self.person_turn(deal)
            else:
                self.bot_turn(seat, deal)
                last = deal.log[-1] if deal.log else None
                if (
                    deal.phase is Phase.DRAW
                    and last is not None
                    and last.seat == seat
                    and isinstance(last.action, Discard)
                    and self.ui.pauses_after_discard(self.game.view(self.person))
                ):
                    self.person_call()  # no call is possible: the same pause all the same
            if deal.summary is not None:
                self.show_news()
                self.say(*self.ui.deal_result(self, deal.summary, deal.log))
                if not self.game.over:
                    self.ask(t("play.next_deal", self.lang) + " ")

    def bot_turn(self, seat: int, deal: Deal) -> None:
        """Let the bot at ``seat`` play (the rest of) its turn, and note what it did."""
        bot = self.bots[seat]
        steps = self.started.pop(seat, [])
        while self.game.to_play == seat and self.game.deal is deal and not deal.is_over:
            view = self.game.view(seat)
            action = self.think(seat, partial(bot.choose, view))
            taken = taken_by(action, view)
            self.game.apply(seat, action)
            steps.append((action, taken))
            if isinstance(action, Discard) or deal.is_over:
                break
        if steps:
            self.news.append(
                self.ui.narrate(self, seat, steps, self.game.view(self.person), deal.summary)
            )

    def think(self, seat: int, decide: Callable[[], T]) -> T:
        """Run a bot's decision; on a terminal a spinner says the bot is thinking."""
        if not self.console.is_terminal:
            return decide()
        text = t("play.thinking", self.lang, name=self.who(seat))
        with self.console.status(text, spinner="dots"):
            return decide()

    def answer_call(self, seat: int, deal: Deal) -> None:
        """A Rummy call window (R5-10): ``seat``, asked now, calls or passes."""
        if seat == self.person:
            self.person_call()
            return
        view = self.game.view(seat)
        answer = self.think(seat, partial(self.bots[seat].choose, view))
        self.game.apply(seat, answer)
        if answer.calls:
            discarder = next(p.seat for p in reversed(view.log) if isinstance(p.action, Discard))
            self.called_on[seat] = discarder
            self.started[seat] = [(answer, taken_by(answer, view))]

    def person_call(self) -> None:
        """The pause after another player's discard, with the same prompt whether or not
        a call is possible; in a call window that asks the person, the person's answer."""
        self.show_news()
        view = self.game.view(self.person)
        self.say(self.ui.pile_line(self, view))
        asked = Pass() in view.legal_actions
        while True:
            words = self.ask(t("play.call_prompt", self.lang) + " ").strip().lower().split()
            if not words:
                if asked:
                    self.game.apply(self.person, Pass())
                return
            verb, args = words[0], words[1:]
            if verb in self.ui.call_words and len(args) <= 1:
                call = self.ui.call_action(args)
                if call is None:
                    self.say("[red]" + t("play.call_bad", self.lang) + "[/red]")
                    continue
                before, deal = self.game.view(self.person), self.game.deal
                assert deal is not None
                try:
                    self.game.apply(self.person, call)
                except IllegalAction as exc:
                    self.say(f"[red]{escape(exc.text(self.lang))}[/red]")
                    continue
                self.new_cards = self.ui.after_person_action(self, call, before, deal.summary)
                return
            if verb in TABLE_WORDS and not args:
                self.say(self.table_view(self.game.view(self.person)))
            elif verb in HELP_WORDS and not args:
                self.say(t("play.call_help", self.lang))
            elif verb in QUIT_WORDS and not args:
                if self.confirm_quit():
                    raise Quit
            else:
                self.say("[red]" + t("play.call_bad", self.lang) + "[/red]")

    def show_news(self) -> None:
        for line in self.news:
            self.say(line)
        self.news.clear()

    def person_turn(self, deal: Deal) -> None:
        self.show_news()
        view = self.game.view(self.person)
        new, self.new_cards = self.new_cards, ()
        self.say(self.table_view(view, new=new))
        while self.game.deal is deal and self.game.to_play == self.person and not deal.is_over:
            view = self.game.view(self.person)
            command = parse_command(
                self.ask(self.ui.prompt(self, view) + " "), view, self.lang, self.ui
            )
            if command.kind == "show":
                self.say(self.table_view(view, new=new))
            elif command.kind == "help":
                self.say(self.help_table())
            elif command.kind == "melds":
                self.say(*self.ui.melds(self, view))
            elif command.kind == "quit":
                if self.confirm_quit():
                    raise Quit
            elif command.kind == "error":
                self.say(f"[red]{escape(command.message)}[/red]")
            elif command.kind == "auto":
                new = self.play_auto(deal) or new
            else:
                action = command.action
                if command.kind == "close_best":
                    action = self.ui.best_close(self, view)
                    if action is None:
                        continue
                assert action is not None
                try:
                    self.game.verify(self.person, action)
                except IllegalAction as exc:
                    self.say(f"[red]{escape(exc.text(self.lang))}[/red]")
                    continue
                if isinstance(action, Discard) and self.warn_playable:
                    warning = self.ui.discard_warning(self, view, action.card)
                    if warning and not self.confirm(warning):
                        continue
                self.game.apply(self.person, action)
                new = self.ui.after_person_action(self, action, view, deal.summary) or new

    def play_auto(self, deal: Deal) -> tuple[Card, ...]:
        """Play the renderer's best steps for the person while the turn lasts; the cards
        the last one brought into the hand."""
        new: tuple[Card, ...] = ()
        while self.game.deal is deal and self.game.to_play == self.person and not deal.is_over:
            view = self.game.view(self.person)
            action = self.ui.auto_step(self, view)
            if action is None:
                break
            try:
                self.game.apply(self.person, action)
            except IllegalAction as exc:
                self.say(f"[red]{escape(exc.text(self.lang))}[/red]")
                break
            new = self.ui.after_person_action(self, action, view, deal.summary)
        return new

    # -- what the person sees ------------------------------------------------

    def table_view(self, view: PlayerView, *, new: Sequence[Card] = ()) -> Table:
        """The whole table: seats, the variant's status line, the hand."""
        grid = Table.grid(padding=(0, 1))
        grid.add_row(self.seats_table(view))
        for line in self.ui.status(self, view):
            grid.add_row(line)
        grid.add_row(tn("play.your_hand", len(view.hand), self.lang))
        grid.add_row(hand_table(sorted_hand(view.hand), new=new, wild=self.ui.wild(view)))
        return grid

    def seats_table(self, view: PlayerView) -> Table:
        lang = self.lang
        table = Table(
            box=None,
            header_style="bold",
            pad_edge=False,
            caption=t("play.marks", lang),
            caption_justify="left",
            caption_style="dim",
        )
        table.add_column("")
        table.add_column(t("play.col_position", lang))
        table.add_column(t("play.col_player", lang))
        table.add_column(t("play.col_cards", lang), justify="right")
        extra = self.ui.seat_columns(self, view)
        for title, _ in extra:
            table.add_column(title, justify="right")
        table.add_column(t("play.col_total", lang), justify="right")
        for seat in self.seat_order():
            marks = ("▶" if seat == view.to_play else " ") + ("D" if seat == view.dealer else " ")
            name = escape(self.names[seat])
            if seat in self.bots:
                name += f" [dim]({escape(level_title(self.bots[seat].name, self.lang))})[/dim]"
            style = "bold" if seat == self.person else ""
            table.add_row(
                marks,
                self.position(seat),
                name,
                str(view.hand_sizes[seat]),
                *(values[seat] for _, values in extra),
                str(view.totals[seat]),
                style=style,
            )
        return table

    def help_table(self) -> Table:
        lang = self.lang
        table = Table(title=t("play.help_title", lang), box=None, show_header=False)
        table.add_column(style="bold cyan")
        table.add_column()
        for command, key in self.ui.help_entries():
            table.add_row(command, t(key, lang))
        return table
