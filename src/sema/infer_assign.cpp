// src/sema/infer_assign.cpp -- inference of assignments: plain, annotated and augmented
// assignment, unpacking, array elements, components and gradients
#include "sema/infer_internal.h"

namespace treadle::sema {

using ir::InstrKind;
using ir::VarId;

namespace {

bool is_tid_call(const ast::Expr& e) {
    if (e.kind != ast::ExprKind::Call || e.args.empty()) return false;
    const ast::Expr& callee = *e.args[0];
    return (callee.kind == ast::ExprKind::Attribute && callee.name == "tid") ||
           (callee.kind == ast::ExprKind::Name && callee.name == "tid");
}

/// The operator builtin `x op= y` applies (table lookup by the operator's spelling).
const char* aug_op_name(ast::BinOpKind op) {
    const Builtin* b = find_syntax_operator(ast::op_text(op), 2);
    return b ? b->name : "?";
}

/// Whether evaluating `e` can have side effects (it contains a call).
bool has_call(const ast::Expr& e) {
    if (e.kind == ast::ExprKind::Call) return true;
    for (const auto& a : e.args)
        if (a && has_call(*a)) return true;
    return false;
}

}  // namespace

ast::ExprPtr Builder::hoist_place(const ast::Expr& place, std::vector<std::string>& hidden) {
    auto hoisted = [&](const ast::Expr& e) -> ast::ExprPtr {
        if (!has_call(e)) return ast::clone(e);
        // evaluated once, read back through a hidden name
        Value v = eval(e);
        VarId var = materialize(v, e);
        std::string name =
            "aug." + std::to_string(m_synthetic.size()) + "." + std::to_string(hidden.size());
        m_scope[name] = var;
        hidden.push_back(name);
        auto n = std::make_unique<ast::Expr>(ast::ExprKind::Name, e.span);
        n->name = name;
        return n;
    };
    if (place.kind == ast::ExprKind::Attribute) {
        auto out = std::make_unique<ast::Expr>(ast::ExprKind::Attribute, place.span);
        out->name = place.name;
        out->args.push_back(hoist_place(*place.args[0], hidden));
        return out;
    }
    if (place.kind == ast::ExprKind::Subscript) {
        auto out = std::make_unique<ast::Expr>(ast::ExprKind::Subscript, place.span);
        out->args.push_back(hoist_place(*place.args[0], hidden));
        const ast::Expr& index = *place.args[1];
        if (index.kind == ast::ExprKind::Tuple) {
            auto tuple = std::make_unique<ast::Expr>(ast::ExprKind::Tuple, index.span);
            for (const auto& i : index.args) tuple->args.push_back(hoisted(*i));
            out->args.push_back(std::move(tuple));
        } else {
            out->args.push_back(hoisted(index));
        }
        return out;
    }
    return ast::clone(place);
}

void Builder::assign_stmt(const ast::Stmt& s) {
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
}

void Builder::ann_assign_stmt(const ast::Stmt& s) {
    int line = s.span.line;
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
}

void Builder::aug_assign_stmt(const ast::Stmt& s) {
    const ast::Expr* place = s.targets[0].get();
    ast::ExprPtr parts = adjoint_parts(*place);  // wp.adjoint[p.field] += v in a func_grad
    if (parts) {
        m_synthetic.push_back(std::move(parts));
        place = m_synthetic.back().get();
    }
    const ast::Expr& written = *place;
    if (written.kind == ast::ExprKind::Subscript && written.args[0]->kind == ast::ExprKind::Name &&
        m_scope.count(written.args[0]->name) &&
        m_fn.type_of(m_scope.at(written.args[0]->name))->is_tile()) {
        // t[i] += v on a row or slice of a tile: Warp refuses it (an element is fine)
        const types::Type* t = m_fn.type_of(m_scope.at(written.args[0]->name));
        std::vector<const ast::Expr*> idx = index_exprs(*written.args[1]);
        if (has_slice(idx) || (int)idx.size() < t->ndim)
            fail(written.span, ErrorKind::Value,
                 who() +
                     "Compound assignment to a tile view is not supported; assign the "
                     "result instead (t[i] = t[i] + v)");
    }
    if (s.aug_op == ast::BinOpKind::BitAnd || s.aug_op == ast::BinOpKind::BitOr ||
        s.aug_op == ast::BinOpKind::BitXor) {
        // t &= u, t[i] |= v on a tile of structs: Warp's message
        const ast::Expr* base =
            written.kind == ast::ExprKind::Subscript ? written.args[0].get() : &written;
        const types::Type* bt = base->kind == ast::ExprKind::Name && m_scope.count(base->name)
                                    ? m_fn.type_of(m_scope.at(base->name))
                                    : nullptr;
        if (bt && bt->is_tile() && bt->dtype->is_struct())
            type_error(written.span, who() + "bitwise inplace '" + ast::op_text(s.aug_op) +
                                         "=' does not apply to tiles of a Warp struct (" +
                                         bt->dtype->name + ")");
    }
    if (written.kind == ast::ExprKind::Name && !m_scope.count(written.name))
        if (auto alias = m_function_locals.find(written.name);
            alias != m_function_locals.end() && alias->second.kind != Value::Kind::Tuple)
            rebind_error(written, alias->second, nullptr);
    if ((s.aug_op == ast::BinOpKind::Add || s.aug_op == ast::BinOpKind::Sub ||
         s.aug_op == ast::BinOpKind::BitAnd || s.aug_op == ast::BinOpKind::BitOr ||
         s.aug_op == ast::BinOpKind::BitXor) &&
        tile_element_accumulate(s, written))
        return;
    const char* op = aug_op_name(s.aug_op);
    if (place == s.targets[0].get() && written.kind == ast::ExprKind::Subscript &&
        adjoint_slot(written).empty() &&
        (s.aug_op == ast::BinOpKind::Add || s.aug_op == ast::BinOpKind::Sub ||
         s.aug_op == ast::BinOpKind::BitAnd || s.aug_op == ast::BinOpKind::BitOr ||
         s.aug_op == ast::BinOpKind::BitXor) &&
        atomic_aug_assign(s))
        return;
    // `x[f()].y += v` reads and writes one place: the calls in its indices run once.
    std::vector<std::string> hidden;
    const bool hoist = adjoint_slot(written).empty() && has_call(written);
    if (hoist) m_synthetic.push_back(hoist_place(written, hidden));
    const ast::Expr& target = hoist ? *m_synthetic.back() : written;
    Value cur = eval(target);
    Value rhs = eval(*s.value);
    Value result = binary(op, ast::op_text(s.aug_op), cur, rhs, target, *s.value, target);
    assign_to(target, result, *s.value);
    for (const std::string& name : hidden) m_scope.erase(name);
}

bool Builder::tile_element_accumulate(const ast::Stmt& s, const ast::Expr& written) {
    if (written.kind != ast::ExprKind::Subscript || written.args[0]->kind != ast::ExprKind::Name ||
        !m_scope.count(written.args[0]->name))
        return false;
    VarId tile = m_scope.at(written.args[0]->name);
    const types::Type* t = m_fn.type_of(tile);
    if (!t->is_tile()) return false;
    std::vector<const ast::Expr*> idx = index_exprs(*written.args[1]);
    if (has_slice(idx) || (int)idx.size() != t->ndim) return false;  // refused by the caller
    // t[i] += v: every thread of the block adds its v to the element (Warp's
    // tile_add_inplace), through a shared atomic on CUDA; -=, &=, |= and ^= likewise
    const bool bitwise = s.aug_op != ast::BinOpKind::Add && s.aug_op != ast::BinOpKind::Sub;
    const types::Type* dt = t->dtype;
    if (bitwise && !((dt->is_scalar() || dt->is_vector() || dt->is_matrix()) &&
                     treadle::is_integer(dt->scalar)))
        type_error(written.span,
                   who() + "bitwise inplace '" + ast::op_text(s.aug_op) +
                       "=' on a tile element needs a tile of integers (or integer vectors or "
                       "matrices), not a " +
                       t->name);
    TileSelection sel = tile_selection(tile, idx, written);
    VarId x = coerce_assigned(eval(*s.value), t->dtype, *s.value, "an element of a " + t->name);
    const char* entry = s.aug_op == ast::BinOpKind::Add      ? "tile_add_inplace"
                        : s.aug_op == ast::BinOpKind::Sub    ? "tile_sub_inplace"
                        : s.aug_op == ast::BinOpKind::BitAnd ? "tile_and_inplace"
                        : s.aug_op == ast::BinOpKind::BitOr  ? "tile_or_inplace"
                                                             : "tile_xor_inplace";
    VarId updated = emit_call(s.span.line, t, {tile, sel.base, x}, table_entry(entry));
    write_back(*written.args[0], updated, *s.value);
    return true;
}

bool Builder::atomic_aug_assign(const ast::Stmt& s) {
    int line = s.span.line;
    const ast::Expr& target = *s.targets[0];
    Value base = eval(*target.args[0]);
    if (base.kind != Value::Kind::Var || !m_fn.type_of(base.var)->is_array() ||
        !m_fn.type_of(base.var)->dtype->is_value())
        return false;
    // arr[i] += v is an atomic add, as in Warp (-=, &=, |=, ^= likewise).
    const char* atomic = s.aug_op == ast::BinOpKind::Add      ? "atomic_add"
                         : s.aug_op == ast::BinOpKind::Sub    ? "atomic_sub"
                         : s.aug_op == ast::BinOpKind::BitAnd ? "atomic_and"
                         : s.aug_op == ast::BinOpKind::BitOr  ? "atomic_or"
                                                              : "atomic_xor";
    const Builtin* b = find_builtin(atomic);
    const bool bitwise = b->traits.atomic == builtins::AtomicOp::And ||
                         b->traits.atomic == builtins::AtomicOp::Or ||
                         b->traits.atomic == builtins::AtomicOp::Xor;
    const types::Type* at = m_fn.type_of(base.var);
    std::vector<VarId> args{base.var};
    const ast::Expr& index = *target.args[1];
    std::vector<const ast::Expr*> idx = index_exprs(index);
    if ((int)idx.size() != at->ndim)
        type_error(target.span, who() + "'" + ast::op_text(s.aug_op) + "=' on a " +
                                    std::to_string(at->ndim) + "-D array needs " +
                                    std::to_string(at->ndim) + " indices");
    for (const ast::Expr* i : idx) args.push_back(index_operand(*i, who() + "array index "));
    if (bitwise) check_atomic_scalar(*b, at->dtype, target.span);
    Value v = eval(*s.value);
    ArgInfo vi = arg_info(v, *s.value);
    if (!(vi.type == at->dtype ||
          (vi.weak && unify_scalars({{at->dtype, false}, vi}) == at->dtype)))
        type_error(s.value->span,
                   who() + "cannot " + (bitwise ? std::string("combine") : std::string("add")) +
                       " a value of type " + vi.type->name + (bitwise ? " with" : " to") +
                       " an element of an array of " + at->dtype->name);
    args.push_back(coerce(v, at->dtype, *s.value));
    emit_call(line, at->dtype, std::move(args), *b);
    return true;
}

void Builder::assign_to(const ast::Expr& target, const Value& v, const ast::Expr& value_expr) {
    if (ast::ExprPtr parts = adjoint_parts(target)) {  // wp.adjoint[p.field] = v
        m_synthetic.push_back(std::move(parts));
        return assign_to(*m_synthetic.back(), v, value_expr);
    }
    std::string slot = adjoint_slot(target);
    if (!slot.empty()) return assign_gradient(slot, target, v, value_expr);
    switch (target.kind) {
        case ast::ExprKind::Name:
            return assign_name(target, v, value_expr);
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
            if (store_array_component(target, v, value_expr)) return;
            Value base = eval(*target.args[0]);
            if (base.kind == Value::Kind::Var &&
                (m_fn.type_of(base.var)->is_vector() || m_fn.type_of(base.var)->is_quat() ||
                 m_fn.type_of(base.var)->is_matrix() || m_fn.type_of(base.var)->is_transform()))
                return assign_component(target, base.var, v, value_expr);
            if (base.kind == Value::Kind::Var && m_fn.type_of(base.var)->is_tile())
                return assign_tile_element(target, base.var, v, value_expr);
            if (base.kind != Value::Kind::Var || !m_fn.type_of(base.var)->is_array())
                type_error(target.span, who() + "only array elements can be assigned by index");
            return store_element(target, base.var, v, value_expr);
        }
        case ast::ExprKind::Attribute: {
            if (store_array_component(target, v, value_expr)) return;
            Value base = eval(*target.args[0]);
            if (base.kind == Value::Kind::Var &&
                (m_fn.type_of(base.var)->is_vector() || m_fn.type_of(base.var)->is_quat()))
                return assign_component(target, base.var, v, value_expr);
            if (base.kind == Value::Kind::Var && m_fn.type_of(base.var)->is_struct())
                return assign_field(target, base.var, v, value_expr);
            if (base.kind == Value::Kind::Var && m_fn.type_of(base.var)->is_transform() &&
                (target.name == "p" || target.name == "q"))
                return assign_transform_part(target, base.var, v, value_expr);
            type_error(target.span, who() + "cannot assign to attribute '" + target.name + "'");
        }
        default:
            fail(target.span, ErrorKind::Syntax, who() + "cannot assign to this expression");
    }
}

