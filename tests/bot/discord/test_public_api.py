"""The bot speaks to discord.py through its public API only: a private attribute (``_state``,
``_parent``, ``_cs_response``...) may change in any release, and pyproject.toml bounds
discord.py below its next minor version only because the public API holds within one.

Read from the source, module by module: in every module of ``bot/`` that imports discord, no
attribute whose name starts with one underscore is read or written on anything but the code's
own object (``self``, ``cls``), and a class built on a discord.py class never reaches, through
``self``, an attribute that discord.py's class defines privately."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import discord
import discord.ui  # the bases a view may name
import pytest

ROOT = Path(__file__).resolve().parents[3]
BOT = ROOT / "bot"

OWN = {"self", "cls"}


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def imports_discord(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(
            a.name.split(".")[0] == "discord" for a in node.names
        ):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "discord":
            return True
    return False


def dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Subscript):  # discord.ui.View[Any]
        return dotted(node.value)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def discord_base(name: str) -> type | None:
    """The discord.py class a base written as ``discord.x.Y`` names, else None."""
    if not name.startswith("discord."):
        return None
    target: object = discord
    for part in name.split(".")[1:]:
        target = getattr(target, part, None)
    return target if isinstance(target, type) else None


def privately_defined(cls: type, name: str) -> bool:
    for klass in cls.__mro__:
        if klass.__module__.split(".")[0] != "discord":
            continue
        if name in vars(klass) or name in getattr(klass, "__slots__", ()):
            return True
    return False


def violations(path: Path, source: str) -> Iterator[str]:
    tree = ast.parse(source)
    if not imports_discord(tree):
        return
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and private(node.attr)
            and not (isinstance(node.value, ast.Name) and node.value.id in OWN)
        ):
            yield f"{where}:{node.lineno}: .{node.attr} on {ast.unparse(node.value)}"
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"getattr", "setattr", "delattr", "hasattr"}
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and private(node.args[1].value)
        ):
            yield f"{where}:{node.lineno}: {node.func.id}(..., {node.args[1].value!r})"
        if isinstance(node, ast.ClassDef):
            bases = [b for b in (discord_base(dotted(x) or "") for x in node.bases) if b]
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Attribute)
                    and private(inner.attr)
                    and isinstance(inner.value, ast.Name)
                    and inner.value.id in OWN
                    and any(privately_defined(base, inner.attr) for base in bases)
                ):
                    yield (
                        f"{where}:{inner.lineno}: {node.name} reaches discord.py's own"
                        f" .{inner.attr}"
                    )


def test_no_module_of_the_bot_touches_a_private_attribute_of_discord_py() -> None:
    found = [
        line
        for path in sorted(BOT.rglob("*.py"))
        for line in violations(path, path.read_text(encoding="utf-8"))
    ]
    assert found == [], "private discord.py attributes used:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("planted", "what"),
    [
        ("interaction._cs_response = None\n", "._cs_response on interaction"),
        ("x = message._state.http\n", "._state on message"),
        (
            "class R(discord.InteractionResponse):\n"
            "    def f(self):\n        return self._parent\n",
            "R reaches discord.py's own ._parent",
        ),
        ("x = getattr(client, '_connection')\n", "getattr(..., '_connection')"),
    ],
)
def test_the_check_finds_a_planted_private_attribute(planted: str, what: str) -> None:
    found = list(violations(Path("planted.py"), f"import discord\n{planted}"))
    assert any(what in line for line in found), found


def test_discord_py_is_bounded_below_its_next_minor_version() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    bound = re.search(r'"discord\.py([^"]*)"', text)
    assert bound is not None
    lower = re.search(r">=\s*(\d+)\.(\d+)", bound.group(1))
    upper = re.search(r"<\s*(\d+)\.(\d+)", bound.group(1))
    assert lower is not None, bound.group(0)
    assert upper is not None, bound.group(0)
    major, minor = int(lower.group(1)), int(lower.group(2))
    assert (int(upper.group(1)), int(upper.group(2))) == (major, minor + 1), bound.group(0)
