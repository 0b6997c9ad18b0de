"""What each competition request costs as the field grows (docs/performance.md,
Competition requests).

For each field size (``--players``, default 40 and 1,000) a ``remi serve`` subprocess
(its own SQLite file in a temporary folder, the per-client limits lifted) gets a new
competition. All but ``--samples`` players are written straight into its database
(registered, checked in, each with its two audit rows, as the API would leave them);
the last ``--samples`` are registered and checked in through the API, timed. Then round
1 is made, and at ``--samples`` physical tables the seat draw, a game's preview, entry
and confirmation are timed, besides the reads: the competition, the players, the
standings, the round, its missing games, a player's games and the audit log. Each
request is timed on the client, from sending it to the whole answer read, over
loopback. Last, the whole field again from one CSV file (``csv_import``) and checked
in by one request (``check_in_all``), where the server has these routes.

With ``--server-path DIR`` the same is measured first with the server of that
checkout (for example ``git archive`` of an older commit unpacked in a folder), and a
column gives the ratio before / after per request kind.

Run: ``python bench/bench_competition.py [--players 40 1000] [--samples 30]
[--server-path DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from typing import Any

import httpx
from sqlalchemy import MetaData, create_engine, insert

URL_LINE = re.compile(r"^remikit: open (http://127\.0\.0\.1:\d+/)$")
UNLIMITED = ("--create-rate", "--join-rate", "--max-client-tables")
DRAW = {"A": "As", "B": "Ks", "C": "Qs", "D": "Js"}
Timings = dict[str, list[float]]


def start(folder: str, server_path: str | None) -> tuple[subprocess.Popen[str], str]:
    """A server on a free loopback port over a SQLite file in ``folder``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REMI_")}
    if server_path:
        env["PYTHONPATH"] = server_path
    command = [sys.executable, "-m", "remikit", "serve", "--host", "127.0.0.1", "--port", "0"]
    command += ["--database", f"sqlite:///{folder}/bench.db", "--bot-delay", "0"]
    command += [part for flag in UNLIMITED for part in (flag, "0")]
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, text=True, env=env, cwd=server_path or None
    )
    assert server.stdout is not None
    ready, _, _ = select.select([server.stdout], [], [], 60)
    match = URL_LINE.match(server.stdout.readline().strip() if ready else "")
    if not match:
        server.kill()
        raise SystemExit("the server did not start")
    return server, match.group(1).rstrip("/")


def seed(folder: str, cid: str, count: int) -> None:
    """``count`` players registered and checked in, written straight into the database
    with the audit rows the API writes for them."""
    engine = create_engine(f"sqlite:///{folder}/bench.db")
    meta = MetaData()
    meta.reflect(engine, only=["competition_players", "competition_audit"])
    players, audit = meta.tables["competition_players"], meta.tables["competition_audit"]
    moment = datetime.now(UTC)
    rows, logs = [], []
    for number in range(1, count + 1):
        pid = f"P{number}"
        rows.append(
            {
                "competition_id": cid,
                "id": pid,
                "number": number,
                "name": f"Pemain {number}",
                "club": f"Klub {number % 50}",
                "contact": f"08{number:09d}",
                "status": "checked_in",
                "reason": None,
                "late": False,
                "created_at": moment,
            }
        )
        base = {"competition_id": cid, "at": moment, "who": "organiser", "role": "organiser"}
        base |= {"target": f"player:{pid}", "reason": None, "before": None}
        logs.append(base | {"what": "player.register", "after": {"name": f"Pemain {number}"}})
        logs.append(base | {"what": "player.check_in", "after": {"status": "checked_in"}})
    with engine.begin() as connection:
        connection.execute(insert(players), rows)
        connection.execute(insert(audit), logs)
    engine.dispose()


class Client:
    """Timed requests to one competition."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=120)
        self.times: Timings = {}
        self.cid = ""
        self.auth: dict[str, str] = {}

    def call(self, kind: str, method: str, path: str, body: Any = None, who: Any = None) -> Any:
        """The answer's JSON (None for a route the server lacks: an older server)."""
        started = time.perf_counter()
        answer = self.http.request(
            method, f"/api/competitions{self.cid and '/' + self.cid}{path}", json=body, headers=who
        )
        if answer.status_code in (404, 405) and answer.json()["error"]["code"] in (
            "not_found",
            "bad_method",
        ):
            return None
        self.times.setdefault(kind, []).append(time.perf_counter() - started)
        if answer.status_code >= 400:
            raise SystemExit(f"{kind}: {answer.status_code} {answer.text[:300]}")
        return answer.json()


