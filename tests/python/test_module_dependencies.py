"""Module dependencies: a kernel that names a function of another module records the
dependency, and redefining that function (reloading its module) rebuilds the kernel; closure
values are read again when a module is marked modified; unreferenced kernels leave their
module."""

import gc
import importlib
import sys
import textwrap

import numpy as np
import pytest

import treadle as wp

_LEAF = """
import treadle as wp

@wp.func
def leaf():
    return {value}
"""

_MIDDLE = """
import treadle as wp
import {prefix}_leaf as leaf_module

@wp.func
def middle():
    return {value} * leaf_module.leaf()
"""

_USER = """
import treadle as wp
import {prefix}_middle as middle_module

@wp.kernel
def run(out: wp.array(dtype=float)):
    f = middle_module.middle
    out[0] = f()
"""


@pytest.fixture
def modules(tmp_path, request):
    prefix = f"treadle_dep_{request.node.name}"
    sys.path.insert(0, str(tmp_path))

    def write(kind, value=None):
        text = {"leaf": _LEAF, "middle": _MIDDLE, "user": _USER}[kind]
        (tmp_path / f"{prefix}_{kind}.py").write_text(
            textwrap.dedent(text.format(prefix=prefix, value=value)))
        name = f"{prefix}_{kind}"
        importlib.invalidate_caches()
        if name in sys.modules:
            return importlib.reload(sys.modules[name])
        return importlib.import_module(name)

    yield write
    sys.path.remove(str(tmp_path))
    for kind in ("leaf", "middle", "user"):
        sys.modules.pop(f"{prefix}_{kind}", None)


def _value(kernel):
    out = wp.zeros(1, dtype=float, device="cpu")
    wp.launch(kernel, dim=1, outputs=[out], device="cpu")
    return float(out.numpy()[0])


def test_reloading_a_referenced_module_rebuilds_dependents(modules):
    leaf = modules("leaf", 3.0)
    middle = modules("middle", 2.0)
    user = modules("user")
    assert _value(user.run) == 6.0
    assert middle.middle.module in user.run.module.references
    assert leaf.leaf.module in middle.middle.module.references
    assert user.run.module in middle.middle.module.dependents
    modules("middle", 5.0)
    assert _value(user.run) == 15.0
    modules("leaf", 7.0)  # two modules down
    assert _value(user.run) == 35.0


def test_mark_modified_reads_closure_values_again():
    c = 17

    @wp.kernel
    def read_c(out: wp.array(dtype=int)):
        out[0] = c

    out = wp.zeros(1, dtype=int, device="cpu")
    wp.launch(read_c, dim=1, outputs=[out], device="cpu")
    assert out.numpy()[0] == 17
    c = 42
    wp.launch(read_c, dim=1, outputs=[out], device="cpu")
    assert out.numpy()[0] == 17  # the build is kept until the module is marked modified
    read_c.module.mark_modified()
    wp.launch(read_c, dim=1, outputs=[out], device="cpu")
    np.testing.assert_array_equal(out.numpy(), [42])


def _make(value):
    @wp.kernel(module="treadle_dep_gc")
    def k(a: wp.array(dtype=int)):
        a[0] = value

    return k


def test_unreferenced_kernels_leave_the_module():
    was_enabled = gc.isenabled()
    gc.disable()  # the kernel must be freed by its reference count alone
    try:
        k = _make(0)
        for i in range(1, 4):
            k = _make(i)
            assert len(k.module._get_live_kernels()) == 1
    finally:
        if was_enabled:
            gc.enable()
