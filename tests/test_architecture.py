"""The house as docs/architecture.md describes it: its packages, their size, no cycles, one way in.

The layers themselves are import-linter contracts (pyproject.toml, run by `lint-imports` in CI);
these tests hold what a contract cannot say.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tensorlab"
MAX_MODULES = 15


CONTAINERS = {"tensorlab", "tensorlab.core", "tensorlab.ui"}   # folders of packages, described by their parts


def _packages() -> set[str]:
    """Every package of code in the tree (folders with an __init__.py; the resources are data), dotted."""
    names = {".".join(init.parent.relative_to(ROOT).parts) for init in PACKAGE.rglob("__init__.py")}
    return {n for n in names if n not in CONTAINERS and not n.startswith("tensorlab.resources")}


def _documented() -> set[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Packages, along the data flow", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^- `(tensorlab(?:\.\w+)+)`:", section, flags=re.M))


def test_the_architecture_document_names_every_package_and_no_other():
    tree, documented = _packages(), _documented()
    assert not tree - documented, f"packages docs/architecture.md does not describe: {sorted(tree - documented)}"
    assert not documented - tree, f"docs/architecture.md names packages that do not exist: {sorted(documented - tree)}"


def test_no_folder_holds_more_than_fifteen_modules():
    for folder in [PACKAGE, *(p for p in PACKAGE.rglob("*") if p.is_dir() and p.name != "__pycache__")]:
        modules = [p for p in folder.glob("*.py") if p.name not in {"__init__.py", "__main__.py"}]
        assert len(modules) <= MAX_MODULES, f"{folder.relative_to(ROOT)} holds {len(modules)} modules"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("tensorlab", cache_dir=None)


def test_no_two_modules_import_each_other_through_any_chain():
    """No import cycle, imports made for the type checker only (under ``TYPE_CHECKING``) included: the
    window's parts take Protocols or the widgets they use, and never name ``MainWindow``."""
    graph = grimp.build_graph("tensorlab", exclude_type_checking_imports=False, cache_dir=None)
    cycles = sorted({tuple(sorted((importer, imported)))
                     for importer in graph.modules
                     for imported in graph.find_modules_directly_imported_by(importer)
                     if imported != importer and graph.chain_exists(importer=imported, imported=importer)})
    assert not cycles, f"modules in an import cycle: {cycles}"


def test_the_window_is_named_only_where_it_is_built():
    """The window's parts take Protocols or the widgets they use: only the functions that build a
    window (build, and the offscreen renderer that returns one) import ``MainWindow``, type-only included."""
    graph = grimp.build_graph("tensorlab", exclude_type_checking_imports=False, cache_dir=None)
    importers = graph.find_modules_that_directly_import("tensorlab.ui.window.main_window")
    assert importers <= {"tensorlab.ui.window.build", "tensorlab.ui.window.offscreen"}, sorted(importers)


def test_every_panel_module_is_covered_by_the_panels_independence_contract():
    """The contract names the panels by wildcard, so a new panel module is covered without an edit; an
    ignored import may only lead to a module that is not a panel (the storage map's strips)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "independence"
                    and c["modules"] == ["tensorlab.ui.panels.*"])
    panels = {f"tensorlab.ui.panels.{p.stem}" for p in (PACKAGE / "ui" / "panels").glob("*.py")
              if "def render_view(" in p.read_text(encoding="utf-8")}
    for ignored in contract.get("ignore_imports", []):
        importer, imported = (part.strip() for part in ignored.split("->"))
        assert imported not in panels, f"{ignored!r} lets one panel import another"


def test_nothing_imports_the_entry_points(graph):
    for entry in ("tensorlab.gui", "tensorlab.cli"):
        importers = {m for m in graph.find_modules_that_directly_import(entry)
                     | {i for sub in graph.find_children(entry) for i in graph.find_modules_that_directly_import(sub)}}
        outside = {m for m in importers if not m.startswith(entry + ".") and m != entry and m != "tensorlab.__main__"}
        assert not outside, f"{entry} is an entry point, but {sorted(outside)} import it"


def _window_side(graph: grimp.ImportGraph) -> set[str]:
    """Every module the window's process can load: what the launcher, the window and the player reach."""
    roots = {m for m in graph.modules if m == "tensorlab.gui" or m.startswith(("tensorlab.gui.", "tensorlab.ui.",
                                                                                "tensorlab.core.engine."))}
    reached = set(roots)
    for root in roots:
        reached |= {m for m in graph.find_upstream_modules(root) if m.startswith("tensorlab")}
    return reached


