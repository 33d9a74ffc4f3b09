// src/builtins/rules.cpp -- the type rules of the builtins: argument types to a signature
#include "builtins/rules.h"

#include <cstring>
#include <initializer_list>

namespace treadle::builtins::rules {

std::optional<Signature> same(const std::vector<ArgInfo>& args, size_t n, const types::Type* t,
                              const types::Type* ret) {
    if (!t || args.size() != n) return std::nullopt;
    return Signature{std::vector<const types::Type*>(n, t), ret ? ret : t};
}

std::optional<Signature> rule_float_unary(const std::vector<ArgInfo>& a) {
    const types::Type* t = unify_scalars(a, true);
    if (a.size() != 1 || !t || !t->is_float()) return std::nullopt;
    return same(a, 1, t, nullptr);
}

std::optional<Signature> rule_float_binary(const std::vector<ArgInfo>& a) {
    const types::Type* t = unify_scalars(a, true);
    if (a.size() != 2 || !t || !t->is_float()) return std::nullopt;
    return same(a, 2, t, nullptr);
}

std::optional<Signature> rule_numeric_unary(const std::vector<ArgInfo>& a) {
    const types::Type* t = unify_scalars(a);
    if (a.size() != 1 || !t || t->is_bool()) return std::nullopt;
    return same(a, 1, t, nullptr);
}

std::optional<Signature> rule_numeric_binary(const std::vector<ArgInfo>& a) {
    const types::Type* t = unify_scalars(a);
    if (a.size() != 2 || !t || t->is_bool()) return std::nullopt;
    return same(a, 2, t, nullptr);
}

std::optional<Signature> rule_numeric_ternary(const std::vector<ArgInfo>& a) {
    const types::Type* t = unify_scalars(a);
    if (a.size() != 3 || !t || t->is_bool()) return std::nullopt;
    return same(a, 3, t, nullptr);
}

/// The integer vector or matrix type every argument has (the bitwise operators apply to such
/// composites component by component), else null.
const types::Type* same_int_composite(const std::vector<ArgInfo>& a) {
    if (a.empty() || !(a[0].type->is_vector() || a[0].type->is_matrix()) ||
        !treadle::is_integer(a[0].type->scalar))
        return nullptr;
    for (const ArgInfo& x : a)
        if (x.type != a[0].type) return nullptr;
    return a[0].type;
}

std::optional<Signature> rule_int_unary(const std::vector<ArgInfo>& a) {
    if (const types::Type* c = same_int_composite(a)) return same(a, 1, c, nullptr);
    const types::Type* t = unify_scalars(a);
    if (a.size() != 1 || !t || !t->is_integer()) return std::nullopt;
    return same(a, 1, t, nullptr);
}

std::optional<Signature> rule_int_binary(const std::vector<ArgInfo>& a) {
    if (const types::Type* c = same_int_composite(a)) return same(a, 2, c, nullptr);
    const types::Type* t = unify_scalars(a);
    if (a.size() != 2 || !t || !t->is_integer()) return std::nullopt;
    return same(a, 2, t, nullptr);
}

std::optional<Signature> rule_bitwise(const std::vector<ArgInfo>& a) {
    // two integer tiles of one type, element by element (native/treadle/tile.h)
    if (a.size() == 2 && a[0].type && a[0].type->is_tile() && a[0].type == a[1].type) {
        const types::Type* e = a[0].type->dtype;
        if ((e->is_scalar() || e->is_vector() || e->is_matrix()) && treadle::is_integer(e->scalar))
            return Signature{{a[0].type, a[1].type}, a[0].type};
        return std::nullopt;
    }
    if (const types::Type* c = same_int_composite(a)) return same(a, 2, c, nullptr);
    const types::Type* t = unify_scalars(a);
    if (a.size() != 2 || !t || t->is_float()) return std::nullopt;
    return same(a, 2, t, nullptr);
}

std::optional<Signature> rule_predicate(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && is_math(a[0].type) && treadle::is_float(a[0].type->scalar))
        return Signature{{a[0].type}, types::bool_type()};
    const types::Type* t = unify_scalars(a);
    if (a.size() != 1 || !t || t->is_bool()) return std::nullopt;
    return same(a, 1, t, types::bool_type());
}

