// src/builtins/entries_tile_block.cpp -- tile builtins the block runs together: stacks, scans,
// sorts, random tiles, values from one thread
//
// Warp's tile_stack family, tile_scan_*, tile_sort, tile_randi / tile_randf, tile_from_thread
// and block_dim(). Those whose results depend on constant arguments or that re-bind their
// arguments are lowered by src/sema/infer_tile_block.cpp (BuiltinKind::Tile); the scans
// resolve by their type rule. Native code: native/treadle/tile_stack.h, tile_block.h.
#include "builtins/entries.h"

namespace treadle::builtins::entries {

namespace {

/// tile_scan_*(a) -> a tile of a's type (numbers, not bool).
std::optional<Signature> rule_tile_scan(const std::vector<ArgInfo>& a) {
    if (a.size() != 1 || !a[0].type || !a[0].type->is_tile()) return std::nullopt;
    const types::Type* t = a[0].type;
    if (!t->dtype->is_scalar() || t->dtype->is_bool()) return std::nullopt;
    return Signature{{t}, t};
}

/// block_dim() -> int32.
std::optional<Signature> rule_block_dim(const std::vector<ArgInfo>& a) {
    if (!a.empty()) return std::nullopt;
    return Signature{{}, types::int32_type()};
}

}  // namespace

std::vector<Builtin> tile_block_ops() {
    const char* k_group = "Tile Primitives";
    auto stack = [] { return with().header("tile_stack.h"); };
    auto block = [] { return with().header("tile_block.h"); };
    return {
        {"tile_stack", "tile_stack_init", BuiltinKind::Tile, k_group,
         "tile_stack(capacity: int, dtype: Any) -> TileStack",
         "A stack of at most `capacity` (a constant, at least 1) elements of type `dtype` that "
         "the threads of a block share (in shared memory on CUDA). Every thread of the block "
         "calls every stack operation. As an annotation (`s: wp.tile_stack(capacity=64, "
         "dtype=int)`) it is the type of a @wp.func parameter that takes a stack, which the "
         "function uses in place.",
         false, nullptr, stack().template_args(TemplateArgs::DtypeSite)},
        {"tile_stack_push", "tile_stack_push", BuiltinKind::Tile, k_group,
         "tile_stack_push(s: TileStack, value: Any, has_value: bool) -> int",
         "Pushes `value` (of the stack's dtype) for each thread whose `has_value` is True; "
         "returns the slot it was written to, or -1 when the thread pushed nothing or the "
         "stack was full.",
         false, nullptr, stack()},
        {"tile_stack_pop", "tile_stack_pop", BuiltinKind::Tile, k_group,
         "tile_stack_pop(s: TileStack) -> tuple(Any, int)",
         "Pops one element for each thread: (value, slot), the element and the slot it held, or "
         "a zero value and -1 once the stack is empty.",
         false, nullptr, stack().results(2)},
        {"tile_stack_count", "tile_stack_count", BuiltinKind::Tile, k_group,
         "tile_stack_count(s: TileStack) -> int",
         "The number of elements on the stack (the same in every thread).", false, nullptr,
         stack()},
        {"tile_stack_clear", "tile_stack_clear", BuiltinKind::Tile, k_group,
         "tile_stack_clear(s: TileStack) -> None", "Empties the stack (count zero).", false,
         nullptr, stack()},
        {"tile_scan_inclusive", "tile_scan_inclusive", BuiltinKind::Regular, k_group,
         "tile_scan_inclusive(a: Tile) -> Tile",
         "The inclusive prefix sums of the elements of `a` in row-major order (a tile of "
         "numbers).",
         false, rule_tile_scan, block()},
        {"tile_scan_exclusive", "tile_scan_exclusive", BuiltinKind::Regular, k_group,
         "tile_scan_exclusive(a: Tile) -> Tile",
         "The exclusive prefix sums of the elements of `a` in row-major order: element i is the "
         "sum of the elements before it (the first is zero).",
         false, rule_tile_scan, block()},
        {"tile_scan_max_inclusive", "tile_scan_max_inclusive", BuiltinKind::Regular, k_group,
         "tile_scan_max_inclusive(a: Tile) -> Tile",
         "The running maximum of the elements of `a` in row-major order.", false, rule_tile_scan,
         block()},
        {"tile_scan_min_inclusive", "tile_scan_min_inclusive", BuiltinKind::Regular, k_group,
         "tile_scan_min_inclusive(a: Tile) -> Tile",
         "The running minimum of the elements of `a` in row-major order.", false, rule_tile_scan,
         block()},
        {"tile_sort", "tile_sort", BuiltinKind::Tile, k_group,
         "tile_sort(keys: Tile, values: Tile) -> None",
         "Sorts the 1-D tiles `keys` (float32, int32, uint32, int64 or uint64) and `values` (of "
         "the same length, any element type) in place, in ascending order of the keys; the sort "
         "is stable.",
         false, nullptr, block().results(2).rebinds(Rebinds::FirstTwo)},
        {"tile_randi", "tile_randi", BuiltinKind::Tile, k_group,
         "tile_randi(shape: tuple[int, ...], rng: uint32, min: int = ..., max: int = ..., "
         "storage: str = \"register\") -> Tile",
         "A tile of `shape` of random int32 values drawn from the generator state `rng` (from "
         "rand_init): element e is the e-th value of the sequence this thread draws from it "
         "(in [min, max) when both are given).",
         false, nullptr, block().template_args(TemplateArgs::Dtype)},
        {"tile_randf", "tile_randf", BuiltinKind::Tile, k_group,
         "tile_randf(shape: tuple[int, ...], rng: uint32, min: float = ..., max: float = ..., "
         "storage: str = \"register\") -> Tile",
         "A tile of `shape` of random float32 values in [0, 1) (or [min, max)) drawn from the "
         "generator state `rng`, as tile_randi draws them.",
         false, nullptr, block().template_args(TemplateArgs::Dtype)},
        {"tile_from_thread", "tile_from_thread", BuiltinKind::Tile, k_group,
         "tile_from_thread(shape: tuple[int, ...], value: Any, thread_idx: int, storage: str = "
         "\"register\") -> Tile",
         "A tile of `shape` whose every element is the `value` of thread `thread_idx` of the "
         "block (on the CPU a block is one thread, thread 0).",
         false, nullptr, block().template_args(TemplateArgs::Dtype)},
        {"tile_scatter_add", "tile_scatter", BuiltinKind::Tile, k_group,
         "tile_scatter_add(a: Tile, *args: Any, atomic: bool = True) -> None",
         "tile_scatter_add(a, i, [j, k, l,] value, has_value): adds `value` to the element at "
         "(i, j, ...) (one index per dimension of the local tile `a`) for each thread whose "
         "`has_value` is True; with `atomic` False the threads' indices must differ (no "
         "atomics are used). Indices outside the tile change nothing. Every thread of the "
         "block calls it.",
         true, nullptr, block().rebinds(Rebinds::First)},
        {"tile_scatter_masked", "tile_scatter", BuiltinKind::Tile, k_group,
         "tile_scatter_masked(a: Tile, *args: Any) -> None",
         "tile_scatter_masked(a, i, [j, k, l,] value, has_value): writes `value` to the element "
         "at (i, j, ...) of the local tile `a` for each thread whose `has_value` is True (at "
         "most one thread per element). Every thread of the block calls it.",
         true, nullptr, block().rebinds(Rebinds::First)},
        {"tile_add_inplace", "tile_add_inplace", BuiltinKind::Internal, k_group,
         "tile_add_inplace(a: Tile, index: Vector, value: Any) -> Tile",
         "a[i, j] += value: the tile with every thread's value added to the element at `index` "
         "(a coordinate outside the tile changes nothing).",
         true, nullptr, block().not_callable()},
        {"tile_sub_inplace", "tile_sub_inplace", BuiltinKind::Internal, k_group,
         "tile_sub_inplace(a: Tile, index: Vector, value: Any) -> Tile",
         "a[i, j] -= value: every thread's value subtracted from the element at `index`.", true,
         nullptr, block().not_callable()},
        {"tile_and_inplace", "tile_and_inplace", BuiltinKind::Internal, k_group,
         "tile_and_inplace(a: Tile, index: Vector, value: Int) -> Tile",
         "a[i, j] &= value: the element at `index` ANDed with every thread's value (integer "
         "tiles; no gradient).",
         false, nullptr, block().not_callable()},
        {"tile_or_inplace", "tile_or_inplace", BuiltinKind::Internal, k_group,
         "tile_or_inplace(a: Tile, index: Vector, value: Int) -> Tile",
         "a[i, j] |= value: the element at `index` ORed with every thread's value.", false, nullptr,
         block().not_callable()},
        {"tile_xor_inplace", "tile_xor_inplace", BuiltinKind::Internal, k_group,
         "tile_xor_inplace(a: Tile, index: Vector, value: Int) -> Tile",
         "a[i, j] ^= value: the element at `index` XORed with every thread's value.", false,
         nullptr, block().not_callable()},
        {"block_dim", "block_dim", BuiltinKind::Regular, k_group, "block_dim() -> int",
         "The number of threads in the current block (the block_dim of the launch on CUDA; 1 "
         "on the CPU, where a block is one thread).",
         false, rule_block_dim, block()},
    };
}

}  // namespace treadle::builtins::entries
