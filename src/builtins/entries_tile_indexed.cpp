// src/builtins/entries_tile_indexed.cpp -- the builtin table's tiles addressed through index
// tiles (Warp's tile_load_indexed, tile_store_indexed, tile_atomic_add_indexed and the gather
// t[indices, :] lowers to, tile_slice_indexed)
//
// All are BuiltinKind::Tile, lowered by src/sema/infer_tile_indexed.cpp; their native code is
// native/treadle/tile_indexed.h.
#include "builtins/entries.h"

namespace treadle::builtins::entries {

/// The indexed tile builtins, in Warp's documentation order (after tiles()).
std::vector<Builtin> tiles_indexed() {
    const char* k_group = "Tile Primitives";
    auto tile = [] { return with().header("tile_indexed.h"); };
    auto shaped = [] { return with().header("tile_indexed.h").template_args(TemplateArgs::Dtype); };
    return {
        {"tile_load_indexed", "tile_load_indexed", BuiltinKind::Tile, k_group,
         "tile_load_indexed(a: array(dtype=Any), indices: Tile, shape: tuple[int, ...], offset: "
         "tuple[int, ...] = ..., axis: int = 0, storage: str = \"register\") -> Tile",
         "Loads the tile of `shape` (constant, one extent per dimension of `a`) whose element c "
         "is a[offset + c], except that along the constant `axis` coordinate i stands for "
         "position indices[i]: `indices` is a 1-D tile of integers with shape[axis] elements. "
         "Elements outside the array (an index below zero or past the end) are zero. "
         "Differentiable: the gradient of each element goes to a.grad where it was read.",
         true, nullptr, shaped()},
        {"tile_store_indexed", "tile_store_indexed", BuiltinKind::Tile, k_group,
         "tile_store_indexed(a: array(dtype=Any), indices: Tile, t: Tile, offset: tuple[int, "
         "...] = ..., axis: int = 0) -> None",
         "Stores tile `t` into `a` as tile_store does at `offset`, except that along the "
         "constant `axis` t's coordinate i goes to position indices[i] (`indices` a 1-D tile "
         "of integers with t.shape[axis] elements); elements that fall outside the array are "
         "not written. Differentiable: t's gradient is the gradient of the stored elements.",
         true, nullptr, tile().writes_first_array()},
        {"tile_atomic_add_indexed", "tile_atomic_add_indexed", BuiltinKind::Tile, k_group,
         "tile_atomic_add_indexed(a: array(dtype=Any), indices: Tile, t: Tile, offset: "
         "tuple[int, ...] = ..., axis: int = 0) -> Tile",
         "Adds tile `t` atomically into `a` where tile_store_indexed would store it (repeated "
         "indices add up) and returns the tile of the values those elements held before (zero "
         "outside the array). Differentiable in `t`.",
         true, nullptr, tile().writes_first_array()},
        {"tile_slice_indexed", "tile_slice_indexed", BuiltinKind::Tile, k_group,
         "tile_slice_indexed(t: Tile, indices: tuple) -> Tile",
         "The gather t[indices, :] (also written with subscripts): the tile of t's elements "
         "along one axis at the positions a 1-D integer tile gives, in its order (a negative "
         "index counts from the end; positions outside t read as zero). `indices` is that "
         "tile, alone or in a tuple at the axis' position. Differentiable: where indices "
         "repeat, their gradients add up.",
         true, nullptr, shaped()},
    };
}

}  // namespace treadle::builtins::entries
