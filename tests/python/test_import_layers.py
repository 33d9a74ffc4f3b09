"""The Python package is in layers: no module of python/treadle imports one that imports it back
(directly or through others), no import hides inside a function, __init__.py only re-exports,
every module imports on its own, and the type modules even without the package's
__init__.py."""

import ast
import os
import subprocess
import sys

import pytest

PACKAGE = os.path.join(os.path.dirname(__file__), "..", "..", "python", "treadle")


def _modules():
    return sorted(f[:-3] for f in os.listdir(PACKAGE) if f.endswith(".py") and f != "__init__.py")


def _tree(name):
    with open(os.path.join(PACKAGE, name + ".py")) as f:
        return ast.parse(f.read())


def _imported(node):
    """The treadle modules an import statement names (relative imports of the package)."""
    if isinstance(node, ast.ImportFrom) and node.level == 1:
        if node.module is None:
            return [a.name for a in node.names]
        return [node.module.split(".")[0]]
    if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("treadle."):
        return [node.module.split(".")[1]]
    return []


def _graph():
    modules = set(_modules())
    return {m: {d for node in ast.walk(_tree(m)) for d in _imported(node) if d in modules}
            for m in modules}


def _cycle(graph):
    """One import cycle as a list of modules, or None."""
    state = {}

    def visit(m, path):
        state[m] = "open"
        for d in sorted(graph[m]):
            if state.get(d) == "open":
                return path[path.index(d):] + [d]
            if d not in state:
                found = visit(d, path + [d])
                if found:
                    return found
        state[m] = "done"
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m, [m])
            if found:
                return found
    return None


def test_no_import_cycle():
    assert _cycle(_graph()) is None


def test_the_cycle_check_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_inside_a_function():
    deferred = []
    for m in _modules():
        for fn in ast.walk(_tree(m)):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if _imported(node):
                        deferred.append(f"{m}.py:{node.lineno}")
    assert deferred == []


def test_init_only_reexports():
    body = _tree("__init__").body
    allowed = (ast.Import, ast.ImportFrom)
    extra = [
        node.lineno for node in body
        if not isinstance(node, allowed)
        and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))  # docstring
        and not (isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["__version__"])
    ]
    assert extra == []


@pytest.mark.parametrize("name", _modules())
def test_each_module_imports_on_its_own(name):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(os.path.join(PACKAGE, "..")))
    subprocess.run([sys.executable, "-c", f"import treadle.{name}"], env=env, check=True)


TYPE_MODULES = ["type_classes", "scalar_types", "shapes", "vec_types", "quat_types", "struct",
                "array", "indexedarray", "fabricarray", "types"]
"""The type layer, bottom first (docs/architecture.md): each needs only the modules below it."""

# Registers a bare `treadle` package (its folder, without running __init__.py), so that a
# module is imported with nothing but what it imports itself.
_BARE = ("import sys, types; p = types.ModuleType('treadle'); p.__path__ = [{path!r}]; "
         "sys.modules['treadle'] = p; import treadle.{name}")


@pytest.mark.parametrize("name", TYPE_MODULES)
def test_type_modules_import_without_the_package_init(name):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(os.path.join(PACKAGE, "..")))
    code = _BARE.format(path=os.path.abspath(PACKAGE), name=name)
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
