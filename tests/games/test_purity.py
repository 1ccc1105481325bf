"""games/ stays standard-library only: no Discord, asyncio, database, settings, clock or I/O."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
FORBIDDEN_MODULES = {"asyncio", "time", "datetime", "socket", "sqlite3", "os", "io", "pathlib"}
FORBIDDEN_CALLS = {"open", "print", "input"}


def _imports(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_games_import_only_the_standard_library_and_themselves() -> None:
    allowed = set(sys.stdlib_module_names) - FORBIDDEN_MODULES | {"games"}
    files = sorted(GAMES.rglob("*.py"))
    assert files
    for path in files:
        bad = _imports(ast.parse(path.read_text(encoding="utf-8"))) - allowed
        assert not bad, f"{path.relative_to(GAMES.parent)} imports {sorted(bad)}"


def test_games_do_no_io() -> None:
    for path in sorted(GAMES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}()"
