"""Gin Rummy, the reference variant (RULES.md §4): OpenSpiel's rules, a game to 100."""

from remikit.i18n import N_
from remikit.variants.gin.game import GinGame
from remikit.variants.gin.scoring import GinScorer
from remikit.variants.gin.state import GinPhase
from remikit.variants.spec import ClientInfo, VariantSpec

SPEC = VariantSpec(
    name="gin",
    aliases=("gin-rummy", "ginrummy"),
    title_key=N_("variant.gin"),
    game=GinGame,
    scorer=GinScorer(),
    parts={
        "greedy": "remikit.variants.gin.greedy:GinStrategy",
        "tactics": "remikit.variants.gin.tactics:GinTactics",
        "tui": "remikit.variants.gin.tui:GinUI",
        "review": "remikit.variants.gin.review:GinReview",
        "advice": "remikit.variants.gin.advice:GinAdvice",
        "lay_down": "remikit.variants.gin.laydown:next_step",
        "openspiel": "remikit.variants.gin.openspiel_play:GinInOpenSpiel",
    },
    rules_section="4",
    rule_prefix="G-",
    review_marks=(3.0, 8.0, 20.0),
    env_module="gin_v0",
    gym_id="remikit/Gin-v0",
    phase_slots={
        GinPhase.OFFER: 3,
        GinPhase.WALL: 4,
        GinPhase.LAY_DOWN: 5,
        GinPhase.LAY_OFF: 6,
        GinPhase.DEFEND: 7,
    },
    ladder="remikit.variants.gin:ladder.json",
    client=ClientInfo(
        deal="hand",
        length="target",
        table_melds=True,
        knocking=True,
        draw_hint=N_("table.hint_draw_gin"),
        discard_hint=N_("table.hint_discard_knock"),
        options=(
            "knock",
            "oklahoma",
            "target",
            "gin_bonus",
            "undercut_bonus",
            "discard_taken_card",
        ),
    ),
    option_rules={
        "players": ("G-1", N_("opt.players.help_gin")),
        "knock": ("G-5", N_("opt.knock.help")),
        "oklahoma": ("G-5", N_("opt.oklahoma.help")),
        "target": ("G-10", N_("opt.target.help_gin")),
        "gin_bonus": ("G-7", N_("opt.gin_bonus.help")),
        "undercut_bonus": ("G-7", N_("opt.undercut_bonus.help")),
        "discard_taken_card": ("G-4", N_("opt.discard_taken_card.help_gin")),
    },
)
