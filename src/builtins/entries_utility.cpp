// src/builtins/entries_utility.cpp -- the builtin table's thread index, printing, len, atomics and
// the dense-matrix routines
#include "builtins/entries.h"

namespace treadle::builtins::entries {

using namespace rules;

/// Builtins lowered by dedicated inference code (tid, print, printf, len, atomics), the
/// interpolations, the expect_* checks and Warp's dense-matrix routines.
std::vector<Builtin> utility() {
    return {
        {"tid", "tid_unravel", BuiltinKind::Tid, "Utility", "tid() -> int | tuple(int, ...)",
         "The index of the current thread in the launch; with a multi-dimensional launch, unpack "
         "one index per dimension (i, j = wp.tid()). Kernels only.",
         false, nullptr},
        {"print", "print", BuiltinKind::Print, "Utility", "print(value)",
         "Prints its arguments (scalars, vectors, matrices, quaternions, transforms, structs and "
         "strings), separated by spaces, and a newline. On the host, Python's print.",
         false, nullptr, with().host().python_builtin()},
        {"printf", "printf", BuiltinKind::Printf, "Utility", "printf(fmt: str, *args)",
         "C-style formatted printing of scalars: fmt is a constant format string with one "
         "conversion (%d, %f, %g, ...) per argument.",
         false, nullptr},
        {"expect_eq", "expect_eq", BuiltinKind::Regular, "Utility",
         "expect_eq(a: Any, b: Any) -> None",
         "Prints an error with both values when a and b (two scalars, vectors, matrices, "
         "quaternions or transforms of one type) differ; prints nothing when they are equal.",
         false, rule_expect_equal, with().prints().host()},
        {"expect_neq", "expect_neq", BuiltinKind::Regular, "Utility",
         "expect_neq(a: Any, b: Any) -> None",
         "Prints an error with both values when a and b (two scalars, vectors, matrices, "
         "quaternions or transforms of one type) are equal; prints nothing when they differ.",
         false, rule_expect_equal, with().prints().host()},
        {"expect_near", "expect_near", BuiltinKind::Regular, "Utility",
         "expect_near(a: Float | Vector | Matrix | quat, b: Float | Vector | Matrix | quat, "
         "tolerance: Float = 1e-6) -> None",
         "Prints an error when a and b (two float scalars, or vectors, matrices or quaternions of "
         "one type, compared per component) differ by more than tolerance.",
         false, rule_expect_near, with().prints().host()},
        {"lerp", "lerp", BuiltinKind::Regular, "Utility",
         "lerp(a: Float | Vector | Matrix | quat | transform, b: Float | Vector | Matrix | quat "
         "| transform, t: Float) -> Float | Vector | Matrix | quat | transform",
         "Linear interpolation a * (1 - t) + b * t of two float scalars, or of two vectors, "
         "matrices, quaternions or transforms of one type (componentwise), at the scalar t.",
         true, rule_lerp, with().host()},
        {"smoothstep", "smoothstep", BuiltinKind::Regular, "Utility",
         "smoothstep(a: Float, b: Float, x: Float) -> Float",
         "The smooth Hermite step t^2 (3 - 2 t) of t = clamp((x - a) / (b - a), 0, 1): 0 at x <= "
         "a, 1 at x >= b.",
         true, rule_float_ternary, with().host()},
        {"len", "len", BuiltinKind::Len, "Utility", "len(a: array) -> int",
         "The size of the first dimension of array a, an int32; of a vector, quaternion or "
         "transform its number of components, of a matrix its number of rows (constants).",
         false, nullptr, with().python_builtin()},
        {"lower_bound", "lower_bound", BuiltinKind::Regular, "Utility",
         "lower_bound(arr: array(dtype=Scalar), arr_begin: int, arr_end: int, value: Scalar) -> "
         "int",
         "The first index i in [arr_begin, arr_end) of the sorted 1-D array arr whose element is "
         "at least value, or arr_end when none is: a binary search. lower_bound(arr, value) "
         "searches the whole array. Not differentiable.",
         false, rule_lower_bound},
        {"atomic_add", "atomic_add", BuiltinKind::Atomic, "Utility",
         "atomic_add(a: array, i..., value) -> Scalar",
         "Atomically adds value to the array element a[i...] (one index per dimension of a) and "
         "returns the element's old value; also what a[i] += value does.",
         true, nullptr, with().value_operands(1).atomic(AtomicOp::Add)},
        {"atomic_sub", "atomic_sub", BuiltinKind::Atomic, "Utility",
         "atomic_sub(a: array, i..., value) -> Scalar",
         "Atomically subtracts value from the array element a[i...] (one index per dimension of a) "
         "and returns the element's old value; also what a[i] -= value does.",
         true, nullptr, with().value_operands(1).atomic(AtomicOp::Sub)},
        {"atomic_min", "atomic_min", BuiltinKind::Atomic, "Utility",
         "atomic_min(a: array, i..., value) -> Scalar",
         "Atomically stores min(a[i...], value) in the array element a[i...] and returns the "
         "element's old value.",
         true, nullptr, with().value_operands(1).atomic(AtomicOp::Min)},
        {"atomic_max", "atomic_max", BuiltinKind::Atomic, "Utility",
         "atomic_max(a: array, i..., value) -> Scalar",
         "Atomically stores max(a[i...], value) in the array element a[i...] and returns the "
         "element's old value.",
         true, nullptr, with().value_operands(1).atomic(AtomicOp::Max)},
        {"atomic_exch", "atomic_exch", BuiltinKind::Atomic, "Utility",
         "atomic_exch(a: array, i..., value) -> Scalar",
         "Atomically stores value in the array element a[i...] and returns the element's old value "
         "(arrays of 4- and 8-byte scalars).",
         true, nullptr, with().value_operands(1).atomic(AtomicOp::Exch)},
        {"atomic_cas", "atomic_cas", BuiltinKind::Atomic, "Utility",
         "atomic_cas(a: array, i..., compare, value) -> Scalar",
         "Compare and swap: atomically stores value in a[i...] if the element equals compare (bit "
         "for bit), and returns the element's old value either way (arrays of 4- and 8-byte "
         "scalars).",
         false, nullptr, with().value_operands(2).atomic(AtomicOp::Cas)},
        {"dense_gemm", "dense_gemm", BuiltinKind::Regular, "Utility",
         "dense_gemm(m: int32, n: int32, p: int32, t1: int32, t2: int32, A: array(float32), B: "
         "array(float32), C: array(float32)) -> None",
         "Writes the m x n product op(A) op(B) into C, matrices stored row-major in flat arrays: "
         "op(A) is m x p, op(B) p x n, each the transpose of the stored matrix when its flag t1 "
         "or t2 is non-zero. One thread computes the whole product.",
         true, rule_dense_gemm, with().writes_last_array()},
        {"dense_chol", "dense_chol", BuiltinKind::Regular, "Utility",
         "dense_chol(n: int32, A: array(float32), regularization: float32, L: array(float32)) -> "
         "None",
         "Writes the lower-triangular Cholesky factor of the n x n symmetric positive definite "
         "matrix A + regularization I (row-major, lower triangle read) into the lower triangle of "
         "L. Not differentiable.",
         false, rule_dense_chol, with().writes_last_array()},
        {"dense_subs", "dense_subs", BuiltinKind::Regular, "Utility",
         "dense_subs(n: int32, L: array(float32), b: array(float32), x: array(float32)) -> None",
         "Writes the solution of L L^T x = b into x by forward and back substitution, L an n x n "
         "Cholesky factor from dense_chol. Not differentiable.",
         false, rule_dense_subs, with().writes_last_array()},
        {"dense_solve", "dense_solve", BuiltinKind::Regular, "Utility",
         "dense_solve(n: int32, A: array(float32), L: array(float32), b: array(float32), x: "
         "array(float32)) -> None",
         "Writes x = A^-1 b into x through L, the Cholesky factor of the n x n symmetric A from "
         "dense_chol. Differentiable in A and b (L counts as a constant; gradients for n <= "
         "256).",
         true, rule_dense_solve, with().writes_last_array()},
        {"atomic_and", "atomic_and", BuiltinKind::Atomic, "Utility",
         "atomic_and(a: array, i..., value) -> Int",
         "Atomically stores a[i...] & value in the array element a[i...] (arrays of [u]int32 or "
         "[u]int64 scalars, vectors or matrices, componentwise) and returns the element's old "
         "value; also what a[i] &= value does.",
         false, nullptr, with().value_operands(1).atomic(AtomicOp::And)},
        {"atomic_or", "atomic_or", BuiltinKind::Atomic, "Utility",
         "atomic_or(a: array, i..., value) -> Int",
         "Atomically stores a[i...] | value in the array element a[i...] (arrays of [u]int32 or "
         "[u]int64 scalars, vectors or matrices, componentwise) and returns the element's old "
         "value; also what a[i] |= value does.",
         false, nullptr, with().value_operands(1).atomic(AtomicOp::Or)},
        {"atomic_xor", "atomic_xor", BuiltinKind::Atomic, "Utility",
         "atomic_xor(a: array, i..., value) -> Int",
         "Atomically stores a[i...] ^ value in the array element a[i...] (arrays of [u]int32 or "
         "[u]int64 scalars, vectors or matrices, componentwise) and returns the element's old "
         "value; also what a[i] ^= value does.",
         false, nullptr, with().value_operands(1).atomic(AtomicOp::Xor)},
    };
}

}  // namespace treadle::builtins::entries