def _module_file(name: str) -> Path:
    path = ROOT.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


# Modules that import, or run, code named by a string; pickle's load functions (the wire's SafeUnpickler
# subclasses pickle.Unpickler and refuses every class but TensorLab's data).
_DYNAMIC_MODULES = ("importlib", "runpy", "pkgutil", "zipimport", "imp")
_DYNAMIC_BUILTINS = {"__import__", "exec", "eval", "compile"}
_DYNAMIC_ATTRIBUTES = {"__import__", "import_module", "run_module", "run_path", "entry_points"}


# The export's own check compiles the file it wrote (issue #15: "compiles the whole file") and drops the
# code object: nothing is run or imported (tests/core/export/test_verify.py checks it is never executed).
_COMPILES = {("tensorlab.core.export.verify", "compile")}


def _pickle_load(node: ast.Attribute) -> bool:
    return node.attr in ("load", "loads") and isinstance(node.value, ast.Name) and node.value.id == "pickle"


def test_the_window_side_imports_nothing_by_name_at_run_time(graph):
    """Every import where the window runs is a statement the torch-free contract sees: no importlib (not
    even importlib.resources or .metadata, which import packages by name), runpy, pkgutil, __import__,
    exec/eval, or pickle's own load functions."""
    found = []
    for name in sorted(_window_side(graph)):
        tree = ast.parse(_module_file(name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found += [f"{name}: import {a.name}" for a in node.names if a.name.split(".")[0] in _DYNAMIC_MODULES]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in _DYNAMIC_MODULES:
                found.append(f"{name}: from {node.module} import ...")
            elif isinstance(node, ast.Name) and node.id in _DYNAMIC_BUILTINS and (name, node.id) not in _COMPILES:
                found.append(f"{name}: {node.id}")
            elif isinstance(node, ast.Attribute) and (node.attr in _DYNAMIC_ATTRIBUTES or _pickle_load(node)):
                found.append(f"{name}: .{node.attr}")
    assert not found, "dynamic imports on the window side:\n" + "\n".join(found)


def test_every_folder_of_code_is_a_package():
    """A folder of modules without __init__.py would be a namespace package that the import graph (and so
    every contract) does not see."""
    loose = sorted(str(folder.relative_to(ROOT)) for folder in [PACKAGE, *PACKAGE.rglob("*")]
                   if folder.is_dir() and folder.name != "__pycache__" and any(folder.glob("*.py"))
                   and not (folder / "__init__.py").exists())
    assert not loose, f"folders of modules without __init__.py: {loose}"


def test_the_window_side_is_what_the_contract_checks(graph):
    assert "tensorlab.gui.launch" in _window_side(graph)
    assert not {m for m in _window_side(graph) if m.startswith(("tensorlab.core.session", "tensorlab.core.sandbox",
                                                                   "tensorlab.core.observe", "tensorlab.core.worker",
                                                                   "tensorlab.cli"))}


def test_the_launcher_hands_on_exactly_the_headless_commands():
    from tensorlab.cli.main import COMMANDS
    from tensorlab.gui.launch import HEADLESS

    assert set(HEADLESS) == set(COMMANDS)


def test_the_tests_mirror_the_tree():
    """tests/core/<package>/ and tests/ui/<package>/ test tensorlab's package of that name."""
    tests = ROOT / "tests"
    for side in ("core", "ui"):
        for folder in sorted(p for p in (tests / side).iterdir() if p.is_dir() and p.name != "__pycache__"):
            assert (PACKAGE / side / folder.name / "__init__.py").exists(), \
                f"tests/{side}/{folder.name} tests no package tensorlab/{side}/{folder.name}"
    for folder in ("cli", "gui"):
        assert (tests / folder).is_dir() == (PACKAGE / folder).is_dir()
