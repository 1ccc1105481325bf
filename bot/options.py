"""A game's variants and options in the member's language: their names, the choices offered while
``/spel ny`` is typed, reading what was typed (ids or names, Swedish or English) and refusing what
the game does not allow, at once and in words.

Names come from the game's catalog: ``<game>.variant.<variant>``, ``<game>.option.<option>`` and
``<game>.choice.<option>.<value>`` (yes and no are ``options.yes`` / ``options.no``). Settings are
kept as ``name=value`` with the ids the game declares (``games.core.option_infos``); a member sees
``Reaktionstid (ms) = 5000 · Falskt alarm = ja`` and may type either form.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence

from bot.errors import UserError
from bot.i18n import LANGS, Catalog, catalog
from games.core import OptionError, OptionInfo, apply_option_text, option_infos
from games.registry import SPECS

MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100
SEPARATOR = " · "
_SPLIT = re.compile(r"[·;,]")

# The error key of each kind of ``games.core.OptionError`` message (``options.error.<kind>``).
_ERROR_KEYS = {
    "out_of_range": "option_range",
    "not_int": "option_not_int",
    "not_bool": "option_not_bool",
    "not_choice": "option_not_choice",
    "unknown": "option_unknown",
    "unknown_variant": "variant_unknown",
}


def _plain(text: str) -> str:
    """What two names are compared by: lower case letters and digits only."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def infos(game_id: str) -> tuple[OptionInfo, ...]:
    return option_infos(SPECS[game_id].options_type)


def _info(game_id: str, name: str) -> OptionInfo | None:
    return next((i for i in infos(game_id) if i.name == name), None)


# --- names ----------------------------------------------------------------------------------------


def game_name(texts: Catalog, game_id: str) -> str:
    key = f"ui.game.{game_id}"
    return texts.text(key) if texts.has(key) else game_id


def variant_name(texts: Catalog, game_id: str, variant: str) -> str:
    """A variant's name in the catalog's language (``<game>.variant.<name>``)."""
    for key in (f"{game_id}.variant.{variant}", f"ui.variant.{variant}"):
        if texts.has(key):
            return texts.text(key)
    return variant


def option_name(texts: Catalog, game_id: str, name: str) -> str:
    key = f"{game_id}.option.{name}"
    return texts.text(key) if texts.has(key) else name


def value_name(texts: Catalog, game_id: str, name: str, value: object) -> str:
    """``ja``, ``en och en``, ``5000``: an option's value as the member reads it."""
    if isinstance(value, bool):
        return texts.text("options.yes" if value else "options.no")
    key = f"{game_id}.choice.{name}.{value}"
    return texts.text(key) if texts.has(key) else str(value)


def _value_of(info: OptionInfo, text: str) -> object:
    """The value of ``info`` that its settings text (``text``, an id) stands for."""
    if isinstance(info.default, bool):
        return text in ("yes", "true", "1", "on", "ja")
    for choice in info.choices:
        if str(choice) == text:
            return choice
    return int(text) if text.lstrip("-").isdigit() else text


def describe(texts: Catalog, game_id: str, settings: Mapping[str, str]) -> str:
    """``Reaktionstid (ms) = 5000 · Falskt alarm = ja``: settings as the member reads them."""
    parts = []
    for name, text in settings.items():
        info = _info(game_id, name)
        shown = value_name(texts, game_id, name, _value_of(info, text)) if info else text
        parts.append(
            texts.text("options.setting", name=option_name(texts, game_id, name), value=shown)
        )
    return SEPARATOR.join(parts)


def _names_in_every_language(key: str) -> set[str]:
    """The names ``key`` has in every language, compared as :func:`_plain` (a name's remark in
    brackets may be left out: ``reaktionstid`` for ``reaktionstid (ms)``)."""
    found = set()
    for lang in LANGS:
        texts = catalog(lang)
        if texts.has(key):
            name = texts.text(key)
            found.add(_plain(name))
            found.add(_plain(re.sub(r"\([^)]*\)", "", name)))
    return found


# --- reading what was typed -----------------------------------------------------------------------


def parse_variant(texts: Catalog, game_id: str, text: str | None) -> str:
    """The variant a member chose, by id or by name in either language; refused in words."""
    spec = SPECS[game_id]
    typed = _plain(text or "")
    if not typed:
        return "standard"
    for variant in spec.variants():
        names = _names_in_every_language(f"{game_id}.variant.{variant}") | {_plain(variant)}
        if variant == "standard":
            names |= _names_in_every_language("ui.variant.standard")
        if typed in names:
            return variant
    raise UserError(
        "variant_unknown",
        game=game_name(texts, game_id),
        name=(text or "").strip(),
        variants=variant_list(texts, game_id),
    )


def _separated(text: str) -> bool:
    """Whether settings are written as shown (``Namn = 1 · Annat namn = två``), not as words."""
    return bool(_SPLIT.search(text)) or " = " in text


