// src/builtins/entries_math.cpp -- the builtin table's operators and scalar math
#include "builtins/entries.h"

namespace treadle::builtins::entries {

using namespace rules;

#define FLOAT1(n, doc)                                                                 \
    {                                                                                  \
        n, n, BuiltinKind::Regular, "Scalar Math", n "(x: Float) -> Float", doc, true, \
            rule_float_unary, with().host()                                            \
    }

/// Operators, reached through Python syntax (`+` is add); pow is also `**`.
std::vector<Builtin> operators() {
    return {
        {"add", "add", BuiltinKind::Operator, "Operators", "a + b",
         "Sum a + b of two scalars, or of two vectors, matrices, quaternions or transforms of the "
         "same type (componentwise). Also callable as wp.add(a, b).",
         true, rule_add_sub, with().linear(Linearity::All).host().op("+")},
        {"sub", "sub", BuiltinKind::Operator, "Operators", "a - b",
         "Difference a - b of two scalars, or of two vectors, matrices, quaternions or transforms "
         "of the same type (componentwise). Also callable as wp.sub(a, b).",
         true, rule_add_sub, with().linear(Linearity::All).host().op("-")},
        {"mul", "mul", BuiltinKind::Operator, "Operators", "a * b",
         "Product a * b: of two scalars; of a vector, matrix, quaternion or transform and a scalar "
         "of its element type (either order, componentwise); matrix-vector, vector-matrix and "
         "matrix-matrix products; "
         "the Hamilton product of two quaternions and the composition of two transforms.",
         true, rule_mul, with().host().op("*")},
        {"matmul", "mul", BuiltinKind::Operator, "Operators", "a @ b",
         "Matrix product a @ b: matrix-vector, vector-matrix and matrix-matrix products (shapes "
         "must agree); quaternions and transforms compose as with *. Reached only through the @ "
         "operator.",
         true, rule_matmul, with().op("@").not_callable()},
        {"div", "div", BuiltinKind::Operator, "Operators", "a / b",
         "Quotient a / b of two scalars (integers truncate toward zero, and integer division by "
         "zero gives 0), a vector, matrix or quaternion divided by a scalar of its element type, "
         "or "
         "such a scalar divided by each component.",
         true, rule_div, with().host().op("/")},
        {"div_approx", "div_approx", BuiltinKind::Regular, "Operators",
         "div_approx(a: Float | Vector | Matrix | quat, b: Float | Vector | Matrix | quat) -> "
         "Float | Vector | Matrix | quat",
         "The float quotient a / b in the forms of a / b, computed with the fast approximate "
         "division intrinsic for float32 scalars on CUDA devices and exactly elsewhere.",
         true, rule_div_approx},
        {"floordiv", "floordiv", BuiltinKind::Operator, "Operators", "a // b",
         "Floor division a // b: floor(a / b) for floats; for integers the truncating quotient (C "
         "rules), with division by zero giving 0.",
         true, rule_numeric_binary, with().op("//")},
        {"mod", "mod", BuiltinKind::Operator, "Operators", "a % b",
         "Remainder a % b: fmod(a, b) for floats (with the sign of a); for integers the C "
         "remainder, whose sign follows the dividend, with a remainder by zero giving 0. Two "
         "vectors of the same type: componentwise.",
         true, rule_vec_binary, with().host().op("%")},
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
         "Bitwise complement ~a of an integer (or of an integer vector or matrix, componentwise): "
         "every bit of a flipped.",
         false, rule_int_unary, with().host().op("~")},
        {"bit_and", "bit_and", BuiltinKind::Operator, "Operators", "a & b",
         "Bitwise and a & b of two integers (or bools), or of two integer vectors or matrices "
         "(componentwise), of the same type.",
         false, rule_bitwise, with().op("&")},
        {"bit_or", "bit_or", BuiltinKind::Operator, "Operators", "a | b",
         "Bitwise or a | b of two integers (or bools), or of two integer vectors or matrices "
         "(componentwise), of the same type.",
         false, rule_bitwise, with().op("|")},
        {"bit_xor", "bit_xor", BuiltinKind::Operator, "Operators", "a ^ b",
         "Bitwise exclusive or a ^ b of two integers (or bools), or of two integer vectors or "
         "matrices (componentwise), of the same type.",
         false, rule_bitwise, with().op("^")},
        {"lshift", "lshift", BuiltinKind::Operator, "Operators", "a << b",
         "Left shift a << b of an integer a by b bits (same integer type; integer vectors and "
         "matrices componentwise).",
         false, rule_int_binary, with().op("<<")},
        {"rshift", "rshift", BuiltinKind::Operator, "Operators", "a >> b",
         "Right shift a >> b of an integer a by b bits (arithmetic for signed types, logical for "
         "unsigned; integer vectors and matrices componentwise).",
         false, rule_int_binary, with().op(">>")},
        {"compare", "compare", BuiltinKind::Compare, "Operators", "a < b, a == b, ...",
         "Comparisons <, <=, >, >=, ==, != of two scalars of the same type, giving a bool; == and "
         "!= also compare two vectors, matrices or quaternions of the same type (all components "
         "equal).",
         false, rule_compare_any, with().not_callable()},
    };
}

