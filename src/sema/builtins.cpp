// src/sema/builtins.cpp -- the builtin table and its type rules
#include "sema/builtins.h"

#include <cstring>
#include <initializer_list>
#include <map>

namespace treadle::sema {

const Type* unify_scalars(const std::vector<ArgInfo>& args, bool want_float) {
    const Type* strong = nullptr;
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
    if (!strong) return (any_weak_float || want_float) ? float32_type() : int32_type();
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

std::optional<Signature> same(const std::vector<ArgInfo>& args, size_t n, const Type* t,
                              const Type* ret) {
    if (!t || args.size() != n) return std::nullopt;
    return Signature{std::vector<const Type*>(n, t), ret ? ret : t};
}

std::optional<Signature> rule_float_unary(const std::vector<ArgInfo>& a) {
    const Type* t = unify_scalars(a, true);
    if (a.size() != 1 || !t || !t->is_float()) return std::nullopt;
    return same(a, 1, t, nullptr);
}

std::optional<Signature> rule_float_binary(const std::vector<ArgInfo>& a) {
    const Type* t = unify_scalars(a, true);
    if (a.size() != 2 || !t || !t->is_float()) return std::nullopt;
    return same(a, 2, t, nullptr);
}

std::optional<Signature> rule_numeric_unary(const std::vector<ArgInfo>& a) {
    const Type* t = unify_scalars(a);
    if (a.size() != 1 || !t || t->is_bool()) return std::nullopt;
    return same(a, 1, t, nullptr);
}

std::optional<Signature> rule_numeric_binary(const std::vector<ArgInfo>& a) {
    const Type* t = unify_scalars(a);
    if (a.size() != 2 || !t || t->is_bool()) return std::nullopt;
    return same(a, 2, t, nullptr);
}

std::optional<Signature> rule_numeric_ternary(const std::vector<ArgInfo>& a) {
    const Type* t = unify_scalars(a);
    if (a.size() != 3 || !t || t->is_bool()) return std::nullopt;
    return same(a, 3, t, nullptr);
}

std::optional<Signature> rule_int_unary(const std::vector<ArgInfo>& a) {
    const Type* t = unify_scalars(a);
    if (a.size() != 1 || !t || !t->is_integer()) return std::nullopt;
    return same(a, 1, t, nullptr);
}

std::optional<Signature> rule_int_binary(const std::vector<ArgInfo>& a) {
    const Type* t = unify_scalars(a);
    if (a.size() != 2 || !t || !t->is_integer()) return std::nullopt;
    return same(a, 2, t, nullptr);
}

std::optional<Signature> rule_bitwise(const std::vector<ArgInfo>& a) {
    const Type* t = unify_scalars(a);
    if (a.size() != 2 || !t || t->is_float()) return std::nullopt;
    return same(a, 2, t, nullptr);
}

std::optional<Signature> rule_predicate(const std::vector<ArgInfo>& a) {
    const Type* t = unify_scalars(a);
    if (a.size() != 1 || !t || t->is_bool()) return std::nullopt;
    return same(a, 1, t, bool_type());
}

std::optional<Signature> rule_compare(const std::vector<ArgInfo>& a) {
    const Type* t = unify_scalars(a);
    if (a.size() != 2 || !t) return std::nullopt;
    return same(a, 2, t, bool_type());
}

// --- vectors and matrices -------------------------------------------------------------------

/// Types with componentwise + and -, negation and scaling by a scalar.
bool is_math(const Type* t) { return t && (t->is_vector() || t->is_matrix() || t->is_quat()); }

/// A scalar argument that must take the element type `s` of a vector/matrix operand.
bool scalar_fits(const ArgInfo& a, ScalarType s) {
    if (!a.type || !a.type->is_scalar()) return false;
    if (!a.weak) return a.type->scalar == s;
    return unify_scalars({{scalar_type(s), false}, a}) == scalar_type(s);
}

std::optional<Signature> rule_add_sub(const std::vector<ArgInfo>& a) {
    if (a.size() == 2 && is_math(a[0].type) && a[0].type == a[1].type)
        return Signature{{a[0].type, a[1].type}, a[0].type};
    return rule_numeric_binary(a);
}

std::optional<Signature> rule_mul(const std::vector<ArgInfo>& a) {
    if (a.size() != 2) return std::nullopt;
    const Type *x = a[0].type, *y = a[1].type;
    if (is_math(x) && scalar_fits(a[1], x->scalar))
        return Signature{{x, scalar_type(x->scalar)}, x};
    if (is_math(y) && scalar_fits(a[0], y->scalar))
        return Signature{{scalar_type(y->scalar), y}, y};
    if (x && y && x->is_matrix() && y->is_vector() && x->scalar == y->scalar && x->cols == y->rows)
        return Signature{{x, y}, vector_type(x->rows, x->scalar)};
    if (x && y && x->is_vector() && y->is_matrix() && x->scalar == y->scalar && x->rows == y->rows)
        return Signature{{x, y}, vector_type(y->cols, x->scalar)};
    if (x && y && x->is_matrix() && y->is_matrix() && x->scalar == y->scalar && x->cols == y->rows)
        return Signature{{x, y}, matrix_type(x->rows, y->cols, x->scalar)};
    if (x && x == y && (x->is_quat() || x->is_transform()))  // Hamilton product, composition
        return Signature{{x, y}, x};
    return rule_numeric_binary(a);
}

std::optional<Signature> rule_matmul(const std::vector<ArgInfo>& a) {
    if (a.size() == 2 && a[0].type && a[1].type && !a[0].type->is_scalar() &&
        !a[1].type->is_scalar())
        return rule_mul(a);
    return std::nullopt;
}

std::optional<Signature> rule_div(const std::vector<ArgInfo>& a) {
    if (a.size() == 2 && is_math(a[0].type) && scalar_fits(a[1], a[0].type->scalar))
        return Signature{{a[0].type, scalar_type(a[0].type->scalar)}, a[0].type};
    return rule_numeric_binary(a);
}

std::optional<Signature> rule_negate(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && is_math(a[0].type)) return Signature{{a[0].type}, a[0].type};
    return rule_numeric_unary(a);
}

std::optional<Signature> rule_compare_any(const std::vector<ArgInfo>& a) {
    if (a.size() == 2 && is_math(a[0].type) && a[0].type == a[1].type)
        return Signature{{a[0].type, a[1].type}, bool_type()};
    return rule_compare(a);
}

std::optional<Signature> rule_vec_min_max(const std::vector<ArgInfo>& a) {
    if (a.size() == 2 && a[0].type && a[0].type->is_vector() && a[0].type == a[1].type)
        return Signature{{a[0].type, a[1].type}, a[0].type};
    return rule_numeric_binary(a);
}

std::optional<Signature> rule_vec_abs(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_vector())
        return Signature{{a[0].type}, a[0].type};
    return rule_numeric_unary(a);
}

