"""Message catalogs: every player-facing string, in Swedish (default) and English.

The catalogs are TOML files ``bot/i18n/<lang>/<stem>.toml``: the file stem is the first segment of a
key and nested tables the rest (``[event] trick_won`` in ``nittionio.toml`` is
``nittionio.event.trick_won``). Values are ``str.format`` templates with named arguments.

A count is written with its noun's two forms after a colon, ``{wins:vinst|vinster}``: the number
and the form that fits it ("1 vinst", "2 vinster"), so no text reads "1 vinster" or "1 cards".

A missing key is a bug that the tests catch; at run time it falls back to English, then to the key
itself, and is logged.
"""

from __future__ import annotations

import logging
import string
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent
LANGS: tuple[str, ...] = ("sv", "en")
DEFAULT_LANG = "sv"
FALLBACK_LANG = "en"


def _flatten(prefix: str, table: Mapping[str, object], out: dict[str, str]) -> None:
    for name, value in table.items():
        key = f"{prefix}.{name}"
        if isinstance(value, dict):
            _flatten(key, value, out)
        elif isinstance(value, str):
            out[key] = value
        else:
            raise ValueError(f"{key}: catalog values must be strings, not {type(value).__name__}")


def load_file(path: Path) -> dict[str, str]:
    """The flat ``key -> template`` entries of one catalog file."""
    with path.open("rb") as f:
        table = tomllib.load(f)
    out: dict[str, str] = {}
    _flatten(path.stem, table, out)
    return out


def load_entries(lang: str) -> dict[str, str]:
    """Every entry of one language, from all its files."""
    folder = ROOT / lang
    if lang not in LANGS or not folder.is_dir():
        raise ValueError(f"unknown language {lang!r} (languages: {', '.join(LANGS)})")
    entries: dict[str, str] = {}
    for path in sorted(folder.glob("*.toml")):
        entries.update(load_file(path))
    return entries


class _Args(dict[str, object]):
    """Format arguments that leave an unknown ``{name}`` visible instead of failing."""

    def __missing__(self, name: str) -> str:
        log.warning("message argument %r missing", name)
        return "{" + name + "}"


class _Counting(string.Formatter):
    """``str.format`` with counted nouns: ``{n:kort|kort}``, ``{wins:vinst|vinster}``; and the
    Swedish genitive of a name, ``{seat:gen}``: an s added, none to a name that ends in s, x or
    z (``Annas``, ``Lars``, ``Max``)."""

    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec == "gen":
            name = str(value)
            return name if name[-1:].lower() in ("s", "x", "z") else name + "s"
        if "|" not in format_spec:
            return str(super().format_field(value, format_spec))
        one, many = format_spec.split("|", 1)
        try:
            number = int(str(value))
        except ValueError:  # not a number (a missing argument): the plural
            return f"{value} {many}"
        return f"{value} {one if abs(number) == 1 else many}"


_FORMATTER = _Counting()


def _english_ordinal(n: int) -> str:
    if n % 100 in (11, 12, 13):
        return "other"
    return {1: "one", 2: "two", 3: "few"}.get(n % 10, "other")


def _swedish_ordinal(n: int) -> str:
    return "one" if n % 10 in (1, 2) and n % 100 not in (11, 12) else "other"


_ORDINAL_FORM = {"en": _english_ordinal, "sv": _swedish_ordinal}
"""Which form of ``place.ordinal`` a number takes in each language."""


def fill(template: str, args: Mapping[str, object], *, strict: bool = False) -> str:
    """A catalog template with its arguments, counted nouns in the form their number needs.
    ``strict`` (the tests) raises KeyError for a missing argument instead of showing it."""
    if "{" not in template and "}" not in template:
        return template  # nothing to fill (most button and phase texts): no formatter needed
    fields = dict(args) if strict else _Args(args)
    if _plain_fields(template):  # str.format's own, in C: a tenth of the formatter's time
        return template.format_map(fields)
    return _FORMATTER.vformat(template, (), fields)


@cache
def _plain_fields(template: str) -> bool:
    """Whether ``template`` has only named fields that ``str.format`` fills alike: no counted
    noun (``{n:kort|kort}``), no genitive (``{seat:gen}``), no positional field."""
    for _, name, spec, _ in _FORMATTER.parse(template):
        if name is None:
            continue
        if not name or name[0].isdigit() or spec == "gen" or "|" in (spec or ""):
            return False
    return True


class Catalog:
    """The texts of one language, with English (then the key) as the fallback."""

    def __init__(
        self,
        lang: str,
        entries: Mapping[str, str],
        fallback: Catalog | None = None,
    ) -> None:
        self.lang = lang
        self._entries = dict(entries)
        self._fallback = fallback

    def has(self, key: str) -> bool:
        return key in self._entries

    def all_keys(self) -> frozenset[str]:
        return frozenset(self._entries)

    def template(self, key: str) -> str:
        """The raw template of ``key``, falling back to English and then to the key."""
        found = self._entries.get(key)
        if found is not None:
            return found
        if self._fallback is not None and self._fallback.has(key):
            log.warning("no %s text for %s; using %s", self.lang, key, self._fallback.lang)
            return self._fallback.template(key)
        log.error("no text for %s", key)
        return key

    def text(self, key: str, /, **args: object) -> str:
        """The text of ``key`` with ``args`` filled in."""
        return fill(self.template(key), args)

    def counted(self, key: str, /, count: int, **args: object) -> str:
        """The text of ``key`` for ``count`` things: ``<key>_one`` when there is one and the
        catalog has that form ("1 vinst på 1 parti"), else ``key``."""
        one = f"{key}_one"
        chosen = one if count == 1 and (self.has(one) or self._fallback_has(one)) else key
        return self.text(chosen, count=count, **args)

    def ordinal(self, number: int) -> str:
        """``1:a``, ``2:a``, ``3:e`` in Swedish; ``1st``, ``2nd``, ``3rd``, ``4th`` in English
        (``place.ordinal.<form>``, the form chosen by the language's rule)."""
        form = _ORDINAL_FORM.get(self.lang, _ORDINAL_FORM[FALLBACK_LANG])(number)
        key = f"place.ordinal.{form}"
        return self.text(key if self.has(key) else "place.ordinal.other", n=number)

    def _fallback_has(self, key: str) -> bool:
        return self._fallback is not None and self._fallback.has(key)

    def with_entries(self, extra: Mapping[str, str]) -> Catalog:
        """A copy with more entries (tests use it for games that are not registered)."""
        return Catalog(self.lang, {**self._entries, **extra}, self._fallback)


@cache
def catalog(lang: str = DEFAULT_LANG) -> Catalog:
    """The catalog of ``lang`` (``sv`` or ``en``), loaded once."""
    entries = load_entries(lang)
    fallback = None if lang == FALLBACK_LANG else catalog(FALLBACK_LANG)
    return Catalog(lang, entries, fallback)
