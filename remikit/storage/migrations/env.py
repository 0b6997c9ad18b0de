"""Alembic's environment for remikit's database (run by Alembic, not imported).

:func:`remikit.storage.migrations.upgrade` hands it an open connection in
``config.attributes["connection"]``; without one (the ``alembic`` command with
a ``sqlalchemy.url``) it connects to that URL itself.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from remikit.storage.models import Base


def run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    config = context.config
    if context.is_offline_mode():
        context.configure(
            url=config.get_main_option("sqlalchemy.url"),
            target_metadata=Base.metadata,
            literal_binds=True,
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = config.attributes.get("connection")
    if connection is not None:
        run(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("remikit's migrations need a connection or a sqlalchemy.url")
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            run(conn)
    finally:
        engine.dispose()


if hasattr(context, "config"):  # Alembic is running this file (an import for doctests is not)
    main()