/// One float vector argument (or two of the same type) giving a scalar / the same vector.
std::optional<Signature> rule_vec_to_scalar(const std::vector<ArgInfo>& a, size_t n) {
    if (a.size() != n || !a[0].type || !(a[0].type->is_vector() || a[0].type->is_quat()))
        return std::nullopt;
    for (const ArgInfo& x : a)
        if (x.type != a[0].type) return std::nullopt;
    return Signature{std::vector<const Type*>(n, a[0].type), scalar_type(a[0].type->scalar)};
}
std::optional<Signature> rule_dot(const std::vector<ArgInfo>& a) {
    return rule_vec_to_scalar(a, 2);
}
std::optional<Signature> rule_dot_self(const std::vector<ArgInfo>& a) {
    return rule_vec_to_scalar(a, 1);
}
std::optional<Signature> rule_length(const std::vector<ArgInfo>& a) {
    auto s = rule_vec_to_scalar(a, 1);
    if (s && !treadle::is_float(a[0].type->scalar)) return std::nullopt;
    return s;
}
std::optional<Signature> rule_normalize(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && (a[0].type->is_vector() || a[0].type->is_quat()) &&
        treadle::is_float(a[0].type->scalar))
        return Signature{{a[0].type}, a[0].type};
    return std::nullopt;
}
std::optional<Signature> rule_cross(const std::vector<ArgInfo>& a) {
    if (a.size() == 2 && a[0].type && a[0].type->is_vector() && a[0].type->rows == 3 &&
        a[0].type == a[1].type)
        return Signature{{a[0].type, a[1].type}, a[0].type};
    return std::nullopt;
}
std::optional<Signature> rule_cw(const std::vector<ArgInfo>& a) {
    if (a.size() == 2 && is_math(a[0].type) && a[0].type == a[1].type)
        return Signature{{a[0].type, a[1].type}, a[0].type};
    return std::nullopt;
}
std::optional<Signature> rule_outer(const std::vector<ArgInfo>& a) {
    if (a.size() == 2 && a[0].type && a[1].type && a[0].type->is_vector() &&
        a[1].type->is_vector() && a[0].type->scalar == a[1].type->scalar)
        return Signature{{a[0].type, a[1].type},
                         matrix_type(a[0].type->rows, a[1].type->rows, a[0].type->scalar)};
    return std::nullopt;
}
std::optional<Signature> rule_transpose(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_matrix())
        return Signature{{a[0].type},
                         matrix_type(a[0].type->cols, a[0].type->rows, a[0].type->scalar)};
    return std::nullopt;
}
std::optional<Signature> rule_square_to_scalar(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_matrix() && a[0].type->rows == a[0].type->cols)
        return Signature{{a[0].type}, scalar_type(a[0].type->scalar)};
    return std::nullopt;
}
std::optional<Signature> rule_determinant(const std::vector<ArgInfo>& a) {
    auto s = rule_square_to_scalar(a);
    if (s && (a[0].type->rows < 2 || a[0].type->rows > 4 || !treadle::is_float(a[0].type->scalar)))
        return std::nullopt;
    return s;
}
std::optional<Signature> rule_inverse(const std::vector<ArgInfo>& a) {
    if (!rule_determinant(a)) return std::nullopt;
    return Signature{{a[0].type}, a[0].type};
}
std::optional<Signature> rule_ddot(const std::vector<ArgInfo>& a) {
    if (a.size() == 2 && a[0].type && a[0].type->is_matrix() && a[0].type == a[1].type)
        return Signature{{a[0].type, a[1].type}, scalar_type(a[0].type->scalar)};
    return std::nullopt;
}
std::optional<Signature> rule_diag(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_vector())
        return Signature{{a[0].type},
                         matrix_type(a[0].type->rows, a[0].type->rows, a[0].type->scalar)};
    return std::nullopt;
}
std::optional<Signature> rule_mat_from(const std::vector<ArgInfo>& a, bool rows) {
    if (a.size() < 2 || a.size() > 4 || !a[0].type || !a[0].type->is_vector()) return std::nullopt;
    for (const ArgInfo& x : a)
        if (x.type != a[0].type) return std::nullopt;
    int n = (int)a.size(), len = a[0].type->rows;
    return Signature{
        std::vector<const Type*>(a.size(), a[0].type),
        rows ? matrix_type(n, len, a[0].type->scalar) : matrix_type(len, n, a[0].type->scalar)};
}
std::optional<Signature> rule_mat_from_rows(const std::vector<ArgInfo>& a) {
    return rule_mat_from(a, true);
}
std::optional<Signature> rule_mat_from_cols(const std::vector<ArgInfo>& a) {
    return rule_mat_from(a, false);
}

std::optional<Signature> rule_rand_init(const std::vector<ArgInfo>& a) {
    if (a.empty() || a.size() > 2) return std::nullopt;
    for (const ArgInfo& x : a)
        if (!x.type || !(x.type == int32_type() || (x.weak && x.type->is_integer())))
            return std::nullopt;
    return Signature{std::vector<const Type*>(a.size(), int32_type()),
                     scalar_type(ScalarType::UInt32)};
}

