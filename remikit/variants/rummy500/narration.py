"""Rummy 500 at the terminal: what it says of each play (RULES.md §2).

The others' turns are told in one sentence each (a Rummy call names whose
discard it took); the person's own plays are confirmed, with the hand shown
again while the turn goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from remikit.actions import Action, Draw, LayOff, MeldCards
from remikit.cards import Card
from remikit.cli.tui.table import card_markup, cards_markup, hand_table, sorted_hand
from remikit.cli.tui.ui import Step, VariantUI, join_parts
from remikit.i18n import t
from remikit.variants.rummy500.actions import CallRummy, Decline
from remikit.variants.rummy500.state import Rummy500Ending
from remikit.views import DealSummary, PlayerView

if TYPE_CHECKING:
    from remikit.cli.tui.session import Session


def meld_markup(cards: Sequence[Card], stands_for: Sequence[Card | None]) -> str:
    """Cards of a meld in markup, a joker as ``Jk(8♥)``."""
    parts = []
    for card, identity in zip(cards, stands_for, strict=True):
        shown = card_markup(card)
        parts.append(shown if identity is None else f"{shown}({card_markup(identity)})")
    return " ".join(parts)


class Rummy500Narration(VariantUI):
    """What :class:`~remikit.variants.rummy500.tui.Rummy500UI` says of each play."""

    def narrate(
        self,
        session: Session,
        seat: int,
        steps: Sequence[Step],
        view: PlayerView,
        ended: DealSummary | None,
    ) -> str:
        lang = session.lang
        parts = []
        for action, taken in steps:
            if isinstance(action, CallRummy):
                discarder = session.called_on.get(seat)
                if discarder == session.person:
                    parts.append(t("play.r5_did_call_you", lang, cards=cards_markup(taken)))
                else:
                    who = session.who(discarder) if discarder is not None else "?"
                    parts.append(t("play.r5_did_call", lang, who=who, cards=cards_markup(taken)))
            else:
                parts.append(self.narrate_step(session, action, taken))
        sentence = t("play.narrate", lang, who=session.who(seat), did=join_parts(parts, lang))
        note = self.turn_note(session, seat, view, ended)
        return f"{sentence} {note}" if note else sentence

    def narrate_step(self, session: Session, action: Action, taken: Sequence[Card]) -> str:
        lang = session.lang
        if isinstance(action, Draw) and action.source == "discard" and action.depth > 1:
            return t("play.r5_did_take_deep", lang, depth=action.depth, cards=cards_markup(taken))
        if isinstance(action, MeldCards):
            return t("play.r5_did_meld", lang, cards=meld_markup(action.cards, action.stands_for))
        if isinstance(action, LayOff):
            return t(
                "play.r5_did_layoff",
                lang,
                card=meld_markup((action.card,), (action.stands_for,)),
                meld=action.meld,
            )
        if isinstance(action, Decline):
            return t("play.r5_did_decline", lang)
        return super().narrate_step(session, action, taken)

    def turn_note(
        self, session: Session, seat: int, view: PlayerView, ended: DealSummary | None
    ) -> str:
        if ended is not None:
            went_out = ended.ended_by is Rummy500Ending.OUT and ended.by_seat == seat
            return t("play.r5_went_out", session.lang) if went_out else ""
        if view.hand_sizes[seat] == 0 and view.to_play != seat:
            return t("play.r5_floats", session.lang)
        return ""

    def after_person_action(
        self, session: Session, action: Action, before: PlayerView, ended: DealSummary | None
    ) -> tuple[Card, ...]:
        lang = session.lang
        taken = before.discard_pile[-action.depth :] if isinstance(action, Draw | CallRummy) else ()
        if isinstance(action, Draw) and action.source == "discard":
            owed = t("play.r5_you_owe", lang, card=card_markup(taken[0])) if len(taken) > 1 else ""
            session.say(t("play.r5_you_took", lang, cards=cards_markup(taken)) + owed)
        elif isinstance(action, CallRummy):  # the turn, and the whole table, follow
            session.say(
                t("play.r5_you_called", lang, cards=cards_markup(taken), card=card_markup(taken[0]))
            )
            return taken
        elif isinstance(action, Draw):
            return super().after_person_action(session, action, before, ended)
        elif isinstance(action, MeldCards):
            view = session.game.view(session.person) if ended is None else None
            number = len(view.table) if view is not None else len(before.table) + 1
            session.say(
                t(
                    "play.r5_you_melded",
                    lang,
                    cards=meld_markup(action.cards, action.stands_for),
                    meld=number,
                )
            )
        elif isinstance(action, LayOff):
            session.say(
                t(
                    "play.r5_you_laid_off",
                    lang,
                    card=meld_markup((action.card,), (action.stands_for,)),
                    meld=action.meld,
                )
            )
        elif isinstance(action, Decline):
            session.say(t("play.r5_you_declined", lang))
            return ()
        else:
            return super().after_person_action(session, action, before, ended)
        now = session.game.view(session.person)
        note = self.turn_note(session, session.person, now, ended)
        if note:
            session.say(note)
        if ended is not None or now.to_play != session.person:
            return ()
        session.say(hand_table(sorted_hand(now.hand), new=taken))
        return taken
