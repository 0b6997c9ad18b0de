"""The server's CPU per action without the network: tables of one variant played in this
process through the server's own parts (the table service, its writer on SQLite, the
bot driver with `random` bots, no bot delay and call windows that close at once, and a
room with one socket of seat 0, whose messages are built, diffed and encoded but not
sent), seat 0 playing random legal actions. What it times, per action applied:

* ``loop``: the event loop's thread CPU (``time.thread_time``): everything but the
  writer's thread, without sockets, uvicorn or JSON parsing;
* ``room``: of it, building, diffing and encoding seat 0's messages (``Room.flush``);
* ``bot``: of it, the bots' decisions (``BotDriver.decision``).

Medians over ``--runs`` runs of the same seeded games. Compare two checkouts with
``--server-path`` (run each on its own, alternating).

    python bench/bench_states.py --actions 2000 --runs 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any


async def play(variant: str, actions: int, seed: int) -> dict[str, float]:
    from remikit.server.bots.driver import BotDriver, InProcess
    from remikit.server.settings import Settings
    from remikit.server.tables.registry import Tables
    from remikit.server.transport.connection import Connection
    from remikit.server.transport.rooms import Room, Rooms

    spent = {"room": 0.0, "bot": 0.0}

    def timed(name: str, fn: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            began = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += time.thread_time() - began

        return run

    Room.flush = timed("room", Room.flush)  # type: ignore[method-assign]
    folder = tempfile.mkdtemp(prefix="remikit-states-")
    settings = Settings(database_url=f"sqlite:///{folder}/bench.db", bot_delay=0.0, call_window=0.0)
    hub = Tables(settings)
    await hub.start()
    driver = BotDriver(InProcess(1), hub.clock, delay=0.0)
    decision = driver.decision

    async def decided(*args: Any) -> Any:
        began = time.thread_time()
        action = await decision(*args)
        spent["bot"] += time.thread_time() - began
        return action

    driver.decision = decided  # type: ignore[method-assign,assignment]
    hub.followers.append(driver.follow)
    rng = random.Random(seed)
    done = finished = 0
    players = hub_players(variant)
    began = time.thread_time()
    while done < actions:
        seats = [{"kind": "person"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
        table = await hub.create(
            variant=variant,
            options={},
            seats=seats,
            title=None,
            settings={"hints": True},
            seed=str(rng.randrange(1 << 30)),
        )
        table, seat, _ = await hub.join(table.id, name="Bench", seat=0, lang="en")
        room = Rooms().room(table)
        conn = Connection(None, seat, "en", limit=1 << 30)  # type: ignore[arg-type]
        room.attach(conn)
        changed = asyncio.Event()
        table.listen(partial(told, changed))
        while table.status != "finished" and done < actions:
            if table.to_move == seat:
                view = table.view(seat)
                await table.submit(seat, table.state_id, rng.choice(view.legal_actions))
            else:
                changed.clear()
                await changed.wait()  # the bots play
            done = finished + len(table.actions)
            while not conn.queue.empty():
                conn.queue.get_nowait()
        finished += len(table.actions)
        await table.stop()
    loop = time.thread_time() - began
    await hub.close()
    return {
        "loop": loop / done * 1e6,
        "room": spent["room"] / done * 1e6,
        "bot": spent["bot"] / done * 1e6,
    }


def told(changed: asyncio.Event, table: Any, event: Any) -> None:
    """A table's listener: something changed."""
    changed.set()


def hub_players(variant: str) -> int:
    from remikit.variants import find_playable

    players: int = find_playable(variant).game_class().options_type().players
    return players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="remi13d")
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-path", help="run the server of this checkout")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.server_path:
        sys.path.insert(0, str(Path(args.server_path).resolve()))
    runs = [asyncio.run(play(args.variant, args.actions, args.seed)) for _ in range(args.runs)]
    result = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    if args.json:
        print(json.dumps(result | {"runs": runs}))
        return
    print(f"bench_states: {args.variant}, {args.actions} actions a run, {args.runs} runs")
    for name, value in result.items():
        spread = ", ".join(f"{r[name]:.0f}" for r in runs)
        print(f"  {name:5} µs of CPU per action: median {value:.0f} ({spread})")


if __name__ == "__main__":
    main()