std::optional<Signature> rule_compare(const std::vector<ArgInfo>& a) {
    const types::Type* t = unify_scalars(a);
    if (a.size() != 2 || !t) return std::nullopt;
    return same(a, 2, t, types::bool_type());
}

// --- vectors and matrices -------------------------------------------------------------------

/// Types with componentwise + and -, negation and scaling by a scalar.
bool is_math(const types::Type* t) {
    return t && (t->is_vector() || t->is_matrix() || t->is_quat());
}

/// A scalar argument that must take the element type `s` of a vector/matrix operand.
bool scalar_fits(const ArgInfo& a, ScalarType s) {
    if (!a.type || !a.type->is_scalar()) return false;
    if (!a.weak) return a.type->scalar == s;
    return unify_scalars({{types::scalar_type(s), false}, a}) == types::scalar_type(s);
}

namespace {
using ElementRule = std::optional<Signature> (*)(const std::vector<ArgInfo>&);

/// The elementwise forms of +, -, *, / with tiles (native/treadle/tile.h): two tiles of one
/// shape, or a tile and a value (either order), one of whose element types is a scalar for *
/// and / (tile<vec3> * 2.0, mat22 * tile<float>); the result holds what `element` gives for
/// the elements. `same_type`: + and -, whose tiles have one type.
std::optional<Signature> tile_elementwise(const std::vector<ArgInfo>& a, ElementRule element,
                                          bool same_type) {
    if (a.size() != 2 || !a[0].type || !a[1].type) return std::nullopt;
    const types::Type *x = a[0].type, *y = a[1].type;
    if (!x->is_tile() && !y->is_tile()) return std::nullopt;
    if (same_type) {
        if (x == y) return Signature{{x, y}, x};
        return std::nullopt;
    }
    if (x->is_tile() && y->is_tile() && x->shape != y->shape) return std::nullopt;
    ArgInfo ex = x->is_tile() ? ArgInfo{x->dtype, false} : a[0];
    ArgInfo ey = y->is_tile() ? ArgInfo{y->dtype, false} : a[1];
    if (!ex.type->is_scalar() && !ey.type->is_scalar()) return std::nullopt;
    auto sig = element({ex, ey});
    if (!sig || !sig->ret || !sig->ret->is_value()) return std::nullopt;
    const types::Type* shape = x->is_tile() ? x : y;
    const types::Type* px = x->is_tile() ? types::tile_like(x, sig->params[0]) : sig->params[0];
    const types::Type* py = y->is_tile() ? types::tile_like(y, sig->params[1]) : sig->params[1];
    if ((x->is_tile() && px != x) || (y->is_tile() && py != y)) return std::nullopt;
    return Signature{{px, py}, types::tile_like(shape, sig->ret)};
}
}  // namespace

bool is_object_id(const ArgInfo& a) {
    return a.type && a.type->is_integer() &&
           (a.type->scalar == ScalarType::UInt64 || a.type->scalar == ScalarType::Int64 || a.weak);
}

std::optional<Signature> rule_add_sub(const std::vector<ArgInfo>& a) {
    if (auto tiles = tile_elementwise(a, rule_add_sub, true)) return tiles;
    if (a.size() == 2 && a[0].type && (is_math(a[0].type) || a[0].type->is_transform()) &&
        a[0].type == a[1].type)
        return Signature{{a[0].type, a[1].type}, a[0].type};
    return rule_numeric_binary(a);
}

