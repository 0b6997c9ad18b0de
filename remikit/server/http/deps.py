"""What a route takes from its request, as FastAPI dependencies: the hub, the server's
settings, who asks (for the per-client limits) and the language of the answer; and
:func:`bounded_numbers`, the bound on every whole number of a path or a query."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, get_args

from fastapi import Depends, Request
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from pydantic import TypeAdapter, ValidationError
from pydantic.fields import FieldInfo
from starlette.requests import HTTPConnection

from remikit.server.guard import MAX_INT
from remikit.server.problems import pick_lang
from remikit.server.settings import Settings
from remikit.server.tables.registry import Tables


def get_hub(conn: HTTPConnection) -> Tables:
    """Every table (made at start-up)."""
    hub: Tables = conn.app.state.hub
    return hub


def get_settings(conn: HTTPConnection) -> Settings:
    settings: Settings = conn.app.state.settings
    return settings


def request_lang(request: Request) -> str:
    """The language of the answer: ``?lang=``, else ``Accept-Language``, else English."""
    return pick_lang(request.query_params.get("lang") or request.headers.get("accept-language"))


HubDep = Annotated[Tables, Depends(get_hub)]


def client_key(request: Request, hub: HubDep) -> str | None:
    """Who asks, for the per-client limits (behind a proxy: as its headers say)."""
    return hub.limits.client(request.client.host if request.client else None)


SettingsDep = Annotated[Settings, Depends(get_settings)]
Lang = Annotated[str, Depends(request_lang)]
Client = Annotated[str | None, Depends(client_key)]

_WHOLE = TypeAdapter(int)
RANGE = {"ge", "le"}


def _unranged_whole(info: FieldInfo) -> bool:
    """Whether a field is a whole number without both ends of a range of its own
    (``Query(ge=0, le=20)`` refuses by itself)."""
    if not (info.annotation is int or int in get_args(info.annotation)):
        return False
    return {end for bound in info.metadata for end in RANGE if hasattr(bound, end)} != RANGE


def _number_fields(dependant: Dependant) -> Iterator[tuple[str, str]]:
    """``(where, name)`` of each unranged whole number of the path or query a route and
    its dependencies take."""
    for where, fields in (("path", dependant.path_params), ("query", dependant.query_params)):
        for field in fields:
            if _unranged_whole(field.field_info):
                yield where, field.alias
    for sub in dependant.dependencies:
        yield from _number_fields(sub)


def bounded_numbers(conn: HTTPConnection) -> None:
    """Refuse a whole number of the path or query outside a signed 64-bit column's range
    (422 ``bad_request``, as a route's own ranges refuse), whichever route takes it: a
    route with no range of its own would give it to SQLite, which cannot hold it."""
    dependant = getattr(conn.scope.get("route"), "dependant", None)
    if not isinstance(dependant, Dependant):
        return
    given = {"path": conn.path_params, "query": conn.query_params}
    errors: list[dict[str, Any]] = []
    for where, name in _number_fields(dependant):
        text = given[where].get(name)
        if text is None:
            continue
        try:
            value = _WHOLE.validate_python(text)
        except ValidationError:
            continue  # not a whole number: the route's own check says so
        if not -MAX_INT - 1 <= value <= MAX_INT:
            message = f"Input should be between {-MAX_INT - 1} and {MAX_INT}"
            errors.append({"loc": (where, name), "msg": message, "type": "int_range"})
    if errors:
        raise RequestValidationError(errors)
