"""The client's ``src/protocol.ts``, written from the protocol's one definition
(``bot.web.frames``).

``python -m bot.web.typescript`` rewrites the file; ``--check`` only says whether it is current.
The file is kept in the repository, so the client builds with Node alone (the container's client
stage has no Python) and an editor knows its types; a test fails when it differs from what
``bot.web.frames`` says, so a change to the protocol cannot land on one side only.

It reads Python types and writes text; it imports no face and serves nothing.
"""

from __future__ import annotations

import sys
import textwrap
import types
import typing
from pathlib import Path
from typing import Annotated, Literal, NotRequired, Union, get_args, get_origin, get_type_hints

from bot.i18n import DEFAULT_LANG
from bot.web import frames
from bot.web.protocol import as_lang, page_words

TARGET = Path(__file__).resolve().parent / "client" / "src" / "protocol.ts"
HEADER = """\
/**
 * The web table's protocol as the client reads it: the JSON the bot's web server sends and
 * accepts. Generated from bot/web/frames.py by `python -m bot.web.typescript`: do not edit it
 * here (a test fails when the two differ); bot/web/protocol.py says what the values mean. Types
 * only: the client never decides what is legal or secret, it draws what the server sends.
 */
"""


WIDTH = 100
WORDS_NOTE = """The page's words (``PageWords.words``): the keys the catalogs give it
(``web.page.*`` and ``protocol.DISCORD_WORDS``), so that the client names only words that
exist."""


def typescript() -> str:
    """The whole of ``protocol.ts``."""
    names = {id(shape): shape.__name__ for shape in frames.SHAPES}
    aliases = list(frames.ALIASES.items())
    out = [HEADER]
    for name, alias in aliases:
        if _is_literal_union(alias):
            out.append(f"export type {name} = {_type(alias, names, [])};\n")
    for shape in frames.SHAPES:
        out.append(_interface(shape, names, aliases))
    for name, alias in aliases:
        if not _is_literal_union(alias):
            members = " | ".join(_type(a, names, aliases) for a in get_args(alias))
            out.append(f"export type {name} = {members};\n")
    words = "".join(f'\n  | "{w}"' for w in sorted(page_words(as_lang(DEFAULT_LANG))["words"]))
    out.append(_comment(WORDS_NOTE, "") + f"\nexport type Word ={words};\n")
    return "\n".join(out)


def _is_literal_union(alias: object) -> bool:
    return get_origin(alias) is Literal


def _interface(shape: type, names: dict[int, str], aliases: list[tuple[str, object]]) -> str:
    hints = get_type_hints(shape, include_extras=True)
    lines = []
    if shape.__doc__ and not shape.__doc__.startswith(shape.__name__ + "("):
        lines.append(_comment(shape.__doc__, ""))
    lines.append(f"export interface {shape.__name__} {{")
    for field, hint in hints.items():
        note, optional = None, False
        while get_origin(hint) in (Annotated, NotRequired):
            if get_origin(hint) is Annotated:
                note = hint.__metadata__[0]
                hint = hint.__origin__
            else:  # NotRequired: read here, as the class's own record of it may be wrong
                hint, optional = get_args(hint)[0], True
        if note:
            lines.append(_comment(str(note), "  "))
        mark = "?" if optional else ""
        lines.append(f"  {field}{mark}: {_type(hint, names, aliases)};")
    lines.append("}\n")
    return "\n".join(lines)


def _comment(text: str, indent: str) -> str:
    words = " ".join(text.split()).replace("``", "`")
    if len(indent) + len(words) + 7 <= WIDTH:
        return f"{indent}/** {words} */"
    lines = textwrap.wrap(words, WIDTH - len(indent) - 3)
    return "\n".join([f"{indent}/**", *(f"{indent} * {line}" for line in lines), f"{indent} */"])


def _type(hint: object, names: dict[int, str], aliases: list[tuple[str, object]]) -> str:
    for name, alias in aliases:
        if hint == alias:
            return name
    if id(hint) in names:
        return names[id(hint)]
    simple = {str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}
    if isinstance(hint, type) and hint in simple:
        return simple[hint]
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return " | ".join(f'"{a}"' for a in args)
    if origin in (Union, types.UnionType):
        parts = [_type(a, names, aliases) for a in args]
        return " | ".join(parts)
    if origin is list:
        inner = _type(args[0], names, aliases)
        return f"({inner})[]" if " | " in inner else f"{inner}[]"
    if origin is tuple:
        return "[" + ", ".join(_type(a, names, aliases) for a in args) + "]"
    if origin is dict:
        return f"Record<{_type(args[0], names, aliases)}, {_type(args[1], names, aliases)}>"
    raise TypeError(f"no TypeScript for {hint!r}")


def main(argv: typing.Sequence[str]) -> int:
    text = typescript()
    current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
    if "--check" in argv:
        if current != text:
            sys.stderr.write(f"{TARGET} is stale: run python -m bot.web.typescript\n")
            return 1
        return 0
    if current != text:
        TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
