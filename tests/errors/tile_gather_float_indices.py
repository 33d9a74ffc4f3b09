# expect: ValueError: tile_gather_float_indices(): Tile indexing requires an integer index tile, got dtype float32.
# line: 10
import treadle as wp


@wp.kernel
def tile_gather_float_indices(a: wp.array2d[float]):
    t = wp.tile_load(a, shape=(8, 4))
    rows = wp.tile_arange(0.0, 4.0, 1.0, dtype=float)
    wp.tile_store(a, t[rows, :])