void Builder::assign_gradient(const std::string& slot, const ast::Expr& target, const Value& v,
                              const ast::Expr& value_expr) {
    const types::Type* t = m_fn.type_of(m_scope.at(slot));
    ArgInfo vi = arg_info(v, value_expr);
    if (vi.type != t && !(vi.weak && t->is_scalar()))
        type_error(value_expr.span, who() + "the gradient " + slot.substr(8) + " is " + t->name +
                                        ", not " + vi.type->name);
    ir::VarId var = coerce(v, t, value_expr);
    if (m_fn.vars[var].mutable_ || m_fn.vars[var].param)
        var = emit_value(InstrKind::Copy, target.span.line, t, {var});
    bind(slot, var, target.span);
}

namespace {

bool is_function_value(const Value& v) {
    return v.kind == Value::Kind::Func || v.kind == Value::Kind::Grad ||
           (v.kind == Value::Kind::Builtin && v.builtin);
}

bool same_function(const Value& a, const Value& b) {
    if (a.kind != b.kind) return false;
    if (a.kind == Value::Kind::Func) return a.func->key == b.func->key;
    if (a.kind == Value::Kind::Grad)
        return a.func ? b.func && a.func->key == b.func->key : a.builtin == b.builtin;
    if (a.kind == Value::Kind::Type) return a.type == b.type;
    return a.builtin == b.builtin;
}

}  // namespace