def _parts(text: str) -> list[str]:
    """The settings in a text as they would be written by hand, ``a=1 b=2``: words before a
    ``=`` name the option (``falskt alarm=ja``), words after the last one are its value."""
    if _separated(text):
        return [p.strip() for p in _SPLIT.split(text) if p.strip()]
    parts: list[str] = []
    pending: list[str] = []
    for word in text.split():
        pending.append(word)
        if "=" in word:
            parts.append(" ".join(pending))
            pending = []
    if pending:
        if parts:
            parts[-1] += " " + " ".join(pending)
        else:
            parts.append(" ".join(pending))
    return parts


def _read_words(texts: Catalog, game_id: str, words: Sequence[str]) -> list[tuple[str, str]] | None:
    """Settings written as words, each ``name=value`` where names and values may be several
    words (``given=tre och sedan två ante=2``): the first way to read them all, or None."""
    if not words:
        return []
    for end in range(1, len(words) + 1):
        head = " ".join(words[:end])
        if head.count("=") != 1:
            continue
        try:
            setting = parse_setting(texts, game_id, head)
        except UserError:
            continue
        rest = _read_words(texts, game_id, words[end:])
        if rest is not None:
            return [setting, *rest]
    return None


def _read_start(texts: Catalog, game_id: str, text: str) -> tuple[dict[str, str], str]:
    """The settings of the longest start of ``text`` that reads as settings, and the rest."""
    if _separated(text):
        done: dict[str, str] = {}
        parts = _parts(text)
        for number, part in enumerate(parts):
            try:
                name, value = parse_setting(texts, game_id, part)
            except UserError:
                return done, SEPARATOR.join(parts[number:])
            done[name] = value
        return done, ""
    words = text.split()
    for end in range(len(words), -1, -1):
        found = _read_words(texts, game_id, words[:end])
        if found is not None:
            return dict(found), " ".join(words[end:])
    return {}, text


def _find_option(game_id: str, typed: str) -> OptionInfo | None:
    plain = _plain(typed)
    for info in infos(game_id):
        if plain == _plain(info.name) or plain in _names_in_every_language(
            f"{game_id}.option.{info.name}"
        ):
            return info
    return None


def _read_value(texts: Catalog, game_id: str, info: OptionInfo, typed: str) -> str:
    """The settings text (an id) of what was typed for ``info``; refused in words. Remarks in
    brackets after the value, as the offered choices show them (``5000 (3000–15000)``), are
    left out."""
    typed = re.sub(r"(\s*\([^()]*\))+\s*$", "", typed).strip() or typed
    plain = _plain(typed)
    name = option_name(texts, game_id, info.name)
    if isinstance(info.default, bool):
        for value in (True, False):
            words = _names_in_every_language("options.yes" if value else "options.no")
            words |= {"yes", "true", "1", "on"} if value else {"no", "false", "0", "off"}
            if plain in words:
                return "yes" if value else "no"
        raise UserError("option_not_bool", name=name, value=typed)
    if info.choices:
        for choice in info.choices:
            key = f"{game_id}.choice.{info.name}.{choice}"
            if plain == _plain(str(choice)) or plain in _names_in_every_language(key):
                return str(choice)
        raise UserError(
            "option_not_choice",
            name=name,
            value=typed,
            choices=", ".join(value_name(texts, game_id, info.name, c) for c in info.choices),
        )
    low, high = info.low or 0, info.high or 0
    digits = typed.replace(" ", "").replace("_", "")
    if not re.fullmatch(r"[-+]?\d+", digits):
        raise UserError("option_not_int", name=name, value=typed, low=low, high=high)
    number = int(digits)
    if not low <= number <= high:
        raise UserError("option_range", name=name, low=low, high=high, value=number)
    return str(number)


def parse_setting(texts: Catalog, game_id: str, part: str) -> tuple[str, str]:
    """One ``name = value`` (ids or names, either language) as ``(option id, value id)``."""
    name, sep, value = part.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise UserError("option_syntax", word=part.strip())
    info = _find_option(game_id, name)
    if info is None:
        raise UserError(
            "option_unknown",
            game=game_name(texts, game_id),
            name=name.strip(),
            names=_option_list(texts, game_id),
        )
    return info.name, _read_value(texts, game_id, info, value.strip())


def parse_settings(texts: Catalog, game_id: str, text: str | None) -> dict[str, str]:
    """Every setting in ``text``; the first one that is wrong is refused in words."""
    done, rest = _read_start(texts, game_id, text or "")
    if rest:
        for part in _parts(text or ""):
            parse_setting(texts, game_id, part)  # says what is wrong
        raise UserError("option_syntax", word=rest)
    return done


