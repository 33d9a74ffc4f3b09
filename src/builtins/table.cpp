// src/builtins/table.cpp -- the builtin table, made of its groups, and the lookups over it
#include <map>

#include "builtins/builtins.h"
#include "builtins/entries.h"
#include "common/assert.h"

namespace treadle::builtins {

const std::vector<Builtin>& builtin_table() {
    static const std::vector<Builtin> k_table = [] {
        using Group = std::vector<Builtin> (*)();
        std::vector<Builtin> all;
        for (Group group :
             {entries::operators, entries::scalar_math, entries::vector_math, entries::quaternions,
              entries::spatial, entries::transforms, entries::random_numbers, entries::utility,
              entries::geometry, entries::bvh_queries, entries::mesh_queries, entries::hash_grid,
              entries::volumes, entries::tiles, entries::tiles_indexed, entries::tile_block_ops,
              entries::inference_helpers}) {
            std::vector<Builtin> part = group();
            all.insert(all.end(), part.begin(), part.end());
        }
        return all;
    }();
    return k_table;
}

bool builtin_writes_arguments(const Builtin& b) { return b.traits.rebinds != Rebinds::None; }

const Builtin* find_query_next(const types::Type* query) {
    for (const Builtin& b : builtin_table()) {
        if (b.kind != BuiltinKind::QueryNext || !b.rule) continue;
        std::vector<ArgInfo> args{{query, false}, {types::int32_type(), false}};
        if (b.rule(args)) return &b;
    }
    return nullptr;
}

const Builtin* find_builtin(std::string_view name) {
    static const std::map<std::string, const Builtin*, std::less<>> k_index = [] {
        std::map<std::string, const Builtin*, std::less<>> m;
        for (const Builtin& b : builtin_table())
            if (b.kind != BuiltinKind::Operator && b.kind != BuiltinKind::Compare &&
                b.kind != BuiltinKind::Internal)
                m[b.name] = &b;
        return m;
    }();
    auto it = k_index.find(name);
    return it == k_index.end() ? nullptr : it->second;
}

const Builtin* find_operator(std::string_view name) {
    for (const Builtin& b : builtin_table())
        if (name == b.name && b.kind != BuiltinKind::Internal) return &b;
    return nullptr;
}

const Builtin* find_entry(std::string_view name) {
    for (const Builtin& b : builtin_table())
        if (name == b.name) return &b;
    return nullptr;
}

const Builtin& table_entry(std::string_view name) {
    const Builtin* b = find_entry(name);
    TREADLE_ASSERT(b != nullptr);
    return *b;
}

const Builtin* find_syntax_operator(std::string_view op, size_t operands) {
    for (const Builtin& b : builtin_table())
        if (b.traits.op && op == b.traits.op && builtin_params(b).size() == operands) return &b;
    return nullptr;
}

const Builtin* find_callee(std::string_view callee) {
    static const std::map<std::string, const Builtin*, std::less<>> k_by_native = [] {
        std::map<std::string, const Builtin*, std::less<>> m;
        for (const Builtin& b : builtin_table())
            if (b.native) m.emplace(b.native, &b);  // the first entry of a shared native wins
        return m;
    }();
    auto it = k_by_native.find(callee.substr(0, callee.find('<')));
    return it == k_by_native.end() ? nullptr : it->second;
}

bool linear_in_operand(const Builtin& b, size_t i, size_t nargs) {
    switch (b.traits.linear) {
        case Linearity::None:
            return false;
        case Linearity::All:
            return true;
        case Linearity::First:
            return i == 0;
        case Linearity::FirstAndLast:
            return i == 0 || i + 1 == nargs;
    }
    return false;
}

AtomicAdjoint atomic_adjoint(const Builtin& b) {
    switch (b.traits.atomic) {
        case AtomicOp::None:
            return AtomicAdjoint::None;
        case AtomicOp::Add:
            return AtomicAdjoint::Add;
        case AtomicOp::Sub:
            return AtomicAdjoint::Subtract;
        case AtomicOp::Min:
        case AtomicOp::Max:
            return AtomicAdjoint::MinMax;
        case AtomicOp::Exch:
            return AtomicAdjoint::Store;
        case AtomicOp::Cas:
        case AtomicOp::And:  // integer arrays only: nothing to differentiate
        case AtomicOp::Or:
        case AtomicOp::Xor:
            return AtomicAdjoint::Refused;
    }
    return AtomicAdjoint::None;
}

bool atomic_needs_word_scalars(const Builtin& b) {
    return b.traits.atomic == AtomicOp::Exch || b.traits.atomic == AtomicOp::Cas;
}

}  // namespace treadle::builtins