void Builder::assign_name(const ast::Expr& target, const Value& v, const ast::Expr& value_expr) {
    // A local bound to a function (`f = my_func`, `f = wp.static(table["key"])`) names it:
    // calls through it are calls of the function. Kernels have no function pointers, so such a
    // local can never be bound to something else.
    // A local bound to a type (`T = type(x)`, `v = wp.types.vector(2, float)`) names that type.
    if (v.kind == Value::Kind::Tuple) return bind_tuple(target, v);
    auto alias = m_function_locals.find(target.name);
    if (alias != m_function_locals.end()) {
        if (same_function(v, alias->second)) return;
        rebind_error(target, alias->second, &v);
    }
    if (is_function_value(v) || (v.kind == Value::Kind::Type && v.type)) {
        if (m_scope.count(target.name))
            type_error(target.span, who() + "cannot bind a " +
                                        (is_function_value(v) ? "function" : "type") + " to '" +
                                        target.name + "', which holds a value of type " +
                                        m_fn.type_of(m_scope[target.name])->name);
        m_function_locals[target.name] = v;
        return;
    }
    VarId var;
    auto existing = m_scope.find(target.name);
    if (v.kind == Value::Kind::Const && existing != m_scope.end()) {
        var = coerce(v, m_fn.type_of(existing->second), value_expr);
    } else {
        var = materialize(v, value_expr);
    }
    if (m_fn.type_of(var)->is_tuple())
        type_error(target.span, who() + "cannot assign several values to one name '" + target.name +
                                    "'; unpack them: a, b = ...");
    // Snapshot mutable variables so later merges/carries cannot change this binding.
    if (m_fn.vars[var].mutable_ || m_fn.vars[var].param)
        var = emit_value(InstrKind::Copy, target.span.line, m_fn.type_of(var), {var});
    bind(target.name, var, target.span);
}

