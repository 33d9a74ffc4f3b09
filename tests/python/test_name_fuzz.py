"""Name fuzzer: 200-odd identifiers that collide with C++ keywords, alternative tokens, macros,
treadle's native names and its generated names, used as struct fields, struct names, functions,
function parameters, kernel locals and kernel parameters (tests/fuzz/names.py). Every kernel
must compile with g++ (and NVRTC where installed) and compute what Python computes."""

import importlib.util
import os
import sys

import numpy as np
import pytest

import treadle as wp
from treadle import _treadle

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from fuzz import names  # noqa: E402


@pytest.fixture(scope="module")
def named(tmp_path_factory):
    all_names = names.hazardous_names()
    path = tmp_path_factory.mktemp("names") / "hazard_names.py"
    path.write_text(names.module_source(all_names))
    spec = importlib.util.spec_from_file_location("hazard_names", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, all_names


def test_there_are_enough_names():
    got = names.hazardous_names()
    assert len(got) >= 200
    for n in ("xor", "bitand", "NULL", "EOF", "CUDA_CALLABLE", "params", "bounds", "v0", "wp"):
        assert n in got


def test_locals_and_calls(device, named):
    module, all_names = named
    want = names.expected(all_names)
    out = wp.zeros(2, dtype=float, device=device)
    wp.launch(module.locals_kernel, dim=2, inputs=[out], device=device)
    np.testing.assert_allclose(out.numpy(), [want["locals"]] * 2, rtol=1e-6)
    wp.launch(module.calls_kernel, dim=1, inputs=[out], device=device)
    np.testing.assert_allclose(out.numpy()[0], want["calls"], rtol=1e-6)


def test_fields_and_parameters(device, named):
    module, all_names = named
    s = module.Fields()
    fields = names.field_names(all_names)
    for j, n in enumerate(fields):
        setattr(s, n, float(j))
    scalars = [float(100 + j) for j in range(40)]
    out = wp.zeros(1, dtype=float, device=device)
    wp.launch(module.params_kernel, dim=1, inputs=[s, out, *scalars], device=device)
    assert out.numpy()[0] == sum(scalars) + sum(range(len(fields)))


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
def test_every_named_kernel_compiles_for_sm90(named):
    module, _ = named
    for k in (module.locals_kernel, module.params_kernel, module.calls_kernel):
        for adjoint in (False, True):
            ok, log = _treadle.check_cuda_compile(k._function_source(), 90, adjoint=adjoint)
            assert ok, f"{k.key} (adjoint={adjoint}):\n{log[:3000]}"
