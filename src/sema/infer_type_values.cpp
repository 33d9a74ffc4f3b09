// src/sema/infer_type_values.cpp -- types and tuples as values in kernels: type(x), T.dtype, t =
// (a, b)
//
// Generic code names types through values: `type(a[0])(0)`, `a.dtype(x)`, `type(a).dtype`, and
// a composite value's `v.length` / `v.dtype`. These are decided at compile time; a local may be
// bound to a type (see assign_name).
#include "sema/infer_internal.h"

namespace treadle::sema {

namespace {

Value type_value(const types::Type* t) {
    Value v;
    v.kind = Value::Kind::Type;
    v.type = t;
    return v;
}

Value int_constant(int64_t i) {
    Value v;
    v.kind = Value::Kind::Const;
    v.constant = types::ConstValue{types::int32_type(), true, i, 0.0};
    return v;
}

}  // namespace

Value Builder::call_type_of(const ast::Expr& e) {
    if (e.args.size() != 2 || !e.keywords.empty())
        type_error(e.span, who() + "type() takes exactly one argument in kernels");
    Value v = eval(*e.args[1]);
    if (v.kind == Value::Kind::Var) return type_value(m_fn.type_of(v.var));
    if (v.kind == Value::Kind::Const) {
        ArgInfo ai = arg_info(v, *e.args[1]);
        // a Python literal has the type Warp gives it: int32, float32 or bool
        if (ai.weak) return type_value(materialize_type(ai.type));
        return type_value(ai.type);
    }
    type_error(e.args[1]->span, who() + "type() needs a value (a variable or a constant)");
}

const types::Type* Builder::materialize_type(const types::Type* t) {
    if (t->is_float()) return types::float32_type();
    if (t->is_integer()) return types::int32_type();
    return t;
}

Value Builder::type_attribute(const types::Type* t, const ast::Expr& e) {
    const std::string& attr = e.name;
    if (attr == "dtype") {
        if (t->is_array()) return type_value(t->dtype);
        if (t->is_vector() || t->is_matrix() || t->is_quat() || t->is_transform())
            return type_value(types::scalar_type(t->scalar));
    }
    if (attr == "length" && (t->is_vector() || t->is_quat())) return int_constant(t->rows);
    if (attr == "length" && t->is_transform()) return int_constant(7);
    if (attr == "shape" && t->is_matrix()) {
        Value shape;
        shape.kind = Value::Kind::Tuple;
        shape.elements = {int_constant(t->rows), int_constant(t->cols)};
        return shape;
    }
    if (attr == "ndim" && t->is_array()) return int_constant(t->ndim);
    type_error(e.span, who() + "'" + attr + "' is not an attribute of the type " + t->name);
}

const types::Type* Builder::tuple_type_of(const Value& v, const types::Type* want) {
    std::vector<const types::Type*> elements;
    for (size_t k = 0; k < v.elements.size(); ++k) {
        const Value& el = v.elements[k];
        const types::Type* t = nullptr;
        if (el.kind == Value::Kind::Var) t = m_fn.type_of(el.var);
        if (el.kind == Value::Kind::Const) {
            t = el.constant.weak ? materialize_type(el.constant.type) : el.constant.type;
            const types::Type* w =
                want && want->is_tuple() && k < want->elements.size() ? want->elements[k] : nullptr;
            if (el.constant.weak && w && w->is_scalar() &&
                unify_scalars({{w, false}, {el.constant.type, true}}) == w)
                t = w;
        }
        if (!t || !t->is_element()) return nullptr;
        elements.push_back(t);
    }
    return types::tuple_type(elements);
}

void Builder::bind_tuple(const ast::Expr& target, const Value& v) {
    auto alias = m_function_locals.find(target.name);
    if (m_scope.count(target.name) ||
        (alias != m_function_locals.end() && alias->second.kind != Value::Kind::Tuple))
        type_error(target.span, who() + "cannot assign a tuple to '" + target.name +
                                    "', which holds another kind of value");
    auto where = m_tuple_blocks.find(target.name);
    if (where != m_tuple_blocks.end() && where->second != m_block)
        type_error(target.span, who() + "the tuple '" + target.name +
                                    "' cannot be re-bound inside a branch or loop body");
    Value t = v;
    for (Value& el : t.elements) {
        if (el.kind == Value::Kind::Tuple)
            type_error(target.span, who() + "tuples of tuples are not supported");
        if (el.kind == Value::Kind::Var && (m_fn.vars[el.var].mutable_ || m_fn.vars[el.var].param))
            el.var =
                emit_value(ir::InstrKind::Copy, target.span.line, m_fn.type_of(el.var), {el.var});
        if (el.kind != Value::Kind::Var && el.kind != Value::Kind::Const)
            type_error(target.span,
                       who() + "a tuple bound to a local may hold only values (element of '" +
                           target.name + "')");
    }
    m_function_locals[target.name] = t;
    m_tuple_blocks[target.name] = m_block;
}

const Value* Builder::tuple_local(const ast::Expr& e) const {
    if (e.kind != ast::ExprKind::Name || m_scope.count(e.name)) return nullptr;
    auto it = m_function_locals.find(e.name);
    return it != m_function_locals.end() && it->second.kind == Value::Kind::Tuple ? &it->second
                                                                                  : nullptr;
}

Value Builder::call_bit_cast(const ast::Expr& e) {
    // cast(a, dtype) with dtype positional or by keyword
    const ast::Expr* value = e.args.size() > 1 ? e.args[1].get() : nullptr;
    const ast::Expr* dtype = e.args.size() > 2 ? e.args[2].get() : nullptr;
    for (const ast::Keyword& k : e.keywords) {
        if (k.name == "a" && !value)
            value = k.value.get();
        else if (k.name == "dtype" && !dtype)
            dtype = k.value.get();
        else
            type_error(e.span,
                       who() + "cast() got an unexpected keyword argument '" + k.name + "'");
    }
    if (!value || !dtype || e.args.size() > 3)
        type_error(e.span, who() + "cast() takes a value and a dtype: cast(a, dtype)");
    Value t = eval(*dtype);
    if (t.kind != Value::Kind::Type || !t.type || t.type->is_array())
        type_error(dtype->span, who() +
                                    "cast(): dtype must be a value type (a scalar, vector, "
                                    "matrix or struct type)");
    ir::VarId x = materialize(eval(*value), *value);
    const types::Type* from = m_fn.type_of(x);
    if (from->size != t.type->size || from->is_array())
        type_error(e.span, who() + "cast(): cannot reinterpret a " + from->name + " (" +
                               std::to_string(from->size) + " bytes) as a " + t.type->name + " (" +
                               std::to_string(t.type->size) + " bytes): the sizes must match");
    Value out;
    out.kind = Value::Kind::Var;
    out.var = emit_value(ir::InstrKind::Cast, e.span.line, t.type, {x}, "bits");
    return out;
}

}  // namespace treadle::sema
