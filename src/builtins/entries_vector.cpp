// src/builtins/entries_vector.cpp -- the builtin table's vector and matrix math
#include "builtins/entries.h"

namespace treadle::builtins::entries {

using namespace rules;

/// Vector and matrix math, decompositions, identity and where.
std::vector<Builtin> vector_math() {
    return {
        {"dot", "dot", BuiltinKind::Regular, "Vector Math", "dot(a: Vector, b: Vector) -> Scalar",
         "The dot product sum(a[i] * b[i]) of two vectors (or quaternions) of the same type, a "
         "scalar of their element type.",
         true, rule_dot, with().host()},
        {"cross", "cross", BuiltinKind::Regular, "Vector Math", "cross(a: vec3, b: vec3) -> vec3",
         "The cross product a x b of two 3-vectors of the same type: a vector perpendicular to "
         "both, of length |a| |b| sin(angle).",
         true, rule_cross, with().host()},
        {"length", "length", BuiltinKind::Regular, "Vector Math", "length(a: Vector) -> Float",
         "The Euclidean length sqrt(dot(a, a)) of a float vector or quaternion.", true, rule_length,
         with().host()},
        {"length_sq", "length_sq", BuiltinKind::Regular, "Vector Math",
         "length_sq(a: Vector) -> Scalar",
         "The squared length dot(a, a) of a vector or quaternion (no square root).", true,
         rule_dot_self, with().host()},
        {"normalize", "normalize", BuiltinKind::Regular, "Vector Math",
         "normalize(a: Vector) -> Vector",
         "The unit vector a / length(a) of a float vector or quaternion; the zero vector stays "
         "zero.",
         true, rule_normalize, with().host()},
        {"argmin", "argmin", BuiltinKind::Regular, "Vector Math", "argmin(v: Vector) -> uint32",
         "The index of the smallest component of vector v (the first on ties; NaN components "
         "count as missing, as for min).",
         false, rule_vec_arg_extremum},
        {"argmax", "argmax", BuiltinKind::Regular, "Vector Math", "argmax(v: Vector) -> uint32",
         "The index of the largest component of vector v (the first on ties; NaN components "
         "count as missing, as for max).",
         false, rule_vec_arg_extremum},
        {"norm_l1", "norm_l1", BuiltinKind::Regular, "Vector Math", "norm_l1(v: Vector) -> Float",
         "The L1 norm of a float vector: the sum of the absolute values of its components.", true,
         rule_float_vector_to_scalar},
        {"norm_l2", "norm_l2", BuiltinKind::Regular, "Vector Math", "norm_l2(v: Vector) -> Float",
         "The L2 norm of a float vector, its length.", true, rule_float_vector_to_scalar},
        {"norm_huber", "norm_huber", BuiltinKind::Regular, "Vector Math",
         "norm_huber(v: Vector, delta: Float = 1.0) -> Float",
         "The Huber norm of a float vector: |v|^2 / 2 when |v| <= delta, else delta (|v| - delta "
         "/ 2).",
         true, rule_float_vector_norm},
        {"norm_pseudo_huber", "norm_pseudo_huber", BuiltinKind::Regular, "Vector Math",
         "norm_pseudo_huber(v: Vector, delta: Float = 1.0) -> Float",
         "The pseudo-Huber norm of a float vector, Warp's form delta sqrt(delta^2 + |v|^2).", true,
         rule_float_vector_norm},
        {"smooth_normalize", "smooth_normalize", BuiltinKind::Regular, "Vector Math",
         "smooth_normalize(v: Vector, delta: Float = 1.0) -> Vector",
         "v divided by its pseudo-Huber norm: a normalization that is smooth through the zero "
         "vector.",
         true, rule_smooth_normalize},
        {"outer", "outer", BuiltinKind::Regular, "Vector Math",
         "outer(a: Vector, b: Vector) -> Matrix",
         "The outer product a b^T of two vectors of one element type: the matrix whose entry (i, "
         "j) is a[i] * b[j].",
         true, rule_outer, with().host()},
        {"cw_mul", "cw_mul", BuiltinKind::Regular, "Vector Math", "cw_mul(a, b)",
         "The componentwise product of two vectors or matrices of the same type (entry (i) is a[i] "
         "* b[i]).",
         true, rule_cw, with().host()},
        {"cw_div", "cw_div", BuiltinKind::Regular, "Vector Math", "cw_div(a, b)",
         "The componentwise quotient of two vectors or matrices of the same type (entry (i) is "
         "a[i] / b[i]).",
         true, rule_cw, with().host()},
        {"transpose", "transpose", BuiltinKind::Regular, "Vector Math",
         "transpose(m: Matrix) -> Matrix",
         "The transpose of matrix m: an n x m matrix for an m x n one, entry (i, j) being m[j, i].",
         true, rule_transpose, with().linear(Linearity::All).host()},
        {"trace", "trace", BuiltinKind::Regular, "Vector Math", "trace(m: Matrix) -> Scalar",
         "The trace of square matrix m: the sum of its diagonal entries.", true,
         rule_square_to_scalar, with().host()},
        {"determinant", "determinant", BuiltinKind::Regular, "Vector Math",
         "determinant(m: Matrix) -> Float",
         "The determinant of a square float matrix of size 2x2 to 4x4.", true, rule_determinant,
         with().host()},
        {"inverse", "inverse", BuiltinKind::Regular, "Vector Math", "inverse(m: Matrix) -> Matrix",
         "The inverse of a square float matrix of size 2x2 to 4x4; a singular matrix gives the "
         "zero matrix.",
         true, rule_inverse, with().host()},
        {"ddot", "ddot", BuiltinKind::Regular, "Vector Math",
         "ddot(a: Matrix, b: Matrix) -> Scalar",
         "The double dot product of two matrices of the same type: the sum of the products of "
         "their corresponding entries.",
         true, rule_ddot, with().host()},
        {"diag", "diag", BuiltinKind::Regular, "Vector Math", "diag(v: Vector) -> Matrix",
         "The square matrix with the vector v on its diagonal and zeros elsewhere.", true,
         rule_diag, with().host()},
        {"skew", "skew", BuiltinKind::Regular, "Vector Math", "skew(v: vec3) -> mat33",
         "The 3x3 cross-product matrix of the 3-vector v: skew(v) * u equals cross(v, u).", true,
         rule_skew, with().host()},
        {"matrix_from_rows", "mat_from_rows", BuiltinKind::Regular, "Vector Math",
         "matrix_from_rows(*rows: Vector) -> Matrix",
         "The matrix whose rows are the given vectors (1 to 4 vectors of the same type): k vectors "
         "of length n give a k x n matrix.",
         true, rule_mat_from_rows, with().linear(Linearity::All).host()},
        {"matrix_from_cols", "mat_from_cols", BuiltinKind::Regular, "Vector Math",
         "matrix_from_cols(*cols: Vector) -> Matrix",
         "The matrix whose columns are the given vectors (1 to 4 vectors of the same type): k "
         "vectors of length n give an n x k matrix.",
         true, rule_mat_from_cols, with().linear(Linearity::All).host()},
        {"svd3", "svd3", BuiltinKind::Multi, "Vector Math",
         "svd3(A: mat33) -> tuple(mat33, vec3, mat33)",
         "Singular value decomposition of a 3x3 float matrix A: returns (U, sigma, V) with A = U "
         "diag(sigma) V^T, U and V rotations, |sigma| decreasing and sigma[2] carrying the sign of "
         "det(A). Also svd3(A, U, sigma, V), which writes the three results into local variables.",
         true, rule_svd3, with().results(3).rebinds(Rebinds::Outputs)},
        {"svd2", "svd2", BuiltinKind::Multi, "Vector Math",
         "svd2(A: mat22) -> tuple(mat22, vec2, mat22)",
         "Singular value decomposition of a 2x2 float matrix A: returns (U, sigma, V) with A = U "
         "diag(sigma) V^T, sigma >= 0 and decreasing. Also svd2(A, U, sigma, V) into local "
         "variables.",
         true, rule_svd2, with().results(3).rebinds(Rebinds::Outputs)},
        {"qr3", "qr3", BuiltinKind::Multi, "Vector Math", "qr3(A: mat33) -> tuple(mat33, mat33)",
         "QR decomposition of a 3x3 float matrix A: returns (Q, R) with A = Q R, Q a rotation and "
         "R upper triangular. Also qr3(A, Q, R) into local variables.",
         true, rule_qr3, with().results(2).rebinds(Rebinds::Outputs)},
        {"eig3", "eig3", BuiltinKind::Multi, "Vector Math", "eig3(A: mat33) -> tuple(mat33, vec3)",
         "Eigendecomposition of a symmetric 3x3 float matrix A: returns (Q, d) with A = Q diag(d) "
         "Q^T, Q a rotation whose columns are the eigenvectors and d the eigenvalues in ascending "
         "order. Also eig3(A, Q, d) into local variables.",
         true, rule_eig3, with().results(2).rebinds(Rebinds::Outputs)},
        {"identity", "identity", BuiltinKind::Identity, "Vector Math",
         "identity(n: int, dtype: Scalar) -> Matrix",
         "The n x n identity matrix of scalar type dtype; n must be a compile-time constant (1 to "
         "64) and both may be given as keywords.",
         false, nullptr, with().host().template_args(TemplateArgs::Length)},
        {"where", "where", BuiltinKind::Where, "Utility",
         "where(cond, value_if_true, value_if_false)",
         "value_if_true when cond is true (non-zero), else value_if_false; both values are "
         "evaluated and must have one type (literals adopt it).",
         true, nullptr, with().host()},
    };
}

}  // namespace treadle::builtins::entries
