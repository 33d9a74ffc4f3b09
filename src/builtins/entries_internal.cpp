// src/builtins/entries_internal.cpp -- the builtin table's entries that inference spells itself
#include "builtins/entries.h"

namespace treadle::builtins::entries {

/// Constructors, casts, component access and updates that inference spells itself: not callable by
/// name, in the table for their traits.
std::vector<Builtin> inference_helpers() {
    return {
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
        {"array_nonnull", "array_nonnull", BuiltinKind::Internal, "Internal",
         "array_nonnull(a: array) -> bool",
         "Whether array a has data (`if a:`, `not a` on an array that may be None).", false,
         nullptr, with().not_callable()},
        {"grad_view", "grad_view", BuiltinKind::Internal, "Internal",
         "grad_view(a: array) -> array",
         "The gradient of array a, an array of its shape and strides (wp.adjoint[a] of an array "
         "parameter in a @wp.func_grad function).",
         false, nullptr, with().not_callable()},
    };
}

}  // namespace treadle::builtins::entries
