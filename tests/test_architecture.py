"""The rooms of the package and the rules between them (docs/explanation/architecture.md).

- ``index/`` is the algorithm on integers: it imports nothing else of dedup.
- ``text/`` turns values into hashed, weighted features: it may use ``index/`` and ``config/``.
- Neither ``text/`` nor ``index/`` imports ``store/``, ``runs/`` or a database: stores persist
  what the pipeline hands them, and from ``index/`` they take only the data types (groups, keys) and the sort of integer codes (order).
- ``methods/`` holds one type per matching method: it may use ``index/``, ``text/`` and ``config/``.
- ``runs/`` chains the stages; ``eval/``, ``report/`` (which scores links with runs' Scorer),
  ``review/`` (a pair side by side, the review loop, the decisions CSV) and ``cli/`` sit on top.
- ``cli/`` is the command line: it may use every room, and ``dedup.console`` (the guarded entry).
- Every room may use ``dedup.errors``, ``dedup.output_file`` (files written whole) and ``dedup.clock``
  (the one clock: stored times cut alike) of the top level.

Also checked: no import cycle among dedup's modules (module-level imports), no module of the
package or of bench/ over 400 lines (data files apart), no function or method of the package
over 60 lines (its decorators apart: cut it into named steps), and pyproject.toml lists every
package of the tree.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dedup"
MAX_LINES = 400
MAX_FUNCTION_LINES = 60
# room -> the rooms it may import from (besides itself, dedup.errors, dedup.output_file and dedup.clock)
ALLOWED = {
    "index": set(),
    "text": {"index", "config"},
    "config": {"index"},
    "db": {"config", "text"},
    "store": {"index", "db"},
    # methods/ (issue 23): one type per matching method, composing text/ and index/ primitives
    "methods": {"index", "text", "config"},
    "runs": {"config", "db", "index", "methods", "store", "text"},
    "eval": {"config", "db", "index", "methods", "report", "runs", "store", "text"},
    "report": {"config", "db", "index", "methods", "runs", "store", "text"},  # runs: the run summary's keys (runs.summary)
    "review": {"config", "db", "eval", "index", "methods", "report", "runs", "store", "text"},
    "demo": set(),
    "web": {"config", "db", "index", "methods", "report", "runs", "store", "text"},
}
ALLOWED["cli"] = set(ALLOWED) | {"cli"}  # the command line renders what every room returns
TOP_LEVEL = {"dedup", "dedup.errors", "dedup.output_file", "dedup.clock"}  # what every room may use of the top level
MAY_USE_AT_TOP = {"cli": {"dedup.console"}}  # INTERRUPTED: the console script's line, defined before dedup.cli loads
# the data types, and index.order: the vectorised stable sort of integer codes the store writer orders its
# block entries with (session 44), no algorithm of the pipeline's
STORE_MAY_USE_FROM_INDEX = {"dedup.index.groups", "dedup.index.keys", "dedup.index.decisions", "dedup.index.order"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str | None = None, *, top_only: bool = False) -> set[str]:
    """Every dedup module ``path`` (the module ``name``) imports, relative imports resolved; with
    ``top_only`` only those run when it is imported (not inside functions, not for type checkers)."""
    name = name or _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in _top_level_imports(tree.body) if top_only else ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("dedup"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.startswith("dedup"):
                out.add(module)
                out.update(f"{module}.{a.name}" for a in node.names  # `from . import x` may name a module
                           if _is_module(f"{module}.{a.name}"))
    out.discard(name)  # a package's `from . import x` names the package itself, already being imported
    return out


def _top_level_imports(body: list[ast.stmt]):
    """The import statements of a module body that run when it is imported: inside if/try/with and
    class bodies too, not in functions nor under ``if TYPE_CHECKING:``."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from _top_level_imports(node.orelse)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    yield from _top_level_imports(inner)


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (module -> the modules it imports) as a path that ends where it
    starts, or None. Depth first, iterative: the import graph is deeper than Python's recursion is cheap."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for root in sorted(graph):
        if root in state:
            continue
        path, stack = [root], [iter(sorted(graph[root]))]
        state[root] = 1
        while stack:
            nxt = next((m for m in stack[-1] if m in graph and state.get(m) != 2), None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            else:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(graph[nxt])))
    return None


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.is_dir() or path.with_suffix(".py").is_file()