std::optional<Signature> rule_mul(const std::vector<ArgInfo>& a) {
    if (a.size() != 2) return std::nullopt;
    if (a[0].type && a[1].type && (a[0].type->is_tile() || a[1].type->is_tile()))
        return tile_elementwise(a, rule_mul, false);
    const types::Type *x = a[0].type, *y = a[1].type;
    auto scalable = [](const types::Type* t) { return is_math(t) || (t && t->is_transform()); };
    if (scalable(x) && scalar_fits(a[1], x->scalar))
        return Signature{{x, types::scalar_type(x->scalar)}, x};
    if (scalable(y) && scalar_fits(a[0], y->scalar))
        return Signature{{types::scalar_type(y->scalar), y}, y};
    if (x && y && x->is_matrix() && y->is_vector() && x->scalar == y->scalar && x->cols == y->rows)
        return Signature{{x, y}, types::vector_type(x->rows, x->scalar)};
    if (x && y && x->is_vector() && y->is_matrix() && x->scalar == y->scalar && x->rows == y->rows)
        return Signature{{x, y}, types::vector_type(y->cols, x->scalar)};
    if (x && y && x->is_matrix() && y->is_matrix() && x->scalar == y->scalar && x->cols == y->rows)
        return Signature{{x, y}, types::matrix_type(x->rows, y->cols, x->scalar)};
    if (x && x == y && (x->is_quat() || x->is_transform()))  // Hamilton product, composition
        return Signature{{x, y}, x};
    return rule_numeric_binary(a);
}

std::optional<Signature> rule_matmul(const std::vector<ArgInfo>& a) {
    if (a.size() == 2 && a[0].type && a[1].type && !a[0].type->is_scalar() &&
        !a[1].type->is_scalar() && !a[0].type->is_tile() && !a[1].type->is_tile())
        return rule_mul(a);
    return std::nullopt;
}

std::optional<Signature> rule_div(const std::vector<ArgInfo>& a) {
    if (a.size() == 2 && a[0].type && a[1].type && (a[0].type->is_tile() || a[1].type->is_tile()))
        return tile_elementwise(a, rule_div, false);
    if (a.size() == 2 && is_math(a[0].type) && scalar_fits(a[1], a[0].type->scalar))
        return Signature{{a[0].type, types::scalar_type(a[0].type->scalar)}, a[0].type};
    if (a.size() == 2 && is_math(a[1].type) && scalar_fits(a[0], a[1].type->scalar))
        return Signature{{types::scalar_type(a[1].type->scalar), a[1].type}, a[1].type};
    return rule_numeric_binary(a);
}

/// div_approx(a, b): the float forms of `/`.
std::optional<Signature> rule_div_approx(const std::vector<ArgInfo>& a) {
    auto sig = rule_div(a);
    if (!sig || !sig->ret || !treadle::is_float(sig->ret->scalar)) return std::nullopt;
    return sig;
}

std::optional<Signature> rule_negate(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_tile())
        return Signature{{a[0].type}, a[0].type};
    if (a.size() == 1 && is_math(a[0].type)) return Signature{{a[0].type}, a[0].type};
    return rule_numeric_unary(a);
}

std::optional<Signature> rule_compare_any(const std::vector<ArgInfo>& a) {
    if (a.size() == 2 && is_math(a[0].type) && a[0].type == a[1].type)
        return Signature{{a[0].type, a[1].type}, types::bool_type()};
    return rule_compare(a);
}

std::optional<Signature> rule_vec_min_max(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_vector())  // min(v): the smallest component
        return Signature{{a[0].type}, types::scalar_type(a[0].type->scalar)};
    if (a.size() == 2 && a[0].type && a[0].type->is_vector() && a[0].type == a[1].type)
        return Signature{{a[0].type, a[1].type}, a[0].type};
    return rule_numeric_binary(a);
}

std::optional<Signature> rule_vec_arg_extremum(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_vector())
        return Signature{{a[0].type}, types::scalar_type(ScalarType::UInt32)};
    return std::nullopt;
}