/// Draws from a generator state: the rule sees the arguments after the state. `counts` lists
/// how many arguments of type `arg` the draw accepts (randf: none, or low and high).
std::optional<Signature> draw(const std::vector<ArgInfo>& a, std::initializer_list<size_t> counts,
                              const Type* arg, const Type* ret) {
    bool count_ok = false;
    for (size_t n : counts) count_ok |= a.size() == n;
    if (!count_ok) return std::nullopt;
    for (const ArgInfo& x : a)
        if (!x.type || !(x.type == arg || (x.weak && unify_scalars({{arg, false}, x}) == arg)))
            return std::nullopt;
    return Signature{std::vector<const Type*>(a.size(), arg), ret};
}
std::optional<Signature> rule_randi(const std::vector<ArgInfo>& a) {
    return draw(a, {0, 2}, int32_type(), int32_type());
}
std::optional<Signature> rule_randu(const std::vector<ArgInfo>& a) {
    const Type* u32 = scalar_type(ScalarType::UInt32);
    return draw(a, {0, 2}, u32, u32);
}
std::optional<Signature> rule_randf(const std::vector<ArgInfo>& a) {
    return draw(a, {0, 2}, float32_type(), float32_type());
}
std::optional<Signature> rule_randn(const std::vector<ArgInfo>& a) {
    return draw(a, {0}, float32_type(), float32_type());
}
std::optional<Signature> rule_sample2(const std::vector<ArgInfo>& a) {
    return draw(a, {0}, float32_type(), vector_type(2, ScalarType::Float32));
}
std::optional<Signature> rule_sample3(const std::vector<ArgInfo>& a) {
    return draw(a, {0}, float32_type(), vector_type(3, ScalarType::Float32));
}
std::optional<Signature> rule_sample_cdf(const std::vector<ArgInfo>& a) {
    const Type* cdf = array_type(float32_type(), 1);
    if (a.size() != 1 || a[0].type != cdf) return std::nullopt;
    return Signature{{cdf}, int32_type()};
}
std::optional<Signature> rule_poisson(const std::vector<ArgInfo>& a) {
    return draw(a, {1}, float32_type(), scalar_type(ScalarType::UInt32));
}

/// The dimension of a noise point: 1 for float32, N for a float32 vecN (N <= 4), else 0.
int noise_point(const ArgInfo& a) {
    if (scalar_fits(a, ScalarType::Float32)) return 1;
    const Type* t = a.type;
    if (t && t->is_vector() && t->scalar == ScalarType::Float32 && t->rows >= 2 && t->rows <= 4)
        return t->rows;
    return 0;
}
const Type* noise_point_type(int n) {
    return n == 1 ? float32_type() : vector_type(n, ScalarType::Float32);
}
std::optional<Signature> rule_noise(const std::vector<ArgInfo>& a) {
    if (a.size() != 2 || !scalar_fits(a[0], ScalarType::UInt32)) return std::nullopt;
    int n = noise_point(a[1]);
    if (!n) return std::nullopt;
    return Signature{{scalar_type(ScalarType::UInt32), noise_point_type(n)}, float32_type()};
}
std::optional<Signature> rule_pnoise(const std::vector<ArgInfo>& a) {
    if (a.size() < 3 || !scalar_fits(a[0], ScalarType::UInt32)) return std::nullopt;
    int n = noise_point(a[1]);
    if (!n || a.size() != 2 + (size_t)n) return std::nullopt;
    Signature sig{{scalar_type(ScalarType::UInt32), noise_point_type(n)}, float32_type()};
    for (size_t i = 2; i < a.size(); ++i) {
        if (!scalar_fits(a[i], ScalarType::Int32)) return std::nullopt;
        sig.params.push_back(int32_type());
    }
    return sig;
}
/// curlnoise(state, point, octaves = 1, lacunarity = 2.0, gain = 0.5): the defaults live in
/// the native signature, so fewer arguments are passed through as given.
std::optional<Signature> rule_curlnoise(const std::vector<ArgInfo>& a) {
    if (a.size() < 2 || a.size() > 5 || !scalar_fits(a[0], ScalarType::UInt32)) return std::nullopt;
    int n = noise_point(a[1]);
    if (n < 2) return std::nullopt;
    Signature sig{{scalar_type(ScalarType::UInt32), noise_point_type(n)},
                  vector_type(n == 2 ? 2 : 3, ScalarType::Float32)};
    const ScalarType rest[3] = {ScalarType::UInt32, ScalarType::Float32, ScalarType::Float32};
    for (size_t i = 2; i < a.size(); ++i) {
        if (!scalar_fits(a[i], rest[i - 2])) return std::nullopt;
        sig.params.push_back(scalar_type(rest[i - 2]));
    }
    return sig;
}

/// Spatial builtins over float vectors of 6 ('s'), vec3 ('v'), mat33 ('m'), 6x6 ('M') and the
/// scalar ('f'), all of one float type taken from the first argument.
std::optional<Signature> spatial(const std::vector<ArgInfo>& a, const char* params, char ret) {
    if (a.size() != std::strlen(params) || !a[0].type || a[0].type->is_scalar() ||
        !treadle::is_float(a[0].type->scalar))
        return std::nullopt;
    ScalarType s = a[0].type->scalar;
    auto make = [s](char c) -> const Type* {
        switch (c) {
            case 's':
                return vector_type(6, s);
            case 'v':
                return vector_type(3, s);
            case 'm':
                return matrix_type(3, 3, s);
            case 'M':
                return matrix_type(6, 6, s);
            case 't':
                return transform_type(s);
            default:
                return scalar_type(s);
        }
    };
    Signature sig;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].type != make(params[i])) return std::nullopt;
        sig.params.push_back(a[i].type);
    }
    sig.ret = make(ret);
    return sig;
}
#define SPATIAL(fn, params, ret) \
    std::optional<Signature> fn(const std::vector<ArgInfo>& a) { return spatial(a, params, ret); }
SPATIAL(rule_spatial_part, "s", 'v')
SPATIAL(rule_spatial_dot, "ss", 'f')
SPATIAL(rule_spatial_cross, "ss", 's')
SPATIAL(rule_spatial_adjoint, "mm", 'M')
SPATIAL(rule_transform_spatial, "ts", 's')

/// spatial_jacobian(S: array(spatial_vector), parents: array(int32), qd_start: array(int32),
/// joint_start, joint_count, J_start: int32, J: array(float)) and spatial_mass(I_s:
/// array(spatial_matrix), joint_start, joint_count, M_start: int32, M: array(float)): one float
/// type throughout; the result is a dummy int32 (the builtins write their last array).
std::optional<Signature> articulation(const std::vector<ArgInfo>& a, bool jacobian) {
    const size_t n = jacobian ? 7 : 5;
    if (a.size() != n || !a[0].type || !a[0].type->is_array() || a[0].type->ndim != 1)
        return std::nullopt;
    const Type* elem = a[0].type->dtype;
    if (!treadle::is_float(elem->scalar) || elem->is_scalar()) return std::nullopt;
    if (jacobian ? elem != vector_type(6, elem->scalar) : elem != matrix_type(6, 6, elem->scalar))
        return std::nullopt;
    const Type* ints = array_type(int32_type(), 1);
    const Type* out = array_type(scalar_type(elem->scalar), 1);
    Signature sig;
    sig.params = jacobian ? std::vector<const Type*>{a[0].type,    ints,         ints, int32_type(),
                                                     int32_type(), int32_type(), out}
                          : std::vector<const Type*>{a[0].type, int32_type(), int32_type(),
                                                     int32_type(), out};
    for (size_t i = 0; i < n; ++i) {
        bool ok = a[i].type == sig.params[i] ||
                  (a[i].weak && sig.params[i] == int32_type() && a[i].type->is_integer());
        if (!ok) return std::nullopt;
    }
    sig.ret = int32_type();
    return sig;
}
std::optional<Signature> rule_spatial_jacobian(const std::vector<ArgInfo>& a) {
    return articulation(a, true);
}
std::optional<Signature> rule_spatial_mass(const std::vector<ArgInfo>& a) {
    return articulation(a, false);
}
#undef SPATIAL