def _room(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and (PACKAGE / parts[1]).is_dir() else None


MODULES = sorted(PACKAGE.rglob("*.py"))


def _violations(name: str, imports: set[str]) -> list[str]:
    """What module ``name`` imports against the rules of its room."""
    room = _room(name)
    if room is None:  # the top level (cli, errors, __init__) may use everything
        return []
    allowed = ALLOWED[room] | {room}
    out = []
    for module in sorted(imports):
        target = _room(module)
        if target is None:
            if module not in TOP_LEVEL | MAY_USE_AT_TOP.get(room, set()):
                out.append(f"{name} (room {room}) imports {module}")
        elif target not in allowed:
            out.append(f"{name} (room {room}) may not import {module}")
        elif room == "store" and target == "index" and not any(module.startswith(m) for m in STORE_MAY_USE_FROM_INDEX):
            out.append(f"{name}: a store keeps what it is given; it may not use {module}")
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_room_imports_only_what_it_may(path):
    assert _violations(_module_name(path), _imports(path)) == []


def test_the_rule_catches_forbidden_imports(tmp_path):
    """The check reads real imports: relative ones resolved, and a breach of each kind is caught."""
    bad = tmp_path / "bad.py"
    bad.write_text("from ..store import open_store\nfrom ..runs.recipe import Recipe\nfrom .normalize import x\n",
                   encoding="utf-8")
    imports = _imports(bad, "dedup.text.bad")
    assert {"dedup.store", "dedup.runs.recipe", "dedup.text.normalize"} <= imports
    assert len(_violations("dedup.text.bad", imports)) == 2  # store and runs; its own room is fine
    assert _violations("dedup.store.bad", {"dedup.index.blocks"})  # a store naming blocks itself
    assert not _violations("dedup.store.bad", {"dedup.index.groups"})


def test_no_import_cycle_among_dedups_modules():
    """Importing any module of dedup never needs a module that is still being imported: the graph of
    module-level imports has no cycle (imports inside functions are how a cycle is broken)."""
    graph = {_module_name(p): _imports(p, top_only=True) for p in MODULES}
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))


def test_the_cycle_check_finds_cycles_and_reads_only_module_level_imports(tmp_path):
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "x"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}) is None
    mod = tmp_path / "m.py"
    mod.write_text("from typing import TYPE_CHECKING\nfrom .base import x\nif TYPE_CHECKING:\n    from .store import S\n"
                   "try:\n    from . import errors\nexcept ImportError:\n    pass\n"
                   "def f():\n    from .runs import full\n", encoding="utf-8")
    assert _imports(mod, "dedup.m", top_only=True) == {"dedup.base", "dedup", "dedup.errors"}
    assert {"dedup.store", "dedup.runs"} <= _imports(mod, "dedup.m")


CLI_FUNCTIONS = [(p, node) for p in sorted((PACKAGE / "cli").rglob("*.py"))
                 for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


@pytest.mark.parametrize("path,node", CLI_FUNCTIONS, ids=[f"{p.name}:{n.name}" for p, n in CLI_FUNCTIONS])
def test_no_command_line_function_is_over_60_lines(path, node):
    """A command loads the config, calls one library function and renders: short (decorators apart)."""
    assert node.end_lineno - node.lineno + 1 <= 60


@pytest.mark.parametrize("path", MODULES + sorted((ROOT / "bench").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_400_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def _long_functions(source: str) -> list[tuple[str, int]]:
    """(name, lines) of every function or method in ``source`` longer than MAX_FUNCTION_LINES,
    from its ``def`` line to its last line; a nested function counts on its own and in its parent."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_FUNCTION_LINES:
                out.append((node.name, lines))
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_function_is_over_60_lines(path):
    assert _long_functions(path.read_text(encoding="utf-8")) == []


def test_the_length_rule_catches_a_long_method():
    body = "".join(f"        x{i} = {i}\n" for i in range(59))
    source = f"class A:\n    @property\n    def long(self):\n{body}        return 0\n    def short(self):\n        pass\n"
    assert _long_functions(source) == [("long", 61)]
    assert _long_functions(source.replace("        x0 = 0\n", "")) == []  # 60 lines is the most


def test_pyproject_lists_every_package():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(re.findall(r'"(dedup(?:\.[\w]+)*)"', pyproject.split("packages = [", 1)[1].split("]", 1)[0]))
    on_disk = {_module_name(p.parent / "__init__.py") for p in PACKAGE.rglob("__init__.py")}
    on_disk |= {"dedup._migrations" + _module_name(p.parent / "__init__.py")[len("migrations"):]
                for p in (ROOT / "migrations").rglob("__init__.py")}
    assert listed == on_disk
