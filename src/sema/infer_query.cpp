// src/sema/infer_query.cpp -- geometry queries: `*_next(query, index)` and for loops over queries
//
// A query (wp.hash_grid_query(...), wp.mesh_query_aabb(...), ...) is a local value of a native
// struct type holding its traversal state. Its QueryNext builtin advances the state and the
// index it yields: both are local variables, copied before the call and re-bound to the copies,
// which the native function updates through references (as the Random builtins do the state).
#include "sema/infer_internal.h"

namespace treadle::sema {

using ast::ExprKind;
using ir::InstrKind;
using ir::VarId;

namespace {

constexpr const char* k_loop_kinds =
    "for loops can only iterate over range(...) or reversed(range(...))";

}  // namespace

Value Builder::call_query_next(const Builtin& b, const ast::Expr& e) {
    int line = e.span.line;
    const std::string name = b.name;
    const size_t nargs = e.args.size() - 1;
    if (nargs < 2)
        type_error(e.span, name + "(): needs the query and the index (" + b.signature + ")");
    const ast::Expr& qe = *e.args[1];
    const ast::Expr& ie = *e.args[2];
    auto local = [&](const ast::Expr& x, const types::Type** t) {
        if (x.kind != ExprKind::Name || !m_scope.count(x.name)) return false;
        *t = m_fn.type_of(m_scope.at(x.name));
        return true;
    };
    const types::Type* qt = nullptr;
    const types::Type* it = nullptr;
    if (!local(qe, &qt) || !qt->is_native_struct())
        type_error(qe.span, name + "(): the first argument must be a local query variable");
    if (!local(ie, &it) || it != types::int32_type())
        type_error(ie.span, name + "(): the index must be a local int32 variable (index = int(0))");
    std::vector<Value> vals;
    const VarId q0 = m_scope.at(qe.name);
    const VarId i0 = m_scope.at(ie.name);
    std::vector<ArgInfo> infos{{qt, false}, {types::int32_type(), false}};
    for (size_t i = 3; i < e.args.size(); ++i) {
        vals.push_back(eval(*e.args[i]));
        infos.push_back(arg_info(vals.back(), *e.args[i]));
    }
    auto sig = b.rule(infos);
    if (!sig)
        type_error(e.span, name + "(): no overload accepts " + describe_args(infos) +
                               " (signature: " + b.signature + ")");
    VarId q = emit_value(InstrKind::Copy, line, qt, {q0});
    VarId idx = emit_value(InstrKind::Copy, line, types::int32_type(), {i0});
    std::vector<VarId> args{q, idx};
    for (size_t i = 0; i < vals.size(); ++i)
        args.push_back(coerce(vals[i], sig->params[i + 2], *e.args[i + 3]));
    VarId r = emit_call(line, sig->ret, std::move(args), b);
    bind(qe.name, q, qe.span);
    bind(ie.name, idx, ie.span);
    return var_value(r);
}

bool Builder::query_loop(const ast::Stmt& s) {
    const ast::Expr& iter = *s.value;
    // for i in wp.bvh_query_aabb(...), or over a query held in a local: for i in q
    const bool local = iter.kind == ExprKind::Name && m_scope.count(iter.name);
    if (!local && (iter.kind != ExprKind::Call || iter.args.empty() ||
                   (iter.args[0]->kind == ExprKind::Name && !m_scope.count(iter.args[0]->name) &&
                    (iter.args[0]->name == "range" || iter.args[0]->name == "reversed"))))
        return false;
    const int line = s.span.line;
    Value qv = eval(iter);
    const types::Type* qt = qv.kind == Value::Kind::Var ? m_fn.type_of(qv.var) : nullptr;
    const Builtin* next = qt && qt->is_native_struct() ? builtins::find_query_next(qt) : nullptr;
    if (!next) type_error(iter.span, who() + k_loop_kinds);
    const ast::Expr& target = *s.targets[0];
    if (target.kind != ExprKind::Name)
        fail(target.span, ErrorKind::Syntax, who() + "a for loop needs one loop variable");
    // the state and the index live in hidden locals that the loop carries
    const std::string qname =
        "__query_" + std::to_string(line) + "_" + std::to_string(iter.span.col);
    const std::string iname = qname + "_index";
    bind(qname, qv.var, iter.span);
    bind(iname,
         emit_const(types::ConstValue{types::int32_type(), false, 0, 0.0}, types::int32_type(),
                    line),
         iter.span);
    std::map<std::string, VarId> carried = carry_loop_variables(s.body, line);
    for (const std::string& hidden : {qname, iname}) {
        VarId l = m_fn.new_var(m_fn.type_of(m_scope.at(hidden)), "", true);
        emit(InstrKind::Assign, line).dsts = {l};
        m_block->back().args = {m_scope.at(hidden)};
        carried[hidden] = l;
        m_scope[hidden] = l;
    }
    Scope before_body = m_scope;
    ir::Block* parent = m_block;
    ir::Instr& lp = emit(InstrKind::Loop, line);
    m_block = &lp.body;
    m_loop_carried.push_back(carried);
    enter_loop_exports(before_body, target.name);
    VarId q = emit_value(InstrKind::Copy, line, qt, {m_scope.at(qname)});
    VarId idx = emit_value(InstrKind::Copy, line, types::int32_type(), {m_scope.at(iname)});
    VarId more = emit_call(line, types::bool_type(), {q, idx}, *next);
    bind(qname, q, iter.span);
    bind(iname, idx, iter.span);
    VarId done = emit_value(InstrKind::Logical, line, types::bool_type(), {more}, "!");
    ir::Instr& exit = emit(InstrKind::If, line);
    exit.args = {done};
    exit.body.emplace_back(InstrKind::Break, line);
    bind(target.name, emit_value(InstrKind::Copy, line, types::int32_type(), {idx}), target.span);
    m_terminated = false;
    block(s.body);
    if (!m_terminated) write_back_carried(line);
    m_loop_carried.pop_back();
    m_terminated = false;
    m_block = parent;
    m_scope = before_body;
    leave_loop_exports();
    return true;
}

}  // namespace treadle::sema
