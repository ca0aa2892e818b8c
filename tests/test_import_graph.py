"""The package's layers hold: no import cycle, no private name taken from another module, and
nothing below the command line imports it. Each plugin package of ``plugins/`` holds the first two too.

Imports inside functions count too (they are cycles that merely happen later). Imports under
``if TYPE_CHECKING:`` never run, but they still say which layer a module depends on: the
cycle and layer checks count them as well; only the fresh-interpreter check leaves them out.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import simpeval

PACKAGE = Path(simpeval.__file__).parent
PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
PLUGIN_PACKAGES = sorted(path.parent for path in PLUGINS.glob("*/simpeval_*/__init__.py"))


def _modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Each module of the package in folder ``package``, by its dotted name."""
    found = {}
    for path in package.rglob("*.py"):
        parts = [package.name, *path.relative_to(package).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imports(tree: ast.Module, type_only: bool) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement; with ``type_only`` False, those under ``if TYPE_CHECKING:`` left out."""
    skipped = set() if type_only else {
        id(node) for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test) for node in ast.walk(block)}
    return [node for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skipped]


def imports_of(name: str, package: str, tree: ast.Module, modules: set[str], type_only: bool = True
               ) -> tuple[set[str], list[str]]:
    """The ``modules`` that module ``name`` (of ``package``) imports (at run time only, with
    ``type_only`` False), and each private name (``_x``, not a dunder) it takes from another module."""
    targets: set[str] = set()
    private = []
    for node in _imports(tree, type_only):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names if alias.name in modules)
            continue
        base = node.module or ""
        if node.level:
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + [base]).rstrip(".")
        for alias in node.names:
            target = f"{base}.{alias.name}"
            if target in modules:
                targets.add(target)
            elif base in modules:
                targets.add(base)
                if alias.name.startswith("_") and not alias.name.endswith("__") and base != name:
                    private.append(f"{name} imports {base}.{alias.name}")
    return targets, private


def import_graph(type_only: bool = True, package: Path = PACKAGE) -> tuple[dict[str, set[str]], list[str]]:
    """Module -> the modules of the package in folder ``package`` (default: simpeval) it imports (type-only
    imports included unless ``type_only`` is False); and every private import across modules."""
    modules = _modules(package)
    graph: dict[str, set[str]] = {}
    private = []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name], taken = imports_of(name, package, ast.parse(path.read_text(encoding="utf-8")), set(modules),
                                        type_only)
        private += taken
    return graph, private


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_checker_finds_a_cycle_and_a_private_import():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    source = ("from typing import TYPE_CHECKING\nfrom simpeval.runner import _lookup, evaluate\n"
              "from . import y\nfrom simpeval._version import __version__\n"
              "if TYPE_CHECKING:\n    from simpeval.z import Z\n"
              "def f():\n    import simpeval.w\n")
    modules = {"simpeval.runner", "simpeval.x", "simpeval.y", "simpeval.z", "simpeval.w", "simpeval._version"}
    targets, private = imports_of("simpeval.x", "simpeval", ast.parse(source), modules, type_only=False)
    assert targets == {"simpeval.runner", "simpeval.y", "simpeval.w", "simpeval._version"}
    assert private == ["simpeval.x imports simpeval.runner._lookup"]
    targets, _ = imports_of("simpeval.x", "simpeval", ast.parse(source), modules)
    assert targets == {"simpeval.runner", "simpeval.y", "simpeval.w", "simpeval._version", "simpeval.z"}
    graph, _ = import_graph()
    assert "simpeval.engine.scoring" in graph["simpeval.engine.execute"]


def test_no_module_takes_part_in_an_import_cycle_type_only_imports_included():
    graph, _ = import_graph()
    found = cycles(graph)
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(cycle) for cycle in found)


@pytest.mark.parametrize("package", PLUGIN_PACKAGES, ids=lambda path: path.name)
def test_no_plugin_module_takes_part_in_an_import_cycle_or_takes_a_private_name(package):
    graph, _ = import_graph(package=package)
    found = cycles(graph)
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(cycle) for cycle in found)
    _, private = import_graph(type_only=False, package=package)
    assert private == []


def test_every_plugin_package_is_checked():
    assert PLUGIN_PACKAGES and len(PLUGIN_PACKAGES) == len(list(PLUGINS.glob("*/pyproject.toml")))


COMMAND_LINE = "simpeval.cli"
LAUNCHER = "simpeval.__main__"  # ``python -m simpeval``: it only starts the command line


def _is_command_line(module: str) -> bool:
    return module == COMMAND_LINE or module.startswith(COMMAND_LINE + ".")


def test_nothing_below_the_command_line_imports_it():
    graph, _ = import_graph()
    upward = sorted(f"{name} imports {target}" for name, targets in graph.items()
                    if not _is_command_line(name) and name != LAUNCHER
                    for target in targets if _is_command_line(target))
    assert upward == []


def test_the_layer_check_sees_a_type_only_import_of_the_command_line():
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from simpeval.cli.state import State\n"
    targets, _ = imports_of("simpeval.x", "simpeval", ast.parse(source), {"simpeval.x", "simpeval.cli.state"})
    assert targets == {"simpeval.cli.state"}


LIBRARY = ["simpeval.engine", "simpeval.engine.execute", "simpeval.engine.linefiles", "simpeval.engine.sources",
           "simpeval.engine.results", "simpeval.fileio", "simpeval.engine.parallel", "simpeval.api", "simpeval.runner"]


def test_importing_the_engine_loads_neither_the_command_line_nor_click():
    """``python -X importtime``'s list of every module an import loads, for the engine and the
    library modules that write files or run workers."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import " + ", ".join(LIBRARY)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = [line.rpartition("|")[2].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert set(LIBRARY) <= set(loaded)
    assert [m for m in loaded if _is_command_line(m) or m == "click" or m.startswith("click.")] == []


def test_no_module_imports_another_module_s_private_names():
    _, private = import_graph(type_only=False)
    assert private == []


def test_every_module_imports_on_its_own_in_a_fresh_interpreter():
    names = sorted(name for name in _modules() if name != "simpeval.__main__")  # that one runs the command line
    code = ("import importlib, sys\nfailed = []\nfor name in sys.argv[1:]:\n"
            "    for loaded in [m for m in sys.modules if m == 'simpeval' or m.startswith('simpeval.')]:\n"
            "        del sys.modules[loaded]\n"
            "    try:\n        importlib.import_module(name)\n"
            "    except Exception as exc:\n        failed.append(f'{name}: {type(exc).__name__}: {exc}')\n"
            "print('\\n'.join(failed))")
    done = subprocess.run([sys.executable, "-c", code, *names], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
