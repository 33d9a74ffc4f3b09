// src/sema/infer_construct.cpp -- inference of constructions: scalar casts, vectors, matrices,
// (quaternions and transforms: infer_construct_rigid.cpp)
#include <cmath>

#include "sema/infer_internal.h"

namespace treadle::sema {

using ir::InstrKind;
using ir::VarId;

Value Builder::cast(const types::Type* to, const ast::Expr& e) {
    if (e.args.size() != 2 || !e.keywords.empty())
        type_error(e.span, to->name + "(): takes exactly one argument");
    if (!to->is_scalar()) type_error(e.span, to->name + "(): cannot construct this type here");
    Value v = eval(*e.args[1]);
    ArgInfo ai = arg_info(v, *e.args[1]);
    if (!ai.type->is_scalar())
        type_error(e.span, to->name + "(): cannot convert a value of type " + ai.type->name);
    if (v.kind == Value::Kind::Const) {
        Value r;
        r.kind = Value::Kind::Const;
        r.constant = v.constant;
        if (to->is_float() && !v.constant.type->is_float()) r.constant.f = (double)v.constant.i;
        if (!to->is_float() && v.constant.type->is_float())
            r.constant.i = to->is_bool() ? v.constant.f != 0.0 : (int64_t)std::trunc(v.constant.f);
        if (to->is_bool() && !v.constant.type->is_float()) r.constant.i = v.constant.i != 0;
        r.constant.type = to;
        r.constant.weak = false;
        return r;
    }
    if (ai.type == to) return v;
    return var_value(emit_value(InstrKind::Cast, e.span.line, to, {v.var}));
}

Value Builder::construct(const types::Type* to, const ast::Expr& e) {
    if (to->is_struct()) return construct_struct(to, e);
    if (to->is_quat() || to->is_transform()) return construct_rigid(to, e);
    if (!to->is_vector() && !to->is_matrix())
        type_error(e.span, to->name + "(): cannot construct this type in a kernel");
    const std::string kind = to->is_vector() ? "vector" : "matrix";
    for (const auto& k : e.keywords) {  // mat32d(m, shape=(3, 2)): keywords that restate the type
        const types::Type* said = nullptr;
        if (k.name == "dtype")
            said = eval_annotation(*k.value);
        else if (k.name == (to->is_vector() ? "length" : "shape"))
            said = sized_math_type(kind, *k.value, to->scalar);
        else
            type_error(k.span, to->name + "(): unexpected argument '" + k.name + "'");
        if (said != to && said != types::scalar_type(to->scalar))
            type_error(k.span, to->name + "(): " + k.name + "= does not match the type");
    }
    std::vector<Value> vals;
    std::vector<ArgInfo> infos;
    for (size_t i = 1; i < e.args.size(); ++i) {
        vals.push_back(eval(*e.args[i]));
        infos.push_back(arg_info(vals.back(), *e.args[i]));
    }
    return construct_composite(to, e, vals, infos);
}

/// "(3, 4)": a matrix shape as Warp's messages print it.
static std::string shape_text(const types::Type* m) {
    return "(" + std::to_string(m->rows) + ", " + std::to_string(m->cols) + ")";
}

/// Warp's message for a copy construction of a composite of other dimensions; Warp names the
/// target's size first.
static std::string copy_size_error(const types::Type* to, const types::Type* from) {
    if (to->is_vector())
        return "incompatible vector of length " + std::to_string(to->rows) +
               " given when copy constructing a vector of length " + std::to_string(from->rows);
    return "incompatible matrix of shape " + shape_text(to) +
           " given when copy constructing a matrix of shape " + shape_text(from);
}

static std::string count_error(const types::Type* to, size_t n) {
    return "incompatible number of values given (" + std::to_string(n) + ") when constructing a " +
           (to->is_vector() ? "vector of length " + std::to_string(to->rows)
                            : "matrix of shape " + shape_text(to));
}

Value Builder::construct_anonymous(const std::string& kind, const ast::Expr& e) {
    const bool vector = kind == "vector";
    const char* size_name = vector ? "length" : "shape";
    const ast::Expr* size_arg = nullptr;
    const ast::Expr* dtype_arg = nullptr;
    for (const auto& k : e.keywords) {
        if (k.name == "dtype")
            dtype_arg = k.value.get();
        else if (k.name == size_name)
            size_arg = k.value.get();
        else
            type_error(k.span, who() + kind + "(): unexpected argument '" + k.name + "'");
    }
    std::vector<Value> vals;
    std::vector<ArgInfo> infos;
    for (size_t i = 1; i < e.args.size(); ++i) {
        vals.push_back(eval(*e.args[i]));
        infos.push_back(arg_info(vals.back(), *e.args[i]));
    }
    const types::Type* dtype = dtype_arg ? eval_annotation(*dtype_arg) : nullptr;
    if (dtype && !dtype->is_scalar())
        type_error(dtype_arg->span, who() + kind + "(): dtype must be a scalar type");
    // vector(v, dtype=...), matrix(m, shape=...): a copy, converting the elements
    const types::Type* copied =
        vals.size() == 1 && (vector ? infos[0].type->is_vector() : infos[0].type->is_matrix())
            ? infos[0].type
            : nullptr;
    if (vals.empty() && !size_arg)
        fail(e.span, ErrorKind::Runtime,
             who() + "the `" + size_name +
                 "` argument must be specified when zero-initializing a " + kind);
    bool all_scalars = !vals.empty();
    for (const ArgInfo& a : infos) all_scalars = all_scalars && a.type->is_scalar();
    if (all_scalars && vals.size() > 1 && !dtype) {
        for (const ArgInfo& a : infos)
            if (a.type->is_float() != infos[0].type->is_float() ||
                (!a.weak && !infos[0].weak && a.type != infos[0].type))
                fail(e.span, ErrorKind::Runtime,
                     who() + "all values given when constructing a " + kind +
                         " must have the same type");
    }
    if (!vector && all_scalars && !size_arg)
        fail(e.span, ErrorKind::Runtime,
             who() + "the `shape` argument must be specified when initializing a matrix by value");
    if (!dtype) {  // the one scalar type of the components (of vectors given as rows)
        std::vector<ArgInfo> parts;
        for (const ArgInfo& a : infos)
            parts.push_back(a.type->is_vector() || a.type->is_matrix()
                                ? ArgInfo{types::scalar_type(a.type->scalar), false}
                                : a);
        dtype = parts.empty() ? types::float32_type() : unify_scalars(parts, false);
        if (!dtype)
            type_error(e.span, who() + kind + "(): the components " + describe_args(infos) +
                                   " have no common scalar type; give dtype=");
    }
    if (size_arg) {
        // the count is checked before the size's range (Warp reports it first)
        if (vector && all_scalars && vals.size() > 1) {
            Value n = eval(*size_arg);
            if (n.kind == Value::Kind::Const && n.constant.type->is_integer() &&
                n.constant.i != (int64_t)vals.size())
                fail(e.span, ErrorKind::Runtime,
                     who() + "incompatible number of values given (" + std::to_string(vals.size()) +
                         ") when constructing a vector of length " + std::to_string(n.constant.i));
        }
        const types::Type* to = sized_math_type(kind, *size_arg, dtype->scalar);
        if (copied && (copied->rows != to->rows || copied->cols != to->cols))
            fail(e.span, ErrorKind::Runtime, who() + copy_size_error(to, copied));
        if (!vector && vals.size() == 1 && infos[0].type->is_scalar() && !infos[0].weak &&
            infos[0].type != types::scalar_type(to->scalar))
            fail(e.span, ErrorKind::Runtime,
                 who() + "the value used to fill this matrix is expected to be of the type `" +
                     scalar_name(to->scalar) + "`");
        return construct_composite(to, e, vals, infos);
    }
    if (copied)
        return construct_composite(
            vector ? types::vector_type(copied->rows, dtype->scalar)
                   : types::matrix_type(copied->rows, copied->cols, dtype->scalar),
            e, vals, infos);
    const bool rows = !infos.empty() && infos[0].type->is_vector();
    if (vector && !rows)
        return construct_composite(types::vector_type((int)vals.size(), dtype->scalar), e, vals,
                                   infos);
    if (!vector && rows && (int)vals.size() <= types::k_max_matrix_dim &&
        infos[0].type->rows >= 1)  // matrix(row0, row1, ...)
        return construct_composite(
            types::matrix_type((int)vals.size(), infos[0].type->rows, dtype->scalar), e, vals,
            infos);
    type_error(e.span, who() + kind + "(): needs its " + size_name);
}

Value Builder::construct_composite(const types::Type* to, const ast::Expr& e,
                                   const std::vector<Value>& vals,
                                   const std::vector<ArgInfo>& infos) {
    int line = e.span.line;
    const types::Type* elem = types::scalar_type(to->scalar);
    size_t count = to->is_vector() ? (size_t)to->rows : (size_t)(to->rows * to->cols);
    auto scalar_ok = [&](const ArgInfo& a) {
        return a.type->is_scalar() &&
               (a.type == elem || (a.weak && unify_scalars({{elem, false}, a}) == elem));
    };
    auto result = [&](VarId v) { return Value{Value::Kind::Var, v}; };
    if (vals.empty() || (vals.size() == 1 && scalar_ok(infos[0]))) {
        // zeros, or every component set to one value
        VarId s = vals.empty()
                      ? emit_const(types::ConstValue{types::int32_type(), true, 0, 0}, elem, line)
                      : coerce(vals[0], elem, *e.args[1]);
        return result(
            emit_call(line, to, {s}, table_entry(to->is_vector() ? "vec_fill" : "mat_fill")));
    }
    if (vals.size() == 1 && infos[0].type == to) return vals[0];
    if (vals.size() == 1 && infos[0].type->kind == to->kind &&
        (infos[0].type->rows != to->rows || infos[0].type->cols != to->cols))
        fail(e.span, ErrorKind::Runtime, who() + copy_size_error(to, infos[0].type));
    if (vals.size() == 1 && infos[0].type->kind == to->kind && infos[0].type->rows == to->rows &&
        infos[0].type->cols == to->cols) {  // vec3d(v), vec3i(v), mat33d(m): convert elements
        return result(emit_call(line, to, {materialize(vals[0], *e.args[1])},
                                table_entry(to->is_vector() ? "vec_cast" : "mat_cast")));
    }
    const types::Type* v3 = types::vector_type(3, to->scalar);
    if (to->is_vector() && to->rows == 6 && vals.size() == 2 && infos[0].type == v3 &&
        infos[1].type == v3)  // spatial_vector(w, v)
        return result(emit_call(
            line, to, {materialize(vals[0], *e.args[1]), materialize(vals[1], *e.args[2])},
            table_entry("spatial_vector")));
    if (vals.size() == count) {
        std::vector<VarId> args;
        for (size_t i = 0; i < count; ++i) {
            if (infos[i].type->is_scalar() && !scalar_ok(infos[i]))
                fail(e.span, ErrorKind::Runtime,
                     who() + "all values used to initialize this " +
                         (to->is_vector() ? "vector" : "matrix") +
                         " are expected to be of the type `" + elem->name + "`");
            if (!scalar_ok(infos[i]))
                type_error(e.args[i + 1]->span, to->name + "(): component " + std::to_string(i) +
                                                    " has type " + infos[i].type->name +
                                                    ", expected " + elem->name);
            args.push_back(coerce(vals[i], elem, *e.args[i + 1]));
        }
        return result(emit_value(InstrKind::Construct, line, to, std::move(args)));
    }
    const types::Type* row = to->is_matrix() ? types::vector_type(to->cols, to->scalar) : nullptr;
    if (row && (int)vals.size() == to->rows && to->rows <= 4) {
        std::vector<VarId> args;
        for (size_t i = 0; i < vals.size(); ++i) {
            if (infos[i].type != row)
                type_error(e.args[i + 1]->span, to->name + "(): row " + std::to_string(i) +
                                                    " has type " + infos[i].type->name +
                                                    ", expected " + row->name);
            args.push_back(vals[i].var);
        }
        return result(emit_call(line, to, std::move(args), table_entry("matrix_from_rows")));
    }
    bool all_scalars = true;
    for (const ArgInfo& a : infos) all_scalars = all_scalars && a.type->is_scalar();
    if (all_scalars) fail(e.span, ErrorKind::Runtime, who() + count_error(to, vals.size()));
    type_error(e.span, to->name + "(): cannot construct from " + describe_args(infos) +
                           " (expected nothing, one " + elem->name + ", " + std::to_string(count) +
                           " components" +
                           (row ? ", or " + std::to_string(to->rows) + " rows" : "") + ")");
}

}  // namespace treadle::sema
