// src/builtins/rules.h -- the type rules of the builtin table (internal to src/builtins)
//
// Each rule maps the argument types of one call to the signature it resolves to, or nullopt when
// no overload accepts them. The entries (entries_*.cpp) name them. They need only `types`.
#pragma once

#include <optional>
#include <vector>

#include "builtins/builtins.h"

namespace treadle::builtins::rules {

// clang-format off
std::optional<Signature> rule_float_unary(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_float_binary(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_numeric_unary(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_numeric_binary(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_numeric_ternary(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_int_unary(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_int_binary(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_bitwise(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_predicate(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_compare(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_add_sub(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_mul(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_matmul(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_div(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_div_approx(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_negate(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_compare_any(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_vec_min_max(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_vec_abs(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_vec_binary(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_vec_arg_extremum(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_dot(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_dot_self(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_length(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_normalize(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_cross(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_cw(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_outer(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_transpose(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_square_to_scalar(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_determinant(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_inverse(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_ddot(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_diag(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_mat_from_rows(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_mat_from_cols(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_rand_init(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_randi(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_randu(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_randf(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_randn(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_sample2(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_sample3(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_sample_cdf(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_poisson(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_noise(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_pnoise(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_curlnoise(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_spatial_part(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_spatial_dot(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_spatial_cross(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_spatial_adjoint(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_transform_spatial(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_velocity_at_point(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_t_set_translation(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_t_set_rotation(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_dense_gemm(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_dense_chol(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_lower_bound(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_dense_subs(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_dense_solve(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_spatial_jacobian(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_spatial_mass(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_from_axis_angle(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_rotate(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_to_q(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_to_matrix(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_from_matrix(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_slerp(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_rpy(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_to_rpy(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_from_euler(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_to_euler(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_twist(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_twist_angle(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_t_point(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_t_t(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_t_to_t(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_t_translation(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_t_rotation(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_t_from(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_t_compose(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_t_to_matrix(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_t_from_matrix(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_t_decompose(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_svd3(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_svd2(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_qr3(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_eig3(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_q_to_axis_angle(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_skew(const std::vector<ArgInfo>& a);
// rules_generic.cpp
std::optional<Signature> rule_expect_equal(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_expect_near(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_lerp(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_float_ternary(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_float_vector_to_scalar(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_float_vector_norm(const std::vector<ArgInfo>& a);
std::optional<Signature> rule_smooth_normalize(const std::vector<ArgInfo>& a);
// clang-format on

/// Vectors, matrices and quaternions: the types with componentwise + and - and scaling.
bool is_math(const types::Type* t);
/// Whether a scalar argument can take the element type `s` of a composite operand.
bool scalar_fits(const ArgInfo& a, ScalarType s);
/// A geometry object's id argument (a hash grid's, a BVH's, a mesh's): uint64, int64 or an
/// integer literal.
bool is_object_id(const ArgInfo& a);

}  // namespace treadle::builtins::rules
