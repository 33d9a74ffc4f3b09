// include/treadle/dtype.h -- scalar element types shared by the compiler and the runtime
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace treadle {

/// The scalar types of the kernel language, in Warp's order of names (bfloat16, added later,
/// comes last so that the values of the others never change).
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
    BFloat16,  ///< bfloat16: float32's sign and exponent with 7 mantissa bits, stored as 16 bits
};

/// Number of ScalarType values (loop bound of tables indexed by ScalarType).
inline constexpr int k_scalar_type_count = (int)ScalarType::BFloat16 + 1;

/// Size in bytes of one value.
size_t scalar_size(ScalarType t);
/// Warp's name: "bool", "int8", ..., "float64".
const char* scalar_name(ScalarType t);
/// Inverse of scalar_name; nullopt for an unknown name.
std::optional<ScalarType> scalar_from_name(std::string_view name);

inline bool is_float(ScalarType t) {
    return t == ScalarType::Float16 || t == ScalarType::Float32 || t == ScalarType::Float64 ||
           t == ScalarType::BFloat16;
}
/// The 16-bit floats (float16, bfloat16): stored as bits, computed in float32.
inline bool is_narrow_float(ScalarType t) {
    return t == ScalarType::Float16 || t == ScalarType::BFloat16;
}
inline bool is_integer(ScalarType t) { return !is_float(t) && t != ScalarType::Bool; }
inline bool is_signed(ScalarType t) {
    return t == ScalarType::Int8 || t == ScalarType::Int16 || t == ScalarType::Int32 ||
           t == ScalarType::Int64 || is_float(t);
}

}  // namespace treadle
