// src/types/type_names.cpp -- the table of Warp's type names (scalars, vectors, matrices, ...)
#include "types/type_names.h"

#include <map>
#include <string>

namespace treadle::types {

namespace {

using NameTable = std::map<std::string, const Type*, std::less<>>;

/// Warp's suffix of each scalar type in a vector or matrix name, in ScalarType order up to
/// float64 ("" for bool, which has no vector or matrix names; bfloat16 has none either).
constexpr const char* k_suffix[] = {"", "b", "ub", "s", "us", "i", "ui", "l", "ul", "h", "f", "d"};

constexpr ScalarType k_floats[] = {ScalarType::Float16, ScalarType::Float32, ScalarType::Float64};

/// Enters `t` under `base` + the suffix of `s`, and under the bare `base` for float32.
void add_family(NameTable& table, const std::string& base, ScalarType s, const Type* t) {
    table.emplace(base + k_suffix[(int)s], t);
    if (s == ScalarType::Float32) table.emplace(base, t);
}

NameTable build_table() {
    NameTable table;
    for (int i = 0; i < k_scalar_type_count; ++i)
        table.emplace(scalar_name((ScalarType)i), scalar_type((ScalarType)i));
    for (const char* placeholder : {"Any", "Float", "Int", "Scalar"})
        table.emplace(placeholder, generic_type(placeholder));
    for (int i = (int)ScalarType::Int8; i <= (int)ScalarType::Float64; ++i)
        for (int n = 2; n <= 4; ++n)
            add_family(table, "vec" + std::to_string(n), (ScalarType)i,
                       vector_type(n, (ScalarType)i));
    for (ScalarType s : k_floats) {
        for (int n = 2; n <= 4; ++n)
            add_family(table, "mat" + std::to_string(n) + std::to_string(n), s,
                       matrix_type(n, n, s));
        add_family(table, "quat", s, quat_type(s));
        add_family(table, "transform", s, transform_type(s));
        add_family(table, "spatial_vector", s, vector_type(6, s));
        add_family(table, "spatial_matrix", s, matrix_type(6, 6, s));
    }
    return table;
}

}  // namespace

const Type* type_by_name(std::string_view name) {
    static const NameTable* table = new NameTable(build_table());  // never destroyed, as types
    auto it = table->find(name);
    return it == table->end() ? nullptr : it->second;
}

}  // namespace treadle::types
