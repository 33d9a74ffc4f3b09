"""wp.lower_bound: binary search of sorted 1-D arrays, compared with numpy.searchsorted."""

import numpy as np
import pytest

import treadle as wp


@pytest.fixture(autouse=True)
def _on_the_cpu():
    with wp.ScopedDevice("cpu"):
        yield


def searches(dtype):
    @wp.kernel(module="unique")
    def search(a: wp.array(dtype=dtype), q: wp.array(dtype=dtype), whole: wp.array(dtype=int),
               ranged: wp.array(dtype=int)):
        i = wp.tid()
        whole[i] = wp.lower_bound(a, q[i])
        ranged[i] = wp.lower_bound(a, 2, 6, q[i])

    return search


@pytest.mark.parametrize("dtype", [wp.float32, wp.float64, wp.int32, wp.uint64, wp.float16])
def test_lower_bound_matches_searchsorted(dtype):
    np_dtype = wp.dtype_to_numpy(dtype)
    a = np.array([0, 1, 1, 2, 3, 7, 9, 9, 12], dtype=np_dtype)
    q = np.array([0, 1, 2, 3, 5, 9, 10, 12, 13], dtype=np_dtype)
    whole, ranged = wp.zeros(len(q), dtype=int), wp.zeros(len(q), dtype=int)
    wp.launch(searches(dtype), dim=len(q), inputs=[wp.array(a, dtype=dtype),
                                                    wp.array(q, dtype=dtype), whole, ranged])
    np.testing.assert_array_equal(whole.numpy(), np.searchsorted(a, q, side="left"))
    np.testing.assert_array_equal(ranged.numpy(), 2 + np.searchsorted(a[2:6], q, side="left"))


def test_lower_bound_of_a_strided_view():
    base = wp.array(np.arange(20, dtype=np.float32))
    view = base[::2]  # 0, 2, ..., 18
    q = wp.array(np.array([-1.0, 3.0, 4.0, 18.0, 19.0], dtype=np.float32))
    out, unused = wp.zeros(5, dtype=int), wp.zeros(5, dtype=int)
    wp.launch(searches(wp.float32), dim=5, inputs=[view, q, out, unused])
    np.testing.assert_array_equal(out.numpy(), [0, 2, 2, 9, 10])


def test_lower_bound_rejects_a_two_dimensional_array():
    @wp.kernel(module="unique")
    def bad(a: wp.array2d(dtype=float), out: wp.array(dtype=int)):
        out[0] = wp.lower_bound(a, 1.0)

    with pytest.raises(wp.WarpCodegenTypeError) as info:
        wp.launch(bad, dim=1, inputs=[wp.zeros((2, 2)), wp.zeros(1, dtype=int)])
    line = bad.func.__code__.co_firstlineno + 2
    assert str(info.value).startswith(
        f"{__file__}:{line}:18: lower_bound(): no overload accepts (array(dtype=float32, "
        "ndim=2), float literal)")
