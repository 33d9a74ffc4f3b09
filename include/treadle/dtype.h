// include/treadle/dtype.h -- scalar element types shared by the compiler and the runtime
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace treadle {

/// The scalar types of the kernel language, in Warp's order of names.
enum class ScalarType : uint8_t {
    Bool,
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    UInt64,
    Float16,
    Float32,
    Float64,
};

/// Size in bytes of one value.
size_t scalar_size(ScalarType t);
/// Warp's name: "bool", "int8", ..., "float64".
const char* scalar_name(ScalarType t);
/// Inverse of scalar_name; nullopt for an unknown name.
std::optional<ScalarType> scalar_from_name(std::string_view name);

inline bool is_float(ScalarType t) {
    return t == ScalarType::Float16 || t == ScalarType::Float32 || t == ScalarType::Float64;
}
inline bool is_integer(ScalarType t) { return !is_float(t) && t != ScalarType::Bool; }
inline bool is_signed(ScalarType t) {
    return t == ScalarType::Int8 || t == ScalarType::Int16 || t == ScalarType::Int32 ||
           t == ScalarType::Int64 || is_float(t);
}

}  // namespace treadle
