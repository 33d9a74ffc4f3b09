// src/sema/infer_call.cpp -- inference of operators, builtin calls, casts and user calls
#include <cmath>

#include "sema/infer_internal.h"

namespace treadle::sema {

using ast::ExprKind;
using ir::InstrKind;
using ir::VarId;

namespace {

Value var_value(VarId v) {
    Value r;
    r.kind = Value::Kind::Var;
    r.var = v;
    return r;
}

/// Folds an operator on two weak constants (so `2.0 * pi` stays a weak literal).
bool fold(const std::string& op, const types::ConstValue& a, const types::ConstValue& b,
          types::ConstValue& out) {
    if (!a.weak || !b.weak) return false;
    bool fl = a.type->is_float() || b.type->is_float();
    double x = a.type->is_float() ? a.f : (double)a.i;
    double y = b.type->is_float() ? b.f : (double)b.i;
    out = types::ConstValue{
        fl ? types::float32_type() : (a.type == b.type ? a.type : types::int64_type()), true, 0, 0};
    if (fl) {
        if (op == "add")
            out.f = x + y;
        else if (op == "sub")
            out.f = x - y;
        else if (op == "mul")
            out.f = x * y;
        else if (op == "div" && y != 0)
            out.f = x / y;
        else
            return false;
        return true;
    }
    // Wrapping int64 arithmetic, as the generated code's (a signed overflow would be undefined).
    uint64_t x64 = (uint64_t)a.i, y64 = (uint64_t)b.i;
    if (op == "add")
        out.i = (int64_t)(x64 + y64);
    else if (op == "sub")
        out.i = (int64_t)(x64 - y64);
    else if (op == "mul")
        out.i = (int64_t)(x64 * y64);
    else
        return false;
    if (out.i >= INT32_MIN && out.i <= INT32_MAX) out.type = types::int32_type();
    return true;
}

std::string printf_format(const types::Type* t) {
    switch (t->scalar) {
        case ScalarType::Bool:
        case ScalarType::Int8:
        case ScalarType::Int16:
        case ScalarType::Int32:
            return "%d";
        case ScalarType::UInt8:
        case ScalarType::UInt16:
        case ScalarType::UInt32:
            return "%u";
        case ScalarType::Int64:
            return "%lld";
        case ScalarType::UInt64:
            return "%llu";
        default:
            return "%g";
    }
}

}  // namespace

Value Builder::binary(const std::string& op_name, const char* op_text, const Value& a,
                      const Value& b, const ast::Expr& ea, const ast::Expr& eb,
                      const ast::Expr& at) {
    const Builtin* builtin = find_operator(op_name);
    if (!builtin)
        type_error(at.span, std::string("operator '") + op_text + "' is not supported here");
    if (a.kind == Value::Kind::Const && b.kind == Value::Kind::Const) {
        types::ConstValue folded;
        if (fold(op_name, a.constant, b.constant, folded)) {
            Value v;
            v.kind = Value::Kind::Const;
            v.constant = folded;
            return v;
        }
    }
    std::vector<ArgInfo> infos{arg_info(a, ea), arg_info(b, eb)};
    auto sig = builtin->rule(infos);
    if (!sig) {
        std::string why = "the operands must have the same type";
        if (infos[0].type == infos[1].type || infos[0].type->is_array() ||
            infos[1].type->is_array())
            why = "the operator does not apply to these types";
        if (op_name == "matmul") why = "'@' multiplies vectors and matrices";
        if (op_name == "pow") why = "'**' needs floating-point operands";
        if (op_name == "lshift" || op_name == "rshift") why = "shifts need integer operands";
        type_error(at.span, std::string("operator '") + op_text + "': unsupported operand types " +
                                describe_args(infos) + " (" + why + ")");
    }
    VarId x = coerce(a, sig->params[0], ea);
    VarId y = coerce(b, sig->params[1], eb);
    return var_value(emit_call(at.span.line, sig->ret, {x, y}, *builtin));
}

Value Builder::call(const ast::Expr& e) {
    if (is_static_call(e)) return static_value(e);
    Value callee = eval(*e.args[0]);
    switch (callee.kind) {
        case Value::Kind::Type:
            return callee.type->is_scalar() ? cast(callee.type, e) : construct(callee.type, e);
        case Value::Kind::Func:
            return call_function(callee.func, e);
        case Value::Kind::Builtin:
            if (!callee.builtin && (callee.text == "vector" || callee.text == "matrix"))
                return construct_anonymous(callee.text, e);
            if (!callee.builtin)
                type_error(e.span, who() + "arrays cannot be created inside kernels");
            return call_builtin(*callee.builtin, e);
        default:
            type_error(e.args[0]->span, who() + "this object is not callable in a kernel");
    }
}

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
    if (!e.keywords.empty())
        type_error(e.keywords[0].span, to->name + "(): keyword arguments are not supported");
    std::vector<Value> vals;
    std::vector<ArgInfo> infos;
    for (size_t i = 1; i < e.args.size(); ++i) {
        vals.push_back(eval(*e.args[i]));
        infos.push_back(arg_info(vals.back(), *e.args[i]));
    }
    return construct_composite(to, e, vals, infos);
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
    if (!dtype) {  // the one scalar type of the components (of vectors given as rows)
        std::vector<ArgInfo> parts;
        for (const ArgInfo& a : infos)
            parts.push_back(a.type->is_vector() ? ArgInfo{types::scalar_type(a.type->scalar), false}
                                                : a);
        dtype = parts.empty() ? types::float32_type() : unify_scalars(parts, false);
        if (!dtype)
            type_error(e.span, who() + kind + "(): the components " + describe_args(infos) +
                                   " have no common scalar type; give dtype=");
    }
    if (size_arg)
        return construct_composite(sized_math_type(kind, *size_arg, dtype->scalar), e, vals, infos);
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
    type_error(e.span, to->name + "(): cannot construct from " + describe_args(infos) +
                           " (expected nothing, one " + elem->name + ", " + std::to_string(count) +
                           " components" +
                           (row ? ", or " + std::to_string(to->rows) + " rows" : "") + ")");
}

