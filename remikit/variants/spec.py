"""What remikit knows about one variant, in one place.

A :class:`VariantSpec` is declared in the variant's own package
(``remikit/variants/<name>/__init__.py``) and registered once. It holds the
core parts directly (the :class:`~remikit.engine.Game` class and the scorer
``remi score`` and :func:`remikit.score` call) and names the front-end parts
(greedy strategy, strong tactics, terminal UI) by import string, so that
importing a variant never imports a bot, ``rich`` or a web framework. Its
:class:`ClientInfo` tells a client (the browser's table) how to draw the
variant's table without knowing its name.

>>> from remikit.variants import find_variant
>>> spec = find_variant("500")
>>> spec.name, spec.title("id"), spec.titles["en"]
('rummy500', 'Remi 500', 'Rummy 500')
>>> spec.part("greedy").__name__
'Rummy500Strategy'
>>> client = spec.client_json()
>>> client["deal"], client["length"], client["table_melds"], client["calls_option"]
('hand', 'target', True, 'rummy_calls')
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module, resources
from typing import TYPE_CHECKING, Any, Literal, cast

from remikit.cards import JOKER, Card
from remikit.errors import Reason
from remikit.i18n import LANGUAGES, N_, t
from remikit.melds import Meld

if TYPE_CHECKING:
    from remikit.deal import DealPhase
    from remikit.engine import Game, OptionInfo
    from remikit.variants.remi13d.seating import SeatDraw

Part = Literal["greedy", "tactics", "tui", "review", "lay_down", "advice", "openspiel", "stats"]
"""The front-end parts a playable variant names by import string (``lay_down``: the next
step of a seat's best laying down, from its view, where the variant has one; ``advice``:
the web table's hints, an :class:`~remikit.server.advice.Advisor`; ``openspiel``: a class
whose ``play_hand`` plays a hand in OpenSpiel's own engine, which ``remi openspiel``
runs, where OpenSpiel has the game; ``stats``: a function of a deal's summary and a seat
that names what a player's statistics count of the deal beyond how it ended)."""

PARTS: tuple[Part, ...] = ("greedy", "tactics", "tui", "review")
"""The parts every playable variant has."""
OPTIONAL_PARTS: tuple[Part, ...] = ("lay_down", "advice", "openspiel", "stats")


class ScoreInputError(ValueError):
    """A hand or keyword a scorer cannot take; ``key`` and ``params`` name the message
    (``score.*`` in :mod:`remikit.i18n`) that says why, in either language."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return t(self.key, "en", **self.params)


@dataclass(frozen=True)
class Scored:
    """A scored hand. ``points`` is None for a close the rules refuse, with ``refusal``
    saying why.

    ``title`` heads the report; ``notes`` (message keys of :mod:`remikit.i18n`) follow
    it. Where ``shows_points``, the report gives each meld's points and the dead
    cards' (``dead_points``), and ``points`` is a score; otherwise it is deadwood.
    """

    variant: str
    points: int | None
    can_close: bool
    melds: tuple[Meld, ...] = ()
    dead: tuple[Card, ...] = ()
    refusal: Reason | None = None
    title: Reason = field(default_factory=Reason)
    notes: tuple[str, ...] = ()
    shows_points: bool = False
    dead_points: int | None = None


class Scorer:
    """How ``remi score`` scores a variant: which keywords it takes and the score."""

    copies: int = 2
    """How many copies of a natural card the decks hold."""
    jokers: int = 4
    """How many jokers the decks hold."""

    def check_keywords(
        self, *, closing: Card | None, round_no: object, ace: object, pure_run: object
    ) -> None:
        """Raise :class:`ScoreInputError` for a keyword this variant does not take."""

    def check_size(self, hand: Sequence[Card], *, round_no: int | None) -> None:
        """Raise :class:`ScoreInputError` unless the hand has a size this variant scores."""

    def score(
        self,
        hand: Sequence[Card],
        *,
        closing: Card | None,
        round_no: int | None,
        ace: str | None,
        pure_run: str | None,
    ) -> Scored:
        """The score of a checked hand."""
        raise NotImplementedError

    def check(
        self,
        hand: Sequence[Card],
        *,
        closing: Card | None,
        round_no: object,
        ace: object,
        pure_run: object = None,
    ) -> None:
        """Raise :class:`ScoreInputError` for anything this variant cannot score: a keyword,
        the hand's size, more copies of a card than the decks hold."""
        self.check_keywords(closing=closing, round_no=round_no, ace=ace, pure_run=pure_run)
        self.check_size(hand, round_no=cast(int | None, round_no))
        cards = [*hand, closing] if closing is not None else hand
        distinct = {card.index for card in cards}
        if len(distinct) == len(cards) and (self.jokers or JOKER.index not in distinct):
            return  # one of each card: within every deck's copies
        for card, count in Counter(cards).items():
            limit = self.jokers if card is JOKER else self.copies
            if count > limit:
                raise ScoreInputError("score.too_many_copies", count=count, card=card, limit=limit)


@dataclass(frozen=True)
class ClientInfo:
    """What a client needs to draw a table of the variant without knowing its name.

    Message keys name entries of the catalogue (:mod:`remikit.i18n`), marked with
    :func:`~remikit.i18n.N_` where they are declared so that extraction finds them.
    """

    deal: str
    """What a deal is called (``game``, ``hand``, ``round``): the browser names it with the
    messages it keeps for each (``table.deal.game`` with ``{n}`` and ``{of}``, the length,
    ``end.deal_over.game``, ``scores.deal_word.game``)."""
    length: str | int
    """How long a game is: the option that says (``games``, ``target``) or a fixed number
    of deals."""
    clockwise: bool = True
    """Play passes to the left: the next player sits on the left, the previous one on the right."""
    discard_first: bool = False
    """The discard pile lies before the stock, by the previous player, and is labelled with
    whose discard it is."""
    spread_discards: bool = False
    """The discard pile is spread out and a card at any depth may be taken (with those above)."""
    table_melds: bool = False
    """Melds are laid on the table during play, and cards laid off on them."""
    closing: bool = False
    """A player may close (tutup) with a card instead of discarding it."""
    knocking: bool = False
    """A player may knock with a card instead of discarding it, then lay down (Gin Rummy)."""
    calls_option: str | None = None
    """The boolean option that lets players call (Rummy!) on a discard; None without calls."""
    wild_ranks: tuple[str, ...] = ()
    """The wild rank of each deal (deal ``n``'s at ``n - 1``), where every deal has one."""
    draw_hint: str = N_("table.hint_draw")
    """The key of the hint in the draw phase."""
    discard_hint: str = N_("table.hint_discard")
    """The key of the hint in the discard phase."""
    options: tuple[str, ...] = ()
    """The order the table options are offered in; options not named come after, in
    declaration order. Each option declares its label and its choices' labels
    (:func:`remikit.engine.option`)."""

    def as_json(self, game: type[Game]) -> dict[str, Any]:
        """The client info as JSON, with the game's ``lower_is_better``."""
        return {
            "deal": self.deal,
            "length": self.length,
            "clockwise": self.clockwise,
            "discard_first": self.discard_first,
            "spread_discards": self.spread_discards,
            "table_melds": self.table_melds,
            "closing": self.closing,
            "knocking": self.knocking,
            "calls_option": self.calls_option,
            "wild_ranks": list(self.wild_ranks),
            "hints": {"draw": self.draw_hint, "discard": self.discard_hint},
            "lower_is_better": game.lower_is_better,
            "options": list(self.options),
            "actions": {
                kind.verb: kind.said for kind in game.deal_type.phases if kind.said is not None
            },
        }


@dataclass(frozen=True)
class VariantSpec:
    """A variant: its names, its game, its scorer and its front-end parts."""

    name: str
    aliases: tuple[str, ...]
    title_key: str
    """The message id of the variant's name (``variant.rummy500``)."""
    game: type[Game] | None = None
    """The game class, or None for a variant ``remi score`` scores but no table plays."""
    scorer: Scorer | None = None
    parts: dict[str, str] = field(default_factory=dict)
    """Import strings ``module:attribute`` of the greedy strategy, strong tactics, TUI,
    lay-down step and hints."""
    seating: Callable[[random.Random, int], SeatDraw] | None = None
    """The seat draw a table holds once every seat is taken (R13-2), or None: everyone
    plays from the seat taken."""
    client: ClientInfo | None = None
    """How a client draws its table; every playable variant has one."""
    option_rules: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Option → the rule of docs/rules.md it changes and the message id of its help
    (the lobby shows the help with a link to the rule)."""
    rules_section: str | None = None
    """The number of the section of docs/rules.md that holds the variant's rules."""
    rule_prefix: str | None = None
    """How the variant's rule ids begin (``R5-``, ``G-``)."""
    review_marks: tuple[float, float, float] = (5.0, 15.0, 40.0)
    """A game review's marks, in the points its search counts: a decision that costs at
    least this much is an inaccuracy, a mistake, a blunder (docs/review.md)."""
    competition: bool = False
    """Whether competitions (docs/competition.md) are played in this variant: one variant
    is, its hands entered by referees and scored by its :attr:`scorer`."""
    env_module: str | None = None
    """The name of the variant's PettingZoo module under :mod:`remikit.envs` (``gin_v0``);
    its version changes whenever its observations, actions or rewards change."""
    gym_id: str | None = None
    """The variant's Gymnasium id (``remikit/Gin-v0``), registered by :mod:`remikit.envs.gym`."""
    phase_slots: Mapping[DealPhase, int] = field(default_factory=dict)
    """Where each of the variant's own phases (beyond draw, discard and over) lies in the
    phase one-hot of the environments' observation (:mod:`remikit.envs.planes`): a slot
    from 2 to 7, kept once an environment is published (docs/envs.md)."""
    ladder: str | None = None
    """The file of the variant's package that holds its bot levels' measured ladder
    (``remi ladder VARIANT --out FILE``, docs/strength.md), as ``package:file``; None where
    none was measured."""

    def title(self, lang: str) -> str:
        return t(self.title_key, lang)

    @property
    def titles(self) -> dict[str, str]:
        """The variant's name in every language of the catalogue."""
        return {lang: t(self.title_key, lang) for lang in LANGUAGES}

    @property
    def playable(self) -> bool:
        return self.game is not None

    def game_class(self) -> type[Game]:
        """The game class; ValueError for a variant no table plays."""
        if self.game is None:
            raise ValueError(f"{self.name} is scored only (remi score); no table plays it")
        return self.game

    @property
    def package(self) -> str:
        """The variant's own package (``remikit.variants.gin``), where its data files lie."""
        return self.game_class().__module__.rpartition(".")[0]

    def client_json(self) -> dict[str, Any]:
        """What a client needs to draw a table of this variant (:class:`ClientInfo`)."""
        if self.client is None:
            raise ValueError(f"{self.name} has no client info")
        return self.client.as_json(self.game_class())

    def options(self) -> tuple[OptionInfo, ...]:
        """The table options in the order clients offer them (:attr:`ClientInfo.options`)."""
        described = self.game_class().options_type.describe()
        order = self.client.options if self.client is not None else ()
        rank = {name: i for i, name in enumerate(order)}
        return tuple(sorted(described, key=lambda o: rank.get(o.name, len(order))))

    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    def part(self, part: Part) -> Any:
        """The front-end part ``part`` (imported on first use)."""
        target = self.parts.get(part)
        if target is None:
            raise LookupError(f"{self.name} has no {part}")
        module, _, attribute = target.partition(":")
        return getattr(import_module(module), attribute)

    def has(self, part: Part) -> bool:
        return part in self.parts

    def ladder_json(self) -> dict[str, Any] | None:
        """The variant's measured ladder (docs/contract.md, ``remi ladder``), or None where
        it names none or its file is missing; the same object each call (read it only)."""
        return None if self.ladder is None else package_json(self.ladder)


@cache
def package_json(target: str) -> dict[str, Any] | None:
    """The JSON object in the file ``package:file`` of an installed package, or None when
    the file is not there (read once)."""
    package, _, name = target.partition(":")
    try:
        text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"{target} holds no JSON object")
    return data
