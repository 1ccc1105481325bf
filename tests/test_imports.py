"""No import circle between the modules of bot/ and games/: every dependency goes one way.

The walk reads every ``import`` in the source, function-local ones included: a local import hides a
circle from Python at start-up, not from a reader who must change one side. It leaves out those
under ``if TYPE_CHECKING:``, which never run (the session manager's jobs name the manager's type
that way).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "games")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Every module of the packages (not the web client's node_modules), by dotted name."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "node_modules" not in path.parts:
                found[module_name(path, root)] = path
    return found


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth, but those only type checkers read."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking_only(node):
            for other in node.orelse:
                yield from _import_nodes(other)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _import_nodes(node)


def imported(name: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` (at ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            out.add(submodule if submodule in known else base)
    return {m for m in out if m in known and m != name}


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def import_graph(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    known = modules(root, packages)
    return {name: imported(name, path, known) for name, path in known.items()}


def test_no_module_of_bot_or_games_imports_itself_through_others() -> None:
    graph = import_graph(ROOT, PACKAGES)
    assert "bot.discord.views.panel" in graph
    assert "games.core" in graph
    found = circles(graph)
    described = [", ".join(group) for group in found]
    assert not found, "modules in one import circle:\n" + "\n".join(described)


def test_the_walk_sees_a_circle_closed_by_an_import_inside_a_function(tmp_path: Path) -> None:
    views = tmp_path / "pkg" / "views"
    views.mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (views / "__init__.py").write_text("")
    (views / "panel.py").write_text("def build():\n    from pkg.views.table import Button\n")
    (views / "table.py").write_text("from .panel import build\n")
    (views / "typed.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.views import other\n"
    )
    (views / "other.py").write_text("from pkg.views import typed\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert graph["pkg.views.table"] == {"pkg.views.panel"}
    assert graph["pkg.views.panel"] == {"pkg.views.table"}
    assert graph["pkg.views.typed"] == set()  # read by type checkers only
    assert circles(graph) == [["pkg.views.panel", "pkg.views.table"]]
