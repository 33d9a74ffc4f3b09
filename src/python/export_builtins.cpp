// src/python/export_builtins.cpp -- the builtin table, readable from Python (docs and tests)
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "exports.h"
#include "sema/builtins.h"

namespace {

using treadle::sema::BuiltinKind;

const char* kind_name(BuiltinKind k) {
    switch (k) {
        case BuiltinKind::Regular:
            return "regular";
        case BuiltinKind::Operator:
            return "operator";
        case BuiltinKind::Compare:
            return "compare";
        case BuiltinKind::Tid:
            return "tid";
        case BuiltinKind::Print:
            return "print";
        case BuiltinKind::Printf:
            return "printf";
        case BuiltinKind::Atomic:
            return "atomic";
        case BuiltinKind::Cast:
            return "cast";
        case BuiltinKind::Len:
            return "len";
        case BuiltinKind::Where:
            return "where";
        case BuiltinKind::Identity:
            return "identity";
        case BuiltinKind::Random:
            return "random";
        case BuiltinKind::Multi:
            return "multi";
    }
    return "?";
}

const treadle::sema::Builtin* find_any(const std::string& name) {
    if (const auto* b = treadle::sema::find_builtin(name)) return b;
    return treadle::sema::find_operator(name);
}

/// The result types of builtin `name` for arguments of the given type specs (strongly typed),
/// or None when no overload accepts them (or the builtin has no type rule).
std::optional<std::vector<std::string>> signature(const std::string& name,
                                                  const std::vector<std::string>& specs) {
    const treadle::sema::Builtin* b = find_any(name);
    if (!b || !b->rule) return std::nullopt;
    std::vector<treadle::sema::ArgInfo> args;
    for (const std::string& s : specs) {
        const treadle::sema::Type* t = treadle::sema::type_from_spec(s);
        if (!t) return std::nullopt;
        args.push_back({t, false});
    }
    std::optional<treadle::sema::Signature> sig = b->rule(args);
    if (!sig) return std::nullopt;
    std::vector<std::string> out;
    if (sig->ret->is_tuple()) {
        for (const auto* e : sig->ret->elements) out.push_back(treadle::sema::type_spec(e));
    } else {
        out.push_back(treadle::sema::type_spec(sig->ret));
    }
    return out;
}

}  // namespace

void export_builtins(nb::module_& m) {
    m.def("builtin_names", []() {
        std::vector<std::string> out;
        for (const auto& b : treadle::sema::builtin_table())
            if (b.kind != BuiltinKind::Operator && b.kind != BuiltinKind::Compare)
                out.push_back(b.name);
        return out;
    });
    m.def(
        "builtin_table",
        []() {
            nb::list out;
            for (const auto& b : treadle::sema::builtin_table())
                out.append(nb::make_tuple(b.name, b.native ? b.native : "", kind_name(b.kind),
                                          b.group, b.signature, b.doc, b.differentiable));
            return out;
        },
        "Every builtin: (name, native, kind, group, signature, doc, differentiable).");
    m.def("builtin_signature", &signature, nb::arg("name"), nb::arg("arg_specs"),
          "Result type specs of a builtin (or operator: 'add', 'neg', ...) for arguments of "
          "these type specs; None when no overload accepts them.");
}
