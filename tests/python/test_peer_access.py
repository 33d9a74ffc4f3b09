"""Access between devices (peer access, memory pool access) and the scoped forms; the CUDA
tests skip without a GPU, the CPU ones check Warp's answers and errors."""

import pytest

import treadle as wp

needs_cuda = pytest.mark.skipif(not wp.is_cuda_available(), reason="needs a CUDA device")


def test_cpu_has_no_peer_or_pool_access():
    for query in (wp.is_peer_access_supported, wp.is_peer_access_enabled,
                  wp.is_mempool_access_supported, wp.is_mempool_access_enabled):
        assert query("cpu", "cpu") is False
    wp.set_peer_access_enabled("cpu", "cpu", False)  # disabling is a no-op, as in Warp
    wp.set_mempool_access_enabled("cpu", "cpu", False)
    with pytest.raises(ValueError, match="Peer access is only supported between CUDA devices"):
        wp.set_peer_access_enabled("cpu", "cpu", True)
    with pytest.raises(ValueError,
                       match="Memory pool access is only supported between CUDA devices"):
        wp.set_mempool_access_enabled("cpu", "cpu", True)


def test_scoped_forms_restore_the_setting_on_cpu():
    with wp.ScopedMempoolAccess("cpu", "cpu", False), wp.ScopedPeerAccess("cpu", "cpu", False):
        assert wp.is_mempool_access_enabled("cpu", "cpu") is False
    with pytest.raises(ValueError):
        with wp.ScopedMempoolAccess("cpu", "cpu", True):
            pass


@needs_cuda
def test_one_device_always_reaches_itself():
    assert wp.is_peer_access_supported("cuda:0", "cuda:0")
    assert wp.is_peer_access_enabled("cuda:0", "cuda:0")
    if wp.is_mempool_supported("cuda:0"):
        assert wp.is_mempool_access_supported("cuda:0", "cuda:0")
        assert wp.is_mempool_access_enabled("cuda:0", "cuda:0")
    assert wp.is_peer_access_supported("cuda:0", "cpu") is False


@needs_cuda
@pytest.mark.skipif(wp.get_cuda_device_count() < 2, reason="needs two CUDA devices")
def test_mempool_access_between_two_devices():
    if not wp.is_mempool_access_supported("cuda:0", "cuda:1"):
        pytest.skip("the devices cannot access each other")
    with wp.ScopedMempoolAccess("cuda:0", "cuda:1", True):
        assert wp.is_mempool_access_enabled("cuda:0", "cuda:1")
    with wp.ScopedMempoolAccess("cuda:0", "cuda:1", False):
        assert not wp.is_mempool_access_enabled("cuda:0", "cuda:1")