void Builder::store_element(const ast::Expr& target, VarId array, const Value& v,
                            const ast::Expr& value_expr) {
    const types::Type* at = m_fn.type_of(array);
    std::vector<VarId> args{array};
    const ast::Expr& index = *target.args[1];
    std::vector<const ast::Expr*> idx = index_exprs(index);
    if ((int)idx.size() != at->ndim)
        type_error(target.span, who() + "assigning to an element of a " + std::to_string(at->ndim) +
                                    "-D array needs " + std::to_string(at->ndim) +
                                    (at->ndim == 1 ? " index, got " : " indices, got ") +
                                    std::to_string(idx.size()));
    for (const ast::Expr* i : idx) args.push_back(index_operand(*i, who() + "array index "));
    ArgInfo vi = arg_info(v, value_expr);
    if (!at->dtype->is_scalar()
            ? vi.type != at->dtype
            : (!unify_scalars({{at->dtype, false}, vi}) || (!vi.weak && vi.type != at->dtype)))
        type_error(value_expr.span,
                   who() + "cannot store a value of type " +
                       (vi.weak ? std::string(vi.type->is_float() ? "float literal" : "int literal")
                                : vi.type->name) +
                       " into an array of " + at->dtype->name);
    args.push_back(coerce(v, at->dtype, value_expr));
    ir::Instr& st = emit(InstrKind::Store, target.span.line);
    st.col = target.span.col;
    st.args = std::move(args);
}

