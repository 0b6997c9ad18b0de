"""The JSON bodies the HTTP API takes (docs/protocol.md §3), each field bounded."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints


class SeatRequest(BaseModel):
    kind: Literal["person", "bot"]
    level: str | None = Field(default=None, max_length=40)


OptionName = Annotated[str, StringConstraints(max_length=40)]


class CreateTableRequest(BaseModel):
    variant: str = Field(max_length=40)
    options: dict[OptionName, Any] = Field(default_factory=dict, max_length=32)
    seats: list[SeatRequest] | None = Field(default=None, max_length=16)
    title: str | None = Field(default=None, max_length=200)
    settings: dict[str, Any] = Field(default_factory=dict)
    lang: str | None = Field(default=None, max_length=16)


class DeckRequest(BaseModel):
    variant: str = Field(max_length=40)
    options: dict[OptionName, Any] = Field(default_factory=dict, max_length=32)


ENTROPY = r"^[0-9a-f]{64}$"
"""A contribution to a deal: 32 bytes in lowercase hex."""


class JoinRequest(BaseModel):
    name: str = Field(max_length=200)
    seat: int | None = Field(default=None, ge=0, le=15, strict=True)  # not true, 1.0 or "1"
    lang: str | None = Field(default=None, max_length=40)
    token: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{32,100}$")
    """The seat's token, made by the client (so asking again after a lost answer gives
    the same seat); the server makes one when it is absent."""
    entropy: str | None = Field(default=None, pattern=ENTROPY)
    """The person's contribution to the next deal (docs/fairness.md)."""
    profile_token: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{16,100}$")
    """The token of the profile the person is signed in to: the seat is the profile's."""


TOKEN = r"^[A-Za-z0-9_-]{16,100}$"


class TokenRequest(BaseModel):
    token: str = Field(pattern=TOKEN)


class RematchRequest(TokenRequest):
    entropy: str | None = Field(default=None, pattern=ENTROPY)
    """The contribution of the person who asks to the rematch's first deal."""


class ClaimRequest(BaseModel):
    code: str = Field(pattern=TOKEN)


class ReplaceRequest(BaseModel):
    owner_token: str = Field(pattern=TOKEN)
    kind: Literal["person", "bot"]
    level: str | None = Field(default=None, max_length=40)


class ClockRequest(BaseModel):
    seconds: float = Field(ge=0, le=86_400, allow_inf_nan=False)


class NewProfileRequest(BaseModel):
    name: str | None = Field(default=None, max_length=200)


class NameRequest(BaseModel):
    name: str = Field(max_length=200)


class PasswordRequest(BaseModel):
    password: str = Field(max_length=1000)


class SignInRequest(BaseModel):
    id: str = Field(pattern=r"^[A-Za-z0-9]{1,16}$")
    password: str = Field(max_length=1000)
