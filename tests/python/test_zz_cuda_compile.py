"""Compile-only CUDA check: every test kernel's CUDA source builds with NVRTC for sm_90.

Runs without a GPU (CI has NVRTC but no device). It checks every kernel defined at the top of
a test module, and the kernels other test files of the same process compiled (closures
included): named to run after them, which a parallel run does within each worker.
"""

import gc
import importlib
import os
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import treadle as wp
from treadle import _treadle

HERE = os.path.dirname(os.path.abspath(__file__))
MODULES = [
    "test_kernel_basics",
    "test_launch_and_cache",
    "test_vec_kernels",
    "test_random",
    "test_quat_kernels",
    "test_quat_euler",
    "test_dense_routines",
    "test_div_approx",
    "test_transform_setters",
    "test_array_component_store",
    "test_unroll",
    "test_grad",
    "test_grad_custom",
    "test_grad_forward",
    "test_atomic_exchange",
    "test_print_types",
    "test_structs",
    "test_mat_decomp",
    "test_random_sampling",
    "test_noise",
    "test_spatial",
    "test_generics",
    "test_indexedarray",
    "test_fabricarray",
    "test_array_slicing",
    "test_verify_fp",
    "test_bfloat16",
    "test_vector_kinds",
    "test_func_native",
    "test_launch_bounds",
    "test_geometry_functions",
    "test_bvh",
    "test_hash_grid",
    "test_mesh",
    "treadle.examples.heat_diffusion",
    "test_deterministic",
    "test_deterministic_counters",
    "test_negative_indices",
    "treadle.examples.traced_cloth",
]


def deterministic(k):
    """The kernel's deterministic mode, as its builds take it."""
    return k.module.deterministic_options(k.options)[0]


def listed_modules():
    """The listed test modules, and every other test module this process has imported (pytest
    imports them all when it collects, also in each worker of a parallel run)."""
    modules = {name: importlib.import_module(name) for name in MODULES}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None) or ""
        if name.startswith("test_") and os.path.dirname(os.path.abspath(path)) == HERE:
            modules[name] = module
    return modules.values()


def compile_each(kernels, compile_one):
    """compile_one(k) for every kernel, on two threads (NVRTC runs without the GIL); the
    results in order."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(compile_one, kernels))


def all_kernels():
    found = {}
    for module in listed_modules():
        for value in vars(module).values():
            if isinstance(value, wp.Kernel):
                found[id(value)] = value
    for obj in gc.get_objects():
        # kernels that compiled for some device elsewhere in the suite (closures included)
        if issubclass(type(obj), wp.Kernel) and len(obj._builds):  # type(): no lazy attribute lookups
            found[id(obj)] = obj
    # generic kernels compile per specialisation (found above once compiled), not themselves
    kernels = [k for k in found.values() if not k._generic_params]
    return sorted(kernels, key=lambda k: k.key)


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
def test_every_kernel_compiles_for_sm90():
    kernels = all_kernels()
    assert len(kernels) >= 15
    def compile_one(k):
        try:
            return _treadle.check_cuda_compile(k._function_source(), 90,
                                               launch_bounds=k.options.get("launch_bounds"),
                                               deterministic=deterministic(k))
        except Exception as e:  # noqa: BLE001 - any error of the front end, at a Python line
            # kernels the front end refuses on purpose (their own tests check the message):
            # no CUDA source to compile
            assert ".py:" in str(e), e
            return True, ""

    results = compile_each(kernels, compile_one)
    failures = [f"{k.__qualname__}:\n{log}" for k, (ok, log) in zip(kernels, results) if not ok]
    assert not failures, "\n\n".join(failures)


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
def test_every_backward_pass_compiles_for_sm90():
    # Every kernel whose backward pass ran on some device in the suite, plus the autodiff tests.
    kernels = [
        k for k in all_kernels()
        if any(h.adjoint_built for h in k._builds.all()) or k.module.name.startswith("test_grad")
    ]
    kernels = [k for k in kernels if k.options.get("enable_backward") is not False]
    assert len(kernels) >= 10
    def compile_one(k):
        try:
            return _treadle.check_cuda_compile(k._function_source(), 90, adjoint=True,
                                               launch_bounds=k.options.get("launch_bounds"),
                                               deterministic=deterministic(k))
        except _treadle.CompileError as e:
            # The autodiff tests' kernels whose backward pass the compiler refuses (their own
            # tests check the refusal); whether gc has collected them yet differs from run to run.
            assert "(): cannot differentiate " in str(e), e
            return None

    results = compile_each(kernels, compile_one)
    assert sum(r is not None for r in results) >= 10
    failures = [f"{k.__qualname__}:\n{r[1]}" for k, r in zip(kernels, results)
                if r is not None and not r[0]]
    assert not failures, "\n\n".join(failures)


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
def test_verify_fp_builds_compile_for_sm90():
    module = importlib.import_module("test_verify_fp")
    kernels = [v for v in vars(module).values() if isinstance(v, wp.Kernel)]
    assert len(kernels) >= 5
    failures = []
    for k in kernels:
        ok, log = _treadle.check_cuda_compile(k._function_source(), 90, verify_fp=True)
        if not ok:
            failures.append(f"{k.__qualname__}:\n{log}")
    assert not failures, "\n\n".join(failures)