Value Builder::construct_rigid(const types::Type* to, const ast::Expr& e) {
    if (!e.keywords.empty())
        type_error(e.keywords[0].span, to->name + "(): keyword arguments are not supported");
    int line = e.span.line;
    const types::Type* elem = types::scalar_type(to->scalar);
    std::vector<Value> vals;
    std::vector<ArgInfo> infos;
    for (size_t i = 1; i < e.args.size(); ++i) {
        vals.push_back(eval(*e.args[i]));
        infos.push_back(arg_info(vals.back(), *e.args[i]));
    }
    auto scalars = [&](size_t from, size_t n) {
        std::vector<VarId> out;
        for (size_t i = from; i < from + n; ++i) {
            if (!(infos[i].type == elem ||
                  (infos[i].weak && unify_scalars({{elem, false}, infos[i]}) == elem)))
                type_error(e.args[i + 1]->span, to->name + "(): component " + std::to_string(i) +
                                                    " has type " + infos[i].type->name +
                                                    ", expected " + elem->name);
            out.push_back(coerce(vals[i], elem, *e.args[i + 1]));
        }
        return out;
    };
    auto result = [](VarId v) { return Value{Value::Kind::Var, v}; };
    if (vals.size() == 1 && infos[0].type == to) return vals[0];
    const types::Type* q = types::quat_type(to->scalar);
    if (to->is_quat()) {
        if (vals.empty()) {
            VarId z = emit_const(types::ConstValue{types::int32_type(), true, 0, 0}, elem, line);
            return result(emit_value(InstrKind::Construct, line, to, {z, z, z, z}));
        }
        if (vals.size() == 4)
            return result(emit_value(InstrKind::Construct, line, to, scalars(0, 4)));
        type_error(e.span, to->name + "(): expected nothing, a " + to->name +
                               " or 4 components, got " + describe_args(infos));
    }
    const types::Type* v3 = types::vector_type(3, to->scalar);
    if (vals.empty())  // like Warp's transform(): the identity
        return result(emit_call(line, to, {}, table_entry("transform_identity")));
    if (vals.size() == 2 && infos[0].type == v3 && infos[1].type == q)
        return result(
            emit_call(line, to, {vals[0].var, vals[1].var}, table_entry("transform_from")));
    if (vals.size() == 7) {
        std::vector<VarId> c = scalars(0, 7);
        VarId p = emit_value(InstrKind::Construct, line, v3, {c[0], c[1], c[2]});
        VarId r = emit_value(InstrKind::Construct, line, q, {c[3], c[4], c[5], c[6]});
        return result(emit_call(line, to, {p, r}, table_entry("transform_from")));
    }
    type_error(e.span, to->name + "(): expected (p: " + v3->name + ", q: " + q->name +
                           ") or 7 components, got " + describe_args(infos));
}

