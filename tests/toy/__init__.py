"""Tujuh, a made-up variant defined entirely here, to prove that a variant is one
package: registered from tests/conftest.py (and for other processes by
``REMIKIT_VARIANTS=tests.toy``), it plays everywhere remikit plays."""

from remikit.i18n import add_messages
from remikit.variants.spec import ClientInfo, VariantSpec
from tests.toy.rules import TujuhGame

add_messages(
    {
        "en": {
            "variant.tujuh": "Tujuh",
            "tujuh.deal_title": "Tujuh, deal {number} of {deals}",
            "tujuh.status": "Stock {stock} · discard {discard}",
            "tujuh.you_showed": "You show, with {card} on the pile.",
            "tujuh.act_show": "{who} showed, with {card} on the pile",
            "tujuh.cmd_show": "show with a card: the other seven are all in melds",
            "tujuh.deadwood": "Deadwood now: {points}",
            "opt.deals": "Deals",
        },
        "id": {
            "variant.tujuh": "Tujuh",
            "tujuh.deal_title": "Tujuh, putaran {number} dari {deals}",
            "tujuh.status": "Dek {stock} · buangan {discard}",
            "tujuh.you_showed": "Anda membuka kartu, dengan {card} di buangan.",
            "tujuh.act_show": "{who} membuka kartu, dengan {card} di buangan",
            "tujuh.cmd_show": "buka dengan satu kartu: tujuh lainnya kartu jadi semua",
            "tujuh.deadwood": "Kartu mati sekarang: {points}",
            "opt.deals": "Putaran",
        },
    }
)

SPEC = VariantSpec(
    name="tujuh",
    aliases=("toy",),
    title_key="variant.tujuh",
    game=TujuhGame,
    parts={
        "greedy": "tests.toy.parts:TujuhStrategy",
        "tactics": "tests.toy.parts:TujuhTactics",
        "tui": "tests.toy.tui:TujuhUI",
        "review": "tests.toy.parts:TujuhReview",
        "advice": "tests.toy.parts:TujuhAdvice",
    },
    client=ClientInfo(deal="round", length="deals", options=("players", "deals")),
    env_module="tujuh_v0",
    gym_id="remikit/Tujuh-v0",
)
