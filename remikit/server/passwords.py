"""Passwords as the server keeps them (a competition's accounts, a player's profile):
``hashlib.scrypt`` with a random salt, checked in constant time. The hashing is slow on
purpose; callers run it off the event loop."""

from __future__ import annotations

import hashlib
import hmac
import secrets

SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
MIN_PASSWORD = 10
"""The fewest characters of a password."""


def hash_password(password: str) -> str:
    """``scrypt$SALT$HASH`` (hex) of a password, with a random salt."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, **SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def password_matches(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` (a :func:`hash_password`) was made of."""
    _, salt, digest = stored.split("$")
    found = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), **SCRYPT)
    return hmac.compare_digest(found.hex(), digest)
