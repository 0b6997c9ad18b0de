"""The database schema as Alembic migrations, shipped inside the package.

``versions/`` holds the revisions, oldest first: ``0001`` is the schema the
first releases made (``tables`` and ``actions``; it also adopts a database
they made, which has no ``alembic_version``), ``0002`` adds ``deals``, the
deck of every deal, and computes the decks of the tables already stored.
:class:`~remikit.storage.Store` calls :func:`upgrade` on every database it
opens, so no ``alembic.ini`` is needed; :func:`config` gives the same
configuration to Alembic's own commands (``alembic.command``), e.g. to write
a new revision::

    from alembic import command
    from remikit.storage.migrations import config
    cfg = config(url="sqlite:///scratch.db")
    command.upgrade(cfg, "head")
    command.revision(cfg, "what changes", autogenerate=True)
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

FOLDER = Path(__file__).resolve().parent
POSTGRES_LOCK = 0x72656D69  # "remi": one upgrade at a time on a PostgreSQL server


class NewerDatabase(Exception):
    """The database is at a revision this remikit does not know: a newer one made it."""

    def __init__(self, revision: str, head: str) -> None:
        super().__init__(
            f"the database is at schema revision {revision}, newer than this remikit "
            f"knows (up to {head})"
        )
        self.revision = revision
        self.head = head


def config(connection: Connection | None = None, *, url: str | None = None) -> Config:
    """Alembic's configuration for these migrations, on ``connection`` or ``url``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(FOLDER))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@cache
def scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(config())


def head() -> str:
    """The newest revision this remikit knows."""
    found = scripts().get_current_head()
    assert found is not None
    return found


def current(connection: Connection) -> str | None:
    """The revision the database is at (None: no ``alembic_version``, or empty)."""
    return MigrationContext.configure(connection).get_current_revision()


def known(revision: str) -> bool:
    return any(script.revision == revision for script in scripts().walk_revisions())


def upgrade(engine: Engine) -> None:
    """Bring the database to :func:`head` (nothing to do when it is there already);
    :class:`NewerDatabase` when a newer remikit has moved it past what this one knows."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":  # two servers starting at once upgrade in turn
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": POSTGRES_LOCK})
        revision = current(conn)
        if revision == head():
            return
        if revision is not None and not known(revision):
            raise NewerDatabase(revision, head())
        command.upgrade(config(conn), "head")