def check(texts: Catalog, game_id: str, variant: str, settings: Mapping[str, str]) -> None:
    """Refuse, in words, options the game would refuse when the table starts (settings that do
    not go together, such as Pennycook's variant with rubber scoring)."""
    spec = SPECS[game_id]
    try:
        options = apply_option_text(spec.preset(variant), settings)
        spec.new(spec.min_players, options, random.Random(0))
    except OptionError as error:
        raise refusal(texts, game_id, error) from None


def refusal(texts: Catalog, game_id: str, error: OptionError) -> UserError:
    """The member's error for a game's ``OptionError``, with every name in their language."""
    msg = error.msg
    if msg is None:
        return UserError("bad_option", detail=str(error))
    args = dict(msg.args)
    kind = msg.key.removeprefix("options.error.")
    if kind not in _ERROR_KEYS:  # the game's own check of options together
        return UserError("option_conflict", detail=texts.text(msg.key, **args))
    name = str(args.get("name", ""))
    info = _info(game_id, name)
    shown: dict[str, str | int] = dict(args)
    shown["game"] = game_name(texts, game_id)
    if kind == "unknown_variant":
        shown["variants"] = variant_list(texts, game_id)
    elif info is not None:
        shown["name"] = option_name(texts, game_id, name)
        shown["choices"] = ", ".join(value_name(texts, game_id, name, c) for c in info.choices)
        shown["low"], shown["high"] = info.low or 0, info.high or 0
    shown["names"] = _option_list(texts, game_id)
    return UserError(_ERROR_KEYS[kind], **shown)


def _option_list(texts: Catalog, game_id: str) -> str:
    return ", ".join(option_name(texts, game_id, i.name) for i in infos(game_id)) or "–"


# --- the choices offered while typing -------------------------------------------------------------


def variant_choices(texts: Catalog, game_id: str, typed: str) -> list[tuple[str, str]]:
    """``(name, id)`` of the game's variants whose name or id holds what was typed."""
    if game_id not in SPECS:
        return []
    plain = _plain(typed)
    out = []
    for variant in SPECS[game_id].variants():
        name = variant_name(texts, game_id, variant)
        if plain in _plain(name) or plain in _plain(variant):
            out.append((name[:MAX_CHOICE_TEXT], variant))
    return out[:MAX_CHOICES]


def _candidates(info: OptionInfo, typed_value: str) -> Sequence[object]:
    if info.choices:
        return sorted(info.choices, key=lambda c: c != info.default)
    digits = typed_value.replace(" ", "")
    low, high = info.low or 0, info.high or 0
    if re.fullmatch(r"\d+", digits) and low <= int(digits) <= high:
        return [int(digits)]
    return list(dict.fromkeys([info.default, low, high]))


def _matching(texts: Catalog, game_id: str, info: OptionInfo, typed: str) -> Sequence[object]:
    """The values of ``info`` to offer for a value typed so far (all of them, when none match)."""
    candidates = _candidates(info, typed)
    if not info.choices:
        return candidates
    wanted = _plain(typed)
    found = [
        c
        for c in candidates
        if wanted in _plain(value_name(texts, game_id, info.name, c)) or wanted in _plain(str(c))
    ]
    return found or candidates


def option_choices(texts: Catalog, game_id: str, typed: str) -> list[tuple[str, str]]:
    """``(what the member reads, the settings text)`` for the options field: what is already
    set, with one more setting of an option whose name holds the last, unfinished words."""
    if game_id not in SPECS:
        return []
    done, query = _read_start(texts, game_id, typed)
    query_name, _, query_value = query.partition("=")
    out: list[tuple[str, str]] = []
    if done:
        out.append((describe(texts, game_id, done), _settings_text(done)))
    for info in infos(game_id):
        if info.name in done:
            continue
        shown_name = option_name(texts, game_id, info.name)
        plain = _plain(query_name)
        if plain not in _plain(shown_name) and plain not in _plain(info.name):
            continue
        for candidate in _matching(texts, game_id, info, query_value):
            text = "yes" if candidate is True else "no" if candidate is False else str(candidate)
            settings = {**done, info.name: text}
            label = describe(texts, game_id, settings)
            if not info.choices:
                label += " " + texts.text("options.range", low=info.low, high=info.high)
            if candidate == info.default:
                label += " " + texts.text("options.default")
            out.append((label, _settings_text(settings)))
    return [
        (label, value)
        for label, value in out
        if len(label) <= MAX_CHOICE_TEXT and len(value) <= MAX_CHOICE_TEXT
    ][:MAX_CHOICES]


def _settings_text(settings: Mapping[str, str]) -> str:
    return " ".join(f"{name}={value}" for name, value in settings.items())


def variant_list(texts: Catalog, game_id: str) -> str:
    """The game's variants for a refusal, by name; the standard game only where it has a name of
    its own (never the bare word "standard")."""
    names = [
        variant_name(texts, game_id, v)
        for v in SPECS[game_id].variants()
        if v != "standard" or texts.has(f"{game_id}.variant.standard")
    ]
    return ", ".join(names) or "–"