Value Builder::emit_tid(int arity, const ast::Expr& e) {
    if (!m_fn.is_kernel)
        type_error(e.span, "tid(): can only be called in a kernel, not in a function");
    if (e.args.size() != 1 || !e.keywords.empty()) type_error(e.span, "tid(): takes no arguments");
    if (arity > 4)
        type_error(e.span, "tid(): launches have at most 4 dimensions, cannot unpack " +
                               std::to_string(arity) + " indices");
    if (m_fn.tid_arity != 0 && m_fn.tid_arity != arity)
        type_error(e.span, "tid(): unpacked into " + std::to_string(arity) +
                               (arity == 1 ? " index" : " indices") + " here but into " +
                               std::to_string(m_fn.tid_arity) +
                               (m_fn.tid_arity == 1 ? " index" : " indices") +
                               " elsewhere in this kernel");
    m_fn.tid_arity = arity;
    ir::Instr& in = emit(InstrKind::Tid, e.span.line);
    Value r;
    for (int i = 0; i < arity; ++i) {
        VarId v = m_fn.new_var(types::int32_type());
        in.dsts.push_back(v);
        r.elements.push_back(var_value(v));
    }
    if (arity == 1) return r.elements[0];
    r.kind = Value::Kind::Tuple;
    return r;
}

const char* operator_text(const std::string& name) {
    const Builtin* b = find_operator(name);
    return b && b->kind == BuiltinKind::Operator && b->traits.callable ? b->traits.op : nullptr;
}

void Builder::format_value(VarId v, std::string& fmt, std::vector<VarId>& args, int line) {
    const types::Type* t = m_fn.type_of(v);
    if (t->is_scalar()) {
        fmt += t->is_bool() ? "%s" : printf_format(t);  // print() shows True / False
        args.push_back(v);
        return;
    }
    auto index = [&](int k) {
        return emit_const(types::ConstValue{types::int32_type(), false, k, 0.0},
                          types::int32_type(), line);
    };
    const types::Type* s = types::scalar_type(t->scalar);
    if (t->is_struct()) {
        fmt += t->name + "(";
        for (size_t k = 0; k < t->fields.size(); ++k) {
            const types::StructField& f = t->fields[k];
            fmt += (k ? ", " : "") + f.name + "=";
            if (f.type->is_array()) {
                fmt += "array";
                continue;
            }
            ir::Instr& in = emit(InstrKind::Field, line);
            in.text = f.name;
            in.args = {v};
            VarId x = m_fn.new_var(f.type);
            in.dsts = {x};
            format_value(x, fmt, args, line);
        }
        fmt += ")";
        return;
    }
    if (t->is_transform()) {
        fmt += "transform(p=";
        format_value(emit_call(line, types::vector_type(3, t->scalar), {v},
                               table_entry("transform_get_translation")),
                     fmt, args, line);
        fmt += ", q=";
        format_value(emit_call(line, types::quat_type(t->scalar), {v},
                               table_entry("transform_get_rotation")),
                     fmt, args, line);
        fmt += ")";
        return;
    }
    fmt += "[";
    if (t->is_matrix()) {
        for (int r = 0; r < t->rows; ++r) {
            fmt += r ? ", [" : "[";
            for (int c = 0; c < t->cols; ++c) {
                if (c) fmt += ", ";
                format_value(emit_call(line, s, {v, index(r), index(c)}, table_entry("extract")),
                             fmt, args, line);
            }
            fmt += "]";
        }
    } else {
        for (int k = 0; k < t->rows; ++k) {
            if (k) fmt += ", ";
            format_value(emit_call(line, s, {v, index(k)}, table_entry("extract")), fmt, args,
                         line);
        }
    }
    fmt += "]";
}

