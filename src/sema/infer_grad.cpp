// src/sema/infer_grad.cpp -- wp.grad(f) in forward code: gradients of functions as values
//
// wp.grad(f) is a compile-time value (Value::Kind::Grad) that can be called at once or bound to
// a local; calling it emits one ir Grad instruction, which codegen prints as a call of f's
// adjoint with an incoming adjoint of 1 for f's result. The gradient is a constant to the
// backward pass of the code around it, as in Warp.
#include "sema/infer_internal.h"

namespace treadle::sema {

using ir::InstrKind;
using ir::VarId;

namespace {

std::string grad_name(const Value& g) {
    return "wp.grad(" + (g.func ? g.func->name : std::string(g.builtin->name)) + ")";
}

}  // namespace

Value Builder::grad_of(const ast::Expr& e) {
    if (e.args.size() != 2 || !e.keywords.empty())
        type_error(e.span, who() + "wp.grad() takes one argument, the function to differentiate");
    Value f = eval(*e.args[1]);
    Value g;
    g.kind = Value::Kind::Grad;
    if (f.kind == Value::Kind::Func) {
        g.func = f.func;
        return g;
    }
    if (f.kind == Value::Kind::Builtin && f.builtin) {
        g.builtin = f.builtin;
        return g;
    }
    type_error(e.args[1]->span,
               who() + "wp.grad() takes a @wp.func function or a builtin function");
}

Value Builder::call_gradient(const Value& g, const ast::Expr& e) {
    const std::string what = who() + grad_name(g) + ": ";
    ir::Instr* grad = nullptr;
    const types::Type* result = nullptr;
    if (g.func) {
        std::vector<VarId> args;
        ir::Function* f = bind_function_call(g.func, e, args);
        for (size_t i = 0; i < f->params.size(); ++i) {
            const types::Type* t = f->type_of(f->params[i]);
            if (!t->is_value() && !t->is_struct())
                type_error(e.span, what + "parameter '" + f->param_names[i] + "' is " + t->name +
                                       "; only functions of values and structs can be "
                                       "differentiated in forward code");
        }
        result = f->return_type;
        grad = &emit(InstrKind::Grad, e.span.line);
        grad->func = f;
        grad->args = std::move(args);
    } else {
        // The builtin's overload and argument conversions are those of the call f(args...);
        // its Call becomes the Grad of the same entry at the same arguments.
        Value r = call_builtin(*g.builtin, e);
        ir::Block& block = *current_block();
        if (r.kind != Value::Kind::Var || block.empty() || block.back().kind != InstrKind::Call ||
            block.back().dsts.size() != 1 || block.back().dsts[0] != r.var)
            type_error(e.span, what + "this call of " + g.builtin->name +
                                   "() has no differentiable result");
        ir::Instr& call = block.back();
        const Builtin& entry = *call.builtin;
        if (!entry.differentiable || ir::is_atomic_call(call) || ir::writes_last_array(call) ||
            ir::writes_first_array(call))
            type_error(e.span, what + entry.name + "() is not differentiable");
        for (VarId a : call.args)
            if (!m_fn.type_of(a)->is_value())
                type_error(e.span, what +
                                       "only builtins of values can be differentiated in "
                                       "forward code (an argument is " +
                                       m_fn.type_of(a)->name + ")");
        result = m_fn.type_of(r.var);
        call.kind = InstrKind::Grad;
        call.dsts.clear();
        grad = &call;
    }
    if (!result->is_float())
        type_error(e.span, what +
                               "the function must return one float scalar to be "
                               "differentiated (it returns " +
                               result->name + ")");
    grad->value = types::ConstValue{result, false, 1, 1.0};
    Value out;
    out.kind = Value::Kind::Tuple;
    for (VarId a : grad->args) {
        const types::Type* t = m_fn.type_of(a);
        if (!types::has_gradient(t)) continue;
        VarId d = m_fn.new_var(t);
        grad->dsts.push_back(d);
        out.elements.push_back(var_value(d));
    }
    if (out.elements.empty())
        type_error(e.span, what + "no argument has a gradient (only float values have one)");
    return out.elements.size() == 1 ? out.elements[0] : out;
}

void Builder::rebind_error(const ast::Expr& target, const Value& held, const Value* v) {
    // Not a type error: the program has no meaning (Warp reports a WarpCodegenError).
    if (held.kind == Value::Kind::Grad)
        fail(target.span, ErrorKind::Compile,
             who() + "Cannot reassign local '" + target.name + "', which holds " + grad_name(held) +
                 " (kernels have no function pointers)");
    if (held.kind == Value::Kind::Tuple)
        type_error(target.span, who() + "cannot assign a single value to '" + target.name +
                                    "', which holds a tuple");
    const bool is_type = held.kind == Value::Kind::Type;
    const bool same_kind =
        v && (is_type ? v->kind == Value::Kind::Type
                      : v->kind == Value::Kind::Func || v->kind == Value::Kind::Grad ||
                            (v->kind == Value::Kind::Builtin && v->builtin));
    const std::string kind = is_type ? "type" : "function";
    fail(target.span, ErrorKind::Compile,
         who() + "rebinding " + kind + "-valued local '" + target.name + "' to " +
             (same_kind ? "a different " + kind : "a non-" + kind + " value") +
             " is not supported (kernels have no function pointers)");
}

}  // namespace treadle::sema
