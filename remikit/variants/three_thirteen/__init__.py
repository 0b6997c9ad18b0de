"""Three-Thirteen: eleven rounds of 3 to 13 cards with a wild rank (RULES.md §3)."""

from remikit.i18n import N_
from remikit.variants.spec import ClientInfo, VariantSpec
from remikit.variants.three_thirteen import scoring
from remikit.variants.three_thirteen.rules import ThreeThirteenGame
from remikit.variants.three_thirteen.scoring import ThreeThirteenScorer

SPEC = VariantSpec(
    name="three-thirteen",
    aliases=("3-13", "313", "three_thirteen", "threethirteen", "t13"),
    title_key=N_("variant.three_thirteen"),
    game=ThreeThirteenGame,
    scorer=ThreeThirteenScorer(),
    parts={
        "greedy": "remikit.variants.three_thirteen.greedy:ThreeThirteenStrategy",
        "tactics": "remikit.variants.three_thirteen.tactics:ThreeThirteenTactics",
        "tui": "remikit.variants.three_thirteen.tui:ThreeThirteenUI",
        "review": "remikit.variants.three_thirteen.review:ThreeThirteenReview",
        "advice": "remikit.variants.three_thirteen.advice:ThreeThirteenAdvice",
    },
    rules_section="3",
    rule_prefix="R3-",
    review_marks=(2.0, 5.0, 12.0),
    env_module="three_thirteen_v0",
    gym_id="remikit/ThreeThirteen-v0",
    ladder="remikit.variants.three_thirteen:ladder.json",
    client=ClientInfo(
        deal="round",
        length=scoring.ROUNDS,
        wild_ranks=tuple(scoring.wild_rank(n).label for n in range(1, scoring.ROUNDS + 1)),
        options=("players", "discard_taken_card", "jokers", "ace"),
    ),
    option_rules={
        "players": ("R3-1", N_("opt.players.help_three_thirteen")),
        "discard_taken_card": ("R3-5", N_("opt.discard_taken_card.help")),
        "jokers": ("R3-1", N_("opt.jokers.help_three_thirteen")),
        "ace": ("R3-4", N_("opt.ace.help")),
    },
)
