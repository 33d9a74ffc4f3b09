"""treadle._src (Warp's private module names) and the logger behind wp.set_logger."""

import contextlib
import io
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import treadle as wp
from treadle import logger
from treadle._src import context as src_context
from treadle._src import types as src_types
from treadle._src import utils as src_utils


def test_import_treadle_does_not_load_the_layer():
    code = "import sys, treadle; print(sorted(m for m in sys.modules if m.startswith('treadle._src.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    code = "import treadle as wp; print(wp._src.types.int_types[0].__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "int8"


def test_type_lists_are_treadles_types():
    assert src_types.int_types == (wp.int8, wp.uint8, wp.int16, wp.uint16, wp.int32, wp.uint32,
                                   wp.int64, wp.uint64)
    assert src_types.float_types == (wp.float16, wp.bfloat16, wp.float32, wp.float64)
    assert src_types.scalar_types == (*src_types.int_types, *src_types.float_types)
    assert wp.bool not in src_types.scalar_types
    assert src_types.scalar_and_bool_types[-1] is wp.bool
    assert src_types.non_atomic_types == (wp.int8, wp.uint8, wp.int16, wp.uint16)
    for t in (wp.vec3, wp.vec2ub, wp.mat33d, wp.spatial_vector, wp.quat, wp.transformd):
        assert t in src_types.vector_types
    assert src_types.matrix is wp.types.matrix and src_types.vector is wp.types.vector
    assert src_types.matrix(shape=(2, 3), dtype=wp.float64) is wp.types.matrix((2, 3), wp.float64)
    assert src_types.array is wp.array


def test_numpy_dtype_mapping():
    m = src_types.np_dtype_to_warp_type
    for np_type, wp_type in [(np.float32, wp.float32), (np.int8, wp.int8), (np.uint64, wp.uint64),
                             (np.bool_, wp.bool), (np.float16, wp.float16)]:
        assert m[np_type] is wp_type
        assert m[np.dtype(np_type)] is wp_type
        assert src_types.warp_type_to_np_dtype[wp_type] is np_type
        assert src_types.dtype_from_numpy(np.dtype(np_type)) is wp_type
    with pytest.raises(TypeError, match=r"^Cannot convert complex64 to a Warp type$"):
        src_types.dtype_from_numpy(np.dtype(np.complex64))


def test_type_helpers():
    assert src_types.type_scalar_type(wp.vec3d) is wp.float64
    assert src_types.type_scalar_type(wp.int16) is wp.int16
    assert src_types.strides_from_shape((2, 3, 4), wp.float32) == (48, 16, 4)
    assert src_types.strides_from_shape((5, 2), wp.mat22d) == (64, 32)
    assert src_types.strides_from_shape((5,), wp.vec3) == (12,)


def test_runtime_is_treadles_device_registry():
    runtime = src_context.runtime
    assert runtime.get_device() is wp.get_device()
    assert runtime.get_device("cpu") is wp.get_device("cpu")
    assert runtime.device_map["cpu"] is wp.get_device("cpu")
    runtime.verify_cuda_device("cpu")  # nothing to check on the CPU
    assert src_context.builtin_functions["add"] is wp.add
    assert src_context.init is wp.init
    assert src_context.log_warning is logger.log_warning


def test_check_p2p_honours_the_disable_switch(monkeypatch):
    monkeypatch.setenv("WARP_DISABLE_P2P_TESTS", "1")
    assert src_utils.check_p2p() is False
    monkeypatch.setenv("WARP_DISABLE_P2P_TESTS", "0")
    iommu = any(os.path.isdir(p) and os.listdir(p)
                for p in ("/sys/class/iommu", "/sys/kernel/iommu_groups"))
    assert src_utils.check_p2p() is (not iommu)


def test_src_logger_is_the_logger_module():
    from treadle._src import logger as src_logger  # noqa: PLC0415

    assert src_logger is logger
    assert wp._src.logger._warnings_seen is logger._warnings_seen
    assert (wp.LOG_DEBUG, wp.LOG_INFO, wp.LOG_WARNING, wp.LOG_ERROR) == (10, 20, 30, 40)
    assert wp.config.log_level == wp.LOG_INFO
    assert wp.ScopedLogger is src_utils.ScopedLogger is logger.ScopedLogger


@pytest.fixture
def fresh_warnings():
    saved = set(logger._warnings_seen)
    logger._warnings_seen.clear()
    yield
    logger._warnings_seen.clear()
    logger._warnings_seen.update(saved)


def test_log_warning_format_and_once(fresh_warnings):
    with contextlib.redirect_stderr(io.StringIO()) as err:
        logger.log_warning("hello")
        logger.log_warning("hello")
    assert err.getvalue() == "Warp UserWarning: hello\nWarp UserWarning: hello\n"
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()) as err:
        warnings.simplefilter("always")
        logger.log_warning("old", category=DeprecationWarning)
        logger.log_warning("old", category=DeprecationWarning)
        logger.log_warning("other", category=RuntimeWarning, once=True)
        logger.log_warning("other", category=RuntimeWarning, once=True)
    assert err.getvalue() == "Warp DeprecationWarning: old\nWarp RuntimeWarning: other\n"
    assert logger._warnings_seen == {(DeprecationWarning, "old"), (RuntimeWarning, "other")}


