// src/sema/builtins.cpp -- the builtin table: every builtin with its traits, and lookups
#include "sema/builtins.h"

#include <map>

#include "common/assert.h"
#include "sema/builtin_rules.h"

namespace treadle::sema {

const types::Type* unify_scalars(const std::vector<ArgInfo>& args, bool want_float) {
    const types::Type* strong = nullptr;
    bool any_weak_float = false;
    for (const ArgInfo& a : args) {
        if (!a.type || !a.type->is_scalar()) return nullptr;
        if (a.weak) {
            any_weak_float |= a.type->is_float();
            continue;
        }
        if (strong && strong != a.type) return nullptr;
        strong = a.type;
    }
    if (!strong)
        return (any_weak_float || want_float) ? types::float32_type() : types::int32_type();
    // A weak float literal never turns into an integer or bool.
    if (any_weak_float && !strong->is_float()) return nullptr;
    return strong;
}

std::string describe_args(const std::vector<ArgInfo>& args) {
    std::string s = "(";
    for (size_t i = 0; i < args.size(); ++i) {
        if (i) s += ", ";
        if (args[i].weak)
            s += args[i].type->is_float() ? "float literal" : "int literal";
        else
            s += args[i].type ? args[i].type->name : "?";
    }
    return s + ")";
}

namespace {

using namespace rules;

/// Fluent construction of an entry's Traits: `with().host().op("+")`.
struct TraitsBuilder {
    Traits t;
    TraitsBuilder& linear(Linearity v) { return t.linear = v, *this; }
    TraitsBuilder& writes_last_array() { return t.writes_last_array = true, *this; }
    TraitsBuilder& results(int v) { return t.results = v, *this; }
    TraitsBuilder& value_operands(int v) { return t.value_operands = v, *this; }
    TraitsBuilder& rebinds(Rebinds v) { return t.rebinds = v, *this; }
    TraitsBuilder& host() { return t.host = true, *this; }
    TraitsBuilder& atomic(AtomicOp v) { return t.atomic = v, *this; }
    TraitsBuilder& python_builtin() { return t.python_builtin = true, *this; }
    TraitsBuilder& op(const char* v) { return t.op = v, *this; }
    TraitsBuilder& not_callable() { return t.callable = false, *this; }
    TraitsBuilder& template_args(TemplateArgs v) { return t.template_args = v, *this; }
    operator Traits() const { return t; }
};
TraitsBuilder with() { return {}; }

#define FLOAT1(n, doc)                                                                 \
    {                                                                                  \
        n, n, BuiltinKind::Regular, "Scalar Math", n "(x: Float) -> Float", doc, true, \
            rule_float_unary, with().host()                                            \
    }

const std::vector<Builtin>& table() {
    static const std::vector<Builtin> k_table = {
        // --- operators (reached through Python syntax) ---
        {"add", "add", BuiltinKind::Operator, "Operators", "a + b",
         "Sum a + b of two scalars, or of two vectors, matrices or quaternions of the same type "
         "(componentwise); transforms are not added. Also callable as wp.add(a, b).",
         true, rule_add_sub, with().linear(Linearity::All).host().op("+")},
        {"sub", "sub", BuiltinKind::Operator, "Operators", "a - b",
         "Difference a - b of two scalars, or of two vectors, matrices or quaternions of the same "
         "type (componentwise). Also callable as wp.sub(a, b).",
         true, rule_add_sub, with().linear(Linearity::All).host().op("-")},
        {"mul", "mul", BuiltinKind::Operator, "Operators", "a * b",
         "Product a * b: of two scalars; of a vector, matrix or quaternion and a scalar of its "
         "element type (either order); matrix-vector, vector-matrix and matrix-matrix products; "
         "the Hamilton product of two quaternions and the composition of two transforms.",
         true, rule_mul, with().host().op("*")},
        {"matmul", "mul", BuiltinKind::Operator, "Operators", "a @ b",
         "Matrix product a @ b: matrix-vector, vector-matrix and matrix-matrix products (shapes "
         "must agree); quaternions and transforms compose as with *. Reached only through the @ "
         "operator.",
         true, rule_matmul, with().op("@").not_callable()},
        {"div", "div", BuiltinKind::Operator, "Operators", "a / b",
         "Quotient a / b of two scalars (integers truncate toward zero, and integer division by "
         "zero gives 0), or a vector, matrix or quaternion divided by a scalar of its element "
         "type.",
         true, rule_div, with().host().op("/")},
        {"floordiv", "floordiv", BuiltinKind::Operator, "Operators", "a // b",
         "Floor division a // b: floor(a / b) for floats; for integers the truncating quotient (C "
         "rules), with division by zero giving 0.",
         true, rule_numeric_binary, with().op("//")},
        {"mod", "mod", BuiltinKind::Operator, "Operators", "a % b",
         "Remainder a % b: fmod(a, b) for floats (with the sign of a); for integers the C "
         "remainder, whose sign follows the dividend, with a remainder by zero giving 0.",
         true, rule_numeric_binary, with().host().op("%")},
        {"pow", "pow", BuiltinKind::Regular, "Scalar Math", "pow(x: Float, y: Float) -> Float",
         "x raised to the power y, both of one float type (also the ** operator); a negative x "
         "with a non-integer y gives NaN.",
         true, rule_float_binary, with().host().python_builtin().op("**")},
        {"neg", "neg", BuiltinKind::Operator, "Operators", "-a",
         "Negation -a of a scalar, or of a vector, matrix or quaternion (componentwise). Also "
         "callable as wp.neg(a).",
         true, rule_negate, with().linear(Linearity::All).host().op("-")},
        {"pos", "pos", BuiltinKind::Operator, "Operators", "+a",
         "Unary plus +a: the value a itself (scalars, vectors, matrices, quaternions).", true,
         rule_negate, with().linear(Linearity::All).op("+")},
        {"invert", "invert", BuiltinKind::Operator, "Operators", "~a",
         "Bitwise complement ~a of an integer: every bit of a flipped.", false, rule_int_unary,
         with().op("~")},
        {"bit_and", "bit_and", BuiltinKind::Operator, "Operators", "a & b",
         "Bitwise and a & b of two integers (or bools) of the same type.", false, rule_bitwise,
         with().op("&")},
        {"bit_or", "bit_or", BuiltinKind::Operator, "Operators", "a | b",
         "Bitwise or a | b of two integers (or bools) of the same type.", false, rule_bitwise,
         with().op("|")},
        {"bit_xor", "bit_xor", BuiltinKind::Operator, "Operators", "a ^ b",
         "Bitwise exclusive or a ^ b of two integers (or bools) of the same type.", false,
         rule_bitwise, with().op("^")},
        {"lshift", "lshift", BuiltinKind::Operator, "Operators", "a << b",
         "Left shift a << b of an integer a by b bits (same integer type).", false, rule_int_binary,
         with().op("<<")},
        {"rshift", "rshift", BuiltinKind::Operator, "Operators", "a >> b",
         "Right shift a >> b of an integer a by b bits (arithmetic for signed types, logical for "
         "unsigned).",
         false, rule_int_binary, with().op(">>")},
        {"compare", "compare", BuiltinKind::Compare, "Operators", "a < b, a == b, ...",
         "Comparisons <, <=, >, >=, ==, != of two scalars of the same type, giving a bool; == and "
         "!= also compare two vectors, matrices or quaternions of the same type (all components "
         "equal).",
         false, rule_compare_any, with().not_callable()},
        // --- scalar math ---
        {"abs", "abs", BuiltinKind::Regular, "Scalar Math",
         "abs(x: Scalar | Vector) -> Scalar | Vector",
         "Absolute value |x| of a scalar, or of each component of a vector; the result has the "
         "argument's type.",
         true, rule_vec_abs, with().host().python_builtin()},
        {"min", "min", BuiltinKind::Regular, "Scalar Math",
         "min(a: Scalar | Vector, b: Scalar | Vector)",
         "The smaller of a and b, two scalars of one type, or the componentwise minimum of two "
         "vectors of the same type.",
         true, rule_vec_min_max, with().host().python_builtin()},
        {"max", "max", BuiltinKind::Regular, "Scalar Math",
         "max(a: Scalar | Vector, b: Scalar | Vector)",
         "The larger of a and b, two scalars of one type, or the componentwise maximum of two "
         "vectors of the same type.",
         true, rule_vec_min_max, with().host().python_builtin()},
        {"clamp", "clamp", BuiltinKind::Regular, "Scalar Math",
         "clamp(x: Scalar, low: Scalar, high: Scalar) -> Scalar",
         "x limited to the range [low, high]: low if x < low, high if x > high, else x (three "
         "scalars of one type).",
         true, rule_numeric_ternary, with().host()},
        {"sign", "sign", BuiltinKind::Regular, "Scalar Math", "sign(x: Scalar) -> Scalar",
         "The sign of scalar x as a value of its type: -1 if x < 0, else 1 (so sign(0) is 1).",
         true, rule_numeric_unary, with().host()},
        FLOAT1("floor", "The largest integer not greater than x, as a float of x's type."),
        FLOAT1("ceil", "The smallest integer not less than x, as a float of x's type."),
        {"round", "round", BuiltinKind::Regular, "Scalar Math", "round(x: Float) -> Float",
         "x rounded to the nearest integer, halves rounded away from zero (round(2.5) is 3.0), as "
         "a float of x's type.",
         true, rule_float_unary, with().host().python_builtin()},
        FLOAT1("rint",
               "x rounded to the nearest integer, halves rounded to even (rint(2.5) is 2.0), as a "
               "float of x's type."),
        FLOAT1("trunc", "x rounded toward zero (the integer part of x), as a float of x's type."),
        FLOAT1("sqrt", "The square root of x (NaN for x < 0), of x's float type."),
        FLOAT1("cbrt", "The real cube root of x (negative for negative x), of x's float type."),
        FLOAT1("exp", "The exponential e^x of x, of x's float type."),
        FLOAT1("log", "The natural (base-e) logarithm of x (-inf at 0, NaN for x < 0)."),
        FLOAT1("log2", "The base-2 logarithm of x (-inf at 0, NaN for x < 0)."),
        FLOAT1("log10", "The base-10 logarithm of x (-inf at 0, NaN for x < 0)."),
        FLOAT1("sin", "The sine of x, an angle in radians."),
        FLOAT1("cos", "The cosine of x, an angle in radians."),
        FLOAT1("tan", "The tangent of x, an angle in radians."),
        FLOAT1("asin",
               "The arc sine of x in [-1, 1]: the angle in [-pi/2, pi/2] radians whose sine is x."),
        FLOAT1("acos",
               "The arc cosine of x in [-1, 1]: the angle in [0, pi] radians whose cosine is x."),
        FLOAT1("atan",
               "The arc tangent of x: the angle in (-pi/2, pi/2) radians whose tangent is x."),
        {"atan2", "atan2", BuiltinKind::Regular, "Scalar Math",
         "atan2(y: Float, x: Float) -> Float",
         "The angle in [-pi, pi] radians of the point (x, y): the arc tangent of y / x with the "
         "signs of both picking the quadrant.",
         true, rule_float_binary, with().host()},
        FLOAT1("sinh", "The hyperbolic sine (e^x - e^-x) / 2 of x."),
        FLOAT1("cosh", "The hyperbolic cosine (e^x + e^-x) / 2 of x."),
        FLOAT1("tanh", "The hyperbolic tangent sinh(x) / cosh(x) of x, in (-1, 1)."),
        FLOAT1("degrees", "The angle x, given in radians, converted to degrees (x * 180 / pi)."),
        FLOAT1("radians", "The angle x, given in degrees, converted to radians (x * pi / 180)."),
        {"isnan", "isnan", BuiltinKind::Regular, "Scalar Math", "isnan(x: Scalar) -> bool",
         "True if the scalar x is NaN (always false for integers).", false, rule_predicate,
         with().host()},
        {"isinf", "isinf", BuiltinKind::Regular, "Scalar Math", "isinf(x: Scalar) -> bool",
         "True if the scalar x is positive or negative infinity (always false for integers).",
         false, rule_predicate, with().host()},
        {"isfinite", "isfinite", BuiltinKind::Regular, "Scalar Math", "isfinite(x: Scalar) -> bool",
         "True if the scalar x is neither infinite nor NaN (always true for integers).", false,
         rule_predicate, with().host()},
        // --- vector and matrix math ---
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
         "The matrix whose rows are the given vectors (2 to 4 vectors of the same type): k vectors "
         "of length n give a k x n matrix.",
         true, rule_mat_from_rows, with().linear(Linearity::All).host()},
        {"matrix_from_cols", "mat_from_cols", BuiltinKind::Regular, "Vector Math",
         "matrix_from_cols(*cols: Vector) -> Matrix",
         "The matrix whose columns are the given vectors (2 to 4 vectors of the same type): k "
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
        // --- quaternions and transforms ---
        {"quat_from_axis_angle", "quat_from_axis_angle", BuiltinKind::Regular, "Quaternion Math",
         "quat_from_axis_angle(axis: vec3, angle: Float) -> quat",
         "The unit quaternion of a rotation by angle radians about the unit 3-vector axis (of the "
         "same float type).",
         true, rule_q_from_axis_angle, with().host()},
        {"quat_to_axis_angle", "quat_to_axis_angle", BuiltinKind::Multi, "Quaternion Math",
         "quat_to_axis_angle(quat: quat) -> tuple(vec3, Float)",
         "The rotation of unit quaternion quat as (axis, angle): the unit rotation axis and the "
         "angle in [0, pi] radians. Also quat_to_axis_angle(quat, axis, angle) into local "
         "variables.",
         true, rule_q_to_axis_angle, with().results(2).rebinds(Rebinds::Outputs)},
        {"quat_rotate", "quat_rotate", BuiltinKind::Regular, "Quaternion Math",
         "quat_rotate(q: quat, v: vec3) -> vec3",
         "The 3-vector v rotated by the unit quaternion q (q v q*).", true, rule_q_rotate,
         with().host()},
        {"quat_rotate_inv", "quat_rotate_inv", BuiltinKind::Regular, "Quaternion Math",
         "quat_rotate_inv(q: quat, v: vec3) -> vec3",
         "The 3-vector v rotated by the inverse of the unit quaternion q (q* v q).", true,
         rule_q_rotate, with().host()},
        {"quat_inverse", "quat_inverse", BuiltinKind::Regular, "Quaternion Math",
         "quat_inverse(q: quat) -> quat",
         "The conjugate (-x, -y, -z, w) of quaternion q, which is the inverse of a unit "
         "quaternion.",
         true, rule_q_to_q, with().host()},
        {"quat_to_matrix", "quat_to_matrix", BuiltinKind::Regular, "Quaternion Math",
         "quat_to_matrix(q: quat) -> mat33",
         "The 3x3 rotation matrix of the unit quaternion q (same float type).", true,
         rule_q_to_matrix, with().host()},
        {"quat_from_matrix", "quat_from_matrix", BuiltinKind::Regular, "Quaternion Math",
         "quat_from_matrix(m: mat33) -> quat",
         "The unit quaternion of the 3x3 rotation matrix m (same float type).", true,
         rule_q_from_matrix, with().host()},
        {"quat_slerp", "quat_slerp", BuiltinKind::Regular, "Quaternion Math",
         "quat_slerp(a: quat, b: quat, t: Float) -> quat",
         "Spherical linear interpolation of unit quaternions from a (t = 0) to b (t = 1) at "
         "parameter t, along the shorter arc (b is negated when dot(a, b) < 0).",
         true, rule_q_slerp},
        {"quat_rpy", "quat_rpy", BuiltinKind::Regular, "Quaternion Math",
         "quat_rpy(roll: Float, pitch: Float, yaw: Float) -> quat",
         "The unit quaternion qz(yaw) qy(pitch) qx(roll) of the rotation by roll radians about x, "
         "then pitch about y, then yaw about z.",
         true, rule_q_rpy},
        // --- spatial vectors (float vectors of 6: angular part, then linear) ---
        {"spatial_top", "spatial_top", BuiltinKind::Regular, "Spatial Math",
         "spatial_top(svec: spatial_vector) -> vec3",
         "The angular part: the first three components of the spatial vector svec, as a 3-vector.",
         true, rule_spatial_part, with().host()},
        {"spatial_bottom", "spatial_bottom", BuiltinKind::Regular, "Spatial Math",
         "spatial_bottom(svec: spatial_vector) -> vec3",
         "The linear part: the last three components of the spatial vector svec, as a 3-vector.",
         true, rule_spatial_part, with().host()},
        {"spatial_dot", "spatial_dot", BuiltinKind::Regular, "Spatial Math",
         "spatial_dot(a: spatial_vector, b: spatial_vector) -> Float",
         "The dot product of two spatial vectors: the sum of the products of their six components.",
         true, rule_spatial_dot, with().host()},
        {"spatial_cross", "spatial_cross", BuiltinKind::Regular, "Spatial Math",
         "spatial_cross(a: spatial_vector, b: spatial_vector) -> spatial_vector",
         "The motion cross product of two spatial vectors (twists) a = (w_a, v_a) and b: (w_a x "
         "w_b, v_a x w_b + w_a x v_b).",
         true, rule_spatial_cross, with().host()},
        {"spatial_cross_dual", "spatial_cross_dual", BuiltinKind::Regular, "Spatial Math",
         "spatial_cross_dual(a: spatial_vector, b: spatial_vector) -> spatial_vector",
         "The force cross product of a twist a = (w, v) and a wrench b = (n, f): (w x n + v x f, w "
         "x f).",
         true, rule_spatial_cross, with().host()},
        {"spatial_adjoint", "spatial_adjoint", BuiltinKind::Regular, "Spatial Math",
         "spatial_adjoint(r: mat33, s: mat33) -> spatial_matrix",
         "The 6x6 spatial matrix with blocks [[r, 0], [s, r]] built from the 3x3 matrices r and s.",
         true, rule_spatial_adjoint},
        {"transform_twist", "transform_twist", BuiltinKind::Regular, "Spatial Math",
         "transform_twist(t: transform, x: spatial_vector) -> spatial_vector",
         "The twist x = (w, v) expressed in the frame moved by transform t = (p, R): (R w, R v + p "
         "x R w).",
         true, rule_transform_spatial, with().host()},
        {"transform_wrench", "transform_wrench", BuiltinKind::Regular, "Spatial Math",
         "transform_wrench(t: transform, x: spatial_vector) -> spatial_vector",
         "The wrench x = (tau, f) expressed in the frame moved by transform t = (p, R): (R tau + p "
         "x R f, R f).",
         true, rule_transform_spatial, with().host()},
        {"spatial_jacobian", "spatial_jacobian", BuiltinKind::Regular, "Spatial Math",
         "spatial_jacobian(S: array(spatial_vector), joint_parents: array(int32), joint_qd_start: "
         "array(int32), joint_start: int32, joint_count: int32, J_start: int32, J_out: "
         "array(float)) -> None",
         "Writes the spatial Jacobian of the kinematic chain of joint_count joints from "
         "joint_start into the flat array J_out at offset J_start: a row block of six rows per "
         "joint and a column per degree of freedom, from the joint motion subspaces S, the parents "
         "and the dof offsets. Returns nothing.",
         true, rule_spatial_jacobian, with().writes_last_array()},
        {"spatial_mass", "spatial_mass", BuiltinKind::Regular, "Spatial Math",
         "spatial_mass(I_s: array(spatial_matrix), joint_start: int32, joint_count: int32, "
         "M_start: int32, M: array(float)) -> None",
         "Writes the 6x6 spatial inertias I_s of joint_count joints from joint_start as the "
         "diagonal blocks of the chain's mass matrix, stored flat in M at offset M_start. Returns "
         "nothing.",
         true, rule_spatial_mass, with().writes_last_array()},
        {"transform_point", "transform_point", BuiltinKind::Regular, "Transformations",
         "transform_point(t: transform, p: vec3) -> vec3",
         "The point p mapped by transform t: rotated by t's rotation, then translated by its "
         "translation.",
         true, rule_t_point, with().host()},
        {"transform_vector", "transform_vector", BuiltinKind::Regular, "Transformations",
         "transform_vector(t: transform, v: vec3) -> vec3",
         "The vector v mapped by transform t: rotated by t's rotation only (no translation).", true,
         rule_t_point, with().host()},
        {"transform_multiply", "transform_multiply", BuiltinKind::Regular, "Transformations",
         "transform_multiply(a: transform, b: transform) -> transform",
         "The composition a * b of two transforms: applying it maps a point by b, then by a.", true,
         rule_t_t, with().host()},
        {"transform_inverse", "transform_inverse", BuiltinKind::Regular, "Transformations",
         "transform_inverse(t: transform) -> transform",
         "The inverse of transform t = (p, q): (-(q^-1 p), q^-1), so that t * inverse(t) is the "
         "identity.",
         true, rule_t_to_t, with().host()},
        {"transform_get_translation", "transform_get_translation", BuiltinKind::Regular,
         "Transformations", "transform_get_translation(t: transform) -> vec3",
         "The translation p of transform t, a 3-vector (also t.p).", true, rule_t_translation,
         with().host()},
        {"transform_get_rotation", "transform_get_rotation", BuiltinKind::Regular,
         "Transformations", "transform_get_rotation(t: transform) -> quat",
         "The rotation q of transform t, a unit quaternion (also t.q).", true, rule_t_rotation,
         with().host()},
        {"quat_identity", "quat_identity", BuiltinKind::Identity, "Quaternion Math",
         "quat_identity(dtype: Float = float32) -> quat",
         "The identity rotation: the quaternion (0, 0, 0, 1) of float type dtype (float32 when not "
         "given).",
         false, nullptr, with().host().template_args(TemplateArgs::Scalar)},
        {"transform_identity", "transform_identity", BuiltinKind::Identity, "Transformations",
         "transform_identity(dtype: Float = float32) -> transform",
         "The identity transform: zero translation and the identity rotation, of float type dtype "
         "(float32 when not given).",
         false, nullptr, with().host().template_args(TemplateArgs::Scalar)},
        // --- random numbers (PCG hash of Jarzynski & Olano, composed as Warp does) ---
        {"rand_init", "rand_init", BuiltinKind::Regular, "Random",
         "rand_init(seed: int32, offset: int32 = ...) -> uint32",
         "A random generator state (uint32) from a seed, and from an offset such as the thread "
         "index so that each thread draws its own sequence.",
         false, rule_rand_init},
        {"randi", "randi", BuiltinKind::Random, "Random",
         "randi(state: uint32, low: int32 = ..., high: int32 = ...) -> int32",
         "A random int32 drawn from state (uniform over all int32 values, or over [low, high) when "
         "the bounds are given); advances state.",
         false, rule_randi, with().rebinds(Rebinds::State)},
        {"randu", "randu", BuiltinKind::Random, "Random",
         "randu(state: uint32, low: uint32 = ..., high: uint32 = ...) -> uint32",
         "A random uint32 drawn from state (uniform over all uint32 values, or over [low, high) "
         "when the bounds are given); advances state.",
         false, rule_randu, with().rebinds(Rebinds::State)},
        {"randf", "randf", BuiltinKind::Random, "Random",
         "randf(state: uint32, low: float32 = ..., high: float32 = ...) -> float32",
         "A uniform random float32 in [0, 1) drawn from state (or in [low, high) when the bounds "
         "are given); advances state.",
         false, rule_randf, with().rebinds(Rebinds::State)},
        {"randn", "randn", BuiltinKind::Random, "Random", "randn(state: uint32) -> float32",
         "A standard normal (mean 0, variance 1) random float32 drawn from state; advances state.",
         false, rule_randn, with().rebinds(Rebinds::State)},
        {"sample_triangle", "sample_triangle", BuiltinKind::Random, "Random",
         "sample_triangle(state: uint32) -> vec2",
         "Uniform barycentric coordinates (u, v) of a random point in a triangle (the third is w = "
         "1 - u - v), drawn from state; advances state.",
         false, rule_sample2, with().rebinds(Rebinds::State)},
        {"sample_unit_ring", "sample_unit_ring", BuiltinKind::Random, "Random",
         "sample_unit_ring(state: uint32) -> vec2",
         "A uniformly distributed random point on the unit circle, as a vec2, drawn from state; "
         "advances state.",
         false, rule_sample2, with().rebinds(Rebinds::State)},
        {"sample_unit_disk", "sample_unit_disk", BuiltinKind::Random, "Random",
         "sample_unit_disk(state: uint32) -> vec2",
         "A uniformly distributed random point inside the unit disk, as a vec2, drawn from state; "
         "advances state.",
         false, rule_sample2, with().rebinds(Rebinds::State)},
        {"sample_unit_sphere_surface", "sample_unit_sphere_surface", BuiltinKind::Random, "Random",
         "sample_unit_sphere_surface(state: uint32) -> vec3",
         "A uniformly distributed random point on the unit sphere, as a vec3, drawn from state; "
         "advances state.",
         false, rule_sample3, with().rebinds(Rebinds::State)},
        {"sample_unit_sphere", "sample_unit_sphere", BuiltinKind::Random, "Random",
         "sample_unit_sphere(state: uint32) -> vec3",
         "A uniformly distributed random point inside the unit ball, as a vec3, drawn from state; "
         "advances state.",
         false, rule_sample3, with().rebinds(Rebinds::State)},
        {"sample_unit_hemisphere_surface", "sample_unit_hemisphere_surface", BuiltinKind::Random,
         "Random", "sample_unit_hemisphere_surface(state: uint32) -> vec3",
         "A uniformly distributed random point on the unit hemisphere z >= 0, as a vec3, drawn "
         "from state; advances state.",
         false, rule_sample3, with().rebinds(Rebinds::State)},
        {"sample_unit_hemisphere", "sample_unit_hemisphere", BuiltinKind::Random, "Random",
         "sample_unit_hemisphere(state: uint32) -> vec3",
         "A uniformly distributed random point inside the unit half ball z >= 0, as a vec3, drawn "
         "from state; advances state.",
         false, rule_sample3, with().rebinds(Rebinds::State)},
        {"sample_unit_square", "sample_unit_square", BuiltinKind::Random, "Random",
         "sample_unit_square(state: uint32) -> vec2",
         "A uniformly distributed random point in the square [-0.5, 0.5)^2, as a vec2, drawn from "
         "state; advances state.",
         false, rule_sample2, with().rebinds(Rebinds::State)},
        {"sample_unit_cube", "sample_unit_cube", BuiltinKind::Random, "Random",
         "sample_unit_cube(state: uint32) -> vec3",
         "A uniformly distributed random point in the cube [-0.5, 0.5)^3, as a vec3, drawn from "
         "state; advances state.",
         false, rule_sample3, with().rebinds(Rebinds::State)},
        {"sample_cdf", "sample_cdf", BuiltinKind::Random, "Random",
         "sample_cdf(state: uint32, cdf: array(dtype=float32)) -> int32",
         "Samples an index from a discrete distribution: the index of the first entry of cdf (a "
         "normalised, non-decreasing float32 array) that is >= one uniform draw from state; "
         "advances state.",
         false, rule_sample_cdf, with().rebinds(Rebinds::State)},
        {"poisson", "poisson", BuiltinKind::Random, "Random",
         "poisson(state: uint32, lam: float32) -> uint32",
         "A Poisson-distributed random count (uint32) with mean lam, drawn from state (no draw "
         "when lam is 0); advances state.",
         false, rule_poisson, with().rebinds(Rebinds::State)},
        {"noise", "noise", BuiltinKind::Regular, "Random",
         "noise(state: uint32, x: float32 | vec2 | vec3 | vec4) -> float32",
         "Perlin noise at point x (a float32 or a float32 vector of 2 to 4 components) of the "
         "noise field that state selects; state is not advanced. The noise is 0 at lattice points.",
         true, rule_noise},
        {"pnoise", "pnoise", BuiltinKind::Regular, "Random",
         "pnoise(state: uint32, x: float32 | vec2 | vec3 | vec4, px: int32, ...) -> float32",
         "Periodic Perlin noise at point x of the field that state selects, repeating every px "
         "(and py, pz, pt: one integer period per component of x) cells; state is not advanced.",
         true, rule_pnoise},
        {"curlnoise", "curlnoise", BuiltinKind::Regular, "Random",
         "curlnoise(state: uint32, x: vec2 | vec3 | vec4, octaves: uint32 = 1, lacunarity: float32 "
         "= 2.0, gain: float32 = 0.5) -> vec2 | vec3",
         "Divergence-free noise at point x: the curl of Perlin noise of the field that state "
         "selects, summed over octaves with frequency scaled by lacunarity and amplitude by gain "
         "per octave. A vec2 point gives a vec2, vec3 and vec4 points a vec3.",
         true, rule_curlnoise},
        // --- lowered by dedicated code ---
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
        {"len", "len", BuiltinKind::Len, "Utility", "len(a: array) -> int",
         "The size of the first dimension of array a, an int32; of a vector, quaternion or "
         "transform its number of components, of a matrix its number of rows (constants).",
         false, nullptr, with().python_builtin()},
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
        // --- spelled by inference itself (constructors, component access, updates) ---
        {"vec_fill", "vec_fill", BuiltinKind::Internal, "Internal",
         "vec_fill(value: Scalar) -> Vector",
         "A vector with every component set to value (vec3(), vec3(s)).", true, nullptr,
         with().linear(Linearity::All).not_callable().template_args(TemplateArgs::Length)},
        {"mat_fill", "mat_fill", BuiltinKind::Internal, "Internal",
         "mat_fill(value: Scalar) -> Matrix",
         "A matrix with every component set to value (mat33(), mat33(s)).", true, nullptr,
         with().linear(Linearity::All).not_callable().template_args(TemplateArgs::Shape)},
        {"vec_cast", "vec_cast", BuiltinKind::Internal, "Internal", "vec_cast(v: Vector) -> Vector",
         "The vector v with its components converted to another scalar type (vec3d(v)).", true,
         nullptr, with().not_callable().template_args(TemplateArgs::Scalar)},
        {"mat_cast", "mat_cast", BuiltinKind::Internal, "Internal", "mat_cast(m: Matrix) -> Matrix",
         "The matrix m with its components converted to another scalar type (mat33d(m)).", true,
         nullptr, with().not_callable().template_args(TemplateArgs::Scalar)},
        {"spatial_vector", "spatial_vector", BuiltinKind::Internal, "Internal",
         "spatial_vector(w: vec3, v: vec3) -> spatial_vector",
         "The spatial vector with angular part w and linear part v.", true, nullptr,
         with().not_callable()},
        {"transform_from", "transform_from", BuiltinKind::Internal, "Internal",
         "transform_from(p: vec3, q: quat) -> transform",
         "The transform with translation p and rotation q (transform(p, q)).", true, nullptr,
         with().linear(Linearity::All).not_callable()},
        {"extract", "extract", BuiltinKind::Internal, "Internal",
         "extract(a: Vector | Matrix, i: int32, ...) -> Scalar | Vector",
         "Component a[i] (a row m[i], or m[i, j]) of a vector, matrix or quaternion.", true,
         nullptr, with().linear(Linearity::First).not_callable()},
        {"with_component", "with_component", BuiltinKind::Internal, "Internal",
         "with_component(a: Vector | Matrix, i: int32, ..., value: Scalar) -> Vector | Matrix",
         "A copy of a with component [i...] replaced by value (a[i] = value on a local).", true,
         nullptr, with().linear(Linearity::FirstAndLast).not_callable()},
        {"with_row", "with_row", BuiltinKind::Internal, "Internal",
         "with_row(m: Matrix, i: int32, row: Vector) -> Matrix",
         "A copy of m with row i replaced by row (m[i] = row on a local).", true, nullptr,
         with().linear(Linearity::FirstAndLast).not_callable()},
    };
    return k_table;
}

}  // namespace

const std::vector<Builtin>& builtin_table() { return table(); }

bool builtin_writes_arguments(const Builtin& b) { return b.traits.rebinds != Rebinds::None; }

const Builtin* find_builtin(std::string_view name) {
    static const std::map<std::string, const Builtin*, std::less<>> k_index = [] {
        std::map<std::string, const Builtin*, std::less<>> m;
        for (const Builtin& b : table())
            if (b.kind != BuiltinKind::Operator && b.kind != BuiltinKind::Compare &&
                b.kind != BuiltinKind::Internal)
                m[b.name] = &b;
        return m;
    }();
    auto it = k_index.find(name);
    return it == k_index.end() ? nullptr : it->second;
}

const Builtin* find_operator(std::string_view name) {
    for (const Builtin& b : table())
        if (name == b.name && b.kind != BuiltinKind::Internal) return &b;
    return nullptr;
}

const Builtin* find_entry(std::string_view name) {
    for (const Builtin& b : table())
        if (name == b.name) return &b;
    return nullptr;
}

const Builtin& table_entry(std::string_view name) {
    const Builtin* b = find_entry(name);
    TREADLE_ASSERT(b != nullptr);
    return *b;
}

const Builtin* find_syntax_operator(std::string_view op, size_t operands) {
    for (const Builtin& b : table())
        if (b.traits.op && op == b.traits.op && builtin_params(b).size() == operands) return &b;
    return nullptr;
}

const Builtin* find_callee(std::string_view callee) {
    static const std::map<std::string, const Builtin*, std::less<>> k_by_native = [] {
        std::map<std::string, const Builtin*, std::less<>> m;
        for (const Builtin& b : table())
            if (b.native) m.emplace(b.native, &b);  // the first entry of a shared native wins
        return m;
    }();
    auto it = k_by_native.find(callee.substr(0, callee.find('<')));
    return it == k_by_native.end() ? nullptr : it->second;
}

bool linear_in_operand(const Builtin& b, size_t i, size_t nargs) {
    switch (b.traits.linear) {
        case Linearity::None:
            return false;
        case Linearity::All:
            return true;
        case Linearity::First:
            return i == 0;
        case Linearity::FirstAndLast:
            return i == 0 || i + 1 == nargs;
    }
    return false;
}

AtomicAdjoint atomic_adjoint(const Builtin& b) {
    switch (b.traits.atomic) {
        case AtomicOp::None:
            return AtomicAdjoint::None;
        case AtomicOp::Add:
            return AtomicAdjoint::Add;
        case AtomicOp::Sub:
            return AtomicAdjoint::Subtract;
        case AtomicOp::Min:
        case AtomicOp::Max:
            return AtomicAdjoint::MinMax;
        case AtomicOp::Exch:
            return AtomicAdjoint::Store;
        case AtomicOp::Cas:
            return AtomicAdjoint::Refused;
    }
    return AtomicAdjoint::None;
}

bool atomic_needs_word_scalars(const Builtin& b) {
    return b.traits.atomic == AtomicOp::Exch || b.traits.atomic == AtomicOp::Cas;
}

}  // namespace treadle::sema
