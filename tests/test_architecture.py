"""The rooms of the package and the rules between them (docs/explanation/architecture.md).

- ``index/`` is the algorithm on integers: it imports nothing else of dedup.
- ``text/`` turns values into hashed, weighted features: it may use ``index/`` and ``config/``.
- Neither ``text/`` nor ``index/`` imports ``store/``, ``runs/`` or a database: stores persist
  what the pipeline hands them, and from ``index/`` they take only the data types (groups, keys).
- ``methods/`` holds one type per matching method: it may use ``index/``, ``text/`` and ``config/``.
- ``runs/`` chains the stages; ``eval/``, ``report/`` and the CLI sit on top.
- Every room may use ``dedup.errors``, ``dedup.output_file`` (files written whole) and ``dedup.clock``
  (the one clock: stored times cut alike) of the top level.

Also checked: no module of the package or of bench/ is over 400 lines (data files apart), no
function or method of the package is over 60 lines (its decorators apart: cut it into named
steps), and pyproject.toml lists every package of the tree.
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
    "demo": set(),
    "web": {"config", "db", "index", "methods", "report", "runs", "store", "text"},
}
STORE_MAY_USE_FROM_INDEX = {"dedup.index.groups", "dedup.index.keys", "dedup.index.decisions"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str | None = None) -> set[str]:
    """Every dedup module ``path`` (the module ``name``) imports, relative imports resolved."""
    name = name or _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    return out


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
            if module not in ("dedup", "dedup.errors", "dedup.output_file", "dedup.clock"):
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
