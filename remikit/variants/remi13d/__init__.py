"""Remi 13 D, the 4-player, 108-card competition game (RULES.md §1)."""

from remikit.i18n import N_
from remikit.variants.remi13d.rules import Remi13DGame
from remikit.variants.remi13d.scoring import Remi13DScorer
from remikit.variants.remi13d.seating import draw_seats
from remikit.variants.spec import ClientInfo, VariantSpec

SPEC = VariantSpec(
    name="remi13d",
    aliases=("13d", "remi-13d", "remi13", "r13"),
    title_key=N_("variant.remi13d"),
    game=Remi13DGame,
    scorer=Remi13DScorer(),
    seating=draw_seats,
    competition=True,
    parts={
        "greedy": "remikit.variants.remi13d.greedy:Remi13DStrategy",
        "tactics": "remikit.variants.remi13d.tactics:Remi13DTactics",
        "tui": "remikit.variants.remi13d.tui:Remi13DUI",
        "review": "remikit.variants.remi13d.review:Remi13DReview",
        "advice": "remikit.variants.remi13d.advice:Remi13DAdvice",
        "stats": "remikit.variants.remi13d.stats:deal_marks",
    },
    rules_section="1",
    rule_prefix="R13-",
    review_marks=(10.0, 30.0, 80.0),
    env_module="remi13d_v0",
    gym_id="remikit/Remi13D-v0",
    ladder="remikit.variants.remi13d:ladder.json",
    client=ClientInfo(
        deal="game",
        length="games",
        clockwise=False,
        discard_first=True,
        closing=True,
        discard_hint=N_("table.hint_discard_close"),
        options=("players", "discard_taken_card", "games"),
    ),
    option_rules={
        "players": ("R13-1", N_("opt.players.help_remi13d")),
        "discard_taken_card": ("R13-5", N_("opt.discard_taken_card.help")),
        "games": ("R13-15", N_("opt.games.help")),
        "pure_run": ("R13-6", N_("opt.pure_run.help")),
    },
)
