// src/builtins/rules_generic.cpp -- type rules over scalars and composites alike (checks, lerp)
#include "builtins/rules.h"

namespace treadle::builtins::rules {

namespace {

/// Float vectors, matrices and quaternions: the composites that interpolate and compare
/// within a tolerance.
bool is_float_math(const types::Type* t) { return is_math(t) && treadle::is_float(t->scalar); }

}  // namespace

std::optional<Signature> rule_expect_equal(const std::vector<ArgInfo>& a) {
    if (a.size() != 2 || !a[0].type || !a[1].type) return std::nullopt;
    if (a[0].type == a[1].type && !a[0].type->is_scalar() &&
        (a[0].type->is_value() || a[0].type->is_transform()))
        return Signature{{a[0].type, a[1].type}, types::int32_type()};
    const types::Type* t = unify_scalars(a);
    if (!t) return std::nullopt;
    return Signature{{t, t}, types::int32_type()};
}

std::optional<Signature> rule_expect_near(const std::vector<ArgInfo>& a) {
    if (a.size() != 3 || !a[0].type || !a[1].type) return std::nullopt;
    if (is_float_math(a[0].type) && a[0].type == a[1].type && scalar_fits(a[2], a[0].type->scalar))
        return Signature{{a[0].type, a[1].type, types::scalar_type(a[0].type->scalar)},
                         types::int32_type()};
    const types::Type* t = unify_scalars(a, true);
    if (!t || !t->is_float()) return std::nullopt;
    return Signature{{t, t, t}, types::int32_type()};
}

std::optional<Signature> rule_lerp(const std::vector<ArgInfo>& a) {
    if (a.size() != 3 || !a[0].type || !a[1].type) return std::nullopt;
    const types::Type* t = a[0].type;
    if ((is_float_math(t) || (t->is_transform() && treadle::is_float(t->scalar))) &&
        t == a[1].type && scalar_fits(a[2], t->scalar))
        return Signature{{t, t, types::scalar_type(t->scalar)}, t};
    return rule_float_ternary(a);
}

std::optional<Signature> rule_float_ternary(const std::vector<ArgInfo>& a) {
    const types::Type* t = unify_scalars(a, true);
    if (a.size() != 3 || !t || !t->is_float()) return std::nullopt;
    return Signature{{t, t, t}, t};
}

std::optional<Signature> rule_float_vector_to_scalar(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_vector() &&
        treadle::is_float(a[0].type->scalar))
        return Signature{{a[0].type}, types::scalar_type(a[0].type->scalar)};
    return std::nullopt;
}

std::optional<Signature> rule_float_vector_norm(const std::vector<ArgInfo>& a) {
    // norm_huber(v, delta) / norm_pseudo_huber(v, delta): a float vector and a scalar of its type
    // (delta = 1 when left out: the native default)
    if (a.size() == 1) return rule_float_vector_to_scalar(a);
    if (a.size() == 2 && a[0].type && a[0].type->is_vector() &&
        treadle::is_float(a[0].type->scalar) && scalar_fits(a[1], a[0].type->scalar))
        return Signature{{a[0].type, types::scalar_type(a[0].type->scalar)},
                         types::scalar_type(a[0].type->scalar)};
    return std::nullopt;
}

std::optional<Signature> rule_smooth_normalize(const std::vector<ArgInfo>& a) {
    if (a.size() == 1 && a[0].type && a[0].type->is_vector() &&
        treadle::is_float(a[0].type->scalar))
        return Signature{{a[0].type}, a[0].type};
    if (a.size() == 2 && a[0].type && a[0].type->is_vector() &&
        treadle::is_float(a[0].type->scalar) && scalar_fits(a[1], a[0].type->scalar))
        return Signature{{a[0].type, types::scalar_type(a[0].type->scalar)}, a[0].type};
    return std::nullopt;
}

}  // namespace treadle::builtins::rules
