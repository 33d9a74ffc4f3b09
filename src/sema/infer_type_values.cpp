// src/sema/infer_type_values.cpp -- types as values in kernels: type(x), T.dtype, T.length
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

}  // namespace treadle::sema
