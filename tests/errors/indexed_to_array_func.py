# expect: TypeError: first(): argument 'a' has type indexedarray(dtype=float32, ndim=1) but the parameter is array(dtype=float32, ndim=1)
# line: 14
import treadle as wp


@wp.func
def first(a: wp.array(dtype=float)) -> float:
    return a[0]


@wp.kernel
def indexed_to_array_func(x: wp.indexedarray(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = first(x)