std::optional<Signature> rule_vec_binary(const std::vector<ArgInfo>& a) {
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
    return Signature{std::vector<const types::Type*>(n, a[0].type),
                     types::scalar_type(a[0].type->scalar)};
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
                         types::matrix_type(a[0].type->rows, a[1].type->rows, a[0].type->scalar)};
    return std::nullopt;
}
std::optional<Signature> rule_transpose(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_matrix())
        return Signature{{a[0].type},
                         types::matrix_type(a[0].type->cols, a[0].type->rows, a[0].type->scalar)};
    return std::nullopt;
}
std::optional<Signature> rule_square_to_scalar(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_matrix() && a[0].type->rows == a[0].type->cols)
        return Signature{{a[0].type}, types::scalar_type(a[0].type->scalar)};
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
        return Signature{{a[0].type, a[1].type}, types::scalar_type(a[0].type->scalar)};
    return std::nullopt;
}
std::optional<Signature> rule_diag(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_vector())
        return Signature{{a[0].type},
                         types::matrix_type(a[0].type->rows, a[0].type->rows, a[0].type->scalar)};
    return std::nullopt;
}
std::optional<Signature> rule_mat_from(const std::vector<ArgInfo>& a, bool rows) {
    if (a.empty() || a.size() > 4 || !a[0].type || !a[0].type->is_vector()) return std::nullopt;
    for (const ArgInfo& x : a)
        if (x.type != a[0].type) return std::nullopt;
    int n = (int)a.size(), len = a[0].type->rows;
    return Signature{std::vector<const types::Type*>(a.size(), a[0].type),
                     rows ? types::matrix_type(n, len, a[0].type->scalar)
                          : types::matrix_type(len, n, a[0].type->scalar)};
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
        if (!x.type || !(x.type == types::int32_type() || (x.weak && x.type->is_integer())))
            return std::nullopt;
    return Signature{std::vector<const types::Type*>(a.size(), types::int32_type()),
                     types::scalar_type(ScalarType::UInt32)};
}

/// Draws from a generator state: the rule sees the arguments after the state. `counts` lists
/// how many arguments of type `arg` the draw accepts (randf: none, or low and high).
std::optional<Signature> draw(const std::vector<ArgInfo>& a, std::initializer_list<size_t> counts,
                              const types::Type* arg, const types::Type* ret) {
    bool count_ok = false;
    for (size_t n : counts) count_ok |= a.size() == n;
    if (!count_ok) return std::nullopt;
    for (const ArgInfo& x : a)
        if (!x.type || !(x.type == arg || (x.weak && unify_scalars({{arg, false}, x}) == arg)))
            return std::nullopt;
    return Signature{std::vector<const types::Type*>(a.size(), arg), ret};
}
std::optional<Signature> rule_randi(const std::vector<ArgInfo>& a) {
    return draw(a, {0, 2}, types::int32_type(), types::int32_type());
}
std::optional<Signature> rule_randu(const std::vector<ArgInfo>& a) {
    const types::Type* u32 = types::scalar_type(ScalarType::UInt32);
    return draw(a, {0, 2}, u32, u32);
}
std::optional<Signature> rule_randf(const std::vector<ArgInfo>& a) {
    return draw(a, {0, 2}, types::float32_type(), types::float32_type());
}
std::optional<Signature> rule_randn(const std::vector<ArgInfo>& a) {
    return draw(a, {0}, types::float32_type(), types::float32_type());
}
std::optional<Signature> rule_sample2(const std::vector<ArgInfo>& a) {
    return draw(a, {0}, types::float32_type(), types::vector_type(2, ScalarType::Float32));
}
std::optional<Signature> rule_sample3(const std::vector<ArgInfo>& a) {
    return draw(a, {0}, types::float32_type(), types::vector_type(3, ScalarType::Float32));
}
std::optional<Signature> rule_sample_cdf(const std::vector<ArgInfo>& a) {
    const types::Type* cdf = types::array_type(types::float32_type(), 1);
    if (a.size() != 1 || a[0].type != cdf) return std::nullopt;
    return Signature{{cdf}, types::int32_type()};
}
std::optional<Signature> rule_poisson(const std::vector<ArgInfo>& a) {
    return draw(a, {1}, types::float32_type(), types::scalar_type(ScalarType::UInt32));
}

