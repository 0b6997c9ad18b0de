"""Random play of any registered variant, its invariants checked after every action.

Nothing here names a variant: the table options are random legal values of the options
the variant declares (:meth:`VariantSpec.options`), the players mix random legal
actions with the variant's greedy strategy (the ``greedy`` bot, deciding from its own
view) so that deals reach their closes, knocks and go-outs, and every check reads only
the engine's shared interfaces. After every action:

- every card of the deck is somewhere, once: the hands, the stock and the discard pile,
  and beyond them only cards every view shows (the table's melds, a closing card);
- hand sizes: the dealt size at the start; only the seat that acted has another hand; a
  draw adds exactly the cards drawn and a discard takes away exactly its card; in a
  deal without table melds, the deal's size between turns and one more after a draw;
- the seat to play has something to do until the deal ends, and nobody else has;
- every view shows its own hand, the public state as it is, and leaks nothing
  (:func:`tests.hidden.blind_view`);
- the legal actions offered are exactly those accepted: each is accepted by a fork of
  the deal, and a sample of others (offered earlier, offered now or earlier and changed,
  offered to another seat) is refused with the state unchanged.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import partial

from remikit.actions import Action, Discard, Draw
from remikit.bots import Bot, make_bot
from remikit.cards import Card
from remikit.deal import Deal, Phase
from remikit.engine import Game, OptionError, OptionInfo, Options
from remikit.errors import IllegalAction
from remikit.variants import VariantSpec
from remikit.views import PlayerView
from tests.hidden import blind_view
from tests.unoffered import declares_jokers, key, mutant, written

WHOLE_GAME_EVERY = 6
"""Every sixth seed plays a whole game (up to :data:`MAX_DEALS` deals); the others one deal."""
MAX_DEALS = 12
"""A whole game still running after this many deals is stopped there (random seats may
keep a target out of reach)."""
GREEDY_SHARES = (0.0, 0.5, 0.85)
"""How often a seat plays its greedy move rather than a random legal action (one share per
seat and seed; one seat always plays the last)."""
REFUSALS = 8
"""Actions not offered, tried (and refused) at every step."""

Extra = Callable[[Game], None]
"""A variant's own checks, run with the shared ones (a rule test file passes one)."""


def draw_value(info: OptionInfo, rng: random.Random, top: int | None = None) -> object:
    """A random value the option allows; an integer at most ``top`` where given."""
    if info.choices is not None:
        return rng.choice(info.choices)
    if info.kind == "boolean":
        return rng.random() < 0.5
    if info.kind == "integer" and info.low is not None and info.high is not None:
        high = info.high if top is None else max(info.low, min(top, info.high))
        return rng.randint(info.low, high)
    return info.default


def draw_options(spec: VariantSpec, rng: random.Random, *, whole_game: bool) -> Options:
    """Random table options the variant accepts. A whole game's length (the option
    :attr:`ClientInfo.length` names) is at most its default, so that games end."""
    length = spec.client.length if spec.client is not None else None
    options_type = spec.game_class().options_type
    for _ in range(50):
        values = {
            info.name: draw_value(
                info, rng, info.default if whole_game and info.name == length else None
            )
            for info in spec.options()
        }
        try:
            return options_type.from_mapping(values)
        except OptionError:  # a combination the variant refuses: draw again
            continue
    return options_type()


def fixed_length(spec: VariantSpec) -> int | None:
    """The number of deals of every game, where the variant fixes it."""
    length = spec.client.length if spec.client is not None else None
    return length if isinstance(length, int) else None


def whole_game(seed: int) -> bool:
    return seed % WHOLE_GAME_EVERY == 0


def start(spec: VariantSpec, seed: int) -> tuple[Game, bool]:
    """A game of random options with its first deal, and whether to play it to its end.
    A single deal of a game of a fixed number of deals is any one of them, started as
    the game's only deal (its deals differ: hand sizes, wild ranks)."""
    rng = random.Random(f"{spec.name} options {seed}")
    whole = whole_game(seed)
    options = draw_options(spec, rng, whole_game=whole)
    game = spec.game_class()(options, rng=random.Random(seed), auto_deal=False)
    number = 1 if whole else rng.randint(1, fixed_length(spec) or 1)
    if number == 1:
        game.start_deal()
        return game, whole
    dealer = (game.next_dealer() + number - 1) % game.players
    deal = game.make_deal(number=number, dealer=dealer, first=(dealer + 1) % game.players)
    deal.deal(game.new_deck())
    game.deals.append(deal)
    return game, whole


# -- the checks ----------------------------------------------------------------------------


VIEW_FIELDS = [f.name for f in fields(PlayerView) if f.name != "log"]


def unlogged(view: PlayerView) -> list[object]:
    """What ``view`` shows but its log (comparing logs play by play is slow)."""
    return [getattr(view, name) for name in VIEW_FIELDS]


