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
    std::vector<const ast::Expr*> exprs;  // the expression of each value argument
    std::vector<ArgInfo> type_args;       // dtype=wp.vec3 of TemplateArgs::Dtype builtins
    const bool takes_types = b.traits.template_args == builtins::TemplateArgs::Dtype;
    for (size_t i = 1; i < e.args.size(); ++i) {
        Value v = eval(*e.args[i]);
        if (takes_types && v.kind == Value::Kind::Type) {
            type_args.push_back({v.type, false, true});
            continue;
        }
        vals.push_back(v);
        infos.push_back(arg_info(vals.back(), *e.args[i]));
        exprs.push_back(e.args[i].get());
    }
    auto with_types = [&](std::vector<ArgInfo> in) {
        in.insert(in.end(), type_args.begin(), type_args.end());
        return in;
    };
    auto sig = b.rule(with_types(infos));
    if (!sig && type_args.empty() && fill_numeric_defaults(b, vals, infos)) sig = b.rule(infos);
    if (!sig && b.kind == BuiltinKind::Multi)
        return call_with_out_arguments(b, vals, infos, exprs, type_args, e);
    const std::string name = b.name;
    if (!sig && (name == "expect_eq" || name == "expect_neq") && infos.size() == 2 &&
        infos[0].type != infos[1].type)  // Warp's error for checks of unlike values
        fail(e.span, ErrorKind::Runtime,
             who() + "Can't test equality for objects with different types");
    if (!sig) {
        std::string why;  // a tile of structs where the builtin takes numbers: say so
        for (const ArgInfo& a : infos)
            if (a.type && a.type->is_tile() && a.type->dtype->is_struct())
                why = "; it does not take tiles of a Warp struct (" + a.type->dtype->name + ")";
        type_error(e.span, std::string(b.name) + "(): no overload accepts " +
                               describe_args(with_types(infos)) + " (signature: " + b.signature +
                               ")" + why);
    }
    if (sig->outputs_from < vals.size()) return call_with_output_locals(b, *sig, vals, exprs, e);
    std::vector<VarId> args;
    for (size_t i = 0; i < vals.size(); ++i)  // defaults filled in are reported at the call
        args.push_back(coerce(vals[i], sig->params[i], i < exprs.size() ? *exprs[i] : e));
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
                                       const std::vector<Value>& vals,
                                       const std::vector<const ast::Expr*>& exprs,
                                       const ast::Expr& e) {
    // Each output local is copied, the copy passed by reference, and the name re-bound to it:
    // the native function writes it or leaves the old value, and loops carry it
    // (collect_call_writes counts the names a Rebinds::OutputLocals builtin is given).
    const int line = e.span.line;
    std::vector<VarId> args;
    std::vector<std::pair<const ast::Expr*, VarId>> rebound;
    for (size_t i = 0; i < vals.size(); ++i) {
        const ast::Expr& a = i < exprs.size() ? *exprs[i] : e;
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
        rebound.emplace_back(&a, args.back());
    }
    VarId r = emit_call(line, sig.ret, std::move(args), b);
    for (const auto& [a, v] : rebound) bind(a->name, v, a->span);
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
                                       const std::vector<ArgInfo>& infos,
                                       const std::vector<const ast::Expr*>& exprs,
                                       const std::vector<ArgInfo>& type_args, const ast::Expr& e) {
    // Warp's form f(inputs..., out_0, ..., out_k-1): the rule accepts the inputs and gives k
    // results (k + 1 when the builtin returns its first), each of the type of the local
    // variable that receives it.
    const size_t first_out = b.traits.returns_first_result ? 1 : 0;
    for (size_t k = 1; k < vals.size(); ++k) {
        size_t n = vals.size() - k;
        std::vector<ArgInfo> inputs(infos.begin(), infos.begin() + n);
        inputs.insert(inputs.end(), type_args.begin(), type_args.end());
        auto sig = b.rule(inputs);
        if (!sig || !sig->ret->is_tuple() || sig->ret->elements.size() != k + first_out) continue;
        std::vector<std::string> outs;
        for (size_t j = 0; j < k; ++j) {
            const ast::Expr& oe = *exprs[n + j];
            const types::Type* want = sig->ret->elements[j + first_out];
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
        for (size_t i = 0; i < n; ++i) args.push_back(coerce(vals[i], sig->params[i], *exprs[i]));
        std::vector<VarId> dsts = emit_multi_call(b, sig->ret, std::move(args), e.span.line);
        for (size_t j = 0; j < k; ++j) bind(outs[j], dsts[j + first_out], exprs[n + j]->span);
        return first_out ? var_value(dsts[0]) : Value{};
    }
    std::vector<ArgInfo> all = infos;
    all.insert(all.end(), type_args.begin(), type_args.end());
    type_error(e.span, std::string(b.name) + "(): no overload accepts " + describe_args(all) +
                           " (signature: " + b.signature + ")");
}

}  // namespace treadle::sema