void Builder::assign_transform_part(const ast::Expr& target, VarId base, const Value& v,
                                    const ast::Expr& value_expr) {
    const ast::Expr& base_expr = *target.args[0];
    if (base_expr.kind == ast::ExprKind::Name && !m_scope.count(base_expr.name))
        type_error(target.span, who() + "cannot assign to a part of '" + base_expr.name +
                                    "', which is not a local variable");
    const types::Type* t = m_fn.type_of(base);
    const int line = target.span.line;
    const bool p = target.name == "p";
    const types::Type* part = p ? types::vector_type(3, t->scalar) : types::quat_type(t->scalar);
    ArgInfo vi = arg_info(v, value_expr);
    if (vi.type != part)
        type_error(value_expr.span, who() + "cannot assign a value of type " + vi.type->name +
                                        " to " + target.name + " of " + t->name +
                                        ", which has type " + part->name);
    VarId given = coerce(v, part, value_expr);
    VarId kept = p ? emit_call(line, types::quat_type(t->scalar), {base},
                               table_entry("transform_get_rotation"))
                   : emit_call(line, types::vector_type(3, t->scalar), {base},
                               table_entry("transform_get_translation"));
    VarId updated =
        emit_call(line, t, p ? std::vector<VarId>{given, kept} : std::vector<VarId>{kept, given},
                  table_entry("transform_from"));
    write_back(base_expr, updated, value_expr);
}

