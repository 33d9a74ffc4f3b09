"""Devices: get_device / set_device / ScopedDevice, availability queries and init()."""

import pytest

import treadle as wp
from treadle import context


def test_cpu_device_attributes():
    d = wp.get_device("cpu")
    assert isinstance(d, wp.Device)
    assert d.alias == "cpu" and str(d) == "cpu"
    assert d.is_cpu and not d.is_cuda
    assert repr(d) == 'Device("cpu")'
    assert d == "cpu" and d != "cuda:0" and d == wp.get_device("cpu")
    assert wp.get_device(d) is d
    assert hash(d) == hash(wp.get_device("cpu"))
    assert {d: 1}[wp.get_device("cpu")] == 1


def test_device_fixture(device):
    d = wp.get_device(device)
    assert d.alias == device
    assert d in wp.get_devices()


def test_default_device_and_queries():
    assert wp.get_device() == wp.get_preferred_device()
    assert wp.get_device(None) == wp.get_preferred_device()
    assert wp.is_cpu_available()
    assert wp.is_cuda_available() is (wp.get_cuda_device_count() > 0)
    assert len(wp.get_cuda_devices()) == wp.get_cuda_device_count()
    assert wp.get_devices()[0] == "cpu"
    assert wp.is_device_available("cpu")
    assert not wp.is_device_available("gpu0")
    wp.synchronize()
    wp.synchronize_device()
    wp.synchronize_device("cpu")


@pytest.mark.skipif(wp.is_cuda_available(), reason="CUDA present")
def test_cuda_aliases_are_reported_unavailable():
    for alias in ("cuda", "cuda:0", "cuda:7"):
        with pytest.raises(ValueError, match="CUDA is not available"):
            wp.get_device(alias)
    assert wp.get_cuda_devices() == []
    assert wp.get_cuda_device_count() == 0
    assert not wp.is_cuda_available()


@pytest.mark.parametrize("bad", ["gpu0", "", "CPU", "cuda:", "cuda:x", "cpu:0"])
def test_bad_aliases(bad):
    with pytest.raises(ValueError, match="invalid device identifier"):
        wp.get_device(bad)


def test_bad_argument_type():
    with pytest.raises(TypeError, match="alias"):
        wp.get_device(0)


def test_set_device_and_scoped_device():
    before = wp.get_device()
    try:
        wp.set_device("cpu")
        assert wp.get_device() == "cpu"
        with wp.ScopedDevice("cpu") as d:
            assert d == "cpu"
            assert wp.get_device() is d
            assert wp.zeros(2).device == "cpu"
        assert wp.get_device() == "cpu"
        with pytest.raises(ValueError):
            wp.ScopedDevice("gpu0")
    finally:
        wp.set_device(before)
    assert wp.get_device() == before


def test_init_prints_banner_once(capsys, monkeypatch):
    monkeypatch.setattr(context, "_initialized", False)
    monkeypatch.setattr(wp.config, "quiet", False)
    wp.init()
    wp.init()
    wp.get_device()
    captured = capsys.readouterr()
    assert captured.out == ""  # stdout stays the program's
    assert captured.err.count("\n") == 1
    assert captured.err.startswith(f"Treadle {wp.__version__} initialized:")
    assert '"cpu"' in captured.err


def test_init_quiet(capsys, monkeypatch):
    monkeypatch.setattr(context, "_initialized", False)
    monkeypatch.setattr(wp.config, "quiet", True)
    wp.init()
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_config_attributes():
    assert wp.config.mode in ("release", "debug")
    assert wp.config.max_unroll == 16
    for name in ("verify_fp", "verify_cuda", "verbose", "quiet", "cache_kernels"):
        assert isinstance(getattr(wp.config, name), bool)
    assert hasattr(wp.config, "kernel_cache_dir")
    old = wp.config.mode
    try:
        wp.config.mode = "debug"
        assert wp.config.mode == "debug"
    finally:
        wp.config.mode = old


def test_constants():
    import math

    assert wp.pi == math.pi and wp.PI == math.pi
    assert wp.tau == 2 * math.pi and wp.half_pi == math.pi / 2
    assert wp.e == math.e
    assert math.isinf(wp.inf) and math.isnan(wp.nan)
    assert abs(wp.phi - 1.618033988749895) < 1e-15
    assert abs(wp.ln2 - math.log(2)) < 1e-15 and abs(wp.log2e * wp.ln2 - 1) < 1e-15
    assert abs(wp.ln10 - math.log(10)) < 1e-15 and abs(wp.log10e * wp.ln10 - 1) < 1e-15


def test_cuda_driver_version_is_a_major_minor_pair():
    # Warp's form: (major, minor) with a CUDA driver, None without one.
    version = wp.get_cuda_driver_version()
    if not wp.is_cuda_available():
        assert version is None
    else:
        major, minor = version
        assert isinstance(major, int) and isinstance(minor, int) and major >= 11
        assert version >= (11, 0)
