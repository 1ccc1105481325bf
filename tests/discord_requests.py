"""Every request the bot makes to SimCord's Discord, as sent: method, path, JSON body and the
names of the files uploaded with it (SimCord's router sees both of discord.py's transports, the
bot's HTTP client and the interaction webhooks)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from simcord.http import router


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    json: Any
    files: tuple[str, ...]

    @property
    def route(self) -> str:
        return f"{self.method} {self.path}"


@contextmanager
def recorded(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Request]]:
    """The requests made inside, in order."""
    seen: list[Request] = []
    dispatch = router.dispatch

    def recording(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        files = tuple(str(getattr(f, "filename", "")) for f in kwargs.get("files") or ())
        seen.append(Request(method, path, kwargs.get("json"), files))
        return dispatch(backend, method, path, **kwargs)

    monkeypatch.setattr(router, "dispatch", recording)
    yield seen


def attachment_references(body: Any) -> list[str]:
    """Every ``attachment://name`` a request body names, anywhere in it."""
    if isinstance(body, str):
        return [body.removeprefix("attachment://")] if body.startswith("attachment://") else []
    if isinstance(body, dict):
        return [name for value in body.values() for name in attachment_references(value)]
    if isinstance(body, list):
        return [name for value in body for name in attachment_references(value)]
    return []


def unsent_pictures(requests: list[Request]) -> list[str]:
    """The requests that name a picture they do not upload (Discord finds an
    ``attachment://`` name only among the files of the same request)."""
    return [
        f"{r.route} names attachment://{name} but uploads {list(r.files)}"
        for r in requests
        for name in attachment_references(r.json)
        if name not in r.files
    ]
