// src/sema/infer_call.cpp -- inference of calls: what is called, and the builtins lowered by
// dedicated code (tid, print, printf, random numbers, where, len, atomics, identities)
//
// Builtins resolved by their type rule are in infer_overload.cpp, constructions in
// infer_construct.cpp, user functions in infer_func.cpp.
#include <cctype>

#include "sema/infer_internal.h"

namespace treadle::sema {

using ast::ExprKind;
using ir::InstrKind;
using ir::VarId;

namespace {

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

/// The conversions of a printf format, in order: their letter, or an error message for one a
/// kernel cannot print ("%n", "%s", an unknown or unfinished one). "%%" is no conversion.
std::vector<std::string> printf_conversions(const std::string& fmt, std::string& error) {
    std::vector<std::string> out;
    for (size_t i = 0; i < fmt.size(); ++i) {
        if (fmt[i] != '%') continue;
        size_t j = i + 1;
        if (j < fmt.size() && fmt[j] == '%') {
            i = j;
            continue;
        }
        while (j < fmt.size() && std::string("-+ #0").find(fmt[j]) != std::string::npos) ++j;
        while (j < fmt.size() && (std::isdigit((unsigned char)fmt[j]) || fmt[j] == '.')) ++j;
        if (j < fmt.size() && fmt[j] == '*') {
            error = "'*' widths are not supported";
            return out;
        }
        while (j < fmt.size() && std::string("hlLqjzt").find(fmt[j]) != std::string::npos) ++j;
        if (j >= fmt.size()) {
            error = "the format ends inside a conversion ('" + fmt.substr(i) + "')";
            return out;
        }
        char c = fmt[j];
        if (c == 'n' || c == 's' || c == 'p') {
            error = std::string("'%") + c + "' is not supported (" +
                    (c == 's' ? "strings can only be part of the format"
                              : "kernels print numbers only") +
                    ")";
            return out;
        }
        if (std::string("diouxXcfFeEgGaA").find(c) == std::string::npos) {
            error = "unknown conversion '" + fmt.substr(i, j - i + 1) + "'";
            return out;
        }
        out.push_back(std::string(1, c));
        i = j;
    }
    return out;
}

}  // namespace

/// Checks a printf call's literal format against its arguments (count and kinds), so that a
/// kernel never passes printf something its format does not describe.
void Builder::check_printf(const ast::Expr& e, const std::vector<VarId>& args) {
    const std::string& fmt = e.args[1]->str_value;
    std::string error;
    std::vector<std::string> conv = printf_conversions(fmt, error);
    if (!error.empty()) type_error(e.args[1]->span, "printf(): " + error);
    if (args.size() > 32)  // a limit of the device printf, not a type mistake (Warp's kind)
        fail(e.span, ErrorKind::Runtime,
             "printf(): the maximum number of variadic arguments that can be passed to `printf` "
             "is 32");
    if (conv.size() != args.size())
        type_error(e.span, "printf(): the format has " + std::to_string(conv.size()) +
                               " conversion" + (conv.size() == 1 ? "" : "s") + " but " +
                               std::to_string(args.size()) + " argument" +
                               (args.size() == 1 ? " was" : "s were") + " given");
    for (size_t k = 0; k < args.size(); ++k) {
        const types::Type* t = m_fn.type_of(args[k]);
        bool float_conv = std::string("fFeEgGaA").find(conv[k]) != std::string::npos;
        if (float_conv != t->is_float())
            type_error(e.args[k + 2]->span, "printf(): '%" + conv[k] + "' needs " +
                                                (float_conv ? "a float" : "an integer") +
                                                " argument, got " + t->name);
    }
}

Value Builder::call(const ast::Expr& e) {
    if (is_static_call(e)) return static_value(e);
    std::vector<std::string> hidden;
    if (const ast::Expr* expanded = expand_starred(e, hidden)) {
        Value r = call(*expanded);
        for (const std::string& name : hidden) m_scope.erase(name);
        return r;
    }
    Value callee = eval(*e.args[0]);
    switch (callee.kind) {
        case Value::Kind::Type:
            return callee.type->is_scalar() ? cast(callee.type, e) : construct(callee.type, e);
        case Value::Kind::Func:
            return call_function(callee.func, e);
        case Value::Kind::Grad:
            return call_gradient(callee, e);
        case Value::Kind::Builtin:
            if (!callee.builtin && callee.text == "grad") return grad_of(e);
            if (!callee.builtin && (callee.text == "vector" || callee.text == "matrix"))
                return construct_anonymous(callee.text, e);
            if (!callee.builtin && callee.text == "type") return call_type_of(e);
            if (!callee.builtin && callee.text == "cast") return call_bit_cast(e);
            if (!callee.builtin && (callee.text == "quaternion" || callee.text == "transformation"))
                return construct_anonymous_rigid(callee.text, e);

            if (!callee.builtin)
                type_error(e.span, who() + "arrays cannot be created inside kernels");
            return call_builtin(*callee.builtin, e);
        default:
            type_error(e.args[0]->span, who() + "this object is not callable in a kernel");
    }
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
    if (b.kind == BuiltinKind::Operator) return call_operator(b, e);
    if (b.kind == BuiltinKind::Identity) return call_identity(b, e);
    if (b.kind == BuiltinKind::Tile) return call_tile(b, e);
    if (!e.keywords.empty()) {
        if (b.kind != BuiltinKind::Regular && b.kind != BuiltinKind::Multi)
            type_error(e.keywords[0].span,
                       std::string(b.name) + "(): keyword arguments are not supported");
        return call_builtin(b, keywords_as_positional(b, e));
    }
    switch (b.kind) {
        case BuiltinKind::Tid:
            return emit_tid(1, e);
        case BuiltinKind::Print:
        case BuiltinKind::Printf:
            return call_print(b, e);
        case BuiltinKind::Random:
            return call_random(b, e);
        case BuiltinKind::QueryNext:
            return call_query_next(b, e);
        case BuiltinKind::Where:
            return call_where(e);
        case BuiltinKind::Len:
            return call_len(e);
        case BuiltinKind::Atomic:
            return call_atomic(b, e);
        case BuiltinKind::Regular:
        case BuiltinKind::Multi:
            if (b.traits.rebinds == builtins::Rebinds::First) {
                // a setter (transform_set_translation(t, p)): the call computes the updated
                // value, which goes back to the first argument as an assignment to it would
                Value updated = call_by_rule(b, e);
                write_back(*e.args[1], updated.var, e);
                return Value{};
            }
            return call_by_rule(b, e);
        default:
            type_error(e.span, std::string(b.name) + "(): cannot be called here");
    }
}

Value Builder::call_operator(const Builtin& b, const ast::Expr& e) {
    // wp.add(a, b) is a + b; wp.neg(x) is -x (Warp's functional spelling of operators)
    std::string name = b.name;
    size_t n = e.args.size() - 1;
    bool unary = builtins::builtin_params(b).size() == 1;
    if (n != (unary ? 1u : 2u) || !e.keywords.empty())
        type_error(e.span, name + "(): takes " + (unary ? "1 argument" : "2 arguments") + ", got " +
                               std::to_string(n));
    Value a = eval(*e.args[1]);
    if (!unary) return binary(name, b.traits.op, a, eval(*e.args[2]), *e.args[1], *e.args[2], e);
    ArgInfo ai = arg_info(a, *e.args[1]);
    auto sig = b.rule({ai});
    if (!sig) type_error(e.span, name + "(): not defined for " + describe_args({ai}));
    VarId x = coerce(a, sig->params[0], *e.args[1]);
    return var_value(emit_call(e.span.line, sig->ret, {x}, b));
}

Value Builder::call_identity(const Builtin& b, const ast::Expr& e) {
    int line = e.span.line;
    std::string name = b.name;
    if (name != "identity") {
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
    const types::Type* mt = types::matrix_type((int)n.constant.i, (int)n.constant.i, dt->scalar);
    return var_value(emit_call(line, mt, {}, b));
}

Value Builder::call_print(const Builtin& b, const ast::Expr& e) {
    int line = e.span.line;
    std::string name = b.name;
    size_t nargs = e.args.size() - 1;
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
        if (b.kind == BuiltinKind::Print && (ai.type->is_vector() || ai.type->is_matrix()) &&
            e.args.size() == 2) {
            emit(InstrKind::Print, line).args = {v.var};
            return Value{};
        }
        if (!ai.type->is_scalar() && b.kind == BuiltinKind::Printf)
            type_error(e.args[i]->span, name + "(): cannot print a value of type " + ai.type->name);
        if (b.kind == BuiltinKind::Print && ai.type->is_array()) {
            fmt += "<type without print implementation>";  // Warp prints no array contents
            continue;
        }
        if (!ai.type->is_scalar() && !ai.type->is_value() && !ai.type->is_struct())
            type_error(e.args[i]->span, name + "(): cannot print a value of type " + ai.type->name);
        VarId x = materialize(v, *e.args[i]);
        if (b.kind == BuiltinKind::Print) {
            format_value(x, fmt, args, line);  // composites as their components
            continue;
        }
        args.push_back(x);
    }
    if (b.kind == BuiltinKind::Print) fmt += "\n";
    if (b.kind == BuiltinKind::Printf) check_printf(e, args);
    ir::Instr& in = emit(InstrKind::Printf, line);
    if (b.kind == BuiltinKind::Print) in.callee = "print";  // bools print as words
    in.text = fmt;
    in.args = std::move(args);
    return Value{};
}

Value Builder::call_random(const Builtin& b, const ast::Expr& e) {
    // The generator state is a local uint32 that the call advances: the call works on a fresh
    // copy, which then becomes the variable's value.
    int line = e.span.line;
    std::string name = b.name;
    size_t nargs = e.args.size() - 1;
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
        type_error(e.span, name + "(): no overload accepts the state and " + describe_args(infos) +
                               " (signature: " + b.signature + ")");
    std::vector<VarId> args;
    for (size_t i = 0; i < vals.size(); ++i)
        args.push_back(coerce(vals[i], sig->params[i], *e.args[i + 2]));
    VarId state = emit_value(InstrKind::Copy, line, u32, {m_scope.at(se->name)});
    args.insert(args.begin(), state);
    VarId r = emit_call(line, sig->ret, std::move(args), b);
    bind(se->name, state, se->span);
    return var_value(r);
}

Value Builder::call_where(const ast::Expr& e) {
    size_t nargs = e.args.size() - 1;
    if (nargs != 3 || !e.keywords.empty())
        type_error(e.span, "where(): takes a condition and two values");
    VarId c = condition(*e.args[1]);
    Value a = eval(*e.args[2]);
    Value v = eval(*e.args[3]);
    std::vector<ArgInfo> infos{arg_info(a, *e.args[2]), arg_info(v, *e.args[3])};
    const types::Type* t = infos[0].type == infos[1].type && !infos[0].weak && !infos[1].weak
                               ? infos[0].type
                               : unify_scalars(infos);
    if (!t)
        type_error(e.span, "where(): the two values have different types " + describe_args(infos));
    VarId x = coerce(a, t, *e.args[2]);
    VarId y = coerce(v, t, *e.args[3]);
    return var_value(emit_value(InstrKind::Select, e.span.line, t, {c, x, y}));
}

Value Builder::call_len(const ast::Expr& e) {
    size_t nargs = e.args.size() - 1;
    if (nargs != 1) type_error(e.span, "len(): takes exactly one argument");
    Value v = eval(*e.args[1]);
    if (v.kind == Value::Kind::Tuple) {  // a tuple's length is known at compile time
        Value n;
        n.kind = Value::Kind::Const;
        n.constant = types::ConstValue{types::int32_type(), false, (int64_t)v.elements.size(), 0};
        return n;
    }
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
        type_error(e.span, "len(): needs an array, vector, matrix, quaternion or transform");
    VarId dst = emit_value(InstrKind::Shape, e.span.line, types::int32_type(), {v.var});
    m_block->back().value = types::ConstValue{types::int32_type(), false, 0, 0};
    return var_value(dst);
}

/// Warp's rule for the scalar types of the arrays that atomic_add/sub/min/max (and the bitwise
/// atomics) accept; other atomics are checked by call_atomic itself. Warp reports this as a
/// RuntimeError, so it is one here too.
void Builder::check_atomic_scalar(const Builtin& b, const types::Type* dtype,
                                  const ast::Span& span) const {
    using builtins::AtomicOp;
    const AtomicOp op = b.traits.atomic;
    if (op == AtomicOp::Exch || op == AtomicOp::Cas || !dtype->is_value()) return;
    const ScalarType s = dtype->scalar;
    const bool word_int = s == ScalarType::Int32 || s == ScalarType::UInt32 ||
                          s == ScalarType::Int64 || s == ScalarType::UInt64;
    const bool add = op == AtomicOp::Add || op == AtomicOp::Sub;
    const bool bitwise = op == AtomicOp::And || op == AtomicOp::Or || op == AtomicOp::Xor;
    const bool ok =
        word_int || (!bitwise && (s == ScalarType::BFloat16 || s == ScalarType::Float32 ||
                                  s == ScalarType::Float64 || (add && s == ScalarType::Float16)));
    if (ok) return;
    const char* allowed = bitwise ? "[u]int32 or [u]int64"
                          : add   ? "[u]int32, [u]int64, float16, bfloat16, float32, or float64"
                                  : "[u]int32, [u]int64, bfloat16, float32, or float64";
    fail(span, ErrorKind::Runtime,
         std::string(b.name) + "() operations only work on arrays with " + allowed +
             " as the underlying scalar types, but got " + dtype->name + " (with scalar type " +
             scalar_name(s) + ")");
}

Value Builder::call_atomic(const Builtin& b, const ast::Expr& e) {
    // atomic_cas takes a compare value before the value; the others one value
    std::string name = b.name;
    size_t nargs = e.args.size() - 1;
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
                               std::to_string(at->ndim) + " indices and " + values + ", got " +
                               std::to_string(nargs - 1) + " arguments after the array");
    std::vector<VarId> args{arr.var};
    for (size_t i = 2; i < e.args.size() - nvalues; ++i)
        args.push_back(index_operand(*e.args[i], name + "(): index "));
    check_atomic_scalar(b, at->dtype, e.span);
    if (!at->dtype->is_value() || at->dtype->is_bool() || at->dtype->scalar == ScalarType::Int8 ||
        at->dtype->scalar == ScalarType::UInt8 || at->dtype->scalar == ScalarType::Int16 ||
        at->dtype->scalar == ScalarType::UInt16)
        type_error(e.span,
                   name + "(): arrays of " + at->dtype->name + " do not support atomic operations");
    if (builtins::atomic_needs_word_scalars(b)) {
        if (!at->dtype->is_scalar() || at->dtype->size < 4)
            type_error(e.span,
                       name + "(): takes arrays of 4- or 8-byte scalars, not " + at->dtype->name);
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
    return var_value(emit_call(e.span.line, at->dtype, std::move(args), b));
}

}  // namespace treadle::sema