bool Builder::store_array_component(const ast::Expr& target, const Value& v,
                                    const ast::Expr& value_expr) {
    // only a named array with a constant component, so that nothing with an effect is
    // evaluated twice when the target is not of this form
    const ast::Expr& elem = *target.args[0];
    if (elem.kind != ast::ExprKind::Subscript || elem.args[0]->kind != ast::ExprKind::Name ||
        !m_scope.count(elem.args[0]->name))
        return false;
    const types::Type* at = m_fn.type_of(m_scope.at(elem.args[0]->name));
    std::vector<const ast::Expr*> idx = index_exprs(*elem.args[1]);
    if (!at->is_array() || (int)idx.size() != at->ndim) return false;
    const types::Type* t = at->dtype;
    if (!t->is_vector() && !t->is_quat() && !t->is_transform()) return false;
    int64_t k = -1;
    std::string part;  // a transform's p or q
    if (target.kind == ast::ExprKind::Attribute) {
        static const std::string k_components = "xyzw";
        if (t->is_transform() && (target.name == "p" || target.name == "q")) {
            part = target.name;
        } else if (!t->is_transform() && target.name.size() == 1) {
            size_t c = k_components.find(target.name[0]);
            if (c == std::string::npos || (int)c >= t->rows) return false;
            k = (int64_t)c;
        } else {
            return false;
        }
    } else {
        // a literal or a name bound to a compile-time constant
        const ast::Expr& i = *target.args[1];
        if (i.kind != ast::ExprKind::Constant && i.kind != ast::ExprKind::Name) return false;
        Value iv = eval(i);
        if (iv.kind != Value::Kind::Const || !iv.constant.type->is_integer() || iv.constant.i < 0 ||
            iv.constant.i >= t->rows)
            return false;
        k = iv.constant.i;
    }
    // the field path of the component in the element (numbers are vector components)
    const bool p_part = part == "p" || (t->is_transform() && part.empty() && k < 3);
    std::string path = !t->is_transform() ? std::to_string(k)
                       : !part.empty()    ? part
                       : p_part           ? "p." + std::to_string(k)
                                          : "q." + std::to_string(k - 3);
    const types::Type* value_type =
        !part.empty() ? (p_part ? types::vector_type(3, t->scalar) : types::quat_type(t->scalar))
                      : types::scalar_type(t->scalar);
    VarId value =
        coerce_assigned(v, value_type, value_expr, "a component of '" + std::string(t->name) + "'");
    std::vector<VarId> args{m_scope.at(elem.args[0]->name)};
    for (const ast::Expr* i : idx) args.push_back(index_operand(*i, who() + "array index "));
    args.push_back(value);
    ir::Instr& in = emit(InstrKind::StoreField, target.span.line);
    in.col = elem.span.col;
    in.args = std::move(args);
    in.text = path;
    return true;
}

void Builder::assign_component(const ast::Expr& target, VarId base, const Value& v,
                               const ast::Expr& value_expr) {
    const ast::Expr& base_expr = *target.args[0];
    if (base_expr.kind == ast::ExprKind::Name && !m_scope.count(base_expr.name))
        type_error(target.span, who() + "cannot assign to a component of '" + base_expr.name +
                                    "', which is not a local variable (a global or constant is "
                                    "read-only in kernels; copy it to a local first)");
    if (target.kind == ast::ExprKind::Subscript && has_slice(index_exprs(*target.args[1])))
        return assign_slice(target, base, v, value_expr);
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
        for (size_t k = 0; k < idx.size(); ++k)
            args.push_back(
                component_operand(*idx[k], (t->is_matrix() && k == 1) ? t->cols : t->rows, t));
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

}  // namespace treadle::sema
