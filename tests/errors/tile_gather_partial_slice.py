# expect: ValueError: tile_gather_partial_slice(): Tile indexing with an integer index tile requires ':' on all other axes, e.g. `t[indices, :]`.
# line: 10
import treadle as wp


@wp.kernel
def tile_gather_partial_slice(a: wp.array2d[float]):
    t = wp.tile_load(a, shape=(8, 4))
    rows = wp.tile_arange(0, 4, dtype=int)
    wp.tile_store(a, t[rows, 1:3])
