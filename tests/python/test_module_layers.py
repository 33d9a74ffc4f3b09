"""The Python package's modules form layers: each imports on its own in a fresh interpreter, and
no module imports one that imports it back (read from the source, top-level imports only)."""

import ast
import os
import subprocess
import sys

import pytest

PACKAGE = os.path.join(os.path.dirname(__file__), "..", "..", "python", "treadle")
PYTHON_ROOT = os.path.abspath(os.path.join(PACKAGE, ".."))

MODULES = sorted(
    name[:-3] for name in os.listdir(PACKAGE) if name.endswith(".py") and name != "__init__.py"
)

LAYERED = [
    "type_classes", "scalar_types", "shapes", "vec_types", "quat_types", "struct", "array",
    "indexedarray", "array_copy", "types", "host_math", "host_builtins", "generics", "resolver",
]
"""The modules whose layering is checked: none of them may be part of an import cycle, and
they import treadle modules only at the top (see DEFERRED)."""

DEFERRED = {("generics", "kernel"), ("resolver", "kernel")}
"""Function-level imports still allowed in LAYERED modules: (module, imported module)."""

# Registers a bare `treadle` package (its folder, without running __init__.py), so that a
# module is imported with nothing but what it imports itself.
_BARE = (
    "import sys, types; p = types.ModuleType('treadle'); p.__path__ = [{path!r}]; "
    "sys.modules['treadle'] = p; import treadle.{module}"
)


def _run(code):
    env = dict(os.environ, PYTHONPATH=PYTHON_ROOT)
    return subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def _check_all(codes):
    running = {key: _run(code) for key, code in codes.items()}
    failed = {}
    for key, process in running.items():
        out, _ = process.communicate(timeout=120)
        if process.returncode != 0:
            failed[key] = out.strip().splitlines()[-1:]
    assert not failed, failed


def test_every_module_imports_in_a_fresh_interpreter():
    _check_all({m: f"import treadle.{m}" for m in MODULES})


def test_layered_modules_import_without_the_package_init():
    _check_all({m: _BARE.format(path=os.path.join(PYTHON_ROOT, "treadle"), module=m)
                for m in LAYERED})


def _imported(node, module):
    """The treadle modules an import statement names (relative imports and treadle.*)."""
    found = []
    if isinstance(node, ast.ImportFrom):
        if node.level == 1 and node.module is None:  # from . import a, b
            found += [alias.name for alias in node.names]
        elif node.level == 1:  # from .a import x
            found.append(node.module.split(".")[0])
        elif node.level == 0 and (node.module or "").startswith("treadle."):
            found.append(node.module.split(".")[1])
    elif isinstance(node, ast.Import):
        found += [a.name.split(".")[1] for a in node.names if a.name.startswith("treadle.")]
    return [m for m in found if m in MODULES and m != module]


def _top_level_imports(module):
    """Imports run when the module is imported: at the top, or under a top-level if/try."""
    with open(os.path.join(PACKAGE, module + ".py")) as f:
        tree = ast.parse(f.read())
    out, todo = [], list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.If, ast.Try)):
            todo += node.body + node.orelse + getattr(node, "finalbody", [])
            todo += [s for h in getattr(node, "handlers", []) for s in h.body]
        out += _imported(node, module)
    return out


def _deferred_imports(module):
    with open(os.path.join(PACKAGE, module + ".py")) as f:
        tree = ast.parse(f.read())
    out = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                out.update((module, m) for m in _imported(node, module))
                if isinstance(node, ast.Import) and any(a.name == "importlib" for a in node.names):
                    out.add((module, "importlib"))
    return out


def _cycles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_check_finds_cycles():
    assert _cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert _cycles({"a": ["b"], "b": []}) == []


def test_no_layered_module_is_part_of_an_import_cycle():
    graph = {m: _top_level_imports(m) for m in MODULES}
    involved = [c for c in _cycles(graph) if set(c) & set(LAYERED)]
    assert involved == [], f"import cycles: {involved}"


@pytest.mark.parametrize("module", LAYERED)
def test_layered_modules_import_at_the_top(module):
    assert _deferred_imports(module) <= DEFERRED
