"""wp.unmap_cuda_device: Warp's error for an alias that names no CUDA device."""

import pytest

import treadle as wp


def test_unknown_alias_is_warps_runtime_error():
    with pytest.raises(RuntimeError, match=r"^Invalid CUDA device alias 'imaginary_device:0'$"):
        wp.unmap_cuda_device("imaginary_device:0")
    with pytest.raises(RuntimeError, match=r"^Invalid CUDA device alias 'cpu'$"):
        wp.unmap_cuda_device("cpu")


@pytest.mark.skipif(not wp.is_cuda_available(), reason="needs CUDA")
def test_own_cuda_devices_cannot_be_removed():
    with pytest.raises(NotImplementedError, match="cannot be removed"):
        wp.unmap_cuda_device("cuda:0")
