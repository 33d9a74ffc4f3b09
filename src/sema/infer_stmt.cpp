// src/sema/infer_stmt.cpp -- inference of statements: assignment, if, loops, return
#include "common/assert.h"
#include "sema/infer_internal.h"

namespace treadle::sema {

using ast::StmtKind;
using ir::InstrKind;
using ir::VarId;

void Builder::block(const std::vector<ast::StmtPtr>& stmts) {
    for (const auto& s : stmts) {
        if (m_terminated) return;  // code after return/break/continue never runs
        stmt(*s);
    }
}

void Builder::bind(const std::string& name, VarId var, const ast::Span& span) {
    auto it = m_scope.find(name);
    if (it != m_scope.end() && m_fn.type_of(it->second) != m_fn.type_of(var))
        type_error(span, who() + "cannot assign a value of type " + m_fn.type_of(var)->name +
                             " to '" + name + "', which has type " +
                             m_fn.type_of(it->second)->name + " (a local cannot change type)");
    if (m_fn.vars[var].hint.empty()) m_fn.vars[var].hint = name;
    m_scope[name] = var;
}

namespace {
bool is_tid_call(const ast::Expr& e) {
    if (e.kind != ast::ExprKind::Call || e.args.empty()) return false;
    const ast::Expr& callee = *e.args[0];
    return (callee.kind == ast::ExprKind::Attribute && callee.name == "tid") ||
           (callee.kind == ast::ExprKind::Name && callee.name == "tid");
}
}  // namespace

void Builder::assign_to(const ast::Expr& target, const Value& v, const ast::Expr& value_expr) {
    int line = target.span.line;
    std::string slot = adjoint_slot(target);
    if (!slot.empty()) {
        const types::Type* t = m_fn.type_of(m_scope.at(slot));
        ArgInfo vi = arg_info(v, value_expr);
        if (vi.type != t && !(vi.weak && t->is_scalar()))
            type_error(value_expr.span, who() + "the gradient " + slot.substr(8) + " is " +
                                            t->name + ", not " + vi.type->name);
        ir::VarId var = coerce(v, t, value_expr);
        if (m_fn.vars[var].mutable_ || m_fn.vars[var].param)
            var = emit_value(InstrKind::Copy, line, t, {var});
        bind(slot, var, target.span);
        return;
    }
    switch (target.kind) {
        case ast::ExprKind::Name: {
            VarId var;
            auto existing = m_scope.find(target.name);
            if (v.kind == Value::Kind::Const && existing != m_scope.end()) {
                var = coerce(v, m_fn.type_of(existing->second), value_expr);
            } else {
                var = materialize(v, value_expr);
            }
            if (m_fn.type_of(var)->is_tuple())
                type_error(target.span, who() + "cannot assign several values to one name '" +
                                            target.name + "'; unpack them: a, b = ...");
            // Snapshot mutable variables so later merges/carries cannot change this binding.
            if (m_fn.vars[var].mutable_ || m_fn.vars[var].param)
                var = emit_value(InstrKind::Copy, line, m_fn.type_of(var), {var});
            bind(target.name, var, target.span);
            return;
        }
        case ast::ExprKind::Tuple:
        case ast::ExprKind::List: {
            if (v.kind != Value::Kind::Tuple)
                type_error(target.span, who() + "cannot unpack a single value into " +
                                            std::to_string(target.args.size()) + " names");
            if (v.elements.size() != target.args.size())
                type_error(target.span, who() + "cannot unpack " +
                                            std::to_string(v.elements.size()) + " values into " +
                                            std::to_string(target.args.size()) + " names");
            for (size_t i = 0; i < target.args.size(); ++i)
                assign_to(*target.args[i], v.elements[i], value_expr);
            return;
        }
        case ast::ExprKind::Subscript: {
            Value base = eval(*target.args[0]);
            if (base.kind == Value::Kind::Var &&
                (m_fn.type_of(base.var)->is_vector() || m_fn.type_of(base.var)->is_quat() ||
                 m_fn.type_of(base.var)->is_matrix()))
                return assign_component(target, base.var, v, value_expr);
            if (base.kind != Value::Kind::Var || !m_fn.type_of(base.var)->is_array())
                type_error(target.span, who() + "only array elements can be assigned by index");
            const types::Type* at = m_fn.type_of(base.var);
            std::vector<VarId> args{base.var};
            const ast::Expr& index = *target.args[1];
            std::vector<const ast::Expr*> idx = index_exprs(index);
            if ((int)idx.size() != at->ndim)
                type_error(target.span, who() + "assigning to an element of a " +
                                            std::to_string(at->ndim) + "-D array needs " +
                                            std::to_string(at->ndim) +
                                            (at->ndim == 1 ? " index, got " : " indices, got ") +
                                            std::to_string(idx.size()));
            for (const ast::Expr* i : idx)
                args.push_back(index_operand(*i, who() + "array index "));
            ArgInfo vi = arg_info(v, value_expr);
            if (!at->dtype->is_scalar() ? vi.type != at->dtype
                                        : (!unify_scalars({{at->dtype, false}, vi}) ||
                                           (!vi.weak && vi.type != at->dtype)))
                type_error(value_expr.span,
                           who() + "cannot store a value of type " +
                               (vi.weak ? std::string(vi.type->is_float() ? "float literal"
                                                                          : "int literal")
                                        : vi.type->name) +
                               " into an array of " + at->dtype->name);
            args.push_back(coerce(v, at->dtype, value_expr));
            ir::Instr& st = emit(InstrKind::Store, line);
            st.args = std::move(args);
            return;
        }
        case ast::ExprKind::Attribute: {
            Value base = eval(*target.args[0]);
            if (base.kind == Value::Kind::Var &&
                (m_fn.type_of(base.var)->is_vector() || m_fn.type_of(base.var)->is_quat()))
                return assign_component(target, base.var, v, value_expr);
            if (base.kind == Value::Kind::Var && m_fn.type_of(base.var)->is_struct())
                return assign_field(target, base.var, v, value_expr);
            type_error(target.span, who() + "cannot assign to attribute '" + target.name + "'");
        }
        default:
            fail(target.span, ErrorKind::Syntax, who() + "cannot assign to this expression");
    }
}

void Builder::assign_component(const ast::Expr& target, VarId base, const Value& v,
                               const ast::Expr& value_expr) {
    const ast::Expr& base_expr = *target.args[0];
    if (base_expr.kind == ast::ExprKind::Name && !m_scope.count(base_expr.name))
        type_error(target.span, who() + "cannot assign to a component of '" + base_expr.name +
                                    "', which is not a local variable (a global or constant is "
                                    "read-only in kernels; copy it to a local first)");
    const types::Type* t = m_fn.type_of(base);
    int line = target.span.line;
    std::vector<VarId> args{base};
    const types::Type* part = types::scalar_type(t->scalar);
    const Builtin* update = &table_entry("with_component");
    if (target.kind == ast::ExprKind::Attribute) {
        static const std::string k_components = "xyzw";
        size_t c = target.name.size() == 1 ? k_components.find(target.name[0]) : std::string::npos;
        if (c == std::string::npos || (int)c >= t->rows)
            type_error(target.span,
                       who() + "'" + t->name + "' has no component '" + target.name + "'");
        args.push_back(emit_const(types::ConstValue{types::int32_type(), false, (int64_t)c, 0},
                                  types::int32_type(), line));
    } else {
        std::vector<const ast::Expr*> idx = index_exprs(*target.args[1]);
        if (idx.size() > (t->is_matrix() ? 2u : 1u))
            type_error(target.span, who() + "too many indices for " + t->name);
        for (const ast::Expr* i : idx) args.push_back(index_operand(*i, who() + "index "));
        if (t->is_matrix() && idx.size() == 1) {
            part = types::vector_type(t->cols, t->scalar);
            update = &table_entry("with_row");
        }
    }
    ArgInfo vi = arg_info(v, value_expr);
    if (!(vi.type == part ||
          (vi.weak && part->is_scalar() && unify_scalars({{part, false}, vi}) == part)))
        type_error(value_expr.span, who() + "cannot assign a value of type " + vi.type->name +
                                        " to a component of type " + part->name);
    args.push_back(coerce(v, part, value_expr));
    VarId updated = emit_call(line, t, std::move(args), *update);
    write_back(base_expr, updated, value_expr);
}

namespace {

/// An expression that evaluates to a constant without emitting code: a literal, a global
/// name (not a local), or the negation of one.
bool constant_like(const ast::Expr& e, const Scope& scope) {
    if (e.kind == ast::ExprKind::Constant) return e.const_kind == ast::ConstKind::Int;
    if (e.kind == ast::ExprKind::Name) return !scope.count(e.name);
    if (e.kind == ast::ExprKind::Attribute)
        return e.args[0]->kind == ast::ExprKind::Name && !scope.count(e.args[0]->name);
    if (e.kind == ast::ExprKind::UnaryOp && e.unary_op == ast::UnaryOpKind::Neg)
        return constant_like(*e.args[0], scope);
    return false;
}

/// Whether `stmts` break or continue the loop they are in (nested loops excluded).
bool breaks_or_continues(const std::vector<ast::StmtPtr>& stmts) {
    for (const auto& s : stmts) {
        if (s->kind == ast::StmtKind::Break || s->kind == ast::StmtKind::Continue) return true;
        if (s->kind == ast::StmtKind::For || s->kind == ast::StmtKind::While) continue;
        if (breaks_or_continues(s->body) || breaks_or_continues(s->orelse)) return true;
    }
    return false;
}

/// Whether `e` contains a call spelled `wp.static(...)` or `static(...)` (judged by the
/// spelling alone: it only decides whether a loop is unrolled).
bool mentions_static(const ast::Expr& e) {
    if (e.kind == ast::ExprKind::Call && !e.args.empty() && e.args[0]->name == "static" &&
        (e.args[0]->kind == ast::ExprKind::Name || e.args[0]->kind == ast::ExprKind::Attribute))
        return true;
    for (const auto& a : e.args)
        if (a && mentions_static(*a)) return true;
    for (const auto& k : e.keywords)
        if (k.value && mentions_static(*k.value)) return true;
    return false;
}

/// The number of iterations of range(start, stop, step) (step != 0), computed in unsigned
/// arithmetic: the distance between two int64 bounds always fits in a uint64.
uint64_t trip_count(int64_t start, int64_t stop, int64_t step) {
    if (step > 0 ? stop <= start : stop >= start) return 0;
    uint64_t distance =
        step > 0 ? (uint64_t)stop - (uint64_t)start : (uint64_t)start - (uint64_t)stop;
    uint64_t stride = step > 0 ? (uint64_t)step : ~(uint64_t)step + 1;  // |step|, even INT64_MIN
    return distance / stride + (distance % stride != 0);
}

bool mentions_static(const std::vector<ast::StmtPtr>& stmts) {
    for (const auto& s : stmts) {
        for (const ast::Expr* e : {s->value.get(), s->test.get()})
            if (e && mentions_static(*e)) return true;
        for (const auto& t : s->targets)
            if (mentions_static(*t)) return true;
        if (mentions_static(s->body) || mentions_static(s->orelse)) return true;
    }
    return false;
}

}  // namespace

bool Builder::try_unroll(const ast::Stmt& s) {
    // Warp's rule: range() with constant bounds (literals, globals, wp.static()), at most
    // max_unroll iterations (the kernel's option, 16 by default; no limit when the body uses
    // wp.static()) and no break/continue is unrolled; each iteration sees its index as a
    // constant.
    constexpr int64_t k_static_unroll_limit = 1 << 16;
    const ast::Expr& iter = *s.value;
    if (iter.kind != ast::ExprKind::Call || iter.args.empty() ||
        iter.args[0]->kind != ast::ExprKind::Name || iter.args[0]->name != "range" ||
        m_scope.count("range") || !iter.keywords.empty() || iter.args.size() < 2 ||
        iter.args.size() > 4 || s.targets[0]->kind != ast::ExprKind::Name ||
        breaks_or_continues(s.body))
        return false;
    std::vector<int64_t> bounds;
    for (size_t i = 1; i < iter.args.size(); ++i) {
        if (!constant_like(*iter.args[i], m_scope) && !is_static_call(*iter.args[i])) return false;
        Value v = eval(*iter.args[i]);
        if (v.kind != Value::Kind::Const || !v.constant.type->is_integer()) return false;
        bounds.push_back(v.constant.i);
    }
    int64_t start = bounds.size() == 1 ? 0 : bounds[0];
    int64_t stop = bounds.size() == 1 ? bounds[0] : bounds[1];
    int64_t step = bounds.size() == 3 ? bounds[2] : 1;
    if (step == 0) return false;
    uint64_t trips = trip_count(start, stop, step);
    int64_t limit = mentions_static(s.body) ? k_static_unroll_limit : m_program.max_unroll;
    if (limit < 0 || trips > (uint64_t)limit) return false;
    const ast::Expr& target = *s.targets[0];
    m_unrolled_indices.emplace_back(target.name, 0);
    for (uint64_t k = 0; k < trips && !m_terminated; ++k) {
        // start + k * step lies between the bounds, but k * step alone may not fit an int64.
        int64_t i = (int64_t)((uint64_t)start + k * (uint64_t)step);
        VarId index = emit_const(types::ConstValue{types::int32_type(), false, i, 0},
                                 types::int32_type(), s.span.line);
        bind(target.name, index, target.span);
        m_unrolled_indices.back().second = i;
        block(s.body);
    }
    m_unrolled_indices.pop_back();
    return true;
}

namespace {
/// The operator builtin `x op= y` applies (table lookup by the operator's spelling).
const char* aug_op_name(ast::BinOpKind op) {
    const Builtin* b = find_syntax_operator(ast::op_text(op), 2);
    return b ? b->name : "?";
}
}  // namespace

void Builder::stmt(const ast::Stmt& s) {
    int line = s.span.line;
    switch (s.kind) {
        case StmtKind::Pass:
        case StmtKind::Assert:  // like Warp, asserts are compiled only in debug mode
            return;
        case StmtKind::ExprStmt:
            if (s.value->kind == ast::ExprKind::Constant) return;  // a docstring or a literal
            eval(*s.value);
            return;
        case StmtKind::Assign: {
            if (s.targets.size() > 1)
                fail(s.span, ErrorKind::Syntax,
                     who() +
                         "multiple assignment targets (a = b = c) are not supported; "
                         "assign each name separately");
            const ast::Expr& target = *s.targets[0];
            if (target.kind == ast::ExprKind::Tuple && is_tid_call(*s.value)) {
                assign_to(target, emit_tid((int)target.args.size(), *s.value), *s.value);
                return;
            }
            Value v = eval(*s.value);
            assign_to(target, v, *s.value);
            return;
        }
        case StmtKind::AnnAssign: {
            const types::Type* t = eval_annotation(*s.annotation);
            if (!s.value)
                fail(s.span, ErrorKind::Syntax,
                     who() + "an annotated declaration needs a value (x: float = 0.0)");
            const ast::Expr& target = *s.targets[0];
            if (target.kind != ast::ExprKind::Name)
                fail(target.span, ErrorKind::Syntax, who() + "only a name can be annotated");
            Value v = eval(*s.value);
            ArgInfo ai = arg_info(v, *s.value);
            if (!(ai.type == t || (ai.weak && unify_scalars({{t, false}, ai}) == t)))
                type_error(s.value->span, who() + "cannot assign a value of type " + ai.type->name +
                                              " to '" + target.name + "' declared as " + t->name);
            VarId var = coerce(v, t, *s.value);
            if (m_fn.vars[var].mutable_ || m_fn.vars[var].param)
                var = emit_value(InstrKind::Copy, line, t, {var});
            bind(target.name, var, target.span);
            return;
        }
        case StmtKind::AugAssign: {
            const ast::Expr& target = *s.targets[0];
            const char* op = aug_op_name(s.aug_op);
            if (target.kind == ast::ExprKind::Subscript && adjoint_slot(target).empty() &&
                (s.aug_op == ast::BinOpKind::Add || s.aug_op == ast::BinOpKind::Sub)) {
                Value base = eval(*target.args[0]);
                if (base.kind == Value::Kind::Var && m_fn.type_of(base.var)->is_array() &&
                    m_fn.type_of(base.var)->dtype->is_value()) {
                    // arr[i] += v is an atomic add, as in Warp.
                    const Builtin* b =
                        find_builtin(s.aug_op == ast::BinOpKind::Add ? "atomic_add" : "atomic_sub");
                    const types::Type* at = m_fn.type_of(base.var);
                    std::vector<VarId> args{base.var};
                    const ast::Expr& index = *target.args[1];
                    std::vector<const ast::Expr*> idx = index_exprs(index);
                    if ((int)idx.size() != at->ndim)
                        type_error(target.span, who() + "'" + ast::op_text(s.aug_op) + "=' on a " +
                                                    std::to_string(at->ndim) + "-D array needs " +
                                                    std::to_string(at->ndim) + " indices");
                    for (const ast::Expr* i : idx)
                        args.push_back(index_operand(*i, who() + "array index "));
                    Value v = eval(*s.value);
                    ArgInfo vi = arg_info(v, *s.value);
                    if (!(vi.type == at->dtype ||
                          (vi.weak && unify_scalars({{at->dtype, false}, vi}) == at->dtype)))
                        type_error(s.value->span,
                                   who() + "cannot add a value of type " + vi.type->name +
                                       " to an element of an array of " + at->dtype->name);
                    args.push_back(coerce(v, at->dtype, *s.value));
                    emit_call(line, at->dtype, std::move(args), *b);
                    return;
                }
            }
            Value cur = eval(target);
            Value rhs = eval(*s.value);
            Value result = binary(op, ast::op_text(s.aug_op), cur, rhs, target, *s.value, target);
            assign_to(target, result, *s.value);
            return;
        }
        case StmtKind::If: {
            VarId c = condition(*s.test);
            Scope before = m_scope;
            ir::Block* parent = m_block;
            ir::Instr& ifi = emit(InstrKind::If, line);
            ifi.args = {c};
            m_block = &ifi.body;
            m_terminated = false;
            block(s.body);
            bool then_term = m_terminated;
            Scope then_scope = m_scope;
            m_scope = before;
            m_block = &ifi.orelse;
            m_terminated = false;
            block(s.orelse);
            bool else_term = m_terminated;
            Scope else_scope = m_scope;
            m_terminated = then_term && else_term;
            if (then_term || else_term) {
                m_scope = then_term ? else_scope : then_scope;
                m_block = parent;
                return;
            }
            Scope merged;
            for (const auto& [name, vt] : then_scope) {
                auto ve = else_scope.find(name);
                if (ve == else_scope.end()) continue;  // defined in one branch only
                if (ve->second == vt) {
                    merged[name] = vt;
                    continue;
                }
                if (m_fn.type_of(vt) != m_fn.type_of(ve->second))
                    type_error(s.span, who() + "'" + name + "' has type " + m_fn.type_of(vt)->name +
                                           " in one branch and " + m_fn.type_of(ve->second)->name +
                                           " in the other");
                VarId m = m_fn.new_var(m_fn.type_of(vt), name, true);
                m_block = &ifi.body;
                emit(InstrKind::Assign, line).dsts = {m};
                m_block->back().args = {vt};
                m_block = &ifi.orelse;
                emit(InstrKind::Assign, line).dsts = {m};
                m_block->back().args = {ve->second};
                merged[name] = m;
            }
            m_scope = merged;
            m_block = parent;
            return;
        }
        case StmtKind::For:
        case StmtKind::While: {
            if (!s.orelse.empty())
                fail(s.span, ErrorKind::Syntax,
                     who() + "an 'else' clause on a loop is not supported in kernels");
            if (s.kind == StmtKind::For && try_unroll(s)) return;
            std::vector<std::string> names, roots;
            collect_assigned(s.body, names, &roots);
            // A component or field assignment re-binds its vector/struct; arrays are written
            // in place and never re-bound that way.
            for (const std::string& r : roots) {
                auto it = m_scope.find(r);
                if (it != m_scope.end() && !m_fn.type_of(it->second)->is_array())
                    names.push_back(r);
            }
            std::map<std::string, VarId> carried;
            for (const std::string& name : names) {
                auto it = m_scope.find(name);
                if (it == m_scope.end() || carried.count(name)) continue;
                VarId l = m_fn.new_var(m_fn.type_of(it->second), name, true);
                emit(InstrKind::Assign, line).dsts = {l};
                m_block->back().args = {it->second};
                carried[name] = l;
                m_scope[name] = l;
            }
            Scope before_body = m_scope;
            ir::Block* parent = m_block;
            if (s.kind == StmtKind::For) {
                const ast::Expr& iter = *s.value;
                bool is_range = iter.kind == ast::ExprKind::Call && !iter.args.empty() &&
                                iter.args[0]->kind == ast::ExprKind::Name &&
                                iter.args[0]->name == "range" && !m_scope.count("range");
                if (!is_range)
                    type_error(iter.span, who() + "for loops can only iterate over range(...)");
                size_t n = iter.args.size() - 1;
                if (n < 1 || n > 3 || !iter.keywords.empty())
                    type_error(iter.span, who() + "range() takes 1 to 3 positional arguments");
                std::vector<Value> vals;
                std::vector<ArgInfo> infos;
                for (size_t i = 1; i <= n; ++i) {
                    vals.push_back(eval(*iter.args[i]));
                    infos.push_back(arg_info(vals.back(), *iter.args[i]));
                }
                const types::Type* t = unify_scalars(infos);
                if (!t || !t->is_integer())
                    type_error(iter.span, who() +
                                              "range() arguments must be integers of one type, "
                                              "got " +
                                              describe_args(infos));
                std::vector<VarId> bounds;
                types::ConstValue zero{t, false, 0, 0.0}, one{t, false, 1, 0.0};
                if (n == 1) bounds.push_back(emit_const(zero, t, line));
                for (size_t i = 0; i < n; ++i)
                    bounds.push_back(coerce(vals[i], t, *iter.args[i + 1]));
                if (n < 3) bounds.push_back(emit_const(one, t, line));
                VarId counter = m_fn.new_var(t, "", true);
                ir::Instr& fr = emit(InstrKind::ForRange, line);
                fr.dsts = {counter};
                fr.args = bounds;
                m_block = &fr.body;
                m_loop_carried.push_back(carried);
                const ast::Expr& target = *s.targets[0];
                if (target.kind != ast::ExprKind::Name)
                    fail(target.span, ErrorKind::Syntax,
                         who() + "a for loop needs one loop variable");
                VarId iv = emit_value(InstrKind::Copy, line, t, {counter});
                bind(target.name, iv, target.span);
            } else {
                ir::Instr& lp = emit(InstrKind::Loop, line);
                m_block = &lp.body;
                m_loop_carried.push_back(carried);
                VarId c = condition(*s.test);
                VarId nc = emit_value(InstrKind::Logical, line, types::bool_type(), {c}, "!");
                ir::Instr& exit = emit(InstrKind::If, line);
                exit.args = {nc};
                exit.body.emplace_back(InstrKind::Break, line);
            }
            m_terminated = false;
            block(s.body);
            if (!m_terminated) {
                for (const auto& [name, l] : m_loop_carried.back()) {
                    VarId cur = m_scope.at(name);
                    if (cur == l) continue;
                    emit(InstrKind::Assign, line).dsts = {l};
                    m_block->back().args = {cur};
                }
            }
            m_loop_carried.pop_back();
            m_terminated = false;
            m_block = parent;
            m_scope = before_body;
            return;
        }
        case StmtKind::Break:
        case StmtKind::Continue: {
            if (m_loop_carried.empty())
                fail(s.span, ErrorKind::Syntax,
                     who() + "'" + (s.kind == StmtKind::Break ? "break" : "continue") +
                         "' outside a loop");
            for (const auto& [name, l] : m_loop_carried.back()) {
                VarId cur = m_scope.at(name);
                if (cur == l) continue;
                emit(InstrKind::Assign, line).dsts = {l};
                m_block->back().args = {cur};
            }
            emit(s.kind == StmtKind::Break ? InstrKind::Break : InstrKind::Continue, line);
            m_terminated = true;
            return;
        }
        case StmtKind::Return: {
            std::vector<VarId> vals;
            if (s.value) {
                if (m_fn.is_kernel)
                    type_error(s.value->span, who() + "kernels cannot return a value");
                Value v = eval(*s.value);
                std::vector<Value> parts;
                std::vector<const ast::Expr*> exprs;
                if (v.kind == Value::Kind::Tuple) {
                    parts = v.elements;
                    for (size_t i = 0; i < parts.size(); ++i)
                        exprs.push_back(s.value->kind == ast::ExprKind::Tuple
                                            ? s.value->args[i].get()
                                            : s.value.get());
                } else {
                    parts = {v};
                    exprs = {s.value.get()};
                }
                std::vector<const types::Type*> types;
                if (m_return_type) {
                    types = m_return_type->is_tuple()
                                ? m_return_type->elements
                                : std::vector<const types::Type*>{m_return_type};
                    if (types.size() != parts.size())
                        type_error(s.value->span,
                                   who() + "returns " + std::to_string(parts.size()) +
                                       " values here but " + std::to_string(types.size()) +
                                       " elsewhere (" + m_return_type->name + ")");
                    for (size_t i = 0; i < parts.size(); ++i) {
                        ArgInfo ai = arg_info(parts[i], *exprs[i]);
                        if (!(ai.type == types[i] ||
                              (ai.weak && unify_scalars({{types[i], false}, ai}) == types[i])))
                            type_error(exprs[i]->span,
                                       who() + "returns a value of type " + ai.type->name +
                                           " here but " + types[i]->name +
                                           (m_return_annotated ? " is declared" : " elsewhere"));
                        vals.push_back(coerce(parts[i], types[i], *exprs[i]));
                    }
                } else {
                    for (size_t i = 0; i < parts.size(); ++i) {
                        vals.push_back(materialize(parts[i], *exprs[i]));
                        types.push_back(m_fn.type_of(vals.back()));
                    }
                    m_return_type = types.size() == 1 ? types[0] : types::tuple_type(types);
                }
            } else if (m_return_type && !m_return_type->is_void()) {
                type_error(s.span, who() + "'return' without a value in a function that returns " +
                                       m_return_type->name);
            } else if (!m_fn.is_kernel) {
                m_return_type = types::void_type();
            }
            emit(InstrKind::Return, line).args = vals;
            m_terminated = true;
            return;
        }
        case StmtKind::FunctionDef:
            fail(s.span, ErrorKind::Syntax,
                 who() + "nested function definitions are not supported in kernels");
        case StmtKind::ClassDef:
            fail(s.span, ErrorKind::Syntax,
                 who() + "class definitions are not supported in kernels");
        case StmtKind::Import:
        case StmtKind::ImportFrom:
            fail(s.span, ErrorKind::Syntax,
                 who() + "import statements are not supported in kernels");
        case StmtKind::Global:
        case StmtKind::Nonlocal:
            fail(s.span, ErrorKind::Syntax,
                 who() + "'global' and 'nonlocal' are not supported in kernels");
    }
}

}  // namespace treadle::sema
