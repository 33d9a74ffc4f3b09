// src/common/dtype.cpp -- names and sizes of the scalar element types
#include "treadle/dtype.h"

namespace treadle {

namespace {
struct ScalarInfo {
    const char* name;
    size_t size;
};
constexpr ScalarInfo k_scalars[] = {
    {"bool", 1},    {"int8", 1},    {"uint8", 1},    {"int16", 2},  {"uint16", 2},
    {"int32", 4},   {"uint32", 4},  {"int64", 8},    {"uint64", 8}, {"float16", 2},
    {"float32", 4}, {"float64", 8}, {"bfloat16", 2},
};
static_assert(sizeof(k_scalars) / sizeof(k_scalars[0]) == k_scalar_type_count);
}  // namespace

size_t scalar_size(ScalarType t) { return k_scalars[(int)t].size; }
const char* scalar_name(ScalarType t) { return k_scalars[(int)t].name; }

std::optional<ScalarType> scalar_from_name(std::string_view name) {
    for (int i = 0; i < k_scalar_type_count; ++i)
        if (name == k_scalars[i].name) return (ScalarType)i;
    return std::nullopt;
}

}  // namespace treadle
