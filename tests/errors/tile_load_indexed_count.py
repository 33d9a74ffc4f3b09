# expect: ValueError: tile_load_indexed(): the number of elements in the 1D indices tile (3) must match the output tile shape along the specified axis (2)
# line: 9
import treadle as wp


@wp.kernel
def tile_load_indexed_count(a: wp.array2d[float]):
    rows = wp.tile_arange(0, 3, dtype=int)
    t = wp.tile_load_indexed(a, rows, shape=(8, 2), axis=1)
    wp.tile_store(a, t)
