"""The storage speaks only of rows and of where its data lives: it imports no rating, no
computer level, no game and no face, and no other code chooses words by its SQL dialect."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[3] / "bot"
STORAGE = BOT / "storage"


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_the_storage_imports_nothing_of_the_bot_but_itself() -> None:
    files = sorted(STORAGE.rglob("*.py"))
    assert files
    for path in files:
        theirs = {
            name
            for name in imported(path)
            if name.split(".")[0] in {"bot", "games"} and not name.startswith("bot.storage")
        }
        assert not theirs, f"{path.relative_to(BOT.parent)} imports {sorted(theirs)}"


def test_no_code_outside_the_storage_chooses_its_words_by_the_sql_dialect() -> None:
    for path in sorted(BOT.rglob("*.py")):
        if STORAGE in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute):
                compared = [c.value for c in node.comparators if isinstance(c, ast.Constant)]
                assert not (node.left.attr == "dialect" and "sqlite" in compared), (
                    f"{path.relative_to(BOT.parent)}:{node.lineno} chooses by the dialect"
                )


def test_the_storage_keeps_no_faces_state_under_the_faces_names() -> None:
    """A face's own state (Discord's DMs) is kept under the storage's words: a member no face
    could reach privately, a member's private copy of a table."""
    methods = {
        node.name
        for path in STORAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    assert not {name for name in methods if "dm" in name.split("_")}
    assert {"unreachable", "set_unreachable", "private_copy", "set_private_copy"} <= methods
