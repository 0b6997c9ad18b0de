"""Persistence of web tables: configuration + decks + action list (DESIGN.md decision 1).

A table is stored as its configuration (variant, options, seats, the seed its
random sources derive from), the deck of each deal started so far and the
list of actions applied so far; every state is rebuilt by dealing those decks
and replaying those actions. Only a hash of each seat's token is kept. The
schema is made and upgraded by the Alembic migrations of
:mod:`remikit.storage.migrations`, run whenever a :class:`Store` opens a
database.

Where the data lives:

* ``REMI_DATABASE_URL``, when set, is a SQLAlchemy URL:
  ``postgresql://user:password@host:5432/remikit`` for PostgreSQL (the
  psycopg driver is used), or ``sqlite:////path/to/file.db``.
* Otherwise a SQLite file: ``$REMI_DATA_DIR/remikit.db`` when ``REMI_DATA_DIR``
  is set, else ``~/.local/share/remikit/remikit.db`` (the folder is created).
"""

from __future__ import annotations

from remikit.storage import competition as competition  # its tables, for the migrations
from remikit.storage import profiles as profiles  # its tables, for the migrations
from remikit.storage.keys import server_key
from remikit.storage.migrations import NewerDatabase
from remikit.storage.models import ActionRow, Base, CallRow, DealRow, KeyRow, TableRow
from remikit.storage.store import DEFAULT_DB_NAME, Store, default_database_url, normalize_url
from remikit.storage.stored import StoredFairness, StoredTable

__all__ = [
    "DEFAULT_DB_NAME",
    "ActionRow",
    "Base",
    "CallRow",
    "DealRow",
    "KeyRow",
    "NewerDatabase",
    "Store",
    "StoredFairness",
    "StoredTable",
    "TableRow",
    "default_database_url",
    "normalize_url",
    "server_key",
]
