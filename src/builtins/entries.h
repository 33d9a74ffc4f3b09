// src/builtins/entries.h -- the groups of entries the builtin table is made of (internal)
//
// builtin_table() (table.cpp) concatenates the groups in documentation order; each
// entries_<area>.cpp writes the entries of its groups as data. The order matters: it is the
// reference's order, and the first entry of a native name shared by two entries (mul) is the
// one find_callee() gives.
#pragma once

#include <vector>

#include "builtins/builtins.h"
#include "builtins/rules.h"

namespace treadle::builtins::entries {

/// Fluent construction of an entry's Traits: `with().host().op("+")`.
struct TraitsBuilder {
    Traits t;
    TraitsBuilder& linear(Linearity v) { return t.linear = v, *this; }
    TraitsBuilder& writes_last_array() { return t.writes_last_array = true, *this; }
    TraitsBuilder& writes_first_array() { return t.writes_first_array = true, *this; }
    TraitsBuilder& prints() { return t.prints = true, *this; }
    TraitsBuilder& results(int v) { return t.results = v, *this; }
    TraitsBuilder& value_operands(int v) { return t.value_operands = v, *this; }
    TraitsBuilder& rebinds(Rebinds v) { return t.rebinds = v, *this; }
    TraitsBuilder& host() { return t.host = true, *this; }
    TraitsBuilder& atomic(AtomicOp v) { return t.atomic = v, *this; }
    TraitsBuilder& python_builtin() { return t.python_builtin = true, *this; }
    TraitsBuilder& op(const char* v) { return t.op = v, *this; }
    TraitsBuilder& not_callable() { return t.callable = false, *this; }
    TraitsBuilder& template_args(TemplateArgs v) { return t.template_args = v, *this; }
    TraitsBuilder& returns_first_result() { return t.returns_first_result = true, *this; }
    TraitsBuilder& header(const char* v) { return t.header = v, *this; }
    operator Traits() const { return t; }
};
/// Starts an entry's traits; `with()` alone keeps every default.
inline TraitsBuilder with() { return {}; }

// The groups, in table order.
/// entries_math.cpp
std::vector<Builtin> operators();
/// entries_math.cpp
std::vector<Builtin> scalar_math();
/// entries_vector.cpp
std::vector<Builtin> vector_math();
/// entries_rigid.cpp
std::vector<Builtin> quaternions();
/// entries_rigid.cpp
std::vector<Builtin> spatial();
/// entries_rigid.cpp
std::vector<Builtin> transforms();
/// entries_random.cpp
std::vector<Builtin> random_numbers();
/// entries_utility.cpp
std::vector<Builtin> utility();
/// entries_geometry.cpp
std::vector<Builtin> geometry();
/// entries_bvh.cpp
std::vector<Builtin> bvh_queries();
/// entries_mesh.cpp
std::vector<Builtin> mesh_queries();
/// The hash-grid queries (entries_hash_grid.cpp).
std::vector<Builtin> hash_grid();
/// The NanoVDB volume builtins (entries_volume.cpp).
std::vector<Builtin> volumes();
/// The tile builtins (entries_tile.cpp).
std::vector<Builtin> tiles();
/// Stacks, scans, sorts and random tiles (entries_tile_block.cpp).
std::vector<Builtin> tile_block_ops();
/// The tiles addressed through index tiles (entries_tile_indexed.cpp).
std::vector<Builtin> tiles_indexed();
/// entries_internal.cpp (last in the table)
std::vector<Builtin> inference_helpers();

}  // namespace treadle::builtins::entries
