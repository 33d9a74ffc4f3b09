// src/codegen/type_spelling.h -- how generated C++ spells types, scalars and struct fields
#pragma once

#include <string>

#include "treadle/dtype.h"
#include "types/types.h"

namespace treadle::codegen {

/// The C++ spelling of scalar `s` in generated code ("wp::float32", "bool").
const char* c_scalar(ScalarType s);

/// The C++ spelling of `t` in generated code: "wp::vec_t<3, wp::float32>",
/// "wp::array_t<wp::float32>", "struct_Body_<hash of the struct's name and fields>", "void" for
/// void and tuples (multiple results travel as out-parameters). Generic placeholders are never
/// emitted (kernels are specialised first); they spell "<generic NAME>".
std::string c_type(const types::Type* t);

/// The C++ member name of a struct field: `name`, or `name_` when it could mean something
/// else to the C++ compiler (a keyword, an alternative token, a macro) or already ends in '_'.
std::string c_field(const std::string& name);

}  // namespace treadle::codegen
