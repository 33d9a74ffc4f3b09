"""wp.launch options: block_dim and max_blocks shape CUDA grids; record_cmd returns a Launch."""

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def mark(out: wp.array(dtype=int)):
    i = wp.tid()
    out[i] = out[i] + i + 1


def test_block_dim_and_max_blocks_cover_every_index(device):
    n = 10000
    out = wp.zeros(n, dtype=int, device=device)
    wp.launch(mark, dim=n, inputs=[out], device=device, block_dim=64, max_blocks=3)
    wp.launch(mark, dim=n, inputs=[out], device=device, block_dim=1024)
    wp.launch(mark, dim=n, inputs=[out], device=device, max_blocks=1)
    wp.launch(mark, dim=n, inputs=[out], device=device, block_dim=0, max_blocks=-1)
    np.testing.assert_array_equal(out.numpy(), 4 * (np.arange(n) + 1))


def test_block_dim_out_of_range_is_refused_on_cuda(device):
    if not device.startswith("cuda"):
        pytest.skip("CPU launches ignore block_dim, as Warp documents")
    out = wp.zeros(4, dtype=int, device=device)
    with pytest.raises(RuntimeError, match=re.escape(
            "Error launching kernel: mark(): block_dim 2048 is above the 1024 threads a CUDA "
            "block can have (Warp CUDA error")):
        wp.launch(mark, dim=4, inputs=[out], device=device, block_dim=2048)


def test_record_cmd_returns_a_launch_without_running(device):
    out = wp.zeros(4, dtype=int, device=device)
    cmd = wp.launch(mark, dim=4, inputs=[out], device=device, record_cmd=True)
    assert isinstance(cmd, wp.Launch) and not out.numpy().any()
    cmd.launch()
    assert out.numpy().any()


@wp.kernel(module="unique")
def unique_add(out: wp.array(dtype=int)):
    i = wp.tid()
    out[i] = out[i] + 2


def test_load_module_compiles_the_registered_kernels():
    wp.load_module(__name__, device="cpu")
    assert mark._builds.find("cpu", "release", 16, False) is not None
    assert not len(unique_add._builds)  # a module of its own
    wp.load_module(__name__, device="cpu", recursive=True)
    assert len(unique_add._builds)
    wp.force_load(device="cpu", modules=[__name__])
    assert mark._builds.find("cpu", "release", 16, False) is not None


LOAD_CHILD = """
import json, sys, treadle as wp

@wp.kernel
def k0(x: wp.array(dtype=float)):
    x[wp.tid()] = 0.0

@wp.kernel
def k1(x: wp.array(dtype=float)):
    x[wp.tid()] = 1.0

@wp.kernel
def k2(x: wp.array(dtype=float)):
    x[wp.tid()] = 2.0

wp.load_module(device="cpu")
x = wp.zeros(1, dtype=float, device="cpu")
wp.launch(k2, dim=1, inputs=[x], device="cpu")
print(json.dumps({"built": [not k._compile("cpu").from_cache for k in (k0, k1, k2)],
                  "value": float(x.numpy()[0])}))
"""


def test_load_module_builds_kernels_in_parallel(tmp_path):
    # A compiler wrapper that logs when each kernel build starts and ends and takes a second.
    log = tmp_path / "builds.log"
    wrapper = tmp_path / "cxx.sh"
    wrapper.write_text(
        "#!/bin/sh\n"
        'case "$*" in *kernel.so*) echo "start $(date +%s.%N)" >> ' + str(log) + "; sleep 1;;\n"
        "esac\n"
        'c++ "$@"; rc=$?\n'
        'case "$*" in *kernel.so*) echo "end $(date +%s.%N)" >> ' + str(log) + ";; esac\n"
        "exit $rc\n")
    wrapper.chmod(0o755)
    script = tmp_path / "child.py"
    script.write_text(LOAD_CHILD)
    env = dict(os.environ, TREADLE_CXX=str(wrapper), TREADLE_NUM_THREADS="4",
               TREADLE_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.join(os.path.dirname(__file__), "..", "..", "python"))
    out = subprocess.run([sys.executable, str(script)], env=env, check=True, capture_output=True,
                         text=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    assert result == {"built": [True, True, True], "value": 2.0}
    events = [line.split() for line in log.read_text().splitlines()]
    starts = sorted(float(t) for kind, t in events if kind == "start")
    ends = sorted(float(t) for kind, t in events if kind == "end")
    assert len(starts) == 3 and len(ends) == 3
    # a second build started before the first one ended: they ran at the same time
    assert starts[1] < ends[0]


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


def test_the_backward_build_is_kept_by_the_native_kernel_object():
    forward = square._compile("cpu")
    backward = square._compile_adjoint("cpu")
    assert not forward.adjoint and backward.adjoint
    assert forward.with_adjoint().key == backward.key  # compiled once, kept with the build
    assert backward.with_adjoint().key == backward.key
    assert not any(h.adjoint for h in square._builds.all())  # kept with the forward build
    x = wp.array(np.array([1.0, 3.0], dtype=np.float32), device="cpu", requires_grad=True)
    y = wp.zeros(2, dtype=float, device="cpu", requires_grad=True)
    y.grad.fill_(1.0)
    wp.launch(square, dim=2, inputs=[x], outputs=[y], adjoint=True, device="cpu")
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 6.0])


def test_adjoint_argument_count_is_checked_by_the_packer():
    x = wp.zeros(2, dtype=float, device="cpu", requires_grad=True)
    y = wp.zeros(2, dtype=float, device="cpu", requires_grad=True)
    with pytest.raises(TypeError, match=r"^square\(\): expects 2 adjoint arguments but 1 were given$"):
        wp.launch(square, dim=2, inputs=[x], outputs=[y], adj_inputs=[x.grad], adjoint=True,
                  device="cpu")
    with pytest.raises(TypeError, match=r"^square\(\): argument 'x' expects an adjoint array, got "
                                        r"float$"):
        wp.launch(square, dim=2, inputs=[x], outputs=[y], adj_inputs=[1.0], adj_outputs=[None],
                  adjoint=True, device="cpu")
