"""Warp's Module objects: wp.get_module, module options, load/unload, content hashes, kernel keys
and the @wp.kernel keywords that choose a kernel's module and name."""

import re
import types

import numpy as np
import pytest

import treadle as wp
from treadle._src.context import _get_caller_module_name


@wp.kernel
def fill_seven(out: wp.array(dtype=float)):
    out[wp.tid()] = 7.0


def test_kernels_belong_to_the_module_of_their_function():
    module = wp.get_module(__name__)
    assert fill_seven.module is module
    assert module.name == __name__
    assert wp.get_module(__name__) is module
    assert module.kernels["fill_seven"] is fill_seven
    assert fill_seven in module._get_live_kernels()


def test_kernel_keys_follow_warps_naming():
    def make():
        @wp.kernel
        def inner(out: wp.array(dtype=float)):
            out[0] = 1.0

        return inner

    assert fill_seven.key == "fill_seven"
    assert make().key == "test_kernel_keys_follow_warps_naming__locals__make__locals__inner"

    @wp.kernel(name="custom_key")
    def named(out: wp.array(dtype=float)):
        out[0] = 2.0

    assert named.key == "custom_key"
    out = wp.zeros(1, dtype=float, device="cpu")
    wp.launch(named, dim=1, inputs=[out], device="cpu")
    assert out.numpy()[0] == 2.0
    with pytest.raises(ValueError, match="name must be a non-empty valid C\\+\\+ identifier"):
        wp.kernel(name="not valid")
    with pytest.raises(TypeError, match="name must be a str"):
        wp.kernel(name=3)


def test_module_options_have_warps_keys_and_defaults():
    options = wp.get_module("a_module_nobody_uses").options
    assert options["max_unroll"] == wp.config.max_unroll
    assert options["enable_backward"] is True
    assert options["mode"] is None  # wp.config.mode at build time
    assert options["block_dim"] == 256
    resolved = wp.get_module("a_module_nobody_uses").resolve_options()
    assert resolved["mode"] == wp.config.mode


def _loops(k):
    return k._compile("cpu").source.count("for (")


def test_set_module_options_rebuilds_the_modules_kernels():
    name = "treadle_test_options_module"

    def summing(out: wp.array(dtype=float)):
        s = 0.0
        for j in range(8):
            s += float(j)
        out[0] = s

    k = wp.Kernel(summing, module=name)
    assert k.module is wp.get_module(name)
    assert _loops(k) == 1  # 8 trips <= 16: unrolled
    out = wp.zeros(1, dtype=float, device="cpu")
    wp.launch(k, dim=1, inputs=[out], device="cpu")
    wp.set_module_options({"max_unroll": 4}, module=name)
    assert wp.get_module_options(name)["max_unroll"] == 4
    assert len(k._builds) == 0  # the module is marked modified: its builds are dropped
    wp.launch(k, dim=1, inputs=[out], device="cpu")  # builds again, with max_unroll 4
    assert _loops(k) == 2
    assert out.numpy()[0] == 28.0


def test_load_and_unload():
    module = wp.get_module(__name__)
    module.unload()
    assert len(fill_seven._builds) == 0
    exec_ = module.load("cpu")
    assert ("cpu", 256) in module.execs and module.execs[("cpu", 256)] is exec_
    assert len(fill_seven._builds) == 1
    module.load("cpu", block_dim=1)
    assert ("cpu", 1) in module.execs
    module.unload()
    assert module.execs == {} and len(fill_seven._builds) == 0
    out = wp.zeros(3, dtype=float, device="cpu")
    wp.launch(fill_seven, dim=3, inputs=[out], device="cpu")
    np.testing.assert_array_equal(out.numpy(), [7.0, 7.0, 7.0])


SCALE = wp.constant(2.0)


def test_module_hash_follows_the_generated_code():
    name = "treadle_test_hash_module"
    module = wp.get_module(name)
    global SCALE

    def scaled(out: wp.array(dtype=float)):
        out[wp.tid()] = SCALE

    k = wp.Kernel(scaled, module=name)
    h0 = module.hash_module()
    assert module.hash_module() == h0  # stable
    SCALE = wp.constant(3.0)
    try:
        h1 = module.hash_module()
        assert h1 != h0  # the constant is in the code
        assert module.get_module_hash() != module.get_module_hash(block_dim=64)
    finally:
        SCALE = wp.constant(2.0)
    assert module.hash_module() == h0
    assert isinstance(h0, bytes) and len(h0) == 32
    del k


def test_unique_modules_take_module_options():
    @wp.kernel(module="unique", module_options={"max_unroll": 4})
    def loop4(out: wp.array(dtype=float)):
        s = 0.0
        for j in range(8):
            s += float(j)
        out[0] = s

    assert loop4.module.name.startswith(__name__ + ".")
    assert loop4.module.options["max_unroll"] == 4
    assert _loops(loop4) == 2
    with pytest.raises(ValueError, match=re.escape('module_options requires module="unique"')):
        wp.kernel(module_options={"max_unroll": 4})(loop4.func)
    with pytest.raises(ValueError, match="unknown module_options: 'no_such_option'"):
        wp.kernel(module="unique", module_options={"no_such_option": 1})(loop4.func)


def test_cuda_launch_keywords_are_refused_not_ignored():
    def body(out: wp.array(dtype=float)):
        out[0] = 1.0

    # launch_bounds is implemented (test_launch_bounds.py); grid_stride changes nothing
    with pytest.raises(NotImplementedError,
                       match="@wp.kernel for 'body': cluster_dim is not supported by treadle"):
        wp.kernel(cluster_dim=2)(body)
    lean = wp.kernel(grid_stride=False)(body)
    out = wp.zeros(1, dtype=float)
    wp.launch(lean, dim=1, inputs=[out])
    assert out.numpy()[0] == 1.0
    with pytest.raises(TypeError, match="grid_stride must be a bool or None"):
        wp.kernel(grid_stride=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'no_such_keyword'"):
        wp.kernel(no_such_keyword=1)
    with pytest.raises(ValueError, match="entry_point_abi must be 'warp' or"):
        wp.kernel(entry_point_abi="other")
    with pytest.raises(ValueError, match="requires enable_backward=False"):
        wp.kernel(entry_point_abi="external_constant_params")
    assert wp.kernel(entry_point_abi="warp")(body).key.endswith("__locals__body")


def test_caller_module_name():
    assert _get_caller_module_name(1) == __name__
    frame = types.SimpleNamespace(f_globals={"__name__": None, "__spec__": None},
                                  f_code=types.SimpleNamespace(co_filename="<nowhere>"))
    import sys
    from unittest import mock

    with mock.patch.object(sys, "_getframe", return_value=frame), \
            mock.patch("inspect.getmodule", return_value=None):
        with pytest.raises(RuntimeError, match="Could not determine the calling module"):
            _get_caller_module_name(1)


def test_module_options_treadle_does_not_implement_warn_instead_of_being_ignored(capfd):
    name = "treadle_test_unimplemented_options"
    wp.set_module_options({"fast_math": True}, module=name)
    assert "module option fast_math=True is not implemented by treadle" in capfd.readouterr().err
    assert wp.get_module(name).options["fast_math"] is True
    wp.set_module_options({"max_unroll": 8, "fast_math": False}, module=name)  # defaults: silent
    assert "not implemented" not in capfd.readouterr().err