/// Quaternion and transform builtins: argument kinds from a pattern over one float type.
/// 'q' quat, 't' transform, 'v' vec3, 'm' mat33, 's' scalar; the result likewise.
std::optional<Signature> rigid(const std::vector<ArgInfo>& a, const char* params, char ret) {
    if (a.size() != std::strlen(params)) return std::nullopt;
    std::optional<ScalarType> s;
    for (const ArgInfo& x : a)
        if (x.type && !x.weak && !x.type->is_scalar()) {
            s = x.type->scalar;
            break;
        }
    if (!s) {
        // only scalars (quat_rpy): their common type, float32 for literals alone
        const Type* t = unify_scalars(a, true);
        if (t) s = t->scalar;
    }
    if (!s || !treadle::is_float(*s)) return std::nullopt;
    auto make = [&](char c) -> const Type* {
        switch (c) {
            case 'q':
                return quat_type(*s);
            case 't':
                return transform_type(*s);
            case 'v':
                return vector_type(3, *s);
            case 'm':
                return matrix_type(3, 3, *s);
            default:
                return scalar_type(*s);
        }
    };
    Signature sig;
    for (size_t i = 0; i < a.size(); ++i) {
        const Type* want = make(params[i]);
        bool ok = a[i].type == want ||
                  (params[i] == 's' && a[i].weak && unify_scalars({{want, false}, a[i]}) == want);
        if (!ok) return std::nullopt;
        sig.params.push_back(want);
    }
    sig.ret = make(ret);
    return sig;
}
#define RIGID(fn, params, ret) \
    std::optional<Signature> fn(const std::vector<ArgInfo>& a) { return rigid(a, params, ret); }
RIGID(rule_q_from_axis_angle, "vs", 'q')
RIGID(rule_q_rotate, "qv", 'v')
RIGID(rule_q_to_q, "q", 'q')
RIGID(rule_q_to_matrix, "q", 'm')
RIGID(rule_q_from_matrix, "m", 'q')
RIGID(rule_q_slerp, "qqs", 'q')
RIGID(rule_q_rpy, "sss", 'q')
RIGID(rule_t_point, "tv", 'v')
RIGID(rule_t_t, "tt", 't')
RIGID(rule_t_to_t, "t", 't')
RIGID(rule_t_translation, "t", 'v')
RIGID(rule_t_rotation, "t", 'q')
RIGID(rule_t_from, "vq", 't')
#undef RIGID

/// svd3/qr3/eig3 (n = 3), svd2 (n = 2): one float32/float64 n x n matrix; the results from a
/// pattern ('m' the matrix type, 'v' a vector of n).
std::optional<Signature> decomposition(const std::vector<ArgInfo>& a, const char* results,
                                       int n = 3) {
    if (a.size() != 1 || !a[0].type || !a[0].type->is_matrix() || a[0].type->rows != n ||
        a[0].type->cols != n ||
        !(a[0].type->scalar == ScalarType::Float32 || a[0].type->scalar == ScalarType::Float64))
        return std::nullopt;
    std::vector<const Type*> out;
    for (const char* c = results; *c; ++c)
        out.push_back(*c == 'm' ? a[0].type : vector_type(n, a[0].type->scalar));
    return Signature{{a[0].type}, tuple_type(out)};
}
std::optional<Signature> rule_svd3(const std::vector<ArgInfo>& a) {
    return decomposition(a, "mvm");
}
std::optional<Signature> rule_svd2(const std::vector<ArgInfo>& a) {
    return decomposition(a, "mvm", 2);
}
std::optional<Signature> rule_qr3(const std::vector<ArgInfo>& a) { return decomposition(a, "mm"); }
std::optional<Signature> rule_eig3(const std::vector<ArgInfo>& a) { return decomposition(a, "mv"); }

std::optional<Signature> rule_q_to_axis_angle(const std::vector<ArgInfo>& a) {
    if (a.size() != 1 || !a[0].type || !a[0].type->is_quat()) return std::nullopt;
    ScalarType s = a[0].type->scalar;
    return Signature{{a[0].type}, tuple_type({vector_type(3, s), scalar_type(s)})};
}

std::optional<Signature> rule_skew(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_vector() && a[0].type->rows == 3)
        return Signature{{a[0].type}, matrix_type(3, 3, a[0].type->scalar)};
    return std::nullopt;
}

#define FLOAT1(n, doc)                                                                 \
    {                                                                                  \
        n, n, BuiltinKind::Regular, "Scalar Math", n "(x: Float) -> Float", doc, true, \
            rule_float_unary                                                           \
    }

