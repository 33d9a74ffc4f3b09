// src/python/export_builtins.cpp -- the builtin table, readable from Python (docs and tests)
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "builtins/builtins.h"
#include "exports.h"

namespace {

using treadle::builtins::BuiltinKind;

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
        case BuiltinKind::QueryNext:
            return "query_next";
        case BuiltinKind::Tile:
            return "tile";
        case BuiltinKind::Internal:
            return "internal";
    }
    return "?";
}

const char* linearity_name(treadle::builtins::Linearity l) {
    switch (l) {
        case treadle::builtins::Linearity::None:
            return "none";
        case treadle::builtins::Linearity::All:
            return "all";
        case treadle::builtins::Linearity::First:
            return "first";
        case treadle::builtins::Linearity::FirstAndLast:
            return "first_and_last";
    }
    return "?";
}

const char* rebinds_name(treadle::builtins::Rebinds r) {
    switch (r) {
        case treadle::builtins::Rebinds::None:
            return "none";
        case treadle::builtins::Rebinds::State:
            return "state";
        case treadle::builtins::Rebinds::Outputs:
            return "outputs";
        case treadle::builtins::Rebinds::First:
            return "first";
        case treadle::builtins::Rebinds::Query:
            return "query";
        case treadle::builtins::Rebinds::OutputLocals:
            return "output_locals";
        case treadle::builtins::Rebinds::Last:
            return "last";
        case treadle::builtins::Rebinds::FirstTwo:
            return "first_two";
    }
    return "?";
}

const char* atomic_name(treadle::builtins::AtomicOp a) {
    switch (a) {
        case treadle::builtins::AtomicOp::None:
            return "none";
        case treadle::builtins::AtomicOp::Add:
            return "add";
        case treadle::builtins::AtomicOp::Sub:
            return "sub";
        case treadle::builtins::AtomicOp::Min:
            return "min";
        case treadle::builtins::AtomicOp::Max:
            return "max";
        case treadle::builtins::AtomicOp::Exch:
            return "exch";
        case treadle::builtins::AtomicOp::Cas:
            return "cas";
        case treadle::builtins::AtomicOp::And:
            return "and";
        case treadle::builtins::AtomicOp::Or:
            return "or";
        case treadle::builtins::AtomicOp::Xor:
            return "xor";
    }
    return "?";
}

/// One table entry as a dict: every field and trait, the parsed parameters and result.
nb::dict entry(const treadle::builtins::Builtin& b) {
    nb::dict d;
    d["name"] = b.name;
    d["native"] = b.native ? b.native : "";
    d["kind"] = kind_name(b.kind);
    d["group"] = b.group;
    d["signature"] = b.signature;
    d["doc"] = b.doc;
    d["differentiable"] = b.differentiable;
    d["typed"] = b.rule != nullptr;  // builtin_signature() can answer for it
    nb::list params;
    for (const treadle::builtins::Param& p : treadle::builtins::builtin_params(b)) {
        nb::dict pd;
        pd["name"] = p.name;
        pd["type"] = p.type;
        pd["default"] = p.default_value;
        pd["variadic"] = p.variadic;
        params.append(pd);
    }
    d["params"] = params;
    d["returns"] = treadle::builtins::builtin_returns(b);
    const treadle::builtins::Traits& t = b.traits;
    d["linear"] = linearity_name(t.linear);
    d["writes_last_array"] = t.writes_last_array;
    d["writes_first_array"] = t.writes_first_array;
    d["prints"] = t.prints;
    d["results"] = t.results;
    d["value_operands"] = t.value_operands;
    d["rebinds"] = rebinds_name(t.rebinds);
    d["host"] = t.host;
    d["atomic"] = atomic_name(t.atomic);
    d["python_builtin"] = t.python_builtin;
    d["op"] = t.op ? t.op : "";
    d["callable"] = t.callable;
    nb::list devices;
    if (t.devices & treadle::builtins::k_cpu) devices.append("cpu");
    if (t.devices & treadle::builtins::k_cuda) devices.append("cuda");
    d["devices"] = devices;
    return d;
}

const treadle::builtins::Builtin* find_any(const std::string& name) {
    if (const auto* b = treadle::builtins::find_builtin(name)) return b;
    return treadle::builtins::find_operator(name);
}

/// The result types of builtin `name` (a list of Type) for arguments of the types in
/// `arg_types` (strongly typed), or None when no overload accepts them (or the builtin has no
/// type rule).
nb::object signature(const std::string& name, nb::handle arg_types) {
    std::vector<treadle::builtins::ArgInfo> args;
    for (nb::handle item : nb::iter(arg_types)) {
        if (item.is_none())
            throw treadle::Error(treadle::ErrorKind::Type,
                                 "builtin_signature(): every argument type must be a Type");
        args.push_back({nb::cast<const treadle::types::Type*>(item), false});
    }
    const treadle::builtins::Builtin* b = find_any(name);
    if (!b || !b->rule) return nb::none();
    std::optional<treadle::builtins::Signature> sig = b->rule(args);
    if (!sig) return nb::none();
    nb::list out;
    auto add = [&](const treadle::types::Type* t) {
        out.append(nb::cast(t, nb::rv_policy::reference));
    };
    if (sig->ret->is_tuple()) {
        for (const treadle::types::Type* e : sig->ret->elements) add(e);
    } else {
        add(sig->ret);
    }
    return out;
}

}  // namespace

void export_builtins(nb::module_& m) {
    m.def("builtin_names", []() {
        std::vector<std::string> out;
        for (const auto& b : treadle::builtins::builtin_table())
            if (b.kind != BuiltinKind::Operator && b.kind != BuiltinKind::Compare &&
                b.kind != BuiltinKind::Internal)
                out.push_back(b.name);
        return out;
    });
    m.def(
        "builtin_table",
        []() {
            nb::list out;
            for (const auto& b : treadle::builtins::builtin_table()) out.append(entry(b));
            return out;
        },
        "Every builtin in table order, as a dict: name, native, kind, group, signature, doc, "
        "differentiable, typed (whether builtin_signature() resolves it), params (dicts: name, "
        "type, default, variadic), returns, and the traits "
        "linear, writes_last_array, writes_first_array, prints, results, value_operands, rebinds, "
        "host, atomic, "
        "python_builtin, op, callable, devices.");
    m.def("builtin_signature", &signature, nb::arg("name"), nb::arg("arg_types"),
          "Result types (a list of Type) of a builtin (or operator: 'add', 'neg', ...) for "
          "arguments of these types (a list of Type); None when no overload accepts them.");
}
