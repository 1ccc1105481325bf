"""Every request the bot makes to SimCord's Discord, as sent (method, path, JSON body and the names
of the files uploaded with it: SimCord's router sees both of discord.py's transports, the bot's
HTTP client and the interaction webhooks, with a multipart ``payload_json`` already read), and
the contract those requests are held to on real Discord:

- each request is resolved to the operation of Discord's OpenAPI specification it calls (the npm
  package ``discord-api-spec``, pinned in ``tests/discord_spec/package.json``; ``./dev`` installs
  it and turns it into ``tests/discord_spec/build/discord-requests.json``), and its JSON body is
  validated against that operation's request body schema;
- a message's components are held to the documented limits of Discord's components
  (``LIMITS``: 40 components in a Components V2 message, nested ones counted, 5 action rows in
  any other, custom ids unique in a message, ...), which the schema of one component cannot say;
- every ``attachment://`` name a body uses is uploaded in the same request.

``Contract.check`` returns the violations of one request, each naming the route, the field and
the rule; ``contract`` (on every test in ``tests/bot/discord/e2e`` and ``tests/bot/web``, see
tests/conftest.py) checks every request a test makes and fails the test on a violation.

One leniency, on purpose: the spec types a snowflake as a string of digits, while discord.py
sends the ids it puts in a body (a DM's ``recipient_id``...) as JSON integers, which Discord has
always read as the same id; a non-negative integer is accepted where the spec wants a snowflake.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from simcord.http import router

SPEC_FILE = Path(__file__).parent / "discord_spec" / "build" / "discord-requests.json"
COMPONENTS_V2 = 1 << 15
"""The message flag IS_COMPONENTS_V2."""
V2_TYPES = frozenset({9, 10, 11, 12, 13, 14, 17})
"""Section, text display, thumbnail, media gallery, file, separator, container: Components V2."""
LINK, PREMIUM = 5, 6
LIMITS = {
    "components": 40,  # "Messages allow up to 40 total components" (Components V2)
    "legacy_rows": 5,  # "Legacy messages allow up to 5 action rows as top-level components"
    "custom_id": 100,  # "a string of 1 to 100 characters", unique in a message
    "button_label": 80,  # a button's label: "max 80 characters"
    "select_options": 25,  # a string select's options: "max 25"
    "option_text": 100,  # an option's label, value and description: "max 100 characters"
    "placeholder": 150,  # a select's placeholder: "max 150 characters"
    "gallery_items": 10,  # a media gallery: "1 to 10 media gallery items"
    "section_texts": 3,  # a section: "One to three child components"
    "media_description": 1024,  # a gallery item's or thumbnail's alt text: "max 1024 characters"
    "text_display": 4000,  # a text display's content (the spec: 1 to 4000 characters)
}
"""Discord's documented component limits (developers/components/reference), checked over the
whole message; the spec states the ones it can for each component too."""


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
    with _watching(monkeypatch, seen.append):
        yield seen


@contextmanager
def _watching(monkeypatch: pytest.MonkeyPatch, see: Callable[[Request], None]) -> Iterator[None]:
    dispatch = router.dispatch

    def watched(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        files = tuple(str(getattr(f, "filename", "")) for f in kwargs.get("files") or ())
        see(Request(method, path, kwargs.get("json"), files))
        return dispatch(backend, method, path, **kwargs)

    monkeypatch.setattr(router, "dispatch", watched)
    yield


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


# The specification


class SpecMissing(Exception):
    pass


def _inline(schema: Any, defs: dict[str, Any], done: dict[str, Any], open_: set[str]) -> Any:
    """``schema`` with every ``#/$defs/Name`` replaced by that schema, itself inlined (each
    name once: later uses share the same object); a reference back into a schema being
    inlined (a recursive type) stays a reference."""
    if isinstance(schema, list):
        return [_inline(item, defs, done, open_) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and len(schema) == 1:
        name = ref.removeprefix("#/$defs/")
        if name in done:
            return done[name]
        if name in open_:
            return schema
        open_.add(name)
        done[name] = _inline(defs[name], defs, done, open_)
        open_.discard(name)
        return done[name]
    return {key: _inline(value, defs, done, open_) for key, value in schema.items()}


def _kinds(branch: Any) -> list[Any] | None:
    """The values of ``type`` a union's branch takes (its discriminator), if it says."""
    if not isinstance(branch, dict):
        return None
    kind = branch.get("properties", {}).get("type")
    if not isinstance(kind, dict) or "type" not in branch.get("required", ()):
        return None
    if "const" in kind:
        return [kind["const"]]
    enum = kind.get("enum")
    return list(enum) if isinstance(enum, list) else None


