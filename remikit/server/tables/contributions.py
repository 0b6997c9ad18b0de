"""The fair-deal part of a live table (docs/fairness.md): the next deal's secret is drawn
during the one before, and the people at the table may add their contribution to it."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from remikit.server.problems import Problem
from remikit.server.tables.events import Changed, Event
from remikit.server.tables.fair_deals import FairDeal
from remikit.storage import Store

if TYPE_CHECKING:
    from remikit.engine import Game
    from remikit.server.tables.seats import SeatConfig
    from remikit.storage.writer import Writer

log = logging.getLogger("remikit.server")


class Contributions:
    """The contributions part of :class:`remikit.server.tables.service.Table`."""

    id: str
    game: Game
    seed: str
    seats: list[SeatConfig]
    fair: dict[int, FairDeal]
    fixed_seed: bool
    lock: asyncio.Lock
    writer: Writer

    if TYPE_CHECKING:

        def emit(self, event: Event) -> None: ...

    @property
    def next_deal(self) -> int | None:
        """The number of the deal after the one in play (1 before any), if the game goes
        on."""
        return None if self.game.over else len(self.game.deals) + 1

    def takes_contribution(self, seat: int | None, config: SeatConfig | None = None) -> bool:
        """Whether ``seat`` (who sits there: ``config``, by default the seat's own) may
        contribute to the next deal now: a person's seat that has not yet, at a table not
        made with a fixed seed."""
        number = self.next_deal
        if seat is None or self.fixed_seed or number not in self.fair:
            return False
        config = config or self.seats[seat]
        return (
            config.kind == "person"
            and config.token_hash is not None
            and self.fair[number].contributions[seat] is None
        )

    def contribution(
        self, seat: int, entropy: bytes, config: SeatConfig | None = None
    ) -> tuple[int, list[bytes | None]] | None:
        """The next deal and its contributions with ``entropy`` added as ``seat``'s (its
        person: ``config``, by default the seat's own; the lock is held; nothing changes
        until the caller has stored them and calls :meth:`contributed`); None when that
        one is already in; :class:`Problem` when the seat may not contribute
        (``contribution_closed``, ``contributed_already``)."""
        number = self.next_deal
        fair = self.fair.get(number) if number is not None else None
        if fair is None:
            raise Problem("contribution_closed", "server.contribution_closed", status=409)
        given = fair.contributions[seat]
        if given is not None:
            if given == entropy:
                return None
            raise Problem("contributed_already", "server.contributed_already", status=409)
        if not self.takes_contribution(seat, config):
            raise Problem("contribution_closed", "server.contribution_closed", status=409)
        contributions = list(fair.contributions)
        contributions[seat] = entropy
        return fair.number, contributions

    def contributed(self, number: int, contributions: list[bytes | None]) -> None:
        self.fair[number].contributions = contributions

    async def contribute(self, seat: int, deal: int, entropy: bytes) -> None:
        """Take ``seat``'s contribution to deal ``deal`` (the next one), stored before it
        is acknowledged; :class:`Problem` if refused."""
        async with self.lock:
            if deal != self.next_deal:
                raise Problem("contribution_closed", "server.contribution_closed", status=409)
            change = self.contribution(seat, entropy)
            if change is None:
                return
            number, contributions = change
            table_id, texts = self.id, [c.hex() if c else None for c in contributions]
            try:
                await self.writer.run(
                    lambda s: Store.set_contributions(s, table_id, number, texts), table=table_id
                )
            except Exception:
                log.exception("table %s: could not store a contribution", self.id)
                raise Problem("storage", "server.storage", status=503) from None
            self.contributed(number, contributions)
            self.emit(Changed(seat))

    def draw_fair(self, number: int) -> FairDeal:
        """A new secret for deal ``number`` (not yet stored)."""
        seed = self.seed if self.fixed_seed else None
        return FairDeal.draw(self.id, number, self.game.players, seed)