def measure(url: str, folder: str, players: int, samples: int) -> Timings:
    client = Client(url)
    made = client.call(
        "create",
        "POST",
        "",
        {
            "name": "Bench",
            "date": "2026-12-05",
            "rounds": 3,
            "games": 4,
            "organiser_password": "panitia-bench",
            "referee_password": "wasit-bench",
        },
    )
    client.cid = made["competition"]["id"]
    org = {"Authorization": f"Bearer {made['token']}"}
    login = {"role": "referee", "password": "wasit-bench", "name": "Rina"}
    ref = {"Authorization": f"Bearer {client.call('login', 'POST', '/login', login)['token']}"}
    seed(folder, client.cid, players - samples)
    for index in range(samples):
        body = {"name": f"Baru {index}", "club": "Medan", "contact": None}
        pid = client.call("register", "POST", "/players", body, org)["player"]["id"]
        client.call("check_in", "POST", f"/players/{pid}/check-in", None, ref)
    for _ in range(samples):
        client.call("competition", "GET", "")
    for _ in range(5):
        client.call("players", "GET", "/players", None, org)
        client.call("standings", "GET", "/standings")
    client.call("make_round", "POST", "/rounds", {"online_tables": []}, org)
    tables = min(samples, players // 4)
    hands = {"points": [30, 10, -15, -25], "reason": "score sheet"}
    for table in range(1, tables + 1):
        client.call(
            "seat_draw", "POST", f"/rounds/1/tables/{table}/seat-draw", {"cards": DRAW}, ref
        )
        game = f"/rounds/1/tables/{table}/games/1"
        client.call("preview", "POST", f"{game}/preview", hands, ref)
        entry = client.call("enter", "POST", game, hands, ref)["entry"]
        mate = {"player": entry["players"][0]}
        client.call("confirm", "POST", f"/entries/{entry['id']}/confirm", mate, ref)
        client.call("round", "GET", "/rounds/1", None, ref)
        client.call("missing", "GET", "/rounds/1/missing")
        client.call("player_games", "GET", f"/players/P{table}/games")
    for _ in range(5):
        client.call("standings", "GET", "/standings")
        client.call("audit", "GET", "/audit", None, org)
    lines = "".join(f"Baru {i};Klub {i % 50};08{i:09d}\n" for i in range(1, players + 1))
    client.call("csv_import", "POST", "/players/import", {"csv": "nama;klub;kontak\n" + lines}, org)
    client.call("check_in_all", "POST", "/players/check-in", {"all": True}, org)
    client.http.close()
    return client.times


def run(server_path: str | None, sizes: list[int], samples: int) -> dict[int, Timings]:
    out = {}
    for players in sizes:
        with tempfile.TemporaryDirectory() as folder:
            server, url = start(folder, server_path)
            try:
                out[players] = measure(url, folder, players, min(samples, players))
            finally:
                server.terminate()
                server.wait(30)
    return out


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(after: dict[int, Timings], before: dict[int, Timings] | None) -> dict[str, Any]:
    heads = ["players", "request", "n", "median ms", "p99 ms"]
    if before is not None:
        heads += ["before median", "before p99", "ratio"]
    print("| " + " | ".join(heads) + " |")
    print("|" + "---|" * len(heads))
    summary: dict[str, Any] = {}
    for players, kinds in after.items():
        for kind, values in kinds.items():
            med, p99 = statistics.median(values) * 1000, quantile(values, 0.99) * 1000
            cells = [f"{players:,}", kind, str(len(values)), f"{med:.1f}", f"{p99:.1f}"]
            summary[f"{players}/{kind}"] = {"median_ms": med, "p99_ms": p99}
            old = None if before is None else before.get(players, {}).get(kind)
            if old:
                old_med = statistics.median(old) * 1000
                cells += [f"{old_med:.1f}", f"{quantile(old, 0.99) * 1000:.1f}"]
                cells.append(f"{old_med / med:.1f}×")
                summary[f"{players}/{kind}"]["before_median_ms"] = old_med
            elif before is not None:
                cells += ["", "", ""]
            print("| " + " | ".join(cells) + " |")
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[40, 1000])
    parser.add_argument("--samples", type=int, default=30, help="requests timed per kind")
    parser.add_argument("--server-path", default=None, help="a checkout to measure first")
    parser.add_argument("--json", default=None, help="write the figures to this file")
    args = parser.parse_args()
    before = run(args.server_path, args.players, args.samples) if args.server_path else None
    after = run(None, args.players, args.samples)
    summary = report(after, before)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(summary, out, indent=1)


if __name__ == "__main__":
    main()