/// Scalar math: abs, min, max, rounding, roots, exponentials, trigonometry.
std::vector<Builtin> scalar_math() {
    return {
        {"abs", "abs", BuiltinKind::Regular, "Scalar Math",
         "abs(x: Scalar | Vector) -> Scalar | Vector",
         "Absolute value |x| of a scalar, or of each component of a vector; the result has the "
         "argument's type.",
         true, rule_vec_abs, with().host().python_builtin()},
        {"min", "min", BuiltinKind::Regular, "Scalar Math",
         "min(a: Scalar | Vector, b: Scalar | Vector)",
         "The smaller of a and b, two scalars of one type, or the componentwise minimum of two "
         "vectors of the same type; min(v) alone is the smallest component of vector v. For floats "
         "a NaN counts as missing (C's fmin), as in Warp.",
         true, rule_vec_min_max, with().host().python_builtin()},
        {"max", "max", BuiltinKind::Regular, "Scalar Math",
         "max(a: Scalar | Vector, b: Scalar | Vector)",
         "The larger of a and b, two scalars of one type, or the componentwise maximum of two "
         "vectors of the same type; max(v) alone is the largest component of vector v. For floats "
         "a NaN counts as missing (C's fmax), as in Warp.",
         true, rule_vec_min_max, with().host().python_builtin()},
        {"clamp", "clamp", BuiltinKind::Regular, "Scalar Math",
         "clamp(x: Scalar, low: Scalar, high: Scalar) -> Scalar",
         "x limited to the range [low, high]: low if x < low, high if x > high, else x (three "
         "scalars of one type).",
         true, rule_numeric_ternary, with().host()},
        {"sign", "sign", BuiltinKind::Regular, "Scalar Math",
         "sign(x: Scalar | Vector) -> Scalar | Vector",
         "The sign of scalar x as a value of its type: -1 if x < 0, else 1 (so sign(0) is 1); of "
         "each component of a vector.",
         true, rule_vec_abs, with().host()},
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
        {"step", "step", BuiltinKind::Regular, "Scalar Math", "step(x: Scalar) -> Scalar",
         "1 when x < 0, else 0, as a value of x's type (zero gradient).", true, rule_numeric_unary,
         with().host()},
        {"nonzero", "nonzero", BuiltinKind::Regular, "Scalar Math", "nonzero(x: Scalar) -> Scalar",
         "1 when x is not 0, else 0, as a value of x's type (zero gradient).", true,
         rule_numeric_unary, with().host()},
        {"copysign", "copysign", BuiltinKind::Regular, "Scalar Math",
         "copysign(x: Float, y: Float) -> Float",
         "The magnitude of x with the sign of y (its sign bit: -0.0 counts as negative).", true,
         rule_float_binary, with().host()},
        FLOAT1("frac",
               "The fractional part x - trunc(x) of x, with the sign of x (frac(-1.25) is -0.25)."),
        FLOAT1("erf", "The error function 2/sqrt(pi) * integral of exp(-t^2) from 0 to x."),
        FLOAT1("erfc", "The complementary error function 1 - erf(x)."),
        FLOAT1("erfinv",
               "The inverse error function: y with erf(y) == x, for x in [-1, 1] (+-inf at +-1, "
               "NaN outside)."),
        FLOAT1("erfcinv",
               "The inverse complementary error function: y with erfc(y) == x, for x in [0, 2] "
               "(+-inf at 0 and 2, NaN outside)."),
        {"isnan", "isnan", BuiltinKind::Regular, "Scalar Math",
         "isnan(x: Scalar | Vector | Matrix | quat) -> bool",
         "True if the scalar x is NaN (always false for integers), or some component of a float "
         "vector, matrix or quaternion is.",
         false, rule_predicate, with().host()},
        {"isinf", "isinf", BuiltinKind::Regular, "Scalar Math",
         "isinf(x: Scalar | Vector | Matrix | quat) -> bool",
         "True if the scalar x is positive or negative infinity (always false for integers), or "
         "some component of a float vector, matrix or quaternion is.",
         false, rule_predicate, with().host()},
        {"isfinite", "isfinite", BuiltinKind::Regular, "Scalar Math",
         "isfinite(x: Scalar | Vector | Matrix | quat) -> bool",
         "True if the scalar x is neither infinite nor NaN (always true for integers), or every "
         "component of a float vector, matrix or quaternion is.",
         false, rule_predicate, with().host()},
    };
}

#undef FLOAT1

}  // namespace treadle::builtins::entries
