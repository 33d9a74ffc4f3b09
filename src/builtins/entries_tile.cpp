// src/builtins/entries_tile.cpp -- the builtin table's tile builtins (Warp's "Tile Primitives")
//
// Tiles are values a thread block holds together (types::TypeKind::Tile). Builtins whose result
// depends on constant arguments (a shape, a dtype) or that take tuples of offsets are lowered by
// src/sema/infer_tile.cpp (BuiltinKind::Tile); the others resolve by their type rule. Their
// native code is native/treadle/tile.h and tile_ops.h, which only kernels that use tiles include.
#include "builtins/entries.h"

namespace treadle::builtins::entries {

namespace {

const types::Type* tile_arg(const std::vector<ArgInfo>& a, size_t i) {
    return i < a.size() && a[i].type && a[i].type->is_tile() ? a[i].type : nullptr;
}

/// tile_max(a) / tile_min(a) -> tile of one element (scalar elements).
std::optional<Signature> rule_tile_extremum(const std::vector<ArgInfo>& a) {
    const types::Type* t = tile_arg(a, 0);
    if (a.size() != 1 || !t || !t->dtype->is_scalar() || t->dtype->is_bool()) return std::nullopt;
    return Signature{{t}, types::tile_type(t->dtype, {1})};
}

/// tile_argmax(a) / tile_argmin(a) -> tile of one int32.
std::optional<Signature> rule_tile_arg_extremum(const std::vector<ArgInfo>& a) {
    const types::Type* t = tile_arg(a, 0);
    if (a.size() != 1 || !t || !t->dtype->is_scalar() || t->dtype->is_bool()) return std::nullopt;
    return Signature{{t}, types::tile_type(types::int32_type(), {1})};
}

/// tile_transpose(a) -> the (N, M) tile of an (M, N) one.
std::optional<Signature> rule_tile_transpose(const std::vector<ArgInfo>& a) {
    const types::Type* t = tile_arg(a, 0);
    if (a.size() != 1 || !t || t->ndim != 2) return std::nullopt;
    return Signature{{t}, types::tile_type(t->dtype, {t->shape[1], t->shape[0]})};
}

const types::Type* vec3f() { return types::vector_type(3, ScalarType::Float32); }

/// tile_bvh_query_aabb(id, low, high) / _ray(id, start, dir) -> BvhQueryTiled, and the mesh's.
std::optional<Signature> tiled_query(const std::vector<ArgInfo>& a, const char* type) {
    if (a.size() != 3 || !rules::is_object_id(a[0]) || a[1].type != vec3f() || a[2].type != vec3f())
        return std::nullopt;
    return Signature{{types::scalar_type(ScalarType::UInt64), vec3f(), vec3f()},
                     types::native_struct_by_name(type)};
}
std::optional<Signature> rule_tile_bvh_query(const std::vector<ArgInfo>& a) {
    return tiled_query(a, "BvhQueryTiled");
}
std::optional<Signature> rule_tile_mesh_query(const std::vector<ArgInfo>& a) {
    return tiled_query(a, "MeshQueryAABBTiled");
}

/// tile_query_valid(query) -> bool.
std::optional<Signature> rule_tile_query_valid(const std::vector<ArgInfo>& a) {
    if (a.size() != 1 || !a[0].type) return std::nullopt;
    if (a[0].type != types::native_struct_by_name("BvhQueryTiled") &&
        a[0].type != types::native_struct_by_name("MeshQueryAABBTiled"))
        return std::nullopt;
    return Signature{{a[0].type}, types::bool_type()};
}

const char* const k_tile_group = "Tile Primitives";
TraitsBuilder tile() { return with().header("tile.h"); }
TraitsBuilder shaped() { return with().header("tile.h").template_args(TemplateArgs::Dtype); }

/// Construction, loads and stores, maps, reshapes and the dot products.
std::vector<Builtin> tile_construction_and_memory() {
    const char* k_group = k_tile_group;
    return {
        {"tile_zeros", "tile_zeros", BuiltinKind::Tile, k_group,
         "tile_zeros(shape: tuple[int, ...], dtype: Any = float32, storage: str = \"register\") "
         "-> Tile",
         "A tile of `shape` (a constant int or tuple of ints) whose elements are zero, of type "
         "`dtype`. `storage` (\"register\" or \"shared\") is accepted as in Warp; treadle keeps "
         "every tile spread over the block's threads and shares it through shared memory when "
         "an operation needs other threads' elements.",
         false, nullptr, shaped()},
        {"tile_empty", "tile_zeros", BuiltinKind::Tile, k_group,
         "tile_empty(shape: tuple[int, ...], dtype: Any = float32, storage: str = \"register\") "
         "-> Tile",
         "A tile of `shape` whose elements are not to be read before they are written (treadle "
         "zeroes them, as tile_zeros does).",
         false, nullptr, shaped()},
        {"tile_ones", "tile_ones", BuiltinKind::Tile, k_group,
         "tile_ones(shape: tuple[int, ...], dtype: Any = float32, storage: str = \"register\") "
         "-> Tile",
         "A tile of `shape` whose elements are one, of type `dtype`.", false, nullptr, shaped()},
        {"tile_full", "tile_full", BuiltinKind::Tile, k_group,
         "tile_full(shape: tuple[int, ...], value: Any, dtype: Any = ..., storage: str = "
         "\"register\") -> Tile",
         "A tile of `shape` whose elements are `value` (converted to `dtype`, by default the "
         "value's own type).",
         true, nullptr, shaped()},
        {"tile_arange", "tile_arange", BuiltinKind::Tile, k_group,
         "tile_arange(*args: Scalar, dtype: Scalar = ..., storage: str = \"register\") -> Tile",
         "The 1-D tile of range(stop), range(start, stop) or range(start, stop, step): the "
         "arguments are constants, and the elements are start + i * step of `dtype` (by default "
         "float32 when an argument is a float, else int32).",
         false, nullptr, shaped()},
        {"tile_load", "tile_load", BuiltinKind::Tile, k_group,
         "tile_load(a: array(dtype=Any), shape: tuple[int, ...], offset: tuple[int, ...] = ..., "
         "storage: str = \"register\", bounds_check: bool = True, aligned: bool = False) -> Tile",
         "Loads the tile of `shape` (constant, one extent per dimension of `a`) whose first "
         "element is a[offset] (`offset` one index per dimension, by default all zero): every "
         "thread of the block loads its share. Elements outside the array are zero, whatever "
         "`bounds_check` says; `aligned` is accepted as in Warp. Differentiable: the gradient "
         "of each element goes to a.grad.",
         true, nullptr, shaped()},
        {"tile_store", "tile_store", BuiltinKind::Tile, k_group,
         "tile_store(a: array(dtype=Any), t: Tile, offset: tuple[int, ...] = ..., bounds_check: "
         "bool = "
         "True, aligned: bool = False) -> None",
         "Stores tile `t` into `a` with its first element at a[offset] (one index per dimension "
         "of `a`, which has the tile's dimensions and element type); elements that fall outside "
         "the array are not written. Differentiable: t's gradient is the gradient of the stored "
         "elements.",
         true, nullptr, tile().writes_first_array()},
        {"tile_atomic_add", "tile_atomic_add", BuiltinKind::Tile, k_group,
         "tile_atomic_add(a: array(dtype=Any), t: Tile, offset: tuple[int, ...] = ..., "
         "bounds_check: "
         "bool = True) -> Tile",
         "Adds tile `t` atomically into `a` at `offset` (as tile_store places it) and returns "
         "the tile of the values those elements held before (zero outside the array). "
         "Differentiable in `t`.",
         true, nullptr, tile().writes_first_array()},
        {"tile", "tile", BuiltinKind::Tile, k_group,
         "tile(x: Any, preserve_type: bool = False) -> Tile",
         "The tile of one value per thread of the block: shape (block_dim,) whose element i is "
         "thread i's `x`. A vector x of N components gives the (N, block_dim) tile of its "
         "components, and an M x N matrix the (M, N, block_dim) tile of its elements, unless "
         "`preserve_type`, which keeps vectors and matrices as elements. On the CPU a "
         "block is one thread (block_dim 1).",
         true, nullptr, shaped()},
        {"untile", "untile", BuiltinKind::Tile, k_group, "untile(a: Tile) -> Any",
         "This thread's element of a tile of shape (block_dim,) (the inverse of tile(x)); of a "
         "(N, block_dim) tile, the vector of its N elements; of an (M, N, block_dim) tile, the "
         "M x N matrix of its elements.",
         true, nullptr, tile()},
        {"tile_broadcast", "tile_broadcast", BuiltinKind::Tile, k_group,
         "tile_broadcast(a: Tile, shape: tuple[int, ...]) -> Tile",
         "Tile `a` repeated to the constant `shape` by numpy's broadcasting rules (dimensions "
         "align at the right; an extent of 1 repeats).",
         true, nullptr, shaped()},
        {"tile_map", "tile_map", BuiltinKind::Tile, k_group,
         "tile_map(op: Callable, a: Tile, *args: Any) -> Tile",
         "The tile of op(a[i], b[i], ...) for every element i: `op` is a builtin or @wp.func of "
         "one parameter per operand, the operands tiles of one shape or values that every "
         "element sees. Differentiable when `op` is.",
         true, nullptr, tile()},
        {"tile_assign", "tile_view_assign", BuiltinKind::Tile, k_group,
         "tile_assign(dst: Tile, src: Tile, offset: tuple[int, ...] = ...) -> None",
         "Writes tile `src` into the local tile `dst` at `offset` (one integer per dimension of "
         "dst, by default zero; parts of src past dst's edges are dropped). When dst is a view of "
         "another local tile (row = t[i]), that tile is updated too.",
         true, nullptr, tile().rebinds(Rebinds::First)},
        {"tile_reshape", "tile_reshape", BuiltinKind::Tile, k_group,
         "tile_reshape(t: Tile, shape: tuple[int, ...]) -> Tile",
         "Tile `t`'s elements in row-major order with the constant `shape` (same element count; "
         "one extent may be -1, inferred).",
         true, nullptr, shaped()},
        {"tile_squeeze", "tile_reshape", BuiltinKind::Tile, k_group,
         "tile_squeeze(t: Tile, axis: tuple[int, ...] = ...) -> Tile",
         "Tile `t` without its dimensions of extent 1 (only those in the constant `axis` when "
         "given; at least one dimension stays).",
         true, nullptr, shaped()},
        {"tile_dot", "tile_dot", BuiltinKind::Tile, k_group, "tile_dot(a: Tile, b: Tile) -> Tile",
         "The one-element tile of the sum over the elements of a and b (one type and shape) of "
         "their products: a * b for scalars, wp.dot for vectors, wp.ddot for matrices.",
         true, nullptr, tile()},
        {"tile_axpy", "tile_axpy", BuiltinKind::Tile, k_group,
         "tile_axpy(alpha: Scalar, src: Tile, dest: Tile) -> None",
         "dest += alpha * src, in place on the local tile `dest` (src of dest's type; alpha of "
         "its scalar type).",
         true, nullptr, tile().rebinds(Rebinds::Last)},
    };
}

/// Factorisations and solves, FFTs, transposes, reductions, products and extraction.
std::vector<Builtin> tile_linalg_and_reductions() {
    const char* k_group = k_tile_group;
    return {
        {"tile_cholesky", "tile_cholesky", BuiltinKind::Tile, k_group,
         "tile_cholesky(A: Tile, fill_mode: str = \"lower\") -> Tile",
         "The Cholesky factor of the symmetric positive-definite (N, N) float tile A: lower L "
         "with L L^T = A (fill_mode \"lower\", reading A's lower triangle), or upper U with "
         "U^T U = A (\"upper\", reading its upper triangle). Differentiable with respect to the "
         "triangle it reads.",
         true, nullptr, tile()},
        {"tile_cholesky_inplace", "tile_cholesky", BuiltinKind::Tile, k_group,
         "tile_cholesky_inplace(A: Tile, fill_mode: str = \"lower\") -> None",
         "tile_cholesky, replacing the local tile A by its factor.", false, nullptr,
         tile().rebinds(Rebinds::First)},
        {"tile_cholesky_solve", "tile_cholesky_solve", BuiltinKind::Tile, k_group,
         "tile_cholesky_solve(L: Tile, y: Tile, fill_mode: str = \"lower\") -> Tile",
         "x with A x = y for A = L L^T (or U^T U with fill_mode \"upper\"), given the Cholesky "
         "factor; y is an (N,) or (N, M) tile.",
         false, nullptr, tile()},
        {"tile_cholesky_solve_inplace", "tile_cholesky_solve", BuiltinKind::Tile, k_group,
         "tile_cholesky_solve_inplace(L: Tile, y: Tile, fill_mode: str = \"lower\") -> None",
         "tile_cholesky_solve, replacing the local tile y by the solution.", false, nullptr,
         tile().rebinds(Rebinds::Last)},
        {"tile_lower_solve", "tile_lower_solve", BuiltinKind::Tile, k_group,
         "tile_lower_solve(L: Tile, y: Tile) -> Tile",
         "z with L z = y for the lower triangular (N, N) tile L (forward substitution); y is an "
         "(N,) or (N, M) tile. Differentiable.",
         true, nullptr, tile()},
        {"tile_lower_solve_inplace", "tile_lower_solve", BuiltinKind::Tile, k_group,
         "tile_lower_solve_inplace(L: Tile, y: Tile) -> None",
         "tile_lower_solve, replacing the local tile y by the solution.", false, nullptr,
         tile().rebinds(Rebinds::Last)},
        {"tile_upper_solve", "tile_upper_solve", BuiltinKind::Tile, k_group,
         "tile_upper_solve(U: Tile, z: Tile) -> Tile",
         "x with U x = z for the upper triangular (N, N) tile U (back substitution); z is an "
         "(N,) or (N, M) tile.",
         false, nullptr, tile()},
        {"tile_upper_solve_inplace", "tile_upper_solve", BuiltinKind::Tile, k_group,
         "tile_upper_solve_inplace(U: Tile, z: Tile) -> None",
         "tile_upper_solve, replacing the local tile z by the solution.", false, nullptr,
         tile().rebinds(Rebinds::Last)},
        {"tile_fft", "tile_fft", BuiltinKind::Tile, k_group, "tile_fft(inout: Tile) -> None",
         "The unnormalised forward discrete Fourier transform (e^(-2 pi i jk/n)) along the last "
         "dimension of the local tile `inout` of vec2f/vec2d complex values (real, imaginary), in "
         "place; leading dimensions are batches. Any length (radix 2 for powers of two). "
         "Differentiable.",
         true, nullptr, tile().rebinds(Rebinds::First)},
        {"tile_ifft", "tile_ifft", BuiltinKind::Tile, k_group, "tile_ifft(inout: Tile) -> None",
         "The unnormalised inverse transform (e^(+2 pi i jk/n)), in place: tile_fft then "
         "tile_ifft scales by the length. Differentiable.",
         true, nullptr, tile().rebinds(Rebinds::First)},
        {"tile_diag_add", "tile_diag_add", BuiltinKind::Tile, k_group,
         "tile_diag_add(a: Tile, d: Tile) -> Tile",
         "The (N, N) tile a plus the diagonal matrix of the (N,) tile d.", false, nullptr, tile()},
        {"tile_transpose", "tile_transpose", BuiltinKind::Regular, k_group,
         "tile_transpose(a: Tile) -> Tile", "The (N, M) transpose of an (M, N) tile.", true,
         rule_tile_transpose, tile()},
        {"tile_sum", "tile_sum", BuiltinKind::Tile, k_group,
         "tile_sum(a: Tile, axis: int = ...) -> Tile",
         "The one-element tile of the sum of a's elements, added in row-major order (the same "
         "in every thread, every run); with a constant `axis`, the tile of the sums along it "
         "(a without that dimension).",
         true, nullptr, tile()},
        {"tile_reduce", "tile_reduce_with", BuiltinKind::Tile, k_group,
         "tile_reduce(op: Callable, a: Tile, axis: int = ...) -> Tile",
         "a's elements folded with the binary builtin or @wp.func `op` (which returns a's element "
         "type), in row-major order, into a one-element tile; with a constant `axis`, along it. "
         "Differentiable without `axis`.",
         true, nullptr, tile()},
        {"tile_min", "tile_min", BuiltinKind::Regular, k_group, "tile_min(a: Tile) -> Tile",
         "The one-element tile of a's smallest element (scalar elements).", true,
         rule_tile_extremum, tile()},
        {"tile_max", "tile_max", BuiltinKind::Regular, k_group, "tile_max(a: Tile) -> Tile",
         "The one-element tile of a's largest element (scalar elements).", true, rule_tile_extremum,
         tile()},
        {"tile_argmin", "tile_argmin", BuiltinKind::Regular, k_group,
         "tile_argmin(a: Tile) -> Tile",
         "The one-element int32 tile of the row-major position of a's smallest element (the "
         "first of equal ones).",
         false, rule_tile_arg_extremum, tile()},
        {"tile_argmax", "tile_argmax", BuiltinKind::Regular, k_group,
         "tile_argmax(a: Tile) -> Tile",
         "The one-element int32 tile of the row-major position of a's largest element (the "
         "first of equal ones).",
         false, rule_tile_arg_extremum, tile()},
        {"tile_matmul", "tile_matmul", BuiltinKind::Tile, k_group,
         "tile_matmul(a: Tile, b: Tile, out: Tile = ..., alpha: Float = 1.0, beta: Float = 1.0) "
         "-> Tile",
         "The matrix product of an (M, K) and a (K, N) tile of one float type, times `alpha`. "
         "With `out` (an (M, N) tile local), computes out = alpha * a @ b + beta * out in place "
         "and returns None, as Warp's form does. Products are summed in k order (float32 for "
         "float16/bfloat16 elements).",
         true, nullptr, tile().rebinds(Rebinds::Last)},
        {"tile_extract", "tile_extract", BuiltinKind::Tile, k_group,
         "tile_extract(a: Tile, *args: int) -> Any",
         "The element of `a` at the coordinates `args` (one per dimension), in every thread "
         "(also written a[i, j]); each thread may read a different one, and coordinates outside "
         "the tile read as zero. Differentiable: the gradient goes to that element.",
         true, nullptr, tile()},
    };
}

/// Views, the tiled geometry queries, and the internal forms other builtins lower to.
std::vector<Builtin> tile_views_and_queries() {
    const char* k_group = k_tile_group;
    return {
        {"tile_view", "tile_view", BuiltinKind::Tile, k_group,
         "tile_view(t: Tile, offset: tuple[int, ...], shape: tuple[int, ...] = ...) -> Tile",
         "The part of `t` at `offset` (run-time integers): without `shape`, the tile of the "
         "remaining dimensions after fixing the leading ones; with `shape`, the window of that "
         "shape at the offsets. Also written with subscripts, t[i] and t[1:3, ::2] (constant "
         "slice bounds). A view reads the elements it selects (treadle's tiles are values: "
         "assigning to t[...] updates t itself). Elements outside t read as zero.",
         true, nullptr, shaped()},
        {"tile_bvh_query_aabb", "tile_bvh_query_aabb", BuiltinKind::Regular, k_group,
         "tile_bvh_query_aabb(id: uint64, low: vec3, high: vec3) -> BvhQueryTiled",
         "A query of the BVH `id` for the bounds that overlap the box, which the whole block runs "
         "together (the box is the same in every thread): tile_bvh_query_next hands out the "
         "results block_dim at a time.",
         false, rule_tile_bvh_query, with().header("tile_query.h")},
        {"bvh_query_aabb_tiled", "tile_bvh_query_aabb", BuiltinKind::Regular, "Geometry",
         "bvh_query_aabb_tiled(id: uint64, low: vec3, high: vec3) -> BvhQueryTiled",
         "The same query as tile_bvh_query_aabb (Warp's other name).", false, rule_tile_bvh_query,
         with().header("tile_query.h")},
        {"tile_bvh_query_ray", "tile_bvh_query_ray", BuiltinKind::Regular, k_group,
         "tile_bvh_query_ray(id: uint64, start: vec3, dir: vec3) -> BvhQueryTiled",
         "A query of the BVH `id` for the bounds the ray hits, which the whole block runs "
         "together (the ray is the same in every thread).",
         false, rule_tile_bvh_query, with().header("tile_query.h")},
        {"bvh_query_ray_tiled", "tile_bvh_query_ray", BuiltinKind::Regular, "Geometry",
         "bvh_query_ray_tiled(id: uint64, start: vec3, dir: vec3) -> BvhQueryTiled",
         "The same query as tile_bvh_query_ray (Warp's other name).", false, rule_tile_bvh_query,
         with().header("tile_query.h")},
        {"tile_mesh_query_aabb", "tile_mesh_query_aabb", BuiltinKind::Regular, k_group,
         "tile_mesh_query_aabb(id: uint64, low: vec3, high: vec3) -> MeshQueryAABBTiled",
         "A query of the faces of mesh `id` whose bounds overlap the box, which the whole block "
         "runs together.",
         false, rule_tile_mesh_query, with().header("tile_query.h")},
        {"mesh_query_aabb_tiled", "tile_mesh_query_aabb", BuiltinKind::Regular, "Geometry",
         "mesh_query_aabb_tiled(id: uint64, low: vec3, high: vec3) -> MeshQueryAABBTiled",
         "The same query as tile_mesh_query_aabb (Warp's other name).", false, rule_tile_mesh_query,
         with().header("tile_query.h")},
        {"tile_query_valid", "tile_query_valid", BuiltinKind::Regular, k_group,
         "tile_query_valid(query: BvhQueryTiled) -> bool",
         "Whether the block's query may have more results (false once a call of its _next "
         "found fewer results than the block has threads); the same in every thread.",
         false, rule_tile_query_valid, with().header("tile_query.h")},
        {"tile_bvh_query_next", "tile_bvh_query_next", BuiltinKind::Tile, k_group,
         "tile_bvh_query_next(query: BvhQueryTiled) -> Tile",
         "The next block_dim results of the block's BVH query as an int32 tile of shape "
         "(block_dim,): thread t's element is the t-th of them, -1 where they ran out. Advances "
         "the query.",
         false, nullptr, tile().rebinds(Rebinds::First).header("tile_query.h")},
        {"bvh_query_next_tiled", "tile_bvh_query_next", BuiltinKind::Tile, "Geometry",
         "bvh_query_next_tiled(query: BvhQueryTiled) -> Tile",
         "tile_bvh_query_next (Warp's other name).", false, nullptr,
         tile().rebinds(Rebinds::First).header("tile_query.h")},
        {"tile_mesh_query_aabb_next", "tile_mesh_query_aabb_next", BuiltinKind::Tile, k_group,
         "tile_mesh_query_aabb_next(query: MeshQueryAABBTiled) -> Tile",
         "The next block_dim faces of the block's mesh query, as tile_bvh_query_next gives them.",
         false, nullptr, tile().rebinds(Rebinds::First).header("tile_query.h")},
        {"mesh_query_aabb_next_tiled", "tile_mesh_query_aabb_next", BuiltinKind::Tile, "Geometry",
         "mesh_query_aabb_next_tiled(query: MeshQueryAABBTiled) -> Tile",
         "tile_mesh_query_aabb_next (Warp's other name).", false, nullptr,
         tile().rebinds(Rebinds::First).header("tile_query.h")},
        // spelled by src/sema/infer_tile.cpp only
        {"tile_sum_axis", "tile_sum_axis", BuiltinKind::Internal, k_group,
         "tile_sum_axis(a: Tile, axis: int32) -> Tile", "tile_sum(a, axis): the sums along axis.",
         true, nullptr, shaped().not_callable()},
        {"tile_reduce_axis", "tile_reduce_with", BuiltinKind::Internal, k_group,
         "tile_reduce_axis(a: Tile, axis: int32) -> Tile",
         "tile_reduce(op, a, axis): not differentiable.", false, nullptr, shaped().not_callable()},
        {"tile_view_assign", "tile_view_assign", BuiltinKind::Internal, k_group,
         "tile_view_assign(t: Tile, base: Vector, step: Vector, value: Tile) -> Tile",
         "t[i] = row, t[1:3, :] = block: the tile with the selected elements replaced.", true,
         nullptr, tile().not_callable()},
        {"tile_assign_element", "tile_assign", BuiltinKind::Internal, k_group,
         "tile_assign_element(a: Tile, index: Vector, value: Any) -> Tile",
         "a[i, j] = value: the tile with the element at `index` replaced by what the thread "
         "that assigns it gives (every thread runs the assignment; a coordinate outside the "
         "tile changes nothing).",
         true, nullptr, tile().not_callable()},
        {"tile_from_vector", "tile_from_vector", BuiltinKind::Internal, k_group,
         "tile_from_vector(x: Vector) -> Tile",
         "tile(x) of a vector: the (N, block_dim) tile of every thread's components.", true,
         nullptr, shaped().not_callable()},
        {"tile_from_matrix", "tile_from_matrix", BuiltinKind::Internal, k_group,
         "tile_from_matrix(x: Matrix) -> Tile",
         "tile(x) of a matrix: the (rows, cols, block_dim) tile of every thread's elements.", true,
         nullptr, shaped().not_callable()},
        {"tile_matmul_acc", "tile_matmul_acc", BuiltinKind::Internal, k_group,
         "tile_matmul_acc(a: Tile, b: Tile, out: Tile, alpha: Float, beta: Float) -> Tile",
         "alpha * a @ b + beta * out: tile_matmul(a, b, out) before it re-binds `out`.", true,
         nullptr, tile().not_callable()},
    };
}

}  // namespace

/// The tile builtins, in Warp's documentation order.
std::vector<Builtin> tiles() {
    std::vector<Builtin> all = tile_construction_and_memory();
    for (auto part : {tile_linalg_and_reductions(), tile_views_and_queries()})
        all.insert(all.end(), std::make_move_iterator(part.begin()),
                   std::make_move_iterator(part.end()));
    return all;
}

}  // namespace treadle::builtins::entries
