// src/sema/infer_loop.cpp -- inference of loops: static unrolling, dynamic for/while loops with
// their loop-carried variables, break and continue
#include "sema/infer_internal.h"

namespace treadle::sema {

using ast::StmtKind;
using ir::InstrKind;
using ir::VarId;

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

void Builder::check_unroll_budget(const ast::Stmt& s) {
    // Unrolling multiplies: a loop nest whose bodies use wp.static() is unrolled whatever its
    // trip counts, so without a budget a few nested loops make a source g++ takes hours on.
    if (++m_program.unrolled_copies > k_unroll_copy_budget)
        fail(s.span, ErrorKind::Compile,
             who() + "the loop at line " + std::to_string(s.span.line) +
                 " is unrolled into more than " + std::to_string(k_unroll_copy_budget) +
                 " copies of loop bodies in all (the compile budget for unrolled loops); "
                 "use fewer iterations, or a loop whose body does not use wp.static()");
    if (m_program.instructions > k_instruction_budget)
        fail(s.span, ErrorKind::Compile,
             who() + "the loop at line " + std::to_string(s.span.line) +
                 " is unrolled into more than " + std::to_string(k_instruction_budget) +
                 " IR instructions in all (the compile budget for generated code); "
                 "use fewer iterations, or a loop whose body does not use wp.static()");
}

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
        const ast::Expr& b = *iter.args[i];
        const bool tuple_len = b.kind == ast::ExprKind::Call && b.args.size() == 2 &&
                               b.args[0]->kind == ast::ExprKind::Name && b.args[0]->name == "len" &&
                               !m_scope.count("len") && tuple_local(*b.args[1]);
        if (!constant_like(b, m_scope) && !is_static_call(b) && !tuple_len) return false;
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
        check_unroll_budget(s);
        block(s.body);
    }
    m_unrolled_indices.pop_back();
    return true;
}

void Builder::loop_stmt(const ast::Stmt& s) {
    int line = s.span.line;
    if (!s.orelse.empty())
        fail(s.span, ErrorKind::Syntax,
             who() + "an 'else' clause on a loop is not supported in kernels");
    if (s.kind == StmtKind::For && (try_unroll(s) || query_loop(s))) return;
    std::map<std::string, VarId> carried =
        carry_loop_variables(s.body, line, s.kind == StmtKind::While ? s.test.get() : nullptr);
    Scope before_body = m_scope;
    ir::Block* parent = m_block;
    const bool named = s.kind == StmtKind::For && s.targets[0]->kind == ast::ExprKind::Name;
    enter_loop_exports(before_body, named ? s.targets[0]->name : "");
    if (s.kind == StmtKind::For)
        for_range_header(s, carried);
    else
        while_header(s, carried);
    m_terminated = false;
    block(s.body);
    if (!m_terminated) write_back_carried(line);
    m_loop_carried.pop_back();
    m_terminated = false;
    m_block = parent;
    m_scope = before_body;
    leave_loop_exports();
}

void Builder::enter_loop_exports(const Scope& before, const std::string& target) {
    m_loop_exports.push_back({before, target, {}, {}});
}

void Builder::leave_loop_exports() {
    LoopExports exports = std::move(m_loop_exports.back());
    m_loop_exports.pop_back();
    for (const auto& [name, v] : exports.vars)
        if (!exports.conflicting.count(name)) m_scope[name] = v;
}

