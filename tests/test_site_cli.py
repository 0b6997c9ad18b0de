"""``remi serve --redis`` refuses what cannot make a site of several processes, with exit
status 2 and a message that says why (docs/contract.md, docs/deploy.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ((), "needs a PostgreSQL database"),
        (("--host", "0.0.0.0"), "needs --node-url"),
    ],
)
def test_a_site_needs_postgres_and_an_address(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    done = subprocess.run(
        [
            *(sys.executable, "-m", "remikit", "serve", "--redis", "redis://127.0.0.1:1/0"),
            *("--database", f"sqlite:///{tmp_path / 'site.db'}", *args),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "LANG": "en_US.UTF-8"},
    )
    assert done.returncode == 2, done.stderr
    assert said in done.stderr
