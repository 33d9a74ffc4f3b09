"""wp.config.optimization_level / cpu_compiler_flags and the module options of the same names:
each choice is its own build (cache key), results stay right, bad values are refused."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel(module="unique")
def cube(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i] * x[i]


def _run(device="cpu"):
    x = wp.array([1.0, 2.0, 3.0], dtype=float, device=device)
    y = wp.zeros_like(x)
    wp.launch(cube, 3, inputs=[x, y], device=device)
    np.testing.assert_array_equal(y.numpy(), [1.0, 8.0, 27.0])


@pytest.fixture
def restore():
    saved = (wp.config.optimization_level, wp.config.cpu_compiler_flags, dict(cube.module.options))
    yield
    wp.config.optimization_level, wp.config.cpu_compiler_flags = saved[0], saved[1]
    cube.module.options.clear()
    cube.module.options.update(saved[2])


def test_each_level_and_flag_set_is_its_own_build(restore):
    keys = set()
    for level in (None, 0, 3):
        for flags in (None, "-march=native", "-fno-tree-vectorize  -march=native"):
            wp.config.optimization_level, wp.config.cpu_compiler_flags = level, flags
            _run()
            keys.add(cube._compile("cpu").key)
    # "" and None are the same build: no extra flags
    assert len(keys) == 9
    wp.config.optimization_level, wp.config.cpu_compiler_flags = None, ""
    assert cube._compile("cpu").key in keys


def test_module_option_wins_over_config_and_changes_the_hash(restore):
    wp.config.optimization_level = None
    h_default = cube.module.hash_module()
    cube.module.options["optimization_level"] = 1
    assert cube.module.compiler_options({}) == (1, "")
    assert cube.module.hash_module() != h_default
    wp.config.optimization_level = 3  # the module's own value still decides
    assert cube.module.compiler_options({})[0] == 1
    _run()
    cube.module.options["optimization_level"] = None
    assert cube.module.compiler_options({}) == (3, "")


def test_bad_values_are_refused(restore):
    wp.config.optimization_level = 4
    with pytest.raises(ValueError, match="optimization_level must be None or 0-3, got 4"):
        _run()
    wp.config.optimization_level = None
    wp.config.cpu_compiler_flags = ["-O3"]
    with pytest.raises(TypeError, match="cpu_compiler_flags must be None or a str, got list"):
        _run()