std::map<std::string, VarId> Builder::carry_loop_variables(const std::vector<ast::StmtPtr>& body,
                                                           int line, const ast::Expr* test) {
    std::vector<std::string> names, roots;
    if (test) collect_call_writes(*test, names);
    collect_assigned(body, names, &roots);
    // A component or field assignment re-binds its vector/struct; arrays are written
    // in place and never re-bound that way.
    for (const std::string& r : roots) {
        auto it = m_scope.find(r);
        if (it != m_scope.end() && !m_fn.type_of(it->second)->is_array()) names.push_back(r);
    }
    // a view of a tile written in the body (row = t[i]; tile_assign(row, x)) re-binds its parent
    std::vector<std::pair<std::string, std::string>> views;
    collect_view_aliases(body, views);
    for (size_t i = 0; i < names.size(); ++i)
        for (const auto& [view, parent] : views) {
            auto it = m_scope.find(parent);
            if (view == names[i] && it != m_scope.end() && m_fn.type_of(it->second)->is_tile() &&
                std::find(names.begin(), names.end(), parent) == names.end())
                names.push_back(parent);
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
    return carried;
}

namespace {

/// Whether `e` is a call of the Python builtin `name` (not shadowed by a local).
bool is_builtin_call(const ast::Expr& e, const char* name, const Scope& scope) {
    return e.kind == ast::ExprKind::Call && !e.args.empty() &&
           e.args[0]->kind == ast::ExprKind::Name && e.args[0]->name == name && !scope.count(name);
}

}  // namespace

void Builder::reverse_range_bounds(std::vector<VarId>& bounds, const types::Type* t,
                                   const ast::Expr& at) {
    // reversed(range(a, b, s)) is range(a + (n - 1) * s, a - s, -s) with n = len(range(a, b, s))
    // = max(0, (b - a + s - 1) // s) for s > 0 and max(0, (a - b - s - 1) // -s) for s < 0
    // (a non-negative numerator, so C's division is Python's); n = 0 gives an empty range.
    const int line = at.span.line;
    auto val = [](VarId v) { return var_value(v); };
    auto op = [&](const char* name, const char* text, VarId x, VarId y) {
        return binary(name, text, val(x), val(y), at, at, at).var;
    };
    const VarId a = bounds[0], b = bounds[1], step = bounds[2];
    const VarId zero = emit_const(types::ConstValue{t, false, 0, 0.0}, t, line);
    const VarId one = emit_const(types::ConstValue{t, false, 1, 0.0}, t, line);
    const VarId neg_step = op("sub", "-", zero, step);
    const VarId up =
        op("floordiv", "//", op("sub", "-", op("add", "+", op("sub", "-", b, a), step), one), step);
    const VarId down =
        op("floordiv", "//", op("sub", "-", op("sub", "-", op("sub", "-", a, b), step), one),
           neg_step);
    const VarId positive =
        emit_value(InstrKind::Compare, line, types::bool_type(), {step, zero}, ">");
    VarId n = emit_value(InstrKind::Select, line, t, {positive, up, down});
    const VarId n_positive =
        emit_value(InstrKind::Compare, line, types::bool_type(), {n, zero}, ">");
    n = emit_value(InstrKind::Select, line, t, {n_positive, n, zero});
    const VarId last = op("add", "+", a, op("mul", "*", op("sub", "-", n, one), step));
    bounds = {last, op("sub", "-", a, step), neg_step};
}

void Builder::for_range_header(const ast::Stmt& s, const std::map<std::string, VarId>& carried) {
    int line = s.span.line;
    const ast::Expr* range_call = s.value.get();
    const bool reversed = is_builtin_call(*range_call, "reversed", m_scope);
    if (reversed) {
        if (range_call->args.size() != 2 || !range_call->keywords.empty() ||
            !is_builtin_call(*range_call->args[1], "range", m_scope))
            type_error(range_call->span, who() + "reversed() in a for loop takes one range(...)");
        range_call = range_call->args[1].get();
    }
    const ast::Expr& iter = *range_call;
    bool is_range = is_builtin_call(iter, "range", m_scope);
    if (!is_range)
        type_error(iter.span,
                   who() + "for loops can only iterate over range(...) or reversed(range(...))");
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
    for (size_t i = 0; i < n; ++i) bounds.push_back(coerce(vals[i], t, *iter.args[i + 1]));
    if (n < 3) bounds.push_back(emit_const(one, t, line));
    if (reversed) reverse_range_bounds(bounds, t, iter);
    VarId counter = m_fn.new_var(t, "", true);
    ir::Instr& fr = emit(InstrKind::ForRange, line);
    fr.dsts = {counter};
    fr.args = bounds;
    m_block = &fr.body;
    m_loop_carried.push_back(carried);
    const ast::Expr& target = *s.targets[0];
    if (target.kind != ast::ExprKind::Name)
        fail(target.span, ErrorKind::Syntax, who() + "a for loop needs one loop variable");
    VarId iv = emit_value(InstrKind::Copy, line, t, {counter});
    bind(target.name, iv, target.span);
}

void Builder::while_header(const ast::Stmt& s, const std::map<std::string, VarId>& carried) {
    int line = s.span.line;
    ir::Instr& lp = emit(InstrKind::Loop, line);
    m_block = &lp.body;
    m_loop_carried.push_back(carried);
    VarId c = condition(*s.test);
    VarId nc = emit_value(InstrKind::Logical, line, types::bool_type(), {c}, "!");
    ir::Instr& exit = emit(InstrKind::If, line);
    exit.args = {nc};
    exit.body.emplace_back(InstrKind::Break, line);
}

void Builder::write_back_carried(int line) {
    for (const auto& [name, l] : m_loop_carried.back()) {
        VarId cur = m_scope.at(name);
        if (cur == l) continue;
        emit(InstrKind::Assign, line).dsts = {l};
        m_block->back().args = {cur};
    }
    LoopExports& exports = m_loop_exports.back();
    for (const auto& [name, cur] : m_scope) {
        if (exports.before.count(name) || name == exports.target) continue;
        const types::Type* t = m_fn.type_of(cur);
        if (!t->is_element()) continue;  // no zero value (an array): not visible after
        auto it = exports.vars.find(name);
        if (it == exports.vars.end())
            it = exports.vars.emplace(name, m_fn.new_var(t, name, true)).first;
        if (m_fn.type_of(it->second) != t) {
            exports.conflicting.insert(name);
            continue;
        }
        emit(InstrKind::Assign, line).dsts = {it->second};
        m_block->back().args = {cur};
    }
}

void Builder::jump_stmt(const ast::Stmt& s) {
    if (m_loop_carried.empty())
        fail(s.span, ErrorKind::Syntax,
             who() + "'" + (s.kind == StmtKind::Break ? "break" : "continue") + "' outside a loop");
    write_back_carried(s.span.line);
    emit(s.kind == StmtKind::Break ? InstrKind::Break : InstrKind::Continue, s.span.line);
    m_terminated = true;
}

}  // namespace treadle::sema
