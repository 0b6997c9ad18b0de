"""An environment's ``render``: the observed seat's view as a few lines of text."""

from __future__ import annotations

from collections.abc import Sequence

from remikit.cards import Card
from remikit.i18n import N_, t
from remikit.variants import VariantSpec
from remikit.views import PlayerView

HEAD = N_("env.render.head")
HAND = N_("env.render.hand")
PILE = N_("env.render.pile")
TABLE = N_("env.render.table")
TOTALS = N_("env.render.totals")
CHOOSING = N_("env.render.choosing")


def render_text(view: PlayerView, spec: VariantSpec, pending: Sequence[str], lang: str) -> str:
    """The view of the seat asked: the deal, its hand, the pile, the table, the totals
    and the tokens of the action it is choosing."""
    to_play = "-" if view.to_play is None else f"p{view.to_play}"
    lines = [
        t(
            HEAD,
            lang,
            variant=spec.title(lang),
            deal=view.deal_number,
            phase=str(view.phase),
            seat=to_play,
        ),
        t(HAND, lang, seat=f"p{view.seat}", count=len(view.hand), cards=_cards(view.hand)),
        t(
            PILE,
            lang,
            count=len(view.discard_pile),
            cards=_cards(view.discard_pile[-8:]),
            stock=view.stock_size,
        ),
    ]
    for meld in view.table:
        cards = " ".join(
            c.symbol() if s is None else f"{c.symbol()}={s.symbol()}"
            for c, s in zip(meld.cards, meld.stands_for, strict=True)
        )
        lines.append(t(TABLE, lang, number=meld.number, cards=cards))
    scores = " · ".join(f"p{s} {total}" for s, total in enumerate(view.totals))
    lines.append(t(TOTALS, lang, scores=scores))
    if pending:
        lines.append(t(CHOOSING, lang, tokens=", ".join(pending)))
    return "\n".join(lines)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(c.symbol() for c in cards) or "-"
