"""Keys a server keeps across restarts (``server_keys``): drawn the first time one is
asked for, then the same for every start and every server on the database."""

from __future__ import annotations

from secrets import token_hex

from sqlalchemy.exc import IntegrityError

from remikit.storage.models import KeyRow
from remikit.storage.store import Store


def server_key(store: Store, name: str) -> str:
    """The key ``name`` (64 hex digits), drawn and stored the first time; of two servers
    drawing it at once, the first stored wins and both get it."""
    with store.session() as session:
        row = session.get(KeyRow, name)
        if row is not None:
            return row.value
    try:
        with store.transaction() as session:
            session.add(KeyRow(name=name, value=token_hex(32)))
    except IntegrityError:  # another server stored it first
        pass
    with store.session() as session:
        row = session.get(KeyRow, name)
        assert row is not None
        return row.value
