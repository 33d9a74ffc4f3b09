"""Which device reaches which memory (Device.can_access, the peer and memory-pool access
functions), capture options (wp.CaptureMode, apic) and config.launch_array_access_mode."""

import ctypes

import pytest

import treadle as wp
from treadle._src.context import runtime

CUDA = wp.is_cuda_available()


def test_cpu_reaches_only_its_own_memory():
    cpu = wp.get_device("cpu")
    assert cpu.can_access(cpu) and cpu.can_access("cpu")
    assert not cpu.is_cpu_memory_access_from_gpu_supported
    assert not cpu.is_gpu_memory_access_from_cpu_supported
    assert not cpu.is_cpu_gpu_atomic_supported
    assert wp.is_peer_access_supported("cpu", "cpu") is False
    assert wp.is_peer_access_enabled("cpu", "cpu") is False
    assert wp.is_mempool_access_supported("cpu", "cpu") is False
    assert wp.is_mempool_access_enabled("cpu", "cpu") is False
    with pytest.raises(ValueError, match="Peer access is only supported between CUDA devices"):
        wp.set_peer_access_enabled("cpu", "cpu", True)
    with pytest.raises(ValueError, match="Memory pool access is only supported between CUDA"):
        wp.set_mempool_access_enabled("cpu", "cpu", True)


@pytest.mark.skipif(not CUDA, reason="needs a CUDA device")
def test_cuda_device_reaches_itself():
    d = wp.get_device("cuda:0")
    assert d.can_access(d)
    assert d.can_access("cpu") == d.is_cpu_memory_access_from_gpu_supported
    assert not wp.get_device("cpu").can_access(d)
    assert wp.is_peer_access_supported(d, d) and wp.is_peer_access_enabled(d, d)
    wp.set_peer_access_enabled(d, d, False)  # a device's access to itself stays
    assert wp.is_peer_access_enabled(d, d)
    if d.is_mempool_supported:
        wp.set_mempool_access_enabled(d, d, False)
        assert wp.is_mempool_access_enabled(d, d)
    assert isinstance(d.context, int) and d.context != 0
    assert wp.get_device("cpu").context is None


@pytest.mark.skipif(not CUDA, reason="needs a CUDA device")
def test_stream_blocking_is_known_or_asked_once():
    d = wp.get_device("cuda:0")
    s = wp.Stream(d)
    assert s.is_blocking and wp.Stream(d, blocking=False).is_blocking is False
    wrapped = wp.Stream(d, cuda_stream=s.cuda_stream)
    assert wrapped._is_blocking is None
    assert wrapped.is_blocking is True and wrapped._is_blocking is True


def test_capture_options_are_checked():
    assert [m.name for m in wp.CaptureMode] == ["GLOBAL", "THREAD_LOCAL", "RELAXED"]
    assert int(wp.CaptureMode.THREAD_LOCAL) == 1
    with pytest.raises(NotImplementedError, match=r"apic=True .* not supported by treadle"):
        wp.capture_begin(device="cpu", apic=True)
    with pytest.raises(NotImplementedError, match="apic=True"):
        wp.ScopedCapture(device="cpu", apic=True)
    with pytest.raises(ValueError, match="capture_mode must be a wp.CaptureMode, got 7"):
        wp.capture_begin(device="cpu", capture_mode=7)


def test_launch_array_access_mode_exists_and_launches_stay_checked():
    modes = wp.config.LaunchArrayAccessMode
    assert wp.config.launch_array_access_mode == modes.RELAXED
    assert (int(modes.RELAXED), int(modes.CHECKED), int(modes.STRICT)) == (0, 1, 2)


def test_graph_memory_functions_are_bound_as_warp_declares_them():
    current = runtime.core.wp_cuda_device_get_graph_mem_current
    trim = runtime.core.wp_cuda_device_graph_mem_trim
    assert current.argtypes == [ctypes.c_int] and current.restype is ctypes.c_uint64
    assert trim.argtypes == [ctypes.c_int] and trim.restype is None
    if CUDA:
        assert current(0) >= 0
        trim(0)
