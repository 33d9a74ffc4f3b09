"""Peer and memory-pool access between devices (wp.is_peer_access_supported and friends)."""

import pytest

import treadle as wp

QUERIES = (wp.is_peer_access_supported, wp.is_peer_access_enabled,
           wp.is_mempool_access_supported, wp.is_mempool_access_enabled)
SETTERS = (wp.set_peer_access_enabled, wp.set_mempool_access_enabled)


@pytest.mark.parametrize("query", QUERIES)
def test_the_cpu_reaches_no_peer(query):
    assert query("cpu", "cpu") is False
    if wp.is_cuda_available():
        assert query("cpu", "cuda:0") is False
        assert query("cuda:0", "cpu") is False


@pytest.mark.parametrize("setter", SETTERS)
def test_enabling_access_for_the_cpu_is_refused(setter):
    with pytest.raises(ValueError, match="only between CUDA devices"):
        setter("cpu", "cpu", True)
    setter("cpu", "cpu", False)  # nothing to turn off


@pytest.mark.skipif(not wp.is_cuda_available(), reason="needs a CUDA device")
def test_a_device_reaches_its_own_memory():
    d = wp.get_device("cuda:0")
    assert wp.is_peer_access_supported(d, d) and wp.is_peer_access_enabled(d, d)
    wp.set_peer_access_enabled(d, d, True)
    with pytest.raises(ValueError, match="always has access to its own memory"):
        wp.set_peer_access_enabled(d, d, False)
    assert wp.is_mempool_access_supported(d, d) == d.is_mempool_supported
    assert wp.is_mempool_access_enabled(d, d) == d.is_mempool_supported
