"""CUDA failures users can cause: out of memory, and a kernel that faults asynchronously."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import treadle as wp

pytestmark = pytest.mark.skipif(not wp.is_cuda_available(), reason="needs a CUDA device")


def test_out_of_memory_is_a_memory_error_and_the_device_keeps_working():
    with pytest.raises(MemoryError, match=r"cuda:0.*bytes") as info:
        wp.empty((2**20, 2**20), dtype=wp.float32, device="cuda:0")  # 4 TiB
    assert "free" in str(info.value)
    x = wp.array(np.arange(8, dtype=np.float32), device="cuda:0")
    np.testing.assert_array_equal(x.numpy(), np.arange(8))


FAULT = textwrap.dedent(
    """
    import treadle as wp

    @wp.kernel
    def bad_write(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i * 1000000000] = 1.0

    x = wp.zeros(4, dtype=float, device="cuda:0")
    wp.launch(bad_write, dim=64, inputs=[x], device="cuda:0")
    try:
        wp.synchronize()
    except RuntimeError as e:
        print("caught:", e)
    """
)


def test_illegal_address_is_an_exception_naming_the_kernel(tmp_path):
    script = tmp_path / "fault.py"
    script.write_text(FAULT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    result = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                            text=True, timeout=120)
    out = result.stdout
    assert "caught:" in out, (out, result.stderr)
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in out
    assert f"'bad_write' ({script}:4) on cuda:0" in out