def _by_type(schema: Any, memo: dict[int, tuple[Any, Any]]) -> Any:
    """``schema`` with each union of objects told apart by their ``type`` (the components, the
    interaction callbacks) turned into ``byType``: the branch of the instance's own ``type`` is
    the one checked, as Discord reads it, instead of every branch in turn; and ``X or null``
    into ``orNull``. The same rules, checked in a tenth of the time, with plainer errors."""
    if isinstance(schema, list):
        return [_by_type(item, memo) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if id(schema) in memo:
        return memo[id(schema)][1]
    done: dict[str, Any] = {}
    memo[id(schema)] = (schema, done)  # holding the schema: its id is never another's
    for key, value in schema.items():
        done[key] = _by_type(value, memo)
    branches = done.get("anyOf")
    if isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches:
        del done["anyOf"]
        done["orNull"] = next(b for b in branches if b != {"type": "null"})
    elif isinstance(branches, list) and len(branches) > 1:
        table: dict[str, Any] = {}
        for branch in branches:
            for kind in _kinds(branch) or [None]:
                if kind is None or json.dumps(kind) in table:
                    return done
                table[json.dumps(kind)] = branch
        del done["anyOf"]
        done["byType"] = table
    return done


VALID_KEPT = 50_000
_VALID: set[tuple[int, str]] = set()
"""Components (and callbacks) already found valid, by their schema and JSON: a table's buttons
and pictures come back in every edit, and are checked once."""


def _check_by_type(
    validator: Any, table: dict[str, Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if not isinstance(instance, dict):
        yield ValidationError(f"{_say(instance)} is not an object")
        return
    if "type" not in instance:
        yield ValidationError("'type' is a required property", validator="required")
        return
    branch = table.get(json.dumps(instance["type"]))
    if branch is None:
        kinds = [json.loads(kind) for kind in table]
        yield ValidationError(
            f"{instance['type']!r} is not one of {kinds}",
            validator="enum",
            validator_value=kinds,
            instance=instance["type"],
            path=["type"],
        )
        return
    key = (id(branch), json.dumps(instance, sort_keys=True))
    if key in _VALID:
        return
    errors = list(validator.descend(instance, branch))
    if not errors:
        if len(_VALID) >= VALID_KEPT:
            _VALID.clear()
        _VALID.add(key)
    yield from errors


def _check_or_null(
    validator: Any, branch: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if instance is not None:
        yield from validator.descend(instance, branch)


Validator = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, {"byType": _check_by_type, "orNull": _check_or_null}
)


@dataclass
class Spec:
    """Discord's operations: the path templates by method, and a validator per operation,
    compiled the first time a request calls it."""

    version: str
    bodies: dict[str, Any]
    defs: dict[str, Any]
    templates: dict[str, list[tuple[tuple[str, ...], str]]] = field(default_factory=dict)
    validators: dict[str, Any] = field(default_factory=dict)
    inlined: dict[str, Any] = field(default_factory=dict)
    told_apart: dict[int, tuple[Any, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path = SPEC_FILE) -> Spec:
        if not path.exists():
            raise SpecMissing(
                f"{path} is missing: `./dev test` installs Discord's API specification"
                " (npm ci in tests/discord_spec) and builds it; run the tests through ./dev"
            )
        data = json.loads(path.read_text(encoding="utf-8"))
        defs = data["$defs"]
        # discord.py sends the ids in a body as JSON integers (see the module's docstring).
        defs["SnowflakeType"] = {
            "anyOf": [defs["SnowflakeType"], {"type": "integer", "minimum": 0}]
        }
        spec = cls(data["version"], data["operations"], defs)
        for operation in spec.bodies:
            method, template = operation.split(" ", 1)
            segments = tuple(template.strip("/").split("/"))
            spec.templates.setdefault(method, []).append((segments, template))
        return spec

    def operation(self, method: str, path: str) -> str | None:
        """``METHOD /template`` of the spec's operation that ``path`` calls (the template with
        the most literal segments that matches), or None."""
        segments = path.split("?", 1)[0].strip("/").split("/")
        best: tuple[int, str] | None = None
        for template, name in self.templates.get(method, ()):
            if len(template) != len(segments):
                continue
            literals = 0
            for part, segment in zip(template, segments, strict=True):
                if part.startswith("{"):
                    continue
                if part != segment:
                    break
                literals += 1
            else:
                if best is None or literals > best[0]:
                    best = (literals, name)
        return None if best is None else f"{method} {best[1]}"

    def validator(self, operation: str) -> Any:
        if operation not in self.validators:
            body = self.bodies[operation]
            if body is None:
                self.validators[operation] = None
            else:
                schema = _by_type(_inline(body, self.defs, self.inlined, set()), self.told_apart)
                if isinstance(schema, dict):
                    schema = {**schema, "$defs": self.defs}  # for the recursive references left
                self.validators[operation] = Validator(schema)
        return self.validators[operation]


@cache
def spec() -> Spec:
    return Spec.load()


# Reading a violation


def _field(error: ValidationError) -> str:
    text = ""
    for part in error.absolute_path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text.removeprefix(".") or "(the body)"


def _wrong_kind(error: ValidationError) -> bool:
    """The error says the instance is not of this branch's kind at all: another JSON type, or
    another ``type`` of component (its discriminator)."""
    path = list(error.relative_path)
    if not path and error.validator == "type":
        return True
    return path == ["type"] and error.validator in ("const", "enum")


def _cause(error: ValidationError) -> ValidationError:
    """The error that says what is wrong: in a union (``anyOf``), the branch of the instance's
    own kind (its JSON type, its component ``type``), followed down."""
    while error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        fitting = [errs for errs in branches.values() if not any(map(_wrong_kind, errs))]
        if not fitting:
            found = best_match(error.context)
            if found is None or found is error:
                return error
            error = found
            continue
        # the branch the instance comes closest to: fewest errors about its own shape (a
        # required field missing), then fewest errors
        closest = min(fitting, key=lambda errs: (sum(not e.relative_path for e in errs), len(errs)))
        error = min(closest, key=lambda e: (len(e.context) == 0, -len(e.absolute_path)))
    return error


def _rule(error: ValidationError) -> str:
    value = error.validator_value
    if isinstance(value, (dict, list)) and error.validator not in ("required", "enum"):
        return str(error.validator)
    return f"{error.validator} {json.dumps(value) if isinstance(value, list) else value}"


def _say(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


# The components' limits


def _messages(body: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """The message payloads of a body (itself, or an interaction response's ``data``)."""
    if isinstance(body, dict):
        if "components" in body:
            yield "", body
        data = body.get("data")
        if isinstance(data, dict) and "components" in data:
            yield "data.", data


def _walk(components: list[Any], where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for index, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        here = f"{where}[{index}]"
        yield here, component
        children = component.get("components")
        if isinstance(children, list):
            yield from _walk(children, f"{here}.components")
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield f"{here}.accessory", accessory


def component_violations(message: dict[str, Any], prefix: str = "") -> list[str]:
    """The documented limits ``message``'s components break, as ``field: rule`` lines."""
    top = message.get("components")
    if not isinstance(top, list):
        return []
    found: list[str] = []
    walked = list(_walk(top, f"{prefix}components"))
    v2 = bool((message.get("flags") or 0) & COMPONENTS_V2) or any(
        c.get("type") in V2_TYPES for _, c in walked
    )
    if v2 and len(walked) > LIMITS["components"]:
        found.append(
            f"{prefix}components: {len(walked)} components, nested ones counted"
            f" (rule: at most {LIMITS['components']} in a message)"
        )
    if not v2 and len(top) > LIMITS["legacy_rows"]:
        found.append(
            f"{prefix}components: {len(top)} action rows"
            f" (rule: at most {LIMITS['legacy_rows']} without Components V2)"
        )
    custom_ids: dict[str, str] = {}
    ids: dict[int, str] = {}

    def longer(where: str, name: str, text: Any, limit: str) -> None:
        if isinstance(text, str) and len(text) > LIMITS[limit]:
            found.append(f"{where}.{name}: {len(text)} characters (rule: at most {LIMITS[limit]})")

    for where, component in walked:
        kind = component.get("type")
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in custom_ids:
                found.append(
                    f"{where}.custom_id: {custom_id!r} is also {custom_ids[custom_id]}'s"
                    " (rule: custom ids are unique in a message)"
                )
            custom_ids.setdefault(custom_id, where)
            longer(where, "custom_id", custom_id, "custom_id")
        number = component.get("id")
        if isinstance(number, int) and number:
            if number in ids:
                found.append(
                    f"{where}.id: {number} is also {ids[number]}'s"
                    " (rule: component ids are unique in a message)"
                )
            ids.setdefault(number, where)
        if kind == 2:
            style = component.get("style")
            if style == LINK and (custom_id is not None or not component.get("url")):
                found.append(f"{where}: a link button (rule: a url and no custom_id)")
            if style not in (LINK, PREMIUM) and not custom_id:
                found.append(
                    f"{where}.custom_id: missing (rule: a button of style {style} has one)"
                )
            longer(where, "label", component.get("label"), "button_label")
        elif kind == 3:
            options = component.get("options") or []
            if len(options) > LIMITS["select_options"]:
                found.append(
                    f"{where}.options: {len(options)} options"
                    f" (rule: at most {LIMITS['select_options']})"
                )
            for number_, option in enumerate(options):
                for name in ("label", "value", "description"):
                    longer(f"{where}.options[{number_}]", name, option.get(name), "option_text")
            longer(where, "placeholder", component.get("placeholder"), "placeholder")
        elif kind == 9:
            texts = component.get("components") or []
            if not 1 <= len(texts) <= LIMITS["section_texts"]:
                found.append(
                    f"{where}.components: {len(texts)} text displays"
                    f" (rule: 1 to {LIMITS['section_texts']} in a section)"
                )
        elif kind == 10:
            longer(where, "content", component.get("content"), "text_display")
        elif kind == 11:
            longer(where, "description", component.get("description"), "media_description")
        elif kind == 12:
            items = component.get("items") or []
            if not 1 <= len(items) <= LIMITS["gallery_items"]:
                found.append(
                    f"{where}.items: {len(items)} items"
                    f" (rule: 1 to {LIMITS['gallery_items']} in a media gallery)"
                )
            for number_, item in enumerate(items):
                longer(
                    f"{where}.items[{number_}]",
                    "description",
                    item.get("description"),
                    "media_description",
                )
    return found


# The contract


@dataclass
class Contract:
    """Checks requests against the spec and the limits; keeps what it found."""

    spec: Spec
    violations: list[str] = field(default_factory=list)
    checked: int = 0

    def check(self, request: Request) -> list[str]:
        """The violations of ``request``, each ``operation (path): field: what (rule: ...)``."""
        operation = self.spec.operation(request.method, request.path)
        if operation is None:
            return [
                f"{request.route}: Discord's API specification ({self.spec.version}) has no"
                f" {request.method} operation at this path (rule: only documented routes)"
            ]
        where = f"{operation} ({request.path})"
        found: list[str] = []
        validator = self.spec.validator(operation)
        body = request.json
        if validator is None:
            if body not in (None, {}, []):
                found.append(f"{where}: (the body): sent, but the operation takes none")
        elif body is not None:
            errors = list(validator.iter_errors(body))
            for error in errors:
                cause = _cause(error)
                found.append(
                    f"{where}: {_field(cause)}: {_say(cause.instance)} breaks the spec"
                    f" (rule: {_rule(cause)})"
                )
            if not errors:
                for prefix, message in _messages(body):
                    found += [f"{where}: {v}" for v in component_violations(message, prefix)]
        found += [
            f"{where}: attachment://{name}: not uploaded with it (uploads {list(request.files)})"
            " (rule: a picture named is among the same request's files)"
            for name in attachment_references(body)
            if name not in request.files
        ]
        return found

    def see(self, request: Request) -> None:
        self.checked += 1
        self.violations += self.check(request)

    def take(self) -> list[str]:
        """The violations found so far, forgotten here."""
        found, self.violations = self.violations, []
        return found


def report(violations: list[str]) -> str:
    shown = violations[:20]
    more = f"\n... and {len(violations) - len(shown)} more" if len(violations) > len(shown) else ""
    return (
        "requests Discord would refuse (Discord's API specification and its component limits):\n"
        + "\n".join(f"  {v}" for v in shown)
        + more
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test whose requests break the contract fails, with the route, field and rule (a
    conftest.py imports this hook, and gives the tests it holds to the contract a fixture
    ``discord_contract`` that is ``contract``)."""
    result = yield
    checker = getattr(item, "funcargs", {}).get("discord_contract")
    if isinstance(checker, Contract):
        found = checker.take()
        if found:
            pytest.fail(report(found), pytrace=False)
    return result


@pytest.fixture
def contract(monkeypatch: pytest.MonkeyPatch) -> Iterator[Contract]:
    """Checks every request the bot makes to SimCord during the test; a test that plants a
    violation takes it with ``contract.take()``.
    A violation found during the test fails the test (``pytest_runtest_call``); one found
    while the test's fixtures close fails its teardown."""
    try:
        checker = Contract(spec())
    except SpecMissing as missing:
        pytest.fail(str(missing))
    with _watching(monkeypatch, checker.see):
        yield checker
    left = checker.take()
    if left:
        pytest.fail(report(left), pytrace=False)
