"""Throwaway PostgreSQL databases for tests and benchmarks.

``.ci/with-postgres.sh`` starts a scratch cluster and sets
``REMI_TEST_POSTGRES_URL``; :func:`scratch_database` makes one empty
database on it per test and drops it afterwards.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.engine import make_url

ENV_VAR = "REMI_TEST_POSTGRES_URL"


@contextmanager
def scratch_database(admin_url: str) -> Iterator[str]:
    """The SQLAlchemy URL of a new, empty database on ``admin_url``'s server; dropped
    (connections and all) when the block ends."""
    import psycopg

    admin = make_url(admin_url).set(drivername="postgresql")
    name = f"remikit_test_{secrets.token_hex(6)}"
    dsn = admin.render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # the name is ours: no injection
    try:
        yield admin.set(drivername="postgresql+psycopg", database=name).render_as_string(
            hide_password=False
        )
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
