"""@wp.kernel(launch_bounds=...): the CUDA entry points' __launch_bounds__, the block_dim check
of CUDA launches, and the option's validation (the CPU ignores it)."""

import numpy as np
import pytest

import treadle as wp
from treadle import _treadle

F32 = wp.array(dtype=wp.float32)


@wp.kernel(launch_bounds=128)
def bounded_single(x: F32):
    i = wp.tid()
    x[i] = x[i] * 2.0


@wp.kernel(launch_bounds=(256, 2))
def bounded_pair(x: F32):
    i = wp.tid()
    x[i] = x[i] * 2.0


@wp.kernel(launch_bounds=(512,))
def bounded_one_tuple(x: F32):
    i = wp.tid()
    x[i] = x[i] * 2.0


@wp.kernel
def unbounded(x: F32):
    i = wp.tid()
    x[i] = x[i] * 2.0


def cuda_source(k, adjoint=False):
    return _treadle.kernel_source(k._function_source(), cuda=True, adjoint=adjoint,
                                  launch_bounds=k.options.get("launch_bounds"))


def test_cuda_entry_points_carry_the_bounds():
    assert 'extern "C" __global__ void __launch_bounds__(128) treadle_cuda_entry(' in cuda_source(
        bounded_single)
    source = cuda_source(bounded_pair, adjoint=True)
    assert 'void __launch_bounds__(256, 2) treadle_cuda_entry(' in source
    assert 'void __launch_bounds__(256, 2) treadle_cuda_entry_adj(' in source
    assert "__launch_bounds__(512) treadle_cuda_entry(" in cuda_source(bounded_one_tuple)
    assert "__launch_bounds__" not in cuda_source(unbounded)


def test_cpu_ignores_the_bounds():
    source = _treadle.kernel_source(bounded_pair._function_source(), cuda=False,
                                    launch_bounds=bounded_pair.options["launch_bounds"])
    assert "__launch_bounds__" not in source
    x = wp.array(np.ones(1024, dtype=np.float32), device="cpu")
    wp.launch(bounded_single, 1024, inputs=[x], block_dim=1024, device="cpu")
    np.testing.assert_allclose(x.numpy(), 2.0)


def test_launches_within_the_bounds_run(device):
    for k in (bounded_single, bounded_pair, bounded_one_tuple):
        x = wp.array(np.ones(1000, dtype=np.float32), device=device)
        wp.launch(k, 1000, inputs=[x], device=device, block_dim=128)
        np.testing.assert_allclose(x.numpy(), 2.0)


def test_cuda_launch_above_the_bounds_is_refused_naming_the_kernel():
    if not wp.is_cuda_available():
        pytest.skip("needs a CUDA device")
    x = wp.ones(4, dtype=wp.float32, device="cuda:0")
    with pytest.raises(RuntimeError, match=r"Error launching kernel: bounded_single\(\): "
                                           r"block_dim 256 is above its launch_bounds of 128"):
        wp.launch(bounded_single, 4, inputs=[x], device="cuda:0", block_dim=256)


def test_bounds_are_part_of_the_build():
    # equal sources, different bounds: different builds (and, on CUDA, cache keys)
    # (mode, max_unroll, verify_fp, launch_bounds, optimization_level, cpu_compiler_flags)
    assert bounded_single._build_options()[3] == (128, 0)
    assert bounded_pair._build_options()[3] == (256, 2)
    assert unbounded._build_options()[3] is None


@pytest.mark.parametrize("bounds, message", [
    ("256", "launch_bounds must be an int or a tuple/list of 1-2 ints, got <class 'str'>"),
    ((1, 2, 3), r"launch_bounds must be an int or a tuple/list of 1-2 ints, got \(1, 2, 3\)"),
    ((), r"launch_bounds must be an int or a tuple/list of 1-2 ints, got \(\)"),
    ((128, 1.5), r"launch_bounds must be an int or a tuple/list of 1-2 ints, got \(128, 1.5\)"),
    (0, "launch_bounds must be positive, got 0"),
    ((128, -1), r"launch_bounds must be positive, got \(128, -1\)"),
    (2048, "launch_bounds: at most 1024 threads per block, got 2048"),
])
def test_invalid_bounds_are_refused(bounds, message):
    with pytest.raises(ValueError, match=message):
        @wp.kernel(launch_bounds=bounds, module="unique")
        def k(x: F32):
            pass


def test_other_cuda_keywords_stay_refused():
    with pytest.raises(NotImplementedError, match="cluster_dim"):
        @wp.kernel(cluster_dim=2, module="unique")
        def k(x: F32):
            pass
    with pytest.raises(ValueError, match="cuda_max_registers and launch_bounds"):
        @wp.kernel(launch_bounds=128, cuda_max_registers=64, module="unique")
        def k2(x: F32):
            pass