/// The dimension of a noise point: 1 for float32, N for a float32 vecN (N <= 4), else 0.
int noise_point(const ArgInfo& a) {
    if (scalar_fits(a, ScalarType::Float32)) return 1;
    const types::Type* t = a.type;
    if (t && t->is_vector() && t->scalar == ScalarType::Float32 && t->rows >= 2 && t->rows <= 4)
        return t->rows;
    return 0;
}
const types::Type* noise_point_type(int n) {
    return n == 1 ? types::float32_type() : types::vector_type(n, ScalarType::Float32);
}
std::optional<Signature> rule_noise(const std::vector<ArgInfo>& a) {
    if (a.size() != 2 || !scalar_fits(a[0], ScalarType::UInt32)) return std::nullopt;
    int n = noise_point(a[1]);
    if (!n) return std::nullopt;
    return Signature{{types::scalar_type(ScalarType::UInt32), noise_point_type(n)},
                     types::float32_type()};
}
std::optional<Signature> rule_pnoise(const std::vector<ArgInfo>& a) {
    if (a.size() < 3 || !scalar_fits(a[0], ScalarType::UInt32)) return std::nullopt;
    int n = noise_point(a[1]);
    if (!n || a.size() != 2 + (size_t)n) return std::nullopt;
    Signature sig{{types::scalar_type(ScalarType::UInt32), noise_point_type(n)},
                  types::float32_type()};
    for (size_t i = 2; i < a.size(); ++i) {
        if (!scalar_fits(a[i], ScalarType::Int32)) return std::nullopt;
        sig.params.push_back(types::int32_type());
    }
    return sig;
}
/// curlnoise(state, point, octaves = 1, lacunarity = 2.0, gain = 0.5): the defaults live in
/// the native signature, so fewer arguments are passed through as given.
std::optional<Signature> rule_curlnoise(const std::vector<ArgInfo>& a) {
    if (a.size() < 2 || a.size() > 5 || !scalar_fits(a[0], ScalarType::UInt32)) return std::nullopt;
    int n = noise_point(a[1]);
    if (n < 2) return std::nullopt;
    Signature sig{{types::scalar_type(ScalarType::UInt32), noise_point_type(n)},
                  types::vector_type(n == 2 ? 2 : 3, ScalarType::Float32)};
    const ScalarType rest[3] = {ScalarType::UInt32, ScalarType::Float32, ScalarType::Float32};
    for (size_t i = 2; i < a.size(); ++i) {
        if (!scalar_fits(a[i], rest[i - 2])) return std::nullopt;
        sig.params.push_back(types::scalar_type(rest[i - 2]));
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
    auto make = [s](char c) -> const types::Type* {
        switch (c) {
            case 's':
                return types::vector_type(6, s);
            case 'v':
                return types::vector_type(3, s);
            case 'm':
                return types::matrix_type(3, 3, s);
            case 'M':
                return types::matrix_type(6, 6, s);
            case 't':
                return types::transform_type(s);
            default:
                return types::scalar_type(s);
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
SPATIAL(rule_velocity_at_point, "sv", 'v')

/// spatial_jacobian(S: array(spatial_vector), parents: array(int32), qd_start: array(int32),
/// joint_start, joint_count, J_start: int32, J: array(float)) and spatial_mass(I_s:
/// array(spatial_matrix), joint_start, joint_count, M_start: int32, M: array(float)): one float
/// type throughout; the result is a dummy int32 (the builtins write their last array).
std::optional<Signature> articulation(const std::vector<ArgInfo>& a, bool jacobian) {
    const size_t n = jacobian ? 7 : 5;
    if (a.size() != n || !a[0].type || !a[0].type->is_array() || a[0].type->ndim != 1)
        return std::nullopt;
    const types::Type* elem = a[0].type->dtype;
    if (!treadle::is_float(elem->scalar) || elem->is_scalar()) return std::nullopt;
    if (jacobian ? elem != types::vector_type(6, elem->scalar)
                 : elem != types::matrix_type(6, 6, elem->scalar))
        return std::nullopt;
    const types::Type* ints = types::array_type(types::int32_type(), 1);
    const types::Type* out = types::array_type(types::scalar_type(elem->scalar), 1);
    Signature sig;
    sig.params =
        jacobian ? std::vector<const types::Type*>{a[0].type,
                                                   ints,
                                                   ints,
                                                   types::int32_type(),
                                                   types::int32_type(),
                                                   types::int32_type(),
                                                   out}
                 : std::vector<const types::Type*>{a[0].type, types::int32_type(),
                                                   types::int32_type(), types::int32_type(), out};
    for (size_t i = 0; i < n; ++i) {
        bool ok = a[i].type == sig.params[i] ||
                  (a[i].weak && sig.params[i] == types::int32_type() && a[i].type->is_integer());
        if (!ok) return std::nullopt;
    }
    sig.ret = types::int32_type();
    return sig;
}
std::optional<Signature> rule_spatial_jacobian(const std::vector<ArgInfo>& a) {
    return articulation(a, true);
}
std::optional<Signature> rule_spatial_mass(const std::vector<ArgInfo>& a) {
    return articulation(a, false);
}
#undef SPATIAL

/// lower_bound(arr, value) and lower_bound(arr, arr_begin, arr_end, value): a 1-D array of
/// scalars and a value of its element type (bounds int32).
std::optional<Signature> rule_lower_bound(const std::vector<ArgInfo>& a) {
    if (a.size() != 2 && a.size() != 4) return std::nullopt;
    const types::Type* arr = a[0].type;
    if (!arr || !arr->is_array() || arr->indexed || arr->fabric || arr->ndim != 1 ||
        !arr->dtype->is_scalar() || arr->dtype->is_bool())
        return std::nullopt;
    Signature sig{{arr}, types::int32_type()};
    for (size_t i = 1; i + 1 < a.size(); ++i) {
        if (!scalar_fits(a[i], ScalarType::Int32) || !a[i].type->is_integer()) return std::nullopt;
        sig.params.push_back(types::int32_type());
    }
    if (!scalar_fits(a.back(), arr->dtype->scalar)) return std::nullopt;
    sig.params.push_back(arr->dtype);
    return sig;
}

/// Warp's dense-matrix routines (dense_gemm, dense_chol, dense_subs, dense_solve) over flat
/// float32 arrays: 'i' int32, 'f' float32, 'A' a 1-D float32 array; the result is a dummy int32
/// (they write their last array).
std::optional<Signature> dense(const std::vector<ArgInfo>& a, const char* params) {
    if (a.size() != std::strlen(params)) return std::nullopt;
    Signature sig;
    for (size_t i = 0; i < a.size(); ++i) {
        const types::Type* want = params[i] == 'i'   ? types::int32_type()
                                  : params[i] == 'f' ? types::float32_type()
                                                     : types::array_type(types::float32_type(), 1);
        const bool ok = params[i] == 'A' ? a[i].type == want : scalar_fits(a[i], want->scalar);
        if (!ok) return std::nullopt;
        sig.params.push_back(want);
    }
    sig.ret = types::int32_type();
    return sig;
}
#define DENSE(fn, params) \
    std::optional<Signature> fn(const std::vector<ArgInfo>& a) { return dense(a, params); }
DENSE(rule_dense_gemm, "iiiiiAAA")
DENSE(rule_dense_chol, "iAfA")
DENSE(rule_dense_subs, "iAAA")
DENSE(rule_dense_solve, "iAAAA")
#undef DENSE

/// Quaternion and transform builtins: argument kinds from a pattern over one float type.
/// 'q' quat, 't' transform, 'v' vec3, 'm' mat33, 'M' mat44, 's' scalar, 'i' int32 (an index);
/// the result likewise (not 'i').
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
        const types::Type* t = unify_scalars(a, true);
        if (t) s = t->scalar;
    }
    if (!s || !treadle::is_float(*s)) return std::nullopt;
    auto make = [&](char c) -> const types::Type* {
        switch (c) {
            case 'q':
                return types::quat_type(*s);
            case 't':
                return types::transform_type(*s);
            case 'v':
                return types::vector_type(3, *s);
            case 'm':
                return types::matrix_type(3, 3, *s);
            case 'M':
                return types::matrix_type(4, 4, *s);
            default:
                return types::scalar_type(*s);
        }
    };
    Signature sig;
    for (size_t i = 0; i < a.size(); ++i) {
        if (params[i] == 'i') {  // an axis index
            if (!scalar_fits(a[i], ScalarType::Int32)) return std::nullopt;
            sig.params.push_back(types::int32_type());
            continue;
        }
        const types::Type* want = make(params[i]);
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
std::optional<Signature> rule_q_from_matrix(const std::vector<ArgInfo>& a) {
    if (auto s = rigid(a, "m", 'q')) return s;
    return rigid(a, "M", 'q');  // the rotation in the upper-left 3x3 block
}
RIGID(rule_q_slerp, "qqs", 'q')
RIGID(rule_q_rpy, "sss", 'q')
RIGID(rule_q_to_rpy, "q", 'v')
RIGID(rule_q_from_euler, "viii", 'q')
RIGID(rule_q_to_euler, "qiii", 'v')
RIGID(rule_q_twist, "vq", 'q')
RIGID(rule_q_twist_angle, "vq", 's')
std::optional<Signature> rule_t_point(const std::vector<ArgInfo>& a) {
    if (auto s = rigid(a, "tv", 'v')) return s;
    return rigid(a, "Mv", 'v');  // a 4x4 homogeneous matrix
}
RIGID(rule_t_t, "tt", 't')
RIGID(rule_t_to_t, "t", 't')
RIGID(rule_t_translation, "t", 'v')
RIGID(rule_t_rotation, "t", 'q')
RIGID(rule_t_set_translation, "tv", 't')
RIGID(rule_t_set_rotation, "tq", 't')
RIGID(rule_t_from, "vq", 't')
RIGID(rule_t_compose, "vqv", 'M')
RIGID(rule_t_to_matrix, "t", 'M')
RIGID(rule_t_from_matrix, "M", 't')
std::optional<Signature> rule_t_decompose(const std::vector<ArgInfo>& a) {
    auto sig = rigid(a, "M", 'v');
    if (!sig) return std::nullopt;
    const ScalarType s = a[0].type->scalar;
    sig->ret = types::tuple_type(
        {types::vector_type(3, s), types::quat_type(s), types::vector_type(3, s)});
    return sig;
}
#undef RIGID

/// svd3/qr3/eig3 (n = 3), svd2 (n = 2): one float32/float64 n x n matrix; the results from a
/// pattern ('m' the matrix type, 'v' a vector of n).
std::optional<Signature> decomposition(const std::vector<ArgInfo>& a, const char* results,
                                       int n = 3) {
    if (a.size() != 1 || !a[0].type || !a[0].type->is_matrix() || a[0].type->rows != n ||
        a[0].type->cols != n ||
        !(a[0].type->scalar == ScalarType::Float16 || a[0].type->scalar == ScalarType::Float32 ||
          a[0].type->scalar == ScalarType::Float64))
        return std::nullopt;
    std::vector<const types::Type*> out;
    for (const char* c = results; *c; ++c)
        out.push_back(*c == 'm' ? a[0].type : types::vector_type(n, a[0].type->scalar));
    return Signature{{a[0].type}, types::tuple_type(out)};
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
    return Signature{{a[0].type},
                     types::tuple_type({types::vector_type(3, s), types::scalar_type(s)})};
}

std::optional<Signature> rule_skew(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_vector() && a[0].type->rows == 3)
        return Signature{{a[0].type}, types::matrix_type(3, 3, a[0].type->scalar)};
    return std::nullopt;
}

}  // namespace treadle::builtins::rules