Value Builder::call_builtin(const Builtin& b, const ast::Expr& e) {
    int line = e.span.line;
    std::string name = b.name;
    if (b.kind == BuiltinKind::Operator) {
        // wp.add(a, b) is a + b; wp.neg(x) is -x (Warp's functional spelling of operators)
        size_t n = e.args.size() - 1;
        bool unary = builtin_params(b).size() == 1;
        if (n != (unary ? 1u : 2u) || !e.keywords.empty())
            type_error(e.span, name + "(): takes " + (unary ? "1 argument" : "2 arguments") +
                                   ", got " + std::to_string(n));
        Value a = eval(*e.args[1]);
        if (!unary)
            return binary(name, b.traits.op, a, eval(*e.args[2]), *e.args[1], *e.args[2], e);
        ArgInfo ai = arg_info(a, *e.args[1]);
        auto sig = b.rule({ai});
        if (!sig) type_error(e.span, name + "(): not defined for " + describe_args({ai}));
        VarId x = coerce(a, sig->params[0], *e.args[1]);
        return var_value(emit_call(line, sig->ret, {x}, b));
    }
    if (b.kind == BuiltinKind::Identity && name != "identity") {
        // quat_identity(dtype=float) / transform_identity(dtype=float)
        const ast::Expr* dtype_arg = e.args.size() > 1 ? e.args[1].get() : nullptr;
        for (const auto& k : e.keywords) {
            if (k.name != "dtype")
                type_error(k.span, name + "(): unexpected argument '" + k.name + "'");
            dtype_arg = k.value.get();
        }
        const types::Type* dt = dtype_arg ? eval_annotation(*dtype_arg) : types::float32_type();
        if (!dt->is_float()) type_error(e.span, name + "(): dtype must be a float type");
        const types::Type* rt = name == "quat_identity" ? types::quat_type(dt->scalar)
                                                        : types::transform_type(dt->scalar);
        return var_value(emit_call(line, rt, {}, b));
    }
    if (b.kind == BuiltinKind::Identity) {
        // identity(n=3, dtype=float): both compile-time constants, keywords allowed
        const ast::Expr* n_arg = e.args.size() > 1 ? e.args[1].get() : nullptr;
        const ast::Expr* dtype_arg = e.args.size() > 2 ? e.args[2].get() : nullptr;
        for (const auto& k : e.keywords) {
            if (k.name == "n")
                n_arg = k.value.get();
            else if (k.name == "dtype")
                dtype_arg = k.value.get();
            else
                type_error(k.span, "identity(): unexpected argument '" + k.name + "'");
        }
        if (!n_arg) type_error(e.span, "identity(): needs n");
        Value n = eval(*n_arg);
        if (n.kind != Value::Kind::Const || !n.constant.type->is_integer() || n.constant.i < 1 ||
            n.constant.i > 64)
            type_error(n_arg->span, "identity(): n must be a constant from 1 to 64");
        const types::Type* dt = dtype_arg ? eval_annotation(*dtype_arg) : types::float32_type();
        if (!dt->is_scalar()) type_error(e.span, "identity(): dtype must be a scalar type");
        const types::Type* mt =
            types::matrix_type((int)n.constant.i, (int)n.constant.i, dt->scalar);
        return var_value(emit_call(line, mt, {}, b));
    }
    if (!e.keywords.empty())
        type_error(e.keywords[0].span, name + "(): keyword arguments are not supported");
    size_t nargs = e.args.size() - 1;
    switch (b.kind) {
        case BuiltinKind::Tid:
            return emit_tid(1, e);
        case BuiltinKind::Print:
        case BuiltinKind::Printf: {
            std::string fmt;
            std::vector<VarId> args;
            size_t first = 1;
            if (b.kind == BuiltinKind::Printf) {
                if (nargs < 1 || e.args[1]->kind != ExprKind::Constant ||
                    e.args[1]->const_kind != ast::ConstKind::Str)
                    type_error(e.span, "printf(): the first argument must be a format string");
                fmt = e.args[1]->str_value;
                first = 2;
            }
            for (size_t i = first; i < e.args.size(); ++i) {
                Value v = eval(*e.args[i]);
                if (b.kind == BuiltinKind::Print && i > first) fmt += " ";
                if (v.kind == Value::Kind::Str) {
                    if (b.kind == BuiltinKind::Printf)
                        type_error(e.args[i]->span, "printf(): only the format may be a string");
                    for (char c : v.text) fmt += c == '%' ? std::string("%%") : std::string(1, c);
                    continue;
                }
                ArgInfo ai = arg_info(v, *e.args[i]);
                if (b.kind == BuiltinKind::Print &&
                    (ai.type->is_vector() || ai.type->is_matrix()) && e.args.size() == 2) {
                    emit(InstrKind::Print, line).args = {v.var};
                    return Value{};
                }
                if (!ai.type->is_scalar() && b.kind == BuiltinKind::Printf)
                    type_error(e.args[i]->span,
                               name + "(): cannot print a value of type " + ai.type->name);
                if (!ai.type->is_scalar() && !ai.type->is_value() && !ai.type->is_struct())
                    type_error(e.args[i]->span,
                               name + "(): cannot print a value of type " + ai.type->name);
                VarId x = materialize(v, *e.args[i]);
                if (b.kind == BuiltinKind::Print) {
                    format_value(x, fmt, args, line);  // composites as their components
                    continue;
                }
                args.push_back(x);
            }
            if (b.kind == BuiltinKind::Print) fmt += "\n";
            ir::Instr& in = emit(InstrKind::Printf, line);
            if (b.kind == BuiltinKind::Print) in.callee = "print";  // bools print as words
            in.text = fmt;
            in.args = std::move(args);
            return Value{};
        }
        case BuiltinKind::Random: {
            // The generator state is a local uint32 that the call advances: the call works on a
            // fresh copy, which then becomes the variable's value.
            const types::Type* u32 = types::scalar_type(ScalarType::UInt32);
            const ast::Expr* se = nargs >= 1 ? e.args[1].get() : nullptr;
            if (!se || se->kind != ExprKind::Name || !m_scope.count(se->name) ||
                m_fn.type_of(m_scope.at(se->name)) != u32)
                type_error(se ? se->span : e.span,
                           name +
                               "(): the first argument must be a local uint32 state from "
                               "wp.rand_init()");
            std::vector<Value> vals;
            std::vector<ArgInfo> infos;
            for (size_t i = 2; i < e.args.size(); ++i) {
                vals.push_back(eval(*e.args[i]));
                infos.push_back(arg_info(vals.back(), *e.args[i]));
            }
            auto sig = b.rule(infos);
            if (!sig)
                type_error(e.span, name + "(): no overload accepts the state and " +
                                       describe_args(infos) + " (signature: " + b.signature + ")");
            std::vector<VarId> args;
            for (size_t i = 0; i < vals.size(); ++i)
                args.push_back(coerce(vals[i], sig->params[i], *e.args[i + 2]));
            VarId state = emit_value(InstrKind::Copy, line, u32, {m_scope.at(se->name)});
            args.insert(args.begin(), state);
            VarId r = emit_call(line, sig->ret, std::move(args), b);
            bind(se->name, state, se->span);
            return var_value(r);
        }
        case BuiltinKind::Where: {
            if (nargs != 3 || !e.keywords.empty())
                type_error(e.span, "where(): takes a condition and two values");
            VarId c = condition(*e.args[1]);
            Value a = eval(*e.args[2]);
            Value v = eval(*e.args[3]);
            std::vector<ArgInfo> infos{arg_info(a, *e.args[2]), arg_info(v, *e.args[3])};
            const types::Type* t =
                infos[0].type == infos[1].type && !infos[0].weak && !infos[1].weak
                    ? infos[0].type
                    : unify_scalars(infos);
            if (!t)
                type_error(e.span,
                           "where(): the two values have different types " + describe_args(infos));
            VarId x = coerce(a, t, *e.args[2]);
            VarId y = coerce(v, t, *e.args[3]);
            return var_value(emit_value(InstrKind::Select, line, t, {c, x, y}));
        }
        case BuiltinKind::Len: {
            if (nargs != 1) type_error(e.span, "len(): takes exactly one argument");
            Value v = eval(*e.args[1]);
            const types::Type* t = v.kind == Value::Kind::Var     ? m_fn.type_of(v.var)
                                   : v.kind == Value::Kind::Const ? v.constant.type
                                                                  : nullptr;
            if (t && t->is_value() && !t->is_scalar()) {
                // vectors, quaternions, transforms: their components; matrices: their rows
                Value n;
                n.kind = Value::Kind::Const;
                n.constant = types::ConstValue{types::int32_type(), false, t->rows, 0};
                return n;
            }
            if (v.kind != Value::Kind::Var || !t->is_array())
                type_error(e.span,
                           "len(): needs an array, vector, matrix, quaternion or transform");
            VarId dst = emit_value(InstrKind::Shape, line, types::int32_type(), {v.var});
            m_block->back().value = types::ConstValue{types::int32_type(), false, 0, 0};
            return var_value(dst);
        }
        case BuiltinKind::Atomic: {
            // atomic_cas takes a compare value before the value; the others one value
            const size_t nvalues = (size_t)b.traits.value_operands;
            const std::string values = nvalues == 2 ? "a compare value and a value" : "a value";
            if (nargs < 2 + nvalues)
                type_error(e.span, name + "(): takes an array, its indices and " + values);
            Value arr = eval(*e.args[1]);
            if (arr.kind != Value::Kind::Var || !m_fn.type_of(arr.var)->is_array())
                type_error(e.args[1]->span, name + "(): the first argument must be an array");
            const types::Type* at = m_fn.type_of(arr.var);
            if (nargs != at->ndim + 1 + nvalues)
                type_error(e.span, name + "(): a " + std::to_string(at->ndim) + "-D array needs " +
                                       std::to_string(at->ndim) + " indices and " + values +
                                       ", got " + std::to_string(nargs - 1) +
                                       " arguments after the array");
            std::vector<VarId> args{arr.var};
            for (size_t i = 2; i < e.args.size() - nvalues; ++i)
                args.push_back(index_operand(*e.args[i], name + "(): index "));
            if (!at->dtype->is_value() || at->dtype->is_bool() ||
                at->dtype->scalar == ScalarType::Int8 || at->dtype->scalar == ScalarType::UInt8 ||
                at->dtype->scalar == ScalarType::Int16 || at->dtype->scalar == ScalarType::UInt16)
                type_error(e.span, name + "(): arrays of " + at->dtype->name +
                                       " do not support atomic operations");
            if (atomic_needs_word_scalars(b)) {
                if (!at->dtype->is_scalar() || at->dtype->size < 4)
                    type_error(e.span, name + "(): takes arrays of 4- or 8-byte scalars, not " +
                                           at->dtype->name);
            }
            for (size_t k = e.args.size() - nvalues; k < e.args.size(); ++k) {
                const ast::Expr& ve = *e.args[k];
                Value v = eval(ve);
                ArgInfo vi = arg_info(v, ve);
                if (!(vi.type == at->dtype ||
                      (vi.weak && unify_scalars({{at->dtype, false}, vi}) == at->dtype)))
                    type_error(ve.span, name + "(): value of type " + vi.type->name +
                                            " does not match the array's " + at->dtype->name);
                args.push_back(coerce(v, at->dtype, ve));
            }
            return var_value(emit_call(line, at->dtype, std::move(args), b));
        }
        case BuiltinKind::Regular:
        case BuiltinKind::Multi: {
            std::vector<Value> vals;
            std::vector<ArgInfo> infos;
            for (size_t i = 1; i < e.args.size(); ++i) {
                vals.push_back(eval(*e.args[i]));
                infos.push_back(arg_info(vals.back(), *e.args[i]));
            }
            auto sig = b.rule(infos);
            if (!sig && b.kind == BuiltinKind::Multi)
                return call_with_out_arguments(b, vals, infos, e);
            if (!sig)
                type_error(e.span, name + "(): no overload accepts " + describe_args(infos) +
                                       " (signature: " + b.signature + ")");
            std::vector<VarId> args;
            for (size_t i = 0; i < vals.size(); ++i)
                args.push_back(coerce(vals[i], sig->params[i], *e.args[i + 1]));
            if (!sig->ret->is_tuple())
                return var_value(emit_call(line, sig->ret, std::move(args), b));
            Value r;
            r.kind = Value::Kind::Tuple;
            for (VarId d : emit_multi_call(b, sig->ret, std::move(args), line))
                r.elements.push_back(var_value(d));
            return r;
        }
        default:
            type_error(e.span, name + "(): cannot be called here");
    }
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
                                       const std::vector<ArgInfo>& infos, const ast::Expr& e) {
    // Warp's form f(inputs..., out_0, ..., out_k-1): the rule accepts the inputs and gives k
    // results, each of the type of the local variable that receives it.
    for (size_t k = 1; k < vals.size(); ++k) {
        size_t n = vals.size() - k;
        std::vector<ArgInfo> inputs(infos.begin(), infos.begin() + n);
        auto sig = b.rule(inputs);
        if (!sig || !sig->ret->is_tuple() || sig->ret->elements.size() != k) continue;
        std::vector<std::string> outs;
        for (size_t j = 0; j < k; ++j) {
            const ast::Expr& oe = *e.args[n + j + 1];
            const types::Type* want = sig->ret->elements[j];
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
        for (size_t i = 0; i < n; ++i)
            args.push_back(coerce(vals[i], sig->params[i], *e.args[i + 1]));
        std::vector<VarId> dsts = emit_multi_call(b, sig->ret, std::move(args), e.span.line);
        for (size_t j = 0; j < k; ++j) bind(outs[j], dsts[j], e.args[n + j + 1]->span);
        return Value{};
    }
    type_error(e.span, std::string(b.name) + "(): no overload accepts " + describe_args(infos) +
                           " (signature: " + b.signature + ")");
}

}  // namespace treadle::sema
