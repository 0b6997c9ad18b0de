"""The browser client's unit tests (tests/js, under Node's test runner): its cards, fair-deal
checks, messages and log in words. Run here so that make test and make check run them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_client_unit_tests_pass() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed (.ci/install-node.sh installs it)")
        pytest.skip("node is not installed")
    run = subprocess.run(
        [node, "--test", "tests/js/"],
        cwd=ROOT,
        env={**os.environ, "REMIKIT_PYTHON": sys.executable},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
