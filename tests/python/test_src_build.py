"""treadle._src.build (Warp's kernel cache location rules) and the graph-capture capability
queries of treadle._src.context."""

import os
from unittest import mock

import pytest

import treadle as wp
from treadle import logger
from treadle._src import build
from treadle._src import context as src_context


@pytest.fixture
def restore_cache():
    saved = (wp.config.kernel_cache_dir, build._resolved_kernel_cache_dir,
             os.environ.pop("WARP_CACHE_PATH", None), wp._treadle.kernel_cache_dir())
    yield
    wp.config.kernel_cache_dir, build._resolved_kernel_cache_dir = saved[0], saved[1]
    if saved[2] is None:
        os.environ.pop("WARP_CACHE_PATH", None)
    else:
        os.environ["WARP_CACHE_PATH"] = saved[2]
    wp._treadle.set_kernel_cache_dir(saved[3])


def test_path_gets_a_version_folder_once(tmp_path, restore_cache):
    build.init_kernel_cache(path=str(tmp_path))
    root = os.path.join(os.path.realpath(tmp_path), wp.config.version)
    assert wp.config.kernel_cache_dir == root and os.path.isdir(root)
    assert wp._treadle.kernel_cache_dir() == root  # the compiler's cache follows
    build.init_kernel_cache(path=root)  # the folder chosen last is not nested again
    assert wp.config.kernel_cache_dir == root
    assert not os.path.exists(os.path.join(root, wp.config.version))


def test_environment_and_default(tmp_path, restore_cache):
    os.environ["WARP_CACHE_PATH"] = str(tmp_path / "env")
    build.init_kernel_cache()
    assert wp.config.kernel_cache_dir == os.path.join(
        os.path.realpath(tmp_path / "env"), wp.config.version)
    del os.environ["WARP_CACHE_PATH"]
    build.init_kernel_cache()
    assert wp.config.kernel_cache_dir == os.path.join(
        wp._treadle.default_kernel_cache_dir(), wp.config.version)


def test_kernels_build_in_the_chosen_cache(tmp_path, restore_cache):
    build.init_kernel_cache(path=str(tmp_path))

    @wp.kernel(module="unique")
    def twice(a: wp.array(dtype=float)):
        a[wp.tid()] = 2.0 * a[wp.tid()]

    a = wp.ones(3, dtype=float, device="cpu")
    wp.launch(twice, 3, inputs=[a], device="cpu")
    assert a.numpy().tolist() == [2.0, 2.0, 2.0]
    root = os.path.join(os.path.realpath(tmp_path), wp.config.version)
    assert any(len(d) == 2 for d in os.listdir(root))  # an entry <key[0:2]>/<key>/


def test_stale_warp_artifacts_warn(tmp_path, restore_cache):
    (tmp_path / "wp_old_module").mkdir()
    with mock.patch.object(logger, "log_warning") as warn:
        build.init_kernel_cache(path=str(tmp_path))
    warn.assert_called_once()
    assert "previous Warp version" in warn.call_args[0][0]
    with mock.patch.object(logger, "log_warning") as warn:
        build.init_kernel_cache(path=str(tmp_path / "clean"))
    warn.assert_not_called()


def test_long_path_prefix():
    add = build._add_long_path_prefix
    assert add("C:\\Users\\foo") == "\\\\?\\C:\\Users\\foo"
    assert add("\\\\server\\share\\x") == "\\\\?\\UNC\\server\\share\\x"
    assert add("\\\\?\\C:\\x") == "\\\\?\\C:\\x"
    assert add("rel\\x") == "rel\\x"


def test_graph_capture_allocation_queries():
    # CPU captures allocate host memory, which the graph's steps keep alive
    assert src_context._is_graph_capture_allocation_supported("cpu") is True
    assert src_context._is_graph_capture_allocation_enabled("cpu") is True
    for d in wp.get_cuda_devices():
        assert src_context._is_graph_capture_allocation_supported(d) == d.is_mempool_supported
