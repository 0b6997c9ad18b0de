"""Rummy 500: melds on the table, deep draws and Rummy calls, a game to 500 (RULES.md §2)."""

from remikit.i18n import N_
from remikit.variants.rummy500.game import Rummy500Game
from remikit.variants.rummy500.state import Rummy500Phase
from remikit.variants.spec import ClientInfo, VariantSpec

SPEC = VariantSpec(
    name="rummy500",
    aliases=("500", "rummy-500", "r500"),
    title_key=N_("variant.rummy500"),
    game=Rummy500Game,
    parts={
        "greedy": "remikit.variants.rummy500.greedy:Rummy500Strategy",
        "tactics": "remikit.variants.rummy500.tactics:Rummy500Tactics",
        "tui": "remikit.variants.rummy500.tui:Rummy500UI",
        "review": "remikit.variants.rummy500.review:Rummy500Review",
        "advice": "remikit.variants.rummy500.advice:Rummy500Advice",
    },
    rules_section="2",
    rule_prefix="R5-",
    review_marks=(5.0, 15.0, 40.0),
    env_module="rummy500_v0",
    gym_id="remikit/Rummy500-v0",
    phase_slots={Rummy500Phase.CALL: 2},
    ladder="remikit.variants.rummy500:ladder.json",
    client=ClientInfo(
        deal="hand",
        length="target",
        spread_discards=True,
        table_melds=True,
        calls_option="rummy_calls",
        draw_hint=N_("table.hint_draw_spread"),
        discard_hint=N_("table.hint_discard_melds"),
        options=(
            "players",
            "discard_taken_card",
            "jokers",
            "target",
            "scoring",
            "rummy_calls",
            "floating",
            "unplayable_last_discard",
        ),
    ),
    option_rules={
        "players": ("R5-1", N_("opt.players.help_rummy500")),
        "discard_taken_card": ("R5-7", N_("opt.discard_taken_card.help")),
        "jokers": ("R5-1", N_("opt.jokers.help_rummy500")),
        "target": ("R5-13", N_("opt.target.help")),
        "scoring": ("R5-14", N_("opt.scoring.help")),
        "rummy_calls": ("R5-10", N_("opt.rummy_calls.help")),
        "floating": ("R5-14", N_("opt.floating.help")),
        "unplayable_last_discard": ("R5-14", N_("opt.unplayable_last_discard.help")),
        "joker_layoff": ("R5-6", N_("opt.joker_layoff.help")),
    },
)
