"""The builtin table seen from Python: every builtin documented, the one host mapping agreeing with
the table's host trait, the Python objects carrying the table's docs, and the generated stubs."""

import ast
import math
import os
import types

import numpy as np
import pytest

import treadle as wp
from treadle import _treadle, builtin_functions, host_builtins

TABLE = _treadle.builtin_table()
GENERIC_DOC = builtin_functions.builtin_function.__doc__
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_every_builtin_has_its_own_doc():
    seen = {}
    for entry in TABLE:
        doc = entry["doc"].strip()
        assert doc, f"{entry['name']}: empty doc"
        assert doc != GENERIC_DOC, f"{entry['name']}: the generic doc"
        assert len(doc) >= 20, f"{entry['name']}: doc too short to say what it computes: {doc!r}"
        seen.setdefault(doc, []).append(entry["name"])
    shared = {doc: names for doc, names in seen.items() if len(names) > 1}
    assert shared == {}, f"builtins sharing one doc: {shared}"


def test_python_objects_carry_the_table_doc():
    for entry in builtin_functions.TABLE:
        obj = getattr(wp, entry["name"])
        assert entry["doc"] in obj.__doc__
        assert obj.__doc__.startswith(entry["signature"])
        assert obj.__doc__ != GENERIC_DOC
    sqrt = next(e for e in TABLE if e["name"] == "sqrt")
    assert wp.sqrt.__doc__ == f"sqrt(x: Float) -> Float\n\n{sqrt['doc']}\n\nDifferentiable."
    assert "Differentiable" not in wp.randf.__doc__


def test_host_mapping_matches_the_table():
    names = {e["name"] for e in TABLE}
    host_in_table = {e["name"] for e in TABLE if e["host"]}
    mapped = set(host_builtins.HOST)
    assert mapped - names == set(), "host versions of names that are not builtins"
    assert mapped - host_in_table == set(), "host versions of builtins the table says are not"
    assert host_in_table - mapped == set(), "host-callable builtins without a host version"


def test_host_versions_are_the_ones_called():
    assert wp.sqrt(2.0) == float(np.float32(math.sqrt(2.0)))  # a Python float is a float32
    assert wp.sign(-3.0) == -1 and wp.sign(0.0) == 1
    assert wp.clamp(5, 0, 3) == 3
    assert wp.add(wp.vec3(1.0, 2.0, 3.0), wp.vec3(1.0, 1.0, 1.0)) == wp.vec3(2.0, 3.0, 4.0)
    assert wp.dot(wp.vec3(1.0, 2.0, 3.0), wp.vec3(4.0, 5.0, 6.0)) == 32.0
    with pytest.raises(RuntimeError, match=r"wp\.tid\(\) can only be called inside kernels"):
        wp.tid()
    with pytest.raises(RuntimeError, match=r"wp\.floordiv\(\) can only be called inside kernels"):
        wp.floordiv(7, 2)


def test_print_on_the_host_is_pythons(capsys):
    wp.print("value", 3)
    assert capsys.readouterr().out == "value 3\n"


def test_traits_exported():
    by_name = {e["name"]: e for e in TABLE}
    assert by_name["svd3"]["results"] == 3 and by_name["svd3"]["rebinds"] == "outputs"
    assert by_name["randf"]["rebinds"] == "state"
    assert by_name["atomic_cas"]["value_operands"] == 2 and by_name["atomic_cas"]["atomic"] == "cas"
    assert by_name["spatial_mass"]["writes_last_array"]
    assert by_name["extract"]["kind"] == "internal" and by_name["extract"]["linear"] == "first"
    assert by_name["add"]["op"] == "+" and by_name["add"]["linear"] == "all"
    assert by_name["matmul"]["callable"] is False
    assert [p["name"] for p in by_name["clamp"]["params"]] == ["x", "low", "high"]
    assert by_name["svd3"]["returns"] == "tuple(mat33, vec3, mat33)"
    assert all(e["devices"] == ["cpu", "cuda"] for e in TABLE)
    assert not hasattr(wp, "extract") and not hasattr(wp, "matmul")


def test_stub_parses_and_names_every_public_name_and_builtin():
    with open(os.path.join(ROOT, "python", "treadle", "__init__.pyi")) as f:
        tree = ast.parse(f.read())
    defined, overloads = set(), {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            defined.add(node.name)
            overloads[node.name] = overloads.get(node.name, 0) + 1
        elif isinstance(node, ast.ImportFrom):
            defined.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.AnnAssign):
            defined.add(node.target.id)
    public = {n for n, v in vars(wp).items()
              if not n.startswith("_") and not isinstance(v, types.ModuleType)}
    assert public - defined == set()
    assert {"config", "types", "utils"} <= defined
    assert {e["name"] for e in builtin_functions.TABLE} <= defined
    assert overloads["svd3"] == 2 and overloads["sin"] == 1  # tuple and out-argument forms
