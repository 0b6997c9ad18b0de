"""A person's table keeps its bots' pace while other tables' bots search.

A ``remi serve`` subprocess gets ``--strong`` tables of bots only (default 100, each
with ``--strong-level`` bots, default ``strong@3``: searches of up to 3 s a decision),
made from ``--creators`` client addresses' worth of tables (the per-client limits are
lifted: the bench is one address). Then one Remi 13 D table with a person (this script,
over a WebSocket) and three ``greedy`` bots; the person plays as soon as it may. The
gaps between the state changes of that table are measured, first with the server idle
(no strong tables), then with the strong tables playing.

Target (docs/performance.md): with the strong tables, the person's table's median gap
within 20% of the idle one, and no gap over 2 s.

Run: ``python bench/bench_bot_lanes.py [--strong 100] [--seconds 45]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import SOCKET, post, start_server

from remikit.server.transport.changes import apply_change

BOT_LIMITS = ("--max-client-bot-tables", "--max-bot-tables")


def quick_move(view: dict[str, Any]) -> str | None:
    legal: list[str] = view["legal_actions"]
    for prefix in ("close", "draw stock", "discard"):
        for action in legal:
            if action.startswith(prefix):
                return action
    return legal[0] if legal else None


async def person_table(base: str, seconds: float) -> list[float]:
    """Play a person's seat against three greedy bots for ``seconds``: the gaps between
    the table's states."""
    seats = [{"kind": "person"}] + [{"kind": "bot", "level": "greedy"}] * 3
    table = post(base + "api/tables", {"variant": "remi13d", "seats": seats})["table"]
    token = post(f"{base}api/tables/{table['id']}/join", {"name": "Bench"})["token"]
    ws_url = base.replace("http://", "ws://")
    gaps: list[float] = []
    async with connect(f"{ws_url}ws/tables/{table['id']}", **SOCKET) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        state: dict[str, Any] = {}
        last_id, last_at = -1, time.monotonic()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
            except TimeoutError:
                break
            message = json.loads(raw)
            if message["type"] == "change" and state.get("rev") == message["base"]:
                state = apply_change(state, message)
            elif message["type"] == "state":
                state = message
            else:
                continue
            now = time.monotonic()
            if state["state_id"] > last_id:
                if last_id >= 0:
                    gaps.append(now - last_at)
                last_id, last_at = state["state_id"], now
            view = state["view"]
            if view["game_over"]:
                break
            move = quick_move(view) if view["to_play"] == view["seat"] else None
            if move is not None and state["call_window"] is None:
                await ws.send(
                    json.dumps({"type": "action", "state_id": state["state_id"], "action": move})
                )
    return gaps


def summary(name: str, gaps: list[float]) -> str:
    if not gaps:
        return f"  {name}: no state changes"
    ordered = sorted(gaps)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"  {name}: {len(gaps)} gaps, median {statistics.median(gaps):.3f} s, "
        f"p99 {p99:.3f} s, max {max(gaps):.3f} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strong", type=int, default=100)
    parser.add_argument("--strong-level", default="strong@3")
    parser.add_argument("--seconds", type=float, default=45)
    parser.add_argument("--bot-delay", type=float, default=0.8)
    parser.add_argument("--call-window", type=float, default=1.0)
    parser.add_argument("--bot-threads", type=int, default=4)
    parser.add_argument("--bot-workers", type=int, default=None)
    parser.add_argument(
        "--server-path", default=None, help="run the server of this checkout (PYTHONPATH)"
    )
    args = parser.parse_args()
    extra = [part for flag in BOT_LIMITS for part in (flag, "0")]
    if args.bot_workers is not None:
        extra += ["--bot-workers", str(args.bot_workers)]
    with tempfile.TemporaryDirectory() as folder:
        server, base = start_server(folder, args, extra=extra)
        try:
            idle = asyncio.run(person_table(base, args.seconds))
            bots = [{"kind": "bot", "level": args.strong_level}] * 4
            for _ in range(args.strong):
                post(base + "api/tables", {"variant": "remi13d", "seats": bots})
            time.sleep(2)  # the searches are under way
            loaded = asyncio.run(person_table(base, args.seconds))
        finally:
            server.terminate()
            server.wait(30)
    print(
        f"bench_bot_lanes: a person and 3 greedy bots, bot delay {args.bot_delay} s; "
        f"then with {args.strong} tables of {args.strong_level} bots"
    )
    print(summary("idle server", idle))
    print(summary(f"{args.strong} strong tables", loaded))
    if idle and loaded:
        ratio = statistics.median(loaded) / statistics.median(idle)
        print(f"  median gap ratio (loaded / idle): {ratio:.2f}; target <= 1.20, no gap over 2 s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
