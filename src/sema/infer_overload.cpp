// src/sema/infer_overload.cpp -- builtins resolved by their type rule: the overload the argument
// types select, one Call (or one per result of a Multi builtin), and Warp's out-argument form
#include <cstdlib>

#include "sema/infer_internal.h"

namespace treadle::sema {

using ast::ExprKind;
using ir::InstrKind;
using ir::VarId;

Value Builder::call_by_rule(const Builtin& b, const ast::Expr& e) {
    int line = e.span.line;
    std::vector<Value> vals;
    std::vector<ArgInfo> infos;
    for (size_t i = 1; i < e.args.size(); ++i) {
        vals.push_back(eval(*e.args[i]));
        infos.push_back(arg_info(vals.back(), *e.args[i]));
    }
    auto sig = b.rule(infos);
    if (!sig && fill_numeric_defaults(b, vals, infos)) sig = b.rule(infos);
    if (!sig && b.kind == BuiltinKind::Multi) return call_with_out_arguments(b, vals, infos, e);
    const std::string name = b.name;
    if (!sig && (name == "expect_eq" || name == "expect_neq") && infos.size() == 2 &&
        infos[0].type != infos[1].type)  // Warp's error for checks of unlike values
        fail(e.span, ErrorKind::Runtime,
             who() + "Can't test equality for objects with different types");
    if (!sig)
        type_error(e.span, std::string(b.name) + "(): no overload accepts " + describe_args(infos) +
                               " (signature: " + b.signature + ")");
    if (sig->outputs_from < vals.size()) return call_with_output_locals(b, *sig, vals, e);
    std::vector<VarId> args;
    for (size_t i = 0; i < vals.size(); ++i)  // defaults filled in are reported at the call
        args.push_back(coerce(vals[i], sig->params[i], i + 1 < e.args.size() ? *e.args[i + 1] : e));
    if (b.traits.prints) {  // a check: its result is a dummy, None in the kernel
        emit_call(line, sig->ret, std::move(args), b);
        return Value{};
    }
    if (!sig->ret->is_tuple()) return var_value(emit_call(line, sig->ret, std::move(args), b));
    Value r;
    r.kind = Value::Kind::Tuple;
    for (VarId d : emit_multi_call(b, sig->ret, std::move(args), line))
        r.elements.push_back(var_value(d));
    return r;
}

Value Builder::call_with_output_locals(const Builtin& b, const builtins::Signature& sig,
                                       const std::vector<Value>& vals, const ast::Expr& e) {
    // Each output local is copied, the copy passed by reference, and the name re-bound to it:
    // the native function writes it or leaves the old value, and loops carry it
    // (collect_call_writes counts the names a Rebinds::Outputs builtin is given).
    const int line = e.span.line;
    std::vector<VarId> args;
    std::vector<std::pair<std::string, VarId>> rebound;
    for (size_t i = 0; i < vals.size(); ++i) {
        const ast::Expr& a = i + 1 < e.args.size() ? *e.args[i + 1] : e;
        if (i < sig.outputs_from || i >= sig.outputs_from + sig.outputs) {
            args.push_back(coerce(vals[i], sig.params[i], a));
            continue;
        }
        if (a.kind != ExprKind::Name || !m_scope.count(a.name) ||
            m_fn.type_of(m_scope.at(a.name)) != sig.params[i])
            type_error(a.span, std::string(b.name) + "(): output argument " +
                                   std::to_string(i - sig.outputs_from) +
                                   " must be a local variable of type " + sig.params[i]->name);
        args.push_back(emit_value(InstrKind::Copy, line, sig.params[i], {m_scope.at(a.name)}));
        rebound.emplace_back(a.name, args.back());
    }
    VarId r = emit_call(line, sig.ret, std::move(args), b);
    for (size_t j = 0; j < rebound.size(); ++j)
        bind(rebound[j].first, rebound[j].second, e.args[sig.outputs_from + j + 1]->span);
    // (the outputs are consecutive, so argument outputs_from + j is output j)
    return var_value(r);
}

bool Builder::fill_numeric_defaults(const Builtin& b, std::vector<Value>& vals,
                                    std::vector<ArgInfo>& infos) {
    const std::vector<builtins::Param>& params = builtins::builtin_params(b);
    if (vals.size() >= params.size()) return false;
    std::vector<Value> extra;
    for (size_t i = vals.size(); i < params.size(); ++i) {
        const std::string& d = params[i].default_value;
        if (d.empty() || params[i].variadic) return false;
        char* end = nullptr;
        const double x = std::strtod(d.c_str(), &end);
        if (end != d.c_str() + d.size()) return false;  // not a number: the rule decides
        const bool is_int = d.find_first_of(".eE") == std::string::npos;
        Value v;
        v.kind = Value::Kind::Const;
        v.constant = is_int ? types::ConstValue{types::int32_type(), true, (int64_t)x, 0.0}
                            : types::ConstValue{types::float32_type(), true, 0, x};
        extra.push_back(v);
    }
    for (const Value& v : extra) {
        vals.push_back(v);
        infos.push_back({v.constant.type, true});
    }
    return true;
}

std::vector<VarId> Builder::emit_multi_call(const Builtin& b, const types::Type* results,
                                            std::vector<VarId> args, int line) {
    std::vector<VarId> dsts;
    for (const types::Type* t : results->elements) dsts.push_back(m_fn.new_var(t));
    ir::Instr& in = emit(InstrKind::Call, line);
    in.dsts = dsts;
    in.args = std::move(args);
    in.builtin = &b;
    return dsts;
}

Value Builder::call_with_out_arguments(const Builtin& b, const std::vector<Value>& vals,
                                       const std::vector<ArgInfo>& infos, const ast::Expr& e) {
    // Warp's form f(inputs..., out_0, ..., out_k-1): the rule accepts the inputs and gives k
    // results, each of the type of the local variable that receives it.
    for (size_t k = 1; k < vals.size(); ++k) {
        size_t n = vals.size() - k;
        std::vector<ArgInfo> inputs(infos.begin(), infos.begin() + n);
        auto sig = b.rule(inputs);
        if (!sig || !sig->ret->is_tuple() || sig->ret->elements.size() != k) continue;
        std::vector<std::string> outs;
        for (size_t j = 0; j < k; ++j) {
            const ast::Expr& oe = *e.args[n + j + 1];
            const types::Type* want = sig->ret->elements[j];
            if (oe.kind != ExprKind::Name || !m_scope.count(oe.name))
                type_error(oe.span, std::string(b.name) + "(): output argument " +
                                        std::to_string(j) + " must be a local variable of type " +
                                        want->name);
            if (m_fn.type_of(m_scope.at(oe.name)) != want)
                type_error(oe.span, std::string(b.name) + "(): output '" + oe.name + "' has type " +
                                        m_fn.type_of(m_scope.at(oe.name))->name + ", expected " +
                                        want->name);
            outs.push_back(oe.name);
        }
        std::vector<VarId> args;
        for (size_t i = 0; i < n; ++i)
            args.push_back(coerce(vals[i], sig->params[i], *e.args[i + 1]));
        std::vector<VarId> dsts = emit_multi_call(b, sig->ret, std::move(args), e.span.line);
        for (size_t j = 0; j < k; ++j) bind(outs[j], dsts[j], e.args[n + j + 1]->span);
        return Value{};
    }
    type_error(e.span, std::string(b.name) + "(): no overload accepts " + describe_args(infos) +
                           " (signature: " + b.signature + ")");
}

}  // namespace treadle::sema