def test_log_warning_respects_warning_filters_and_location(fresh_warnings, monkeypatch):
    monkeypatch.setattr(wp.config, "verbose_warnings", True)
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()) as err:
        warnings.simplefilter("always")
        line = sys._getframe().f_lineno + 1
        logger.log_warning("located", category=UserWarning)  # the caller's line is reported
    assert err.getvalue() == (
        f"Warp UserWarning: located ({__file__}:{line})\n"
        '  logger.log_warning("located", category=UserWarning)  # the caller\'s line is reported\n')
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()) as err:
        warnings.simplefilter("ignore")
        logger.log_warning("hidden")
    assert err.getvalue() == ""


class Recorder:
    def __init__(self):
        self.records = []

    def debug(self, message):
        self.records.append(("debug", message))

    def info(self, message):
        self.records.append(("info", message))

    def warning(self, message, category=None, stacklevel=1):
        self.records.append(("warning", message, category, stacklevel))

    def error(self, message):
        self.records.append(("error", message))


def test_set_logger_and_levels(fresh_warnings):
    rec = Recorder()
    with wp.ScopedLogger(rec):
        assert wp.get_logger() is rec
        logger.log_debug("d")  # below the default level
        logger.log_info("i")
        logger.log_warning("w", category=UserWarning, stacklevel=3)
        logger.log_error("e")
        with wp.ScopedLogLevel(wp.LOG_ERROR):
            assert wp.config.log_level == wp.LOG_ERROR
            logger.log_info("hidden")
            logger.log_warning("hidden")
            logger.log_error("shown")
        assert wp.config.log_level == wp.LOG_INFO
        with wp.ScopedLogLevel(wp.LOG_DEBUG):
            logger.log_debug("d2")
    assert not isinstance(wp.get_logger(), Recorder)
    assert rec.records == [("info", "i"), ("warning", "w", UserWarning, 5), ("error", "e"),
                           ("error", "shown"), ("debug", "d2")]


def test_set_logger_rejects_non_loggers():
    class NotALogger:
        debug = info = warning = None

        def error(self, message):
            pass

    with pytest.raises(TypeError, match=r"^logger must implement the Logger protocol"):
        wp.set_logger(NotALogger())
    with pytest.raises(TypeError, match=r"^logger must implement the Logger protocol"):
        wp.ScopedLogger(object())
    rec = Recorder()
    wp.set_logger(rec)
    assert wp.get_logger() is rec and isinstance(rec, wp.Logger)
    wp.set_logger(None)
    assert type(wp.get_logger()).__name__ == "LoggerBasic"


def test_default_logger_streams(capsys):
    logger.log_info("to stdout")
    logger.log_error("to stderr")
    out, err = capsys.readouterr()
    assert out == "to stdout\n" and err == "Warp Error: to stderr\n"
