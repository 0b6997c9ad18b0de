"""How long the test suite takes: the fast tier (``make check``: every test not marked
``slow``), the slow tests alone, and the whole suite (``make test``), with the slowest
tests of each.

Each tier runs ``--runs`` times as ``pytest -n WORKERS`` from the repository's root, with
what is installed (browser and PostgreSQL tests skip without Chromium or
``REMI_TEST_POSTGRES_URL``); the figures are the median wall-clock time and the median CPU
time of pytest and its workers. The wall-clock time means something only on an otherwise
idle machine; the CPU time divided by the workers is near the wall-clock time an idle
machine would take (less the time tests spend waiting: servers, browsers, sleeps). The
results of runs on the development machine are in docs/performance.md.

Run: ``python bench/bench_tests.py [--tier fast|slow|full ...] [--runs N]
[--workers N|auto] [--slowest N]`` (by default the fast tier and the full suite).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from report import table

ROOT = Path(__file__).resolve().parent.parent
TIERS = {"fast": ["-m", "not slow"], "slow": ["-m", "slow"], "full": []}
SUMMARY = re.compile(r"(\d+) (passed|failed|skipped|deselected|errors?|xfailed|xpassed)")
DURATION = re.compile(r"^\s*([\d.]+)s (call|setup|teardown)\s+(.+?)\s*$")


@dataclass(frozen=True)
class Run:
    seconds: float
    cpu: float
    counts: dict[str, int]
    slowest: list[tuple[float, str]]
    ok: bool


def run_tier(tier: str, workers: str, slowest: int) -> Run:
    """One run of a tier: its wall-clock time, the counts pytest reports, the slowest tests."""
    command = [
        sys.executable,
        *["-m", "pytest", "-p", "no:cacheprovider", "-n"],
        workers,
        *TIERS[tier],
        f"--durations={slowest}",
        "tests",
        "remikit",
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cpu = cpu_seconds()
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    cpu = cpu_seconds() - cpu
    lines = done.stdout.splitlines()
    summary = next((line for line in reversed(lines) if SUMMARY.search(line)), "")
    counts = {kind: int(n) for n, kind in SUMMARY.findall(summary)}
    tests = [(float(m[1]), m[3]) for m in map(DURATION.match, lines) if m and m[2] == "call"]
    return Run(seconds, cpu, counts, tests, done.returncode in (0, 5))


def cpu_seconds() -> float:
    """The CPU time of every finished child process and its descendants, user and system."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", nargs="+", choices=sorted(TIERS), default=["fast", "full"])
    parser.add_argument("--runs", type=int, default=1, help="runs per tier (the median counts)")
    parser.add_argument("--workers", default="auto", help="pytest-xdist workers (-n)")
    parser.add_argument("--slowest", type=int, default=10, help="slowest tests to list")
    args = parser.parse_args()
    rows = []
    for tier in args.tier:
        runs = [run_tier(tier, args.workers, args.slowest) for _ in range(args.runs)]
        times = [r.seconds for r in runs]
        last = runs[-1]
        counts = ", ".join(f"{n} {kind}" for kind, n in last.counts.items())
        rows.append(
            [
                tier,
                f"{statistics.median(times):.0f}",
                f"{min(times):.0f}",
                f"{max(times):.0f}",
                f"{statistics.median(r.cpu for r in runs):.0f}",
                "yes" if all(r.ok for r in runs) else "NO",
                counts,
            ]
        )
        table(
            f"The {tier} tier's slowest tests (last run, seconds)",
            "test:110 s:7",
            [[name, f"{seconds:.1f}"] for seconds, name in last.slowest],
        )
    table(
        f"Test suite time, seconds ({args.runs} run(s) per tier, -n {args.workers},"
        f" {os.cpu_count()} CPUs; wall clock and CPU)",
        "tier:5 median:7 min:6 max:6 cpu:6 green:6 counts:50",
        rows,
        "load average at the end (1, 5, 15 minutes): "
        + ", ".join(f"{load:.1f}" for load in os.getloadavg()),
    )


if __name__ == "__main__":
    main()
