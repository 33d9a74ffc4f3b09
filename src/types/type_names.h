// src/types/type_names.h -- the types that Warp's names in kernel source stand for
#pragma once

#include <string_view>

#include "types/types.h"

namespace treadle::types {

/// The type a Warp type name written in source stands for, looked up in one fixed table: the
/// scalars ("bool", "int8" ... "float64"), vec2..vec4 of every numeric scalar ("vec3", "vec3d",
/// "vec4ub"), mat22, mat33 and mat44 of the float scalars ("mat33", "mat44h"), quat and
/// transform of the float scalars ("quatd", "transformf"), spatial_vector and spatial_matrix of
/// the float scalars (vectors of 6, 6x6 matrices) and the generic placeholders "Any", "Float",
/// "Int" and "Scalar". An empty suffix means float32. Python's own `int`, `float` and `bool`
/// are not Warp names: "int" and "float" are not in the table ("bool" is, as wp.bool).
/// nullptr for every other name.
const Type* type_by_name(std::string_view name);

}  // namespace treadle::types