@dataclass
class Before:
    """What an action's checks compare with: the state just before it."""

    hands: list[list[Card]]
    stock: list[Card]
    pile: list[Card]


class Checker:
    """The invariants of one game, checked after every action (module docstring)."""

    def __init__(
        self,
        spec: VariantSpec,
        game: Game,
        rng: random.Random,
        refused: Counter[str] | None = None,
    ) -> None:
        self.spec = spec
        self.game = game
        self.rng = rng
        self.refused = Counter[str]() if refused is None else refused
        """How many actions of each kind were tried and refused."""
        self.full = Counter(game.full_deck())
        self.deck = sorted(self.full)
        self.pool: dict[object, Action] = {}  # actions offered in this game
        self.wild_ranks = spec.client.wild_ranks if spec.client is not None else ()
        self.table_melds = spec.client is None or spec.client.table_melds

    def deal(self) -> Deal:
        deal = self.game.deal
        assert deal is not None
        return deal

    def before(self) -> Before:
        deal = self.deal()
        return Before([list(h) for h in deal.hands], list(deal.stock), list(deal.discard_pile))

    def dealt(self) -> None:
        """A deal just started: every hand holds the deal's size."""
        deal = self.deal()
        assert [len(h) for h in deal.hands] == [deal.hand_size()] * deal.players
        self.check()

    def check(self, *, offered: bool = True) -> None:
        """Every invariant of the position; with ``offered``, those of the legal actions."""
        game = self.game
        views = {seat: game.view(seat) for seat in [*range(game.players), None]}
        self.check_cards(views[None])
        self.check_turn(views)
        self.check_views(views)
        actor = self.deal().to_play
        if offered and actor is not None:
            self.check_offered(actor, list(views[actor].legal_actions), views[None])

    def check_cards(self, public: PlayerView) -> None:
        deal = self.deal()
        every = Counter(deal.cards_in_play())
        assert every == self.full, "every card is somewhere, once"
        held = Counter([c for h in deal.hands for c in h] + deal.stock + deal.discard_pile)
        shown = [c for meld in public.table for c in meld.cards]
        if deal.summary is not None:
            shown += [r.closing for r in deal.summary.results if r.closing is not None]
        assert every - held == Counter(shown), "beyond hands, stock and pile: what all see"

    def check_turn(self, views: dict[int | None, PlayerView]) -> None:
        deal = self.deal()
        seats = range(self.game.players)
        if deal.is_over:
            assert deal.summary is not None and len(deal.summary.results) == len(seats)
            assert deal.to_play is None and all(views[s].legal_actions == () for s in seats)
            return
        actor = deal.to_play
        assert actor is not None and views[actor].legal_actions, "the seat to play can act"
        assert all(views[s].legal_actions == () for s in seats if s != actor)
        if deal.phase is Phase.DISCARD:
            assert deal.hands[actor], "a turn never waits with an empty hand"
        if deal.phase is Phase.DRAW and type(deal).refills_stock:
            assert deal.stock, "a stock refilled from the pile is never empty at a draw"
        if not self.table_melds and deal.phase in (Phase.DRAW, Phase.DISCARD):
            size = deal.hand_size()
            drawn = [size + (s == actor and deal.phase is Phase.DISCARD) for s in seats]
            assert [len(h) for h in deal.hands] == drawn, "the deal's size between turns"

    def check_views(self, views: dict[int | None, PlayerView]) -> None:
        """Each view shows its own hand and the state as it is, and does not change when
        the cards hidden from it do (the log, which no hidden card changes, left out)."""
        game, deal = self.game, self.deal()
        sizes = tuple(len(h) for h in deal.hands)
        for seat, view in views.items():
            assert view.hand == (tuple(deal.hands[seat]) if seat is not None else ())
            assert view.hand_sizes == sizes and view.stock_size == len(deal.stock)
            assert view.discard_pile == tuple(deal.discard_pile) and view.phase is deal.phase
            assert view.to_play == deal.to_play and view.deal_number == deal.number
            assert view.totals == tuple(game.totals) and view.game_over == game.over
            assert len(view.log) == len(deal.log)
            extra = view.extra.as_json()  # the variant's own fields, as the protocol sends them
            if self.wild_ranks:
                assert extra.get("wild_rank") == self.wild_ranks[deal.number - 1]
            went_out = extra.get("went_out")
            if went_out is not None:
                assert deal.to_play != went_out, "a seat gone out acts no more"
            blind = blind_view(game, seat, shown=[went_out])
            assert unlogged(blind) == unlogged(view), "a view leaks no hidden card"

    def state(self, public: PlayerView | None = None) -> tuple[object, ...]:
        """What a refused action must leave as it was."""
        deal = self.deal()
        public = public or self.game.view(None)
        hands = [list(h) for h in deal.hands]
        return (unlogged(public), len(deal.log), hands, list(deal.stock), tuple(self.game.totals))

    def check_offered(self, actor: int, offered: list[Action], public: PlayerView) -> None:
        """Every action offered is accepted by a fork of the deal; a sample of others is
        refused, the state unchanged."""
        game, deal, rng = self.game, self.deal(), self.rng
        before = self.state(public)
        for action in offered:
            deal.fork(hands=deal.hands, stock=deal.stock).apply(actor, action)
        assert self.state() == before, "an action on a fork leaves the deal as it was"
        keys = {key(a) for a in offered}
        for a in offered:
            self.pool.setdefault(key(a), a)
        others = [s for s in range(game.players) if s != actor]
        by_kind = [[a for a in offered if type(a) is kind] for kind in {type(a) for a in offered}]
        by_kind.sort(key=lambda same: str(same[0]))  # the same order on every run
        tries: list[tuple[int, Action]] = [
            (actor, mutant(rng.choice(rng.choice(by_kind)), deal.hands[actor], self.deck, rng))
            for _ in range(REFUSALS // 2)
        ]
        pool = list(self.pool.values())
        tries += [(actor, a) for a in rng.sample(pool, min(2, len(pool)))]
        tries.append((actor, mutant(rng.choice(pool), deal.hands[actor], self.deck, rng)))
        tries += [(rng.choice(others), rng.choice(offered)) for _ in range(REFUSALS - len(tries))]
        for seat, action in tries:
            if seat == actor and (
                key(action) in keys or declares_jokers(action) or not written(action)
            ):
                continue
            assert not game.can(seat, action), (seat, action, offered)
            try:
                game.apply(seat, action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"seat {seat} was allowed {action}, not offered")
            self.refused[type(action).__name__] += 1
        assert self.state() == before, "a refused action changes nothing"

    def acted(self, seat: int, action: Action, was: Before) -> None:
        """After ``seat`` took ``action``: only its hand changed, by what it drew or
        discarded; then every invariant."""
        deal = self.deal()
        for other, hand in enumerate(deal.hands):
            if other != seat:
                assert hand == was.hands[other], "an action changes no other seat's hand"
        gained = Counter(deal.hands[seat]) - Counter(was.hands[seat])
        lost = Counter(was.hands[seat]) - Counter(deal.hands[seat])
        if isinstance(action, Draw):
            taken = was.stock[-1:] if action.source == "stock" else was.pile[-action.depth :]
            assert gained == Counter(taken) and not lost, "a draw adds the cards drawn"
        if isinstance(action, Discard):
            assert lost == Counter([action.card]) and not gained, "a discard takes its card"
            assert deal.discard_pile[-1] is action.card, "the discard tops the pile"
        self.check()


# -- play ------------------------------------------------------------------------------------


def seat_shares(spec: VariantSpec, players: int, rng: random.Random) -> list[float]:
    if not spec.has("greedy"):
        return [0.0] * players
    shares = [rng.choice(GREEDY_SHARES) for _ in range(players)]
    shares[rng.randrange(players)] = GREEDY_SHARES[-1]
    return shares


def choose(game: Game, seat: int, share: float, bot: Bot, rng: random.Random) -> Action:
    """The greedy move (from the seat's own view) with probability ``share``, else a
    random legal action."""
    view = game.view(seat)
    if rng.random() < share:
        action = bot.choose(view)
        assert action in view.legal_actions, (action, view.legal_actions)
        return action
    return rng.choice(view.legal_actions)


def play(
    spec: VariantSpec,
    seed: int,
    *,
    check: bool = True,
    extra: Extra | None = None,
    refused: Counter[str] | None = None,
) -> Game:
    """Play seed ``seed`` of ``spec``: one deal, or every sixth seed a whole game (at most
    :data:`MAX_DEALS` deals); with ``check``, every invariant after every action (counting
    the actions refused in ``refused``), and ``extra`` (a variant's own checks) after every
    action too."""
    game, whole = start(spec, seed)
    chooser = random.Random(f"{spec.name} play {seed}")
    shares = seat_shares(spec, game.players, chooser)
    bots = [make_bot("greedy", seed=seed) for _ in range(game.players)]
    checker = None
    if check:
        checker = Checker(spec, game, random.Random(f"{spec.name} check {seed}"), refused)
    checks = [c for c in (checker and checker.dealt, extra and partial(extra, game)) if c]
    for run in checks:
        run()
    while not game.over:
        seat = game.to_play
        assert seat is not None
        action = choose(game, seat, shares[seat], bots[seat], chooser)
        was = checker.before() if checker is not None else None
        game.apply(seat, action)
        if checker is not None and was is not None:
            checker.acted(seat, action, was)
        if extra is not None:
            extra(game)
        if game.needs_deal:
            if not whole or len(game.deals) >= MAX_DEALS:
                break
            game.start_deal()
            for run in checks:
                run()
    return game
