"""The shape of the package: no module imports another's private names, and the imports form no cycle.

Every import counts, those inside functions too (a lazy import is still a dependency), except
those under ``if TYPE_CHECKING:``, which only the type checker follows.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "workbench"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str) -> list[tuple[str, list[str]]]:
    """Each runtime import of the module: the module imported from and the names taken (empty for ``import x``)."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for statement in node.body
        for inner in ast.walk(statement)
    }
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            found.append((base, [alias.name for alias in node.names]))
    return found


def depends_on(name: str) -> set[str]:
    """The workbench modules the module imports (``from a import b`` takes ``a.b`` when it is a module, else ``a``)."""
    found = set()
    for base, names in imports(name):
        for target in [f"{base}.{n}" if f"{base}.{n}" in MODULES else base for n in names] or [base]:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle_in_the_package() -> None:
    graph = {name: depends_on(name) for name in MODULES}
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_another_modules_private_names(name: str) -> None:
    private = [
        f"{base}.{taken}"
        for base, names in imports(name)
        if base.startswith("workbench")
        for taken in names
        if taken.startswith("_") and not taken.startswith("__")
    ]
    assert private == []


def test_typing_only_imports_are_not_dependencies() -> None:
    # every effect module names the engine's Round for the type checker only: the engine imports the effects
    assert "workbench.games.chance_it.engine" not in depends_on("workbench.games.chance_it.effects.gain")
    assert "workbench.games.chance_it.effects" in depends_on("workbench.games.chance_it.engine")
