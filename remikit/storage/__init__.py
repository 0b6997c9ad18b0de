"""Persistence of web tables: configuration + seed + action list (DESIGN.md decision 1).

A table is stored as its configuration (variant, options, seats), the seed of
its deals and the list of actions applied so far; every state is rebuilt by
replaying them. Only a hash of each seat's token is kept.

Where the data lives:

* ``REMI_DATABASE_URL``, when set, is a SQLAlchemy URL:
  ``postgresql://user:password@host:5432/remikit`` for PostgreSQL (the
  psycopg driver is used), or ``sqlite:////path/to/file.db``.
* Otherwise a SQLite file: ``$REMI_DATA_DIR/remikit.db`` when ``REMI_DATA_DIR``
  is set, else ``~/.local/share/remikit/remikit.db`` (the folder is created).
"""

from __future__ import annotations

from remikit.storage.models import ActionRow, Base, TableRow
from remikit.storage.store import (
    DEFAULT_DB_NAME,
    Store,
    StoredTable,
    default_database_url,
    normalize_url,
)

__all__ = [
    "DEFAULT_DB_NAME",
    "ActionRow",
    "Base",
    "Store",
    "StoredTable",
    "TableRow",
    "default_database_url",
    "normalize_url",
]
