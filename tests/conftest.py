"""Shared test helpers: stacked decks for scenario tests, the fixtures in tests/data."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from remikit import solver
from remikit.server.settings import ALLOWED_HOSTS_ENV
from remikit.storage.testing import ENV_VAR, scratch_database
from remikit.variants import register
from tests import changes_client
from tests.stacked import Stacked, stack_deck
from tests.toy import SPEC as TOY

register(TOY)  # a variant defined in tests/ alone, covered by every test over the registry
collect_ignore = ["toy"]  # its modules are the variant, not tests (nor doctests)
changes_client.install()  # sockets hand tests whole states, changes applied

DATA = Path(__file__).resolve().parent / "data"
"""Records and score vectors from an independent implementation (docs/contract.md)."""


@pytest.fixture(autouse=True, scope="session")
def test_client_host() -> Iterator[None]:
    """The test client's host (``testserver``) is one the server answers to
    (``REMI_ALLOWED_HOSTS``, remikit/server/hosts.py): every other host is refused."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ALLOWED_HOSTS_ENV, "testserver")
        yield


@pytest.fixture
def stacked() -> Stacked:
    """:func:`tests.stacked.stack_deck`: a deck that deals chosen hands."""
    return stack_deck


@pytest.fixture(params=["compiled", "python"])
def search(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each solver search in turn: the compiled one (skipped where remikit was built
    without it), then the pure-Python reference (:func:`remikit.solver.pure_python`)."""
    if request.param == "compiled":
        if not solver.COMPILED:
            pytest.skip("remikit was built without its compiled search")
        yield "compiled"
    else:
        with solver.pure_python():
            yield "python"


@pytest.fixture
def data() -> Path:
    """tests/data: ``records/`` (games with their expected results) and ``vectors/``."""
    return DATA


def postgres_admin_url() -> str:
    """The PostgreSQL server of ``make test`` (.ci/with-postgres.sh); its tests skip
    without one, except in CI, where they must run."""
    url = os.environ.get(ENV_VAR, "")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail(
                f"{ENV_VAR} is not set: in CI the PostgreSQL tests must run "
                "(make test starts a cluster with .ci/with-postgres.sh)"
            )
        pytest.skip(f"no PostgreSQL server ({ENV_VAR} unset; make test starts one)")
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database of each kind: a SQLite file, then a scratch PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'remikit.db'}"
    else:
        with scratch_database(postgres_admin_url()) as url:
            yield url
