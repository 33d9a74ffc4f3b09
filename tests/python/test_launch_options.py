"""wp.launch's options: block_dim and max_blocks shape CUDA grids, record_cmd is refused."""

import re

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
    with pytest.raises(ValueError, match=re.escape("mark(): block_dim must be in [1, 1024], got 2048")):
        wp.launch(mark, dim=4, inputs=[out], device=device, block_dim=2048)


def test_record_cmd_is_refused(device):
    out = wp.zeros(4, dtype=int, device=device)
    message = ("launch(): record_cmd=True (returning a wp.Launch to replay) is not supported; "
               "call wp.launch again, or capture launches once with wp.ScopedCapture and replay "
               "the graph")
    with pytest.raises(NotImplementedError, match="^" + re.escape(message) + "$"):
        wp.launch(mark, dim=4, inputs=[out], device=device, record_cmd=True)
    assert not out.numpy().any()


@wp.kernel(module="unique")
def unique_add(out: wp.array(dtype=int)):
    i = wp.tid()
    out[i] = out[i] + 2


def test_load_module_compiles_the_registered_kernels():
    wp.load_module(__name__, device="cpu")
    assert ("cpu", "release") in mark._compiled
    assert not unique_add._compiled  # a module of its own
    wp.load_module(__name__, device="cpu", recursive=True)
    assert unique_add._compiled
    wp.force_load(device="cpu", modules=[__name__])
    assert ("cpu", "release") in mark._compiled
