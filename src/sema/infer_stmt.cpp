// src/sema/infer_stmt.cpp -- inference of statements: the dispatch by kind, if, return
//
// Assignments are in infer_assign.cpp, loops in infer_loop.cpp.
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
    // Warp compares arrays by kind and dtype only: a local array (not a carried variable) may
    // be re-bound to a view of other dimensions (sub = a[:2]; sub = a[:2, 1]).
    const types::Type* was = it != m_scope.end() ? m_fn.type_of(it->second) : nullptr;
    const types::Type* now = m_fn.type_of(var);
    const bool rebind_array = was && was->is_array() && now->is_array() &&
                              was->dtype == now->dtype && was->indexed == now->indexed &&
                              was->fabric == now->fabric && !m_fn.vars[it->second].mutable_;
    if (it != m_scope.end() && was != now && !rebind_array)
        type_error(span, who() + "cannot assign a value of type " + m_fn.type_of(var)->name +
                             " to '" + name + "', which has type " +
                             m_fn.type_of(it->second)->name + " (a local cannot change type)");
    if (m_fn.vars[var].hint.empty()) m_fn.vars[var].hint = name;
    m_scope[name] = var;
}

void Builder::stmt(const ast::Stmt& s) {
    switch (s.kind) {
        case StmtKind::Pass:
            return;
        case StmtKind::Assert:  // like Warp, asserts are compiled only in debug mode
            if (m_program.debug) assert_stmt(s);
            return;
        case StmtKind::ExprStmt:
            if (s.value->kind == ast::ExprKind::Constant) return;  // a docstring or a literal
            eval(*s.value);
            return;
        case StmtKind::Assign:
            return assign_stmt(s);
        case StmtKind::AnnAssign:
            return ann_assign_stmt(s);
        case StmtKind::AugAssign:
            return aug_assign_stmt(s);
        case StmtKind::If:
            return if_stmt(s);
        case StmtKind::For:
        case StmtKind::While:
            return loop_stmt(s);
        case StmtKind::Break:
        case StmtKind::Continue:
            return jump_stmt(s);
        case StmtKind::Return:
            return return_stmt(s);
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

void Builder::if_stmt(const ast::Stmt& s) {
    Value test = eval(*s.test);
    if (auto truth = constant_truth(test)) {
        // Decided at compile time (Warp's rule): only the branch taken is compiled, in the
        // enclosing scope, so the names it binds stay visible.
        block(*truth ? s.body : s.orelse);
        return;
    }
    VarId c = condition_of(test, *s.test);
    Scope before = m_scope;
    ir::Block* parent = m_block;
    ir::Instr& ifi = emit(InstrKind::If, s.span.line);
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
    m_scope = merge_branches(s, ifi, then_scope, else_scope);
    m_block = parent;
}

Scope Builder::merge_branches(const ast::Stmt& s, ir::Instr& ifi, const Scope& then_scope,
                              const Scope& else_scope) {
    int line = s.span.line;
    Scope merged;
    // A name first bound in one branch only stays visible after the if, as in Warp: it holds
    // that branch's value, and the zero of its type when the other branch ran.
    std::vector<std::pair<std::string, VarId>> one_sided;
    for (const auto& [name, vt] : then_scope)
        if (!else_scope.count(name)) one_sided.push_back({name, vt});
    for (const auto& [name, ve] : else_scope)
        if (!then_scope.count(name)) one_sided.push_back({name, ve});
    for (const auto& [name, v] : one_sided) {
        const types::Type* t = m_fn.type_of(v);
        if (!t->is_element() && !t->is_tile()) continue;  // no zero (an array): not visible after
        const bool in_then = then_scope.count(name) != 0;
        VarId m = m_fn.new_var(t, name, true);
        m_block = in_then ? &ifi.body : &ifi.orelse;
        emit(InstrKind::Assign, line).dsts = {m};
        m_block->back().args = {v};
        m_block = in_then ? &ifi.orelse : &ifi.body;
        VarId zero = zero_of(t, line);
        emit(InstrKind::Assign, line).dsts = {m};
        m_block->back().args = {zero};
        merged[name] = m;
    }
    for (const auto& [name, vt] : then_scope) {
        auto ve = else_scope.find(name);
        if (ve == else_scope.end()) continue;  // defined in one branch only (above)
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
    return merged;
}

void Builder::assert_stmt(const ast::Stmt& s) {
    // The message names the statement as written (its first line) and where it is.
    std::string text = m_file.line_text(s.span.line);
    const size_t first = text.find_first_not_of(" \t");
    text = first == std::string::npos ? "" : text.substr(first);
    const std::string where = m_file.path + ":" + std::to_string(s.span.line);
    VarId ok = condition(*s.test);
    ir::Block* parent = m_block;
    ir::Instr& ifi = emit(InstrKind::If, s.span.line);
    ifi.args = {ok};
    m_block = &ifi.orelse;
    ir::Instr& fail_call = emit(InstrKind::Printf, s.span.line);
    fail_call.callee = "assert";
    fail_call.text = "Assertion failed: " + where + ": " + text;
    m_block = parent;
}

void Builder::return_stmt(const ast::Stmt& s) {
    std::vector<VarId> vals;
    if (s.value) {
        if (m_fn.is_kernel) type_error(s.value->span, who() + "kernels cannot return a value");
        vals = return_values(*s.value);
    } else if (m_return_type && !m_return_type->is_void()) {
        type_error(s.span, who() + "'return' without a value in a function that returns " +
                               m_return_type->name);
    } else if (!m_fn.is_kernel) {
        m_return_type = types::void_type();
    }
    for (VarId v : inout_values()) vals.push_back(v);  // tiles updated in place (see build)
    emit(InstrKind::Return, s.span.line).args = vals;
    m_terminated = true;
}

std::vector<VarId> Builder::return_values(const ast::Expr& value) {
    std::vector<VarId> vals;
    Value v = eval(value);
    std::vector<Value> parts;
    std::vector<const ast::Expr*> exprs;
    if (v.kind == Value::Kind::Tuple) {
        parts = v.elements;
        for (size_t i = 0; i < parts.size(); ++i)
            exprs.push_back(value.kind == ast::ExprKind::Tuple ? value.args[i].get() : &value);
    } else {
        parts = {v};
        exprs = {&value};
    }
    std::vector<const types::Type*> types;
    if (!m_return_type) {
        for (size_t i = 0; i < parts.size(); ++i) {
            vals.push_back(materialize(parts[i], *exprs[i]));
            types.push_back(m_fn.type_of(vals.back()));
        }
        m_return_type = types.size() == 1 ? types[0] : types::tuple_type(types);
        return vals;
    }
    types = m_return_type->is_tuple() ? m_return_type->elements
                                      : std::vector<const types::Type*>{m_return_type};
    if (types.size() != parts.size())
        type_error(value.span, who() + "returns " + std::to_string(parts.size()) +
                                   " values here but " + std::to_string(types.size()) +
                                   " elsewhere (" + m_return_type->name + ")");
    for (size_t i = 0; i < parts.size(); ++i) {
        ArgInfo ai = arg_info(parts[i], *exprs[i]);
        if (!(ai.type == types[i] ||
              (ai.weak && unify_scalars({{types[i], false}, ai}) == types[i])))
            type_error(exprs[i]->span, who() + "returns a value of type " + ai.type->name +
                                           " here but " + types[i]->name +
                                           (m_return_annotated ? " is declared" : " elsewhere"));
        vals.push_back(coerce(parts[i], types[i], *exprs[i]));
    }
    return vals;
}

}  // namespace treadle::sema