const std::vector<Builtin>& table() {
    static const std::vector<Builtin> k_table = {
        // --- operators (reached through Python syntax) ---
        {"add", "add", BuiltinKind::Operator, "Operators", "a + b",
         "Addition (scalars, vectors, matrices).", true, rule_add_sub},
        {"sub", "sub", BuiltinKind::Operator, "Operators", "a - b",
         "Subtraction (scalars, vectors, matrices).", true, rule_add_sub},
        {"mul", "mul", BuiltinKind::Operator, "Operators", "a * b",
         "Multiplication: scalars; a vector or matrix by a scalar; matrix-vector and matrix-matrix "
         "products.",
         true, rule_mul},
        {"matmul", "mul", BuiltinKind::Operator, "Operators", "a @ b",
         "Matrix-vector and matrix-matrix products.", true, rule_matmul},
        {"div", "div", BuiltinKind::Operator, "Operators", "a / b",
         "Division; integers truncate toward zero and division by zero gives 0; a vector or matrix "
         "by a scalar.",
         true, rule_div},
        {"floordiv", "floordiv", BuiltinKind::Operator, "Operators", "a // b",
         "Floor division for floats (floor(a / b)); truncating division for integers (C rules).",
         true, rule_numeric_binary},
        {"mod", "mod", BuiltinKind::Operator, "Operators", "a % b",
         "Remainder: fmod for floats; for integers the sign follows the dividend (C rules).", true,
         rule_numeric_binary},
        {"pow", "pow", BuiltinKind::Regular, "Scalar Math", "pow(x: Float, y: Float) -> Float",
         "x raised to the power y (also the ** operator).", true, rule_float_binary},
        {"neg", "neg", BuiltinKind::Operator, "Operators", "-a", "Negation.", true, rule_negate},
        {"pos", "pos", BuiltinKind::Operator, "Operators", "+a", "Identity.", true, rule_negate},
        {"invert", "invert", BuiltinKind::Operator, "Operators", "~a", "Bitwise complement.", false,
         rule_int_unary},
        {"bit_and", "bit_and", BuiltinKind::Operator, "Operators", "a & b", "Bitwise and.", false,
         rule_bitwise},
        {"bit_or", "bit_or", BuiltinKind::Operator, "Operators", "a | b", "Bitwise or.", false,
         rule_bitwise},
        {"bit_xor", "bit_xor", BuiltinKind::Operator, "Operators", "a ^ b", "Bitwise exclusive or.",
         false, rule_bitwise},
        {"lshift", "lshift", BuiltinKind::Operator, "Operators", "a << b", "Left shift.", false,
         rule_int_binary},
        {"rshift", "rshift", BuiltinKind::Operator, "Operators", "a >> b", "Right shift.", false,
         rule_int_binary},
        {"compare", "compare", BuiltinKind::Compare, "Operators", "a < b, a == b, ...",
         "Comparison of two scalars of the same type; == and != also compare vectors and matrices.",
         false, rule_compare_any},
        // --- scalar math ---
        {"abs", "abs", BuiltinKind::Regular, "Scalar Math",
         "abs(x: Scalar | Vector) -> Scalar | Vector",
         "Absolute value (componentwise for vectors).", true, rule_vec_abs},
        {"min", "min", BuiltinKind::Regular, "Scalar Math",
         "min(a: Scalar | Vector, b: Scalar | Vector)",
         "The smaller of a and b (componentwise for vectors).", true, rule_vec_min_max},
        {"max", "max", BuiltinKind::Regular, "Scalar Math",
         "max(a: Scalar | Vector, b: Scalar | Vector)",
         "The larger of a and b (componentwise for vectors).", true, rule_vec_min_max},
        {"clamp", "clamp", BuiltinKind::Regular, "Scalar Math",
         "clamp(x: Scalar, low: Scalar, high: Scalar) -> Scalar",
         "x limited to the range [low, high].", true, rule_numeric_ternary},
        {"sign", "sign", BuiltinKind::Regular, "Scalar Math", "sign(x: Scalar) -> Scalar",
         "-1 if x < 0, else 1 (so sign(0) is 1).", true, rule_numeric_unary},
        FLOAT1("floor", "Largest integer not greater than x."),
        FLOAT1("ceil", "Smallest integer not less than x."),
        FLOAT1("round", "Nearest integer, halves rounded away from zero."),
        FLOAT1("rint", "Nearest integer, halves rounded to even."),
        FLOAT1("trunc", "x rounded toward zero."),
        FLOAT1("sqrt", "Square root."),
        FLOAT1("cbrt", "Cube root."),
        FLOAT1("exp", "e raised to the power x."),
        FLOAT1("log", "Natural logarithm."),
        FLOAT1("log2", "Base-2 logarithm."),
        FLOAT1("log10", "Base-10 logarithm."),
        FLOAT1("sin", "Sine (radians)."),
        FLOAT1("cos", "Cosine (radians)."),
        FLOAT1("tan", "Tangent (radians)."),
        FLOAT1("asin", "Arc sine."),
        FLOAT1("acos", "Arc cosine."),
        FLOAT1("atan", "Arc tangent."),
        {"atan2", "atan2", BuiltinKind::Regular, "Scalar Math",
         "atan2(y: Float, x: Float) -> Float",
         "Arc tangent of y / x using the signs of both to pick the quadrant.", true,
         rule_float_binary},
        FLOAT1("sinh", "Hyperbolic sine."),
        FLOAT1("cosh", "Hyperbolic cosine."),
        FLOAT1("tanh", "Hyperbolic tangent."),
        FLOAT1("degrees", "Radians converted to degrees."),
        FLOAT1("radians", "Degrees converted to radians."),
        {"isnan", "isnan", BuiltinKind::Regular, "Scalar Math", "isnan(x: Scalar) -> bool",
         "True if x is NaN.", false, rule_predicate},
        {"isinf", "isinf", BuiltinKind::Regular, "Scalar Math", "isinf(x: Scalar) -> bool",
         "True if x is infinite.", false, rule_predicate},
        {"isfinite", "isfinite", BuiltinKind::Regular, "Scalar Math", "isfinite(x: Scalar) -> bool",
         "True if x is neither infinite nor NaN.", false, rule_predicate},
        // --- vector and matrix math ---
        {"dot", "dot", BuiltinKind::Regular, "Vector Math", "dot(a: Vector, b: Vector) -> Scalar",
         "Dot product.", true, rule_dot},
        {"cross", "cross", BuiltinKind::Regular, "Vector Math", "cross(a: vec3, b: vec3) -> vec3",
         "Cross product.", true, rule_cross},
        {"length", "length", BuiltinKind::Regular, "Vector Math", "length(a: Vector) -> Float",
         "Euclidean length.", true, rule_length},
        {"length_sq", "length_sq", BuiltinKind::Regular, "Vector Math",
         "length_sq(a: Vector) -> Scalar", "Squared length.", true, rule_dot_self},
        {"normalize", "normalize", BuiltinKind::Regular, "Vector Math",
         "normalize(a: Vector) -> Vector", "a / length(a); the zero vector stays zero.", true,
         rule_normalize},
        {"outer", "outer", BuiltinKind::Regular, "Vector Math",
         "outer(a: Vector, b: Vector) -> Matrix", "Outer product a b^T.", true, rule_outer},
        {"cw_mul", "cw_mul", BuiltinKind::Regular, "Vector Math", "cw_mul(a, b)",
         "Componentwise product.", true, rule_cw},
        {"cw_div", "cw_div", BuiltinKind::Regular, "Vector Math", "cw_div(a, b)",
         "Componentwise division.", true, rule_cw},
        {"transpose", "transpose", BuiltinKind::Regular, "Vector Math",
         "transpose(m: Matrix) -> Matrix", "Matrix transpose.", true, rule_transpose},
        {"trace", "trace", BuiltinKind::Regular, "Vector Math", "trace(m: Matrix) -> Scalar",
         "Sum of the diagonal.", true, rule_square_to_scalar},
        {"determinant", "determinant", BuiltinKind::Regular, "Vector Math",
         "determinant(m: Matrix) -> Float", "Determinant (2x2 to 4x4).", true, rule_determinant},
        {"inverse", "inverse", BuiltinKind::Regular, "Vector Math", "inverse(m: Matrix) -> Matrix",
         "Inverse (2x2 to 4x4); a singular matrix gives zeros.", true, rule_inverse},
        {"ddot", "ddot", BuiltinKind::Regular, "Vector Math",
         "ddot(a: Matrix, b: Matrix) -> Scalar",
         "Double dot product (sum of componentwise products).", true, rule_ddot},
        {"diag", "diag", BuiltinKind::Regular, "Vector Math", "diag(v: Vector) -> Matrix",
         "Square matrix with v on the diagonal.", true, rule_diag},
        {"skew", "skew", BuiltinKind::Regular, "Vector Math", "skew(v: vec3) -> mat33",
         "Cross-product matrix of v.", true, rule_skew},
        {"matrix_from_rows", "mat_from_rows", BuiltinKind::Regular, "Vector Math",
         "matrix_from_rows(*rows: Vector) -> Matrix", "A matrix whose rows are the given vectors.",
         true, rule_mat_from_rows},
        {"matrix_from_cols", "mat_from_cols", BuiltinKind::Regular, "Vector Math",
         "matrix_from_cols(*cols: Vector) -> Matrix",
         "A matrix whose columns are the given vectors.", true, rule_mat_from_cols},
        {"svd3", "svd3", BuiltinKind::Multi, "Vector Math",
         "svd3(A: mat33) -> tuple(mat33, vec3, mat33)",
         "Singular value decomposition (U, sigma, V) with A = U diag(sigma) V^T: U and V "
         "rotations, |sigma| "
         "decreasing, sigma[2] with the sign of det(A). Also svd3(A, U, sigma, V) into local "
         "variables.",
         true, rule_svd3},
        {"svd2", "svd2", BuiltinKind::Multi, "Vector Math",
         "svd2(A: mat22) -> tuple(mat22, vec2, mat22)",
         "Singular value decomposition of a 2x2 matrix, sigma >= 0 and decreasing. Also svd2(A, U, "
         "sigma, V).",
         true, rule_svd2},
        {"qr3", "qr3", BuiltinKind::Multi, "Vector Math", "qr3(A: mat33) -> tuple(mat33, mat33)",
         "QR decomposition (Q, R) with A = Q R: Q a rotation, R upper triangular. Also qr3(A, Q, "
         "R).",
         true, rule_qr3},
        {"eig3", "eig3", BuiltinKind::Multi, "Vector Math", "eig3(A: mat33) -> tuple(mat33, vec3)",
         "Eigendecomposition (Q, d) of a symmetric matrix, A = Q diag(d) Q^T: Q a rotation of "
         "eigenvectors, d "
         "ascending. Also eig3(A, Q, d).",
         true, rule_eig3},
        {"identity", "identity", BuiltinKind::Identity, "Vector Math",
         "identity(n: int, dtype: Scalar) -> Matrix", "The n x n identity matrix (n a constant).",
         false, nullptr},
        {"where", "where", BuiltinKind::Where, "Utility",
         "where(cond, value_if_true, value_if_false)",
         "value_if_true when cond is true (non-zero), else value_if_false; both are evaluated.",
         true, nullptr},
        // --- quaternions and transforms ---
        {"quat_from_axis_angle", "quat_from_axis_angle", BuiltinKind::Regular, "Quaternion Math",
         "quat_from_axis_angle(axis: vec3, angle: Float) -> quat",
         "Rotation of `angle` radians about the unit `axis`.", true, rule_q_from_axis_angle},
        {"quat_to_axis_angle", "quat_to_axis_angle", BuiltinKind::Multi, "Quaternion Math",
         "quat_to_axis_angle(quat: quat) -> tuple(vec3, Float)",
         "The unit rotation axis and the angle in [0, pi] of the rotation quat.", true,
         rule_q_to_axis_angle},
        {"quat_rotate", "quat_rotate", BuiltinKind::Regular, "Quaternion Math",
         "quat_rotate(q: quat, v: vec3) -> vec3", "v rotated by the unit quaternion q.", true,
         rule_q_rotate},
        {"quat_rotate_inv", "quat_rotate_inv", BuiltinKind::Regular, "Quaternion Math",
         "quat_rotate_inv(q: quat, v: vec3) -> vec3", "v rotated by the inverse of q.", true,
         rule_q_rotate},
        {"quat_inverse", "quat_inverse", BuiltinKind::Regular, "Quaternion Math",
         "quat_inverse(q: quat) -> quat",
         "The conjugate (-x, -y, -z, w): the inverse of a unit quaternion.", true, rule_q_to_q},
        {"quat_to_matrix", "quat_to_matrix", BuiltinKind::Regular, "Quaternion Math",
         "quat_to_matrix(q: quat) -> mat33", "The rotation matrix of the unit quaternion q.", true,
         rule_q_to_matrix},
        {"quat_from_matrix", "quat_from_matrix", BuiltinKind::Regular, "Quaternion Math",
         "quat_from_matrix(m: mat33) -> quat", "The quaternion of a rotation matrix.", true,
         rule_q_from_matrix},
        {"quat_slerp", "quat_slerp", BuiltinKind::Regular, "Quaternion Math",
         "quat_slerp(a: quat, b: quat, t: Float) -> quat", "Spherical linear interpolation.", true,
         rule_q_slerp},
        {"quat_rpy", "quat_rpy", BuiltinKind::Regular, "Quaternion Math",
         "quat_rpy(roll: Float, pitch: Float, yaw: Float) -> quat",
         "Rotation from roll, pitch and yaw.", true, rule_q_rpy},
        // --- spatial vectors (float vectors of 6: angular part, then linear) ---
        {"spatial_top", "spatial_top", BuiltinKind::Regular, "Spatial Math",
         "spatial_top(svec: spatial_vector) -> vec3", "The angular (first three) components.", true,
         rule_spatial_part},
        {"spatial_bottom", "spatial_bottom", BuiltinKind::Regular, "Spatial Math",
         "spatial_bottom(svec: spatial_vector) -> vec3", "The linear (last three) components.",
         true, rule_spatial_part},
        {"spatial_dot", "spatial_dot", BuiltinKind::Regular, "Spatial Math",
         "spatial_dot(a: spatial_vector, b: spatial_vector) -> Float", "The 6-D dot product.", true,
         rule_spatial_dot},
        {"spatial_cross", "spatial_cross", BuiltinKind::Regular, "Spatial Math",
         "spatial_cross(a: spatial_vector, b: spatial_vector) -> spatial_vector",
         "Twist cross product (w_a x w_b, v_a x w_b + w_a x v_b).", true, rule_spatial_cross},
        {"spatial_cross_dual", "spatial_cross_dual", BuiltinKind::Regular, "Spatial Math",
         "spatial_cross_dual(a: spatial_vector, b: spatial_vector) -> spatial_vector",
         "Twist-wrench cross product (w x n + v x f, w x f).", true, rule_spatial_cross},
        {"spatial_adjoint", "spatial_adjoint", BuiltinKind::Regular, "Spatial Math",
         "spatial_adjoint(r: mat33, s: mat33) -> spatial_matrix",
         "The block matrix [[r, 0], [s, r]].", true, rule_spatial_adjoint},
        {"transform_twist", "transform_twist", BuiltinKind::Regular, "Spatial Math",
         "transform_twist(t: transform, x: spatial_vector) -> spatial_vector",
         "The twist x = (w, v) moved by t: (R w, R v + p x R w).", true, rule_transform_spatial},
        {"transform_wrench", "transform_wrench", BuiltinKind::Regular, "Spatial Math",
         "transform_wrench(t: transform, x: spatial_vector) -> spatial_vector",
         "The wrench x = (tau, f) moved by t: (R tau + p x R f, R f).", true,
         rule_transform_spatial},
        {"spatial_jacobian", "spatial_jacobian", BuiltinKind::Regular, "Spatial Math",
         "spatial_jacobian(S: array(spatial_vector), joint_parents: array(int32), joint_qd_start: "
         "array(int32), joint_start: int32, joint_count: int32, J_start: int32, J_out: "
         "array(float)) -> None",
         "Fills the spatial Jacobian of a kinematic chain into J_out (row block per joint, a "
         "column per dof).",
         true, rule_spatial_jacobian},
        {"spatial_mass", "spatial_mass", BuiltinKind::Regular, "Spatial Math",
         "spatial_mass(I_s: array(spatial_matrix), joint_start: int32, joint_count: int32, "
         "M_start: int32, M: array(float)) -> None",
         "Writes the joints' 6x6 inertias as the diagonal blocks of the chain's mass matrix M.",
         true, rule_spatial_mass},
        {"transform_point", "transform_point", BuiltinKind::Regular, "Transformations",
         "transform_point(t: transform, p: vec3) -> vec3", "p rotated and translated by t.", true,
         rule_t_point},
        {"transform_vector", "transform_vector", BuiltinKind::Regular, "Transformations",
         "transform_vector(t: transform, v: vec3) -> vec3", "v rotated by t (no translation).",
         true, rule_t_point},
        {"transform_multiply", "transform_multiply", BuiltinKind::Regular, "Transformations",
         "transform_multiply(a: transform, b: transform) -> transform", "The composition a * b.",
         true, rule_t_t},
        {"transform_inverse", "transform_inverse", BuiltinKind::Regular, "Transformations",
         "transform_inverse(t: transform) -> transform", "The inverse transform.", true,
         rule_t_to_t},
        {"transform_get_translation", "transform_get_translation", BuiltinKind::Regular,
         "Transformations", "transform_get_translation(t: transform) -> vec3",
         "The translation of t.", true, rule_t_translation},
        {"transform_get_rotation", "transform_get_rotation", BuiltinKind::Regular,
         "Transformations", "transform_get_rotation(t: transform) -> quat", "The rotation of t.",
         true, rule_t_rotation},
        {"quat_identity", "quat_identity", BuiltinKind::Identity, "Quaternion Math",
         "quat_identity(dtype: Float = float32) -> quat", "The quaternion (0, 0, 0, 1).", false,
         nullptr},
        {"transform_identity", "transform_identity", BuiltinKind::Identity, "Transformations",
         "transform_identity(dtype: Float = float32) -> transform", "The identity transform.",
         false, nullptr},
        // --- random numbers (PCG hash of Jarzynski & Olano, composed as Warp does) ---
        {"rand_init", "rand_init", BuiltinKind::Regular, "Random",
         "rand_init(seed: int32, offset: int32 = ...) -> uint32",
         "A random generator state from a seed (and an offset such as the thread index).", false,
         rule_rand_init},
        {"randi", "randi", BuiltinKind::Random, "Random",
         "randi(state: uint32, low: int32 = ..., high: int32 = ...) -> int32",
         "A random int32 (in [low, high) when given); advances state.", false, rule_randi},
        {"randu", "randu", BuiltinKind::Random, "Random",
         "randu(state: uint32, low: uint32 = ..., high: uint32 = ...) -> uint32",
         "A random uint32 (in [low, high) when given); advances state.", false, rule_randu},
        {"randf", "randf", BuiltinKind::Random, "Random",
         "randf(state: uint32, low: float32 = ..., high: float32 = ...) -> float32",
         "A random float32 in [0, 1) (or [low, high)); advances state.", false, rule_randf},
        {"randn", "randn", BuiltinKind::Random, "Random", "randn(state: uint32) -> float32",
         "A standard normal float32; advances state.", false, rule_randn},
        {"sample_triangle", "sample_triangle", BuiltinKind::Random, "Random",
         "sample_triangle(state: uint32) -> vec2",
         "Uniform barycentric coordinates (u, v) of a point in a triangle (w = 1 - u - v); "
         "advances state.",
         false, rule_sample2},
        {"sample_unit_ring", "sample_unit_ring", BuiltinKind::Random, "Random",
         "sample_unit_ring(state: uint32) -> vec2",
         "A uniform point on the unit circle; advances state.", false, rule_sample2},
        {"sample_unit_disk", "sample_unit_disk", BuiltinKind::Random, "Random",
         "sample_unit_disk(state: uint32) -> vec2",
         "A uniform point in the unit disk; advances state.", false, rule_sample2},
        {"sample_unit_sphere_surface", "sample_unit_sphere_surface", BuiltinKind::Random, "Random",
         "sample_unit_sphere_surface(state: uint32) -> vec3",
         "A uniform point on the unit sphere; advances state.", false, rule_sample3},
        {"sample_unit_sphere", "sample_unit_sphere", BuiltinKind::Random, "Random",
         "sample_unit_sphere(state: uint32) -> vec3",
         "A uniform point in the unit ball; advances state.", false, rule_sample3},
        {"sample_unit_hemisphere_surface", "sample_unit_hemisphere_surface", BuiltinKind::Random,
         "Random", "sample_unit_hemisphere_surface(state: uint32) -> vec3",
         "A uniform point on the unit hemisphere (z >= 0); advances state.", false, rule_sample3},
        {"sample_unit_hemisphere", "sample_unit_hemisphere", BuiltinKind::Random, "Random",
         "sample_unit_hemisphere(state: uint32) -> vec3",
         "A uniform point in the unit half ball (z >= 0); advances state.", false, rule_sample3},
        {"sample_unit_square", "sample_unit_square", BuiltinKind::Random, "Random",
         "sample_unit_square(state: uint32) -> vec2",
         "A uniform point in the square [-0.5, 0.5)^2; advances state.", false, rule_sample2},
        {"sample_unit_cube", "sample_unit_cube", BuiltinKind::Random, "Random",
         "sample_unit_cube(state: uint32) -> vec3",
         "A uniform point in the cube [-0.5, 0.5)^3; advances state.", false, rule_sample3},
        {"sample_cdf", "sample_cdf", BuiltinKind::Random, "Random",
         "sample_cdf(state: uint32, cdf: array(dtype=float32)) -> int32",
         "The index of the first entry of a normalised, non-decreasing CDF that is >= one uniform "
         "draw; advances state.",
         false, rule_sample_cdf},
        {"poisson", "poisson", BuiltinKind::Random, "Random",
         "poisson(state: uint32, lam: float32) -> uint32",
         "A Poisson-distributed count with mean lam (no draw when lam is 0); advances state.",
         false, rule_poisson},
        {"noise", "noise", BuiltinKind::Regular, "Random",
         "noise(state: uint32, x: float32 | vec2 | vec3 | vec4) -> float32",
         "Perlin noise of the field `state` selects (not advanced); 0 at lattice points.", true,
         rule_noise},
        {"pnoise", "pnoise", BuiltinKind::Regular, "Random",
         "pnoise(state: uint32, x: float32 | vec2 | vec3 | vec4, px: int32, ...) -> float32",
         "Perlin noise repeating every px, py, ... cells (one period per axis).", true,
         rule_pnoise},
        {"curlnoise", "curlnoise", BuiltinKind::Regular, "Random",
         "curlnoise(state: uint32, x: vec2 | vec3 | vec4, octaves: uint32 = 1, lacunarity: float32 "
         "= 2.0, gain: float32 = 0.5) -> vec2 | vec3",
         "Divergence-free noise: the curl of Perlin noise summed over octaves.", true,
         rule_curlnoise},
        // --- lowered by dedicated code ---
        {"tid", "tid_unravel", BuiltinKind::Tid, "Utility", "tid() -> int | tuple(int, ...)",
         "The index of the current thread; unpack one index per launch dimension.", false, nullptr},
        {"print", "print", BuiltinKind::Print, "Utility", "print(value)",
         "Prints a value and a newline.", false, nullptr},
        {"printf", "printf", BuiltinKind::Printf, "Utility", "printf(fmt: str, *args)",
         "C-style formatted printing.", false, nullptr},
        {"len", "len", BuiltinKind::Len, "Utility", "len(a: array) -> int",
         "Size of the first dimension.", false, nullptr},
        {"atomic_add", "atomic_add", BuiltinKind::Atomic, "Utility",
         "atomic_add(a: array, i..., value) -> Scalar",
         "Atomically adds value to a[i...] and returns the old value.", true, nullptr},
        {"atomic_sub", "atomic_sub", BuiltinKind::Atomic, "Utility",
         "atomic_sub(a: array, i..., value) -> Scalar",
         "Atomically subtracts value from a[i...] and returns the old value.", true, nullptr},
        {"atomic_min", "atomic_min", BuiltinKind::Atomic, "Utility",
         "atomic_min(a: array, i..., value) -> Scalar",
         "Atomically stores min(a[i...], value) and returns the old value.", true, nullptr},
        {"atomic_max", "atomic_max", BuiltinKind::Atomic, "Utility",
         "atomic_max(a: array, i..., value) -> Scalar",
         "Atomically stores max(a[i...], value) and returns the old value.", true, nullptr},
        {"atomic_exch", "atomic_exch", BuiltinKind::Atomic, "Utility",
         "atomic_exch(a: array, i..., value) -> Scalar",
         "Atomically stores value in a[i...] and returns the old value (4- and 8-byte scalars).",
         true, nullptr},
        {"atomic_cas", "atomic_cas", BuiltinKind::Atomic, "Utility",
         "atomic_cas(a: array, i..., compare, value) -> Scalar",
         "Atomically stores value in a[i...] if it equals compare (bit for bit); returns the old "
         "value "
         "(4- and 8-byte scalars).",
         false, nullptr},
    };
    return k_table;
}

}  // namespace

const std::vector<Builtin>& builtin_table() { return table(); }

bool builtin_writes_arguments(const Builtin& b) {
    return b.kind == BuiltinKind::Random || b.kind == BuiltinKind::Multi;
}

const Builtin* find_builtin(std::string_view name) {
    static const std::map<std::string, const Builtin*, std::less<>> k_index = [] {
        std::map<std::string, const Builtin*, std::less<>> m;
        for (const Builtin& b : table())
            if (b.kind != BuiltinKind::Operator && b.kind != BuiltinKind::Compare) m[b.name] = &b;
        return m;
    }();
    auto it = k_index.find(name);
    return it == k_index.end() ? nullptr : it->second;
}

const Builtin* find_operator(std::string_view name) {
    for (const Builtin& b : table())
        if (name == b.name) return &b;
    return nullptr;
}

}  // namespace treadle::sema
