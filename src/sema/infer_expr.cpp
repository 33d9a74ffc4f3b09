// src/sema/infer_expr.cpp -- inference of expressions: the dispatch by kind, names, constants,
// attributes, annotations and conversions
//
// Indexing is in infer_index.cpp, operators in infer_operator.cpp, calls in infer_call.cpp.
#include <cmath>
#include <limits>

#include "sema/infer_internal.h"
#include "types/type_names.h"

namespace treadle::sema {

using ast::ExprKind;
using ir::InstrKind;
using ir::VarId;

namespace {

Value const_value(const types::Type* t, bool weak, int64_t i, double f) {
    Value v;
    v.kind = Value::Kind::Const;
    v.constant = types::ConstValue{t, weak, i, f};
    return v;
}

Value from_global(const GlobalValue& g) {
    Value v;
    switch (g.kind) {
        case GlobalValue::Kind::Module:
            v.kind = Value::Kind::Module;
            v.text = g.module;
            break;
        case GlobalValue::Kind::Constant:
            v.kind = Value::Kind::Const;
            v.constant = g.constant;
            break;
        case GlobalValue::Kind::Function:
            v.kind = Value::Kind::Func;
            v.func = g.function;
            break;
        case GlobalValue::Kind::Type:
            v.kind = Value::Kind::Type;
            v.type = g.type;
            break;
        case GlobalValue::Kind::Builtin:
            v.kind = Value::Kind::Builtin;
            v.builtin = find_builtin(g.what);
            v.text = g.what;
            break;
        case GlobalValue::Kind::None:
        case GlobalValue::Kind::Unsupported:
        case GlobalValue::Kind::Error:
            break;
    }
    return v;
}

/// Constants of Warp's namespace and of Python's math module, as weak floats.
bool math_constant(const std::string& name, double& out) {
    static const std::pair<const char*, double> k_constants[] = {
        {"pi", 3.14159265358979323846},
        {"e", 2.71828182845904523536},
        {"tau", 6.28318530717958647692},
        {"half_pi", 1.57079632679489661923},
        {"inf", std::numeric_limits<double>::infinity()},
        {"nan", std::numeric_limits<double>::quiet_NaN()},
        {"phi", 1.61803398874989484820},
        {"ln2", 0.69314718055994530942},
        {"ln10", 2.30258509299404568402},
        {"log2e", 1.44269504088896340736},
        {"log10e", 0.43429448190325182765},
    };
    for (const auto& [n, v] : k_constants)
        if (name == n) {
            out = v;
            return true;
        }
    return false;
}

bool is_array_constructor(const std::string& name) {
    std::string base = name.rfind("indexed", 0) == 0 ? name.substr(7) : name;
    return base == "array" || base == "array1d" || base == "array2d" || base == "array3d" ||
           base == "array4d";
}

}  // namespace

namespace {
/// The parameter a chain p.a.b[k] starts at (p), or null when it is not such a chain.
const ast::Expr* chain_root(const ast::Expr& e) {
    const ast::Expr* r = &e;
    while ((r->kind == ExprKind::Attribute || r->kind == ExprKind::Subscript) && !r->args.empty())
        r = r->args[0].get();
    return r->kind == ExprKind::Name ? r : nullptr;
}
}  // namespace

ast::ExprPtr Builder::adjoint_parts(const ast::Expr& e) {
    if (m_source.primal_params < 0) return nullptr;
    if (e.kind == ExprKind::Subscript && e.args.size() == 2 &&
        e.args[0]->kind == ExprKind::Attribute && e.args[0]->name == "adjoint" &&
        e.args[1]->kind != ExprKind::Name) {
        const ast::Expr* root = chain_root(*e.args[1]);
        Value module = eval(*e.args[0]->args[0]);
        if (root && module.kind == Value::Kind::Module && module.text == "treadle" &&
            m_scope.count("adjoint:" + root->name)) {
            ast::ExprPtr out = ast::clone(*e.args[1]);
            ast::Expr* r = out.get();
            while (r->kind != ExprKind::Name) r = r->args[0].get();
            r->name = "adjoint:" + r->name;
            return out;
        }
    }
    ast::ExprPtr out;
    for (size_t i = 0; i < e.args.size(); ++i) {
        if (!e.args[i]) continue;
        ast::ExprPtr part = adjoint_parts(*e.args[i]);
        if (!part) continue;
        if (!out) out = ast::clone(e);
        out->args[i] = std::move(part);
    }
    return out;
}

std::string Builder::adjoint_slot(const ast::Expr& e) {
    if (e.kind != ExprKind::Subscript) return "";
    const ast::Expr& base = *e.args[0];
    if (base.kind != ExprKind::Attribute || base.name != "adjoint") return "";
    Value module = eval(*base.args[0]);
    if (module.kind != Value::Kind::Module || module.text != "treadle") return "";
    const ast::Expr& index = *e.args[1];
    std::string slot = index.kind == ExprKind::Name ? "adjoint:" + index.name : "";
    if (m_source.primal_params < 0 || slot.empty() || !m_scope.count(slot))
        type_error(e.span, who() +
                               "wp.adjoint[...] names the gradient of a parameter of the "
                               "function, and only inside a @wp.func_grad function");
    return slot;
}

Value Builder::global_value(const GlobalValue& g, const ast::Expr& e) {
    // The front end could not describe the value (a Python int past 64 bits, a raising
    // attribute): its reason, at the name.
    if (g.kind == GlobalValue::Kind::Error) fail(e.span, ErrorKind::Value, who() + g.what);
    const types::Type* t = g.constant.type;
    if (g.kind != GlobalValue::Kind::Constant || !t || t->is_scalar()) return from_global(g);
    int line = e.span.line;
    if (t->is_struct()) {  // a struct constant: each field's value, then one construction
        std::vector<ir::VarId> fields;
        for (size_t i = 0; i < g.fields.size(); ++i)
            fields.push_back(
                coerce_assigned(global_value(g.fields[i], e), t->fields[i].type, e,
                                "field '" + t->fields[i].name + "' of '" + t->name + "'"));
        Value out;
        out.kind = Value::Kind::Var;
        out.var = emit_value(ir::InstrKind::Construct, line, t, fields);
        return out;
    }
    // A vector/matrix/quaternion/transform constant: its components, then one construction.
    const types::Type* scalar = types::scalar_type(t->scalar);
    std::vector<ir::VarId> parts;
    for (double c : g.components) {
        types::ConstValue cv{scalar, false, (int64_t)c, c};
        parts.push_back(emit_const(cv, scalar, line));
    }
    auto var_value = [](ir::VarId v) {
        Value out;
        out.kind = Value::Kind::Var;
        out.var = v;
        return out;
    };
    if (!t->is_transform()) return var_value(emit_value(ir::InstrKind::Construct, line, t, parts));
    ir::VarId p = emit_value(ir::InstrKind::Construct, line, types::vector_type(3, t->scalar),
                             {parts[0], parts[1], parts[2]});
    ir::VarId q = emit_value(ir::InstrKind::Construct, line, types::quat_type(t->scalar),
                             {parts[3], parts[4], parts[5], parts[6]});
    return var_value(emit_call(line, t, {p, q}, table_entry("transform_from")));
}

Value Builder::resolve_name(const std::string& name, const ast::Expr& e) {
    auto it = m_scope.find(name);
    if (it != m_scope.end()) {
        Value v;
        v.kind = Value::Kind::Var;
        v.var = it->second;
        return v;
    }
    if (auto f = m_function_locals.find(name); f != m_function_locals.end()) return f->second;
    GlobalValue g =
        m_source.resolver ? m_program.names.lookup(*m_source.resolver, name) : GlobalValue{};
    if (g.kind == GlobalValue::Kind::Unsupported)
        type_error(e.span,
                   who() + "'" + name + "' is a Python " + g.what + ", which kernels cannot use");
    if (g.kind == GlobalValue::Kind::Builtin && g.what == "grad") {  // from warp import grad
        Value v;
        v.kind = Value::Kind::Builtin;
        v.text = "grad";
        return v;
    }
    if (g.kind == GlobalValue::Kind::Builtin && !find_builtin(g.what) &&
        !is_array_constructor(g.what))
        type_error(e.span,
                   who() + "'" + name + "' (treadle." + g.what + ") cannot be used inside kernels");
    if (g.kind != GlobalValue::Kind::None) return global_value(g, e);
    // Python builtins that kernels understand.
    if (name == "int" || name == "float" || name == "bool") {
        Value v;
        v.kind = Value::Kind::Type;
        v.type = name == "int"     ? types::int32_type()
                 : name == "float" ? types::float32_type()
                                   : types::bool_type();
        return v;
    }
    // Python builtins of the same name (min, abs, len), and, as in Warp, the builtins that
    // are also callable from Python by their bare name (expect_eq, sin) where no global of
    // that name exists.
    if (const Builtin* b = find_builtin(name); b && (b->traits.python_builtin || b->traits.host)) {
        Value v;
        v.kind = Value::Kind::Builtin;
        v.builtin = b;
        v.text = name;
        return v;
    }
    if (name == "type") {  // type(x): see call_type_of
        Value v;
        v.kind = Value::Kind::Builtin;
        v.text = "type";
        return v;
    }
    if (name == "True" || name == "False")
        return const_value(types::bool_type(), false, name == "True", 0);
    if (name == "range")
        type_error(e.span, who() + "range() can only be used as the iterable of a for loop");
    fail(e.span, ErrorKind::Key, who() + "Referencing undefined symbol: " + name);
}

Value Builder::resolve_attribute(const Value& base, const ast::Expr& e) {
    const std::string& attr = e.name;
    if (base.kind == Value::Kind::Module) {
        if (base.text == "treadle" || base.text == "math") {
            double c;
            if (math_constant(attr, c)) return const_value(types::float32_type(), true, 0, c);
            if (base.text == "treadle") {
                if (const types::Type* t = types::type_by_name(attr)) {
                    Value v;
                    v.kind = Value::Kind::Type;
                    v.type = t;
                    return v;
                }
                if (attr == "int" || attr == "float" || attr == "bool") {
                    // Warp's wp.int(x), wp.float(x), wp.bool(x): the Python builtins' casts
                    Value v;
                    v.kind = Value::Kind::Type;
                    v.type = attr == "int"     ? types::int32_type()
                             : attr == "float" ? types::float32_type()
                                               : types::bool_type();
                    return v;
                }
                if (attr == "vector" || attr == "matrix" || attr == "quaternion" ||
                    attr == "transformation" || attr == "cast" || attr == "grad") {
                    Value v;
                    v.kind = Value::Kind::Builtin;
                    v.text = attr;
                    return v;
                }
                if (attr == "types") return base;
            }
            if (const Builtin* b = find_builtin(attr)) {
                Value v;
                v.kind = Value::Kind::Builtin;
                v.builtin = b;
                v.text = attr;
                return v;
            }
            if (base.text == "treadle" && operator_text(attr)) {
                // wp.add(a, b), wp.mul(m, v), wp.neg(x): the operators as functions
                Value v;
                v.kind = Value::Kind::Builtin;
                v.builtin = find_operator(attr);
                v.text = attr;
                return v;
            }
            if (base.text == "treadle" && is_array_constructor(attr)) {
                Value v;
                v.kind = Value::Kind::Builtin;
                v.text = attr;
                return v;
            }
            if (base.text == "treadle" && m_source.resolver) {
                // another number the module defines (wp.HALF_PI, wp.LN2): its value
                GlobalValue g = m_program.names.attribute(*m_source.resolver, "py:treadle", attr);
                if (g.kind == GlobalValue::Kind::Constant && g.constant.type->is_scalar())
                    return global_value(g, e);
                // a submodule reached through the package (warp.tests.helpers.CONSTANT)
                if (g.kind == GlobalValue::Kind::Module && g.module != "treadle")
                    return global_value(g, e);
            }
            type_error(e.span, who() + "module '" + (base.text == "treadle" ? "wp" : "math") +
                                   "' has no attribute '" + attr + "' usable in kernels");
        }
        GlobalValue g = m_source.resolver
                            ? m_program.names.attribute(*m_source.resolver, base.text, attr)
                            : GlobalValue{};
        if (g.kind == GlobalValue::Kind::None)
            type_error(e.span, who() + "module has no attribute '" + attr + "'");
        if (g.kind == GlobalValue::Kind::Unsupported)
            type_error(e.span, who() + "'" + attr + "' is a Python " + g.what +
                                   ", which kernels cannot use");
        return global_value(g, e);
    }
    if (base.kind == Value::Kind::Var && m_fn.type_of(base.var)->is_array()) {
        if (attr == "shape") {
            Value v;
            v.kind = Value::Kind::Shape;
            v.var = base.var;
            return v;
        }
        if (attr == "ndim")
            return const_value(types::int32_type(), true, m_fn.type_of(base.var)->ndim, 0);
        if (attr == "dtype") return type_attribute(m_fn.type_of(base.var), e);
        type_error(e.span, who() + "arrays have no attribute '" + attr + "' in kernels");
    }
    if (base.kind == Value::Kind::Var && (attr == "dtype" || attr == "length")) {
        // attributes of a composite value's type (Warp's v.dtype, v.length)
        const types::Type* t = m_fn.type_of(base.var);
        if (t->is_vector() || t->is_matrix() || t->is_quat() || t->is_transform())
            return type_attribute(t, e);
    }
    if (base.kind == Value::Kind::Var && m_fn.type_of(base.var)->is_struct())
        return struct_field(base.var, e);
    if (base.kind == Value::Kind::Var && m_fn.type_of(base.var)->is_transform() &&
        (attr == "p" || attr == "q")) {
        const types::Type* tt = m_fn.type_of(base.var);
        const types::Type* rt =
            attr == "p" ? types::vector_type(3, tt->scalar) : types::quat_type(tt->scalar);
        return Value{Value::Kind::Var,
                     emit_call(e.span.line, rt, {base.var},
                               table_entry(attr == "p" ? "transform_get_translation"
                                                       : "transform_get_rotation"))};
    }
    if (base.kind == Value::Kind::Var &&
        (m_fn.type_of(base.var)->is_vector() || m_fn.type_of(base.var)->is_quat())) {
        const types::Type* vt = m_fn.type_of(base.var);
        static const std::string k_components = "xyzw";
        size_t c = attr.size() == 1 ? k_components.find(attr[0]) : std::string::npos;
        if (c == std::string::npos || (int)c >= vt->rows)
            type_error(e.span, who() + "'" + vt->name + "' has no component '" + attr + "'");
        VarId idx = emit_const(types::ConstValue{types::int32_type(), false, (int64_t)c, 0},
                               types::int32_type(), e.span.line);
        return Value{Value::Kind::Var, emit_call(e.span.line, types::scalar_type(vt->scalar),
                                                 {base.var, idx}, table_entry("extract"))};
    }
    if (base.kind == Value::Kind::Type && base.type) return type_attribute(base.type, e);
    // `.value` of an IntEnum/IntFlag member, which the front end describes as its integer
    if (base.kind == Value::Kind::Const && attr == "value" && base.constant.type &&
        base.constant.type->is_integer())
        return base;
    std::string what = base.kind == Value::Kind::Var ? m_fn.type_of(base.var)->name : "this value";
    type_error(e.span, who() + "'" + what + "' has no attribute '" + attr + "'");
}

const types::Type* Builder::param_annotation(const std::string& name, const ast::Expr& e) {
    if (m_source.resolver) {
        GlobalValue g = m_program.names.annotation(*m_source.resolver, name);
        if (g.kind == GlobalValue::Kind::Type && g.type) return g.type;
    }
    return eval_annotation(e, true);
}

const types::Type* Builder::eval_annotation(const ast::Expr& e, bool allow_generic) {
    const types::Type* t = eval_annotation_type(e);
    if (t->is_generic() && !allow_generic)
        type_error(e.span, who() + "the generic type " + t->name +
                               " can only annotate the parameters of functions and kernels");
    return t;
}

const types::Type* Builder::eval_annotation_type(const ast::Expr& e) {
    if (e.kind == ExprKind::Call) {
        Value callee = eval(*e.args[0]);
        if (callee.kind == Value::Kind::Builtin &&
            (callee.text == "vector" || callee.text == "matrix"))
            return eval_math_type(callee.text, e);
        if (callee.kind == Value::Kind::Builtin && callee.text == "type")
            return call_type_of(e).type;
        if (callee.kind == Value::Kind::Builtin && is_array_constructor(callee.text)) {
            bool indexed = callee.text.rfind("indexed", 0) == 0;
            std::string ctor = indexed ? callee.text.substr(7) : callee.text;
            int ndim = ctor == "array" ? 1 : ctor[5] - '0';
            const types::Type* dtype = nullptr;
            auto take = [&](const std::string& name, const ast::Expr& val) {
                if (name == "dtype") {
                    dtype = eval_annotation_type(val);
                } else if (name == "ndim") {
                    Value n = eval(val);
                    if (n.kind != Value::Kind::Const || !n.constant.type->is_integer() ||
                        n.constant.i < 1 || n.constant.i > 4)
                        type_error(val.span, who() + "array ndim must be a constant from 1 to 4");
                    ndim = (int)n.constant.i;
                } else {
                    type_error(val.span,
                               who() + "unexpected array annotation argument '" + name + "'");
                }
            };
            const char* positional[] = {"dtype", "ndim"};
            for (size_t i = 1; i < e.args.size(); ++i) {
                if (i > 2)
                    type_error(e.span, who() + "too many arguments to " + callee.text + "()");
                take(positional[i - 1], *e.args[i]);
            }
            for (const auto& k : e.keywords) take(k.name, *k.value);
            if (!dtype) type_error(e.span, who() + "array annotation needs a dtype");
            if (!dtype->is_element() && !(dtype->is_generic() && !dtype->is_array()))
                type_error(e.span, who() + "arrays of " + dtype->name + " are not supported");
            if (indexed && dtype->is_generic())
                type_error(e.span, who() + "an indexed array needs a concrete dtype (got " +
                                       dtype->name + ")");
            return indexed ? types::indexedarray_type(dtype, ndim) : types::array_type(dtype, ndim);
        }
    }
    if (e.kind == ExprKind::Name || e.kind == ExprKind::Attribute) {
        Value v = eval(e);
        if (v.kind == Value::Kind::Type && v.type) return v.type;
    }
    if (e.kind == ExprKind::Constant && e.const_kind == ast::ConstKind::None)
        return types::void_type();
    type_error(e.span, who() + "not a type annotation treadle understands");
}

const types::Type* Builder::eval_math_type(const std::string& kind, const ast::Expr& e) {
    // vector(length=3, dtype=float) / matrix(shape=(3, 3), dtype=float), keywords or positional
    const ast::Expr* size_arg = e.args.size() > 1 ? e.args[1].get() : nullptr;
    const ast::Expr* dtype_arg = e.args.size() > 2 ? e.args[2].get() : nullptr;
    for (const auto& k : e.keywords) {
        if (k.name == "dtype")
            dtype_arg = k.value.get();
        else if (k.name == (kind == "vector" ? "length" : "shape"))
            size_arg = k.value.get();
        else
            type_error(k.span, who() + kind + "(): unexpected argument '" + k.name + "'");
    }
    if (!size_arg)
        type_error(e.span,
                   who() + kind + "(): needs its " + (kind == "vector" ? "length" : "shape"));
    const types::Type* dtype = dtype_arg ? eval_annotation(*dtype_arg) : types::float32_type();
    if (!dtype->is_scalar()) type_error(e.span, who() + kind + "(): dtype must be a scalar type");
    return sized_math_type(kind, *size_arg, dtype->scalar);
}

const types::Type* Builder::sized_math_type(const std::string& kind, const ast::Expr& size,
                                            ScalarType scalar) {
    const bool vector = kind == "vector";
    const int least = vector ? 0 : 1;
    const int most = vector ? types::k_max_vector_length : types::k_max_matrix_dim;
    auto constant_int = [&](const ast::Expr& x) {
        Value v = eval(x);
        if (v.kind != Value::Kind::Const || !v.constant.type->is_integer() ||
            v.constant.i < least || v.constant.i > most)
            type_error(x.span, who() + kind + "(): sizes must be constants from " +
                                   std::to_string(least) + " to " + std::to_string(most));
        return (int)v.constant.i;
    };
    if (vector) return types::vector_type(constant_int(size), scalar);
    if (size.kind != ExprKind::Tuple || size.args.size() != 2)
        type_error(size.span, who() + "matrix(): shape must be a tuple (rows, cols)");
    return types::matrix_type(constant_int(*size.args[0]), constant_int(*size.args[1]), scalar);
}

ArgInfo Builder::arg_info(const Value& v, const ast::Expr& e) {
    switch (v.kind) {
        case Value::Kind::Var:
            return {m_fn.type_of(v.var), false};
        case Value::Kind::Const:
            return {v.constant.type, v.constant.weak};
        case Value::Kind::Str:
            type_error(e.span, who() + "strings can only be used with print() and printf()");
        case Value::Kind::Tuple:
            type_error(e.span, who() + "a tuple cannot be used as a single value here");
        case Value::Kind::Shape:
            type_error(e.span, who() + "array.shape must be indexed (a.shape[0])");
        case Value::Kind::None:
            type_error(e.span, who() + "this expression has no value");
        default:
            type_error(e.span, who() + "a module, type or function cannot be used as a value");
    }
}

VarId Builder::emit_const(const types::ConstValue& c, const types::Type* t, int line) {
    types::ConstValue out{t, false, 0, 0.0};
    if (t->is_float())
        out.f = c.type->is_float() ? c.f : (double)c.i;
    else if (t->is_bool())
        out.i = c.type->is_float() ? (c.f != 0.0) : (c.i != 0);
    else
        out.i = c.type->is_float() ? (int64_t)c.f : c.i;
    VarId dst = m_fn.new_var(t);
    ir::Instr& in = emit(InstrKind::Const, line);
    in.dsts = {dst};
    in.value = out;
    if (t->is_integer()) m_int_consts[dst] = out.i;
    return dst;
}

VarId Builder::coerce(const Value& v, const types::Type* t, const ast::Expr& e) {
    ArgInfo ai = arg_info(v, e);
    if (v.kind == Value::Kind::Const) {
        if (ai.type != t && !(ai.weak && unify_scalars({{t, false}, ai}) == t) &&
            !(ai.weak == false && ai.type == t))
            type_error(e.span, who() + "expected a value of type " + t->name + ", got " +
                                   (ai.weak ? std::string(ai.type->is_float() ? "float literal"
                                                                              : "int literal")
                                            : ai.type->name));
        return emit_const(v.constant, t, e.span.line);
    }
    if (ai.type != t)
        type_error(e.span,
                   who() + "expected a value of type " + t->name + ", got " + ai.type->name);
    return v.var;
}

VarId Builder::materialize(const Value& v, const ast::Expr& e) {
    ArgInfo ai = arg_info(v, e);
    if (v.kind == Value::Kind::Var) return v.var;
    return emit_const(v.constant, ai.type, e.span.line);
}

VarId Builder::condition(const ast::Expr& e) { return condition_of(eval(e), e); }

std::optional<bool> Builder::constant_truth(const Value& v) {
    if (v.kind != Value::Kind::Const || !v.constant.type) return std::nullopt;
    if (v.constant.type->is_float()) return v.constant.f != 0.0;
    return v.constant.i != 0;
}

Value Builder::bool_constant(bool truth) {
    Value r;
    r.kind = Value::Kind::Const;
    r.constant = types::ConstValue{types::bool_type(), false, truth ? 1 : 0, 0.0};
    return r;
}

VarId Builder::condition_of(const Value& v, const ast::Expr& e) {
    ArgInfo ai = arg_info(v, e);
    if (ai.type->is_array())  // an array argument is true unless it is None
        return emit_call(e.span.line, types::bool_type(), {v.var}, table_entry("array_nonnull"));
    if (!ai.type->is_scalar())
        type_error(e.span, who() + "a condition must be a scalar, got " + ai.type->name);
    if (ai.type->is_bool()) return materialize(v, e);
    VarId x = materialize(v, e);
    VarId zero =
        emit_const(types::ConstValue{types::int32_type(), true, 0, 0.0}, ai.type, e.span.line);
    return emit_value(InstrKind::Compare, e.span.line, types::bool_type(), {x, zero}, "!=");
}

Value Builder::eval(const ast::Expr& e) {
    // Instructions emitted while evaluating e carry its column (checked-mode reports).
    struct ColumnScope {
        int& col;
        int saved;
        ~ColumnScope() { col = saved; }
    } scope{m_col, m_col};
    m_col = e.span.col;
    switch (e.kind) {
        case ExprKind::Name:
            return resolve_name(e.name, e);
        case ExprKind::Constant:
            return eval_constant(e);
        case ExprKind::Attribute:
            return resolve_attribute(eval(*e.args[0]), e);
        case ExprKind::Subscript:
            return eval_subscript(e);
        case ExprKind::Call:
            return call(e);
        case ExprKind::BinOp:
            return eval_binary(e);
        case ExprKind::UnaryOp:
            return eval_unary(e);
        case ExprKind::BoolOp:
            return eval_bool_op(e);
        case ExprKind::Compare:
            return eval_compare(e);
        case ExprKind::IfExp:
            return eval_if_exp(e);
        case ExprKind::Tuple: {
            Value v;
            v.kind = Value::Kind::Tuple;
            for (const auto& el : e.args) v.elements.push_back(eval(*el));
            return v;
        }
        case ExprKind::List:
            if (e.name == "{}")  // parsed for wp.static() expressions only
                fail(e.span, ErrorKind::Syntax,
                     who() +
                         "dict and set displays are not supported in kernels (only inside "
                         "wp.static())");
            type_error(e.span, who() + "lists are not supported in kernels");
        case ExprKind::Slice:
            type_error(e.span, who() + "slices are not supported in kernels");
        case ExprKind::Starred:
            type_error(e.span, who() +
                                   "Starred expressions are only supported as positional "
                                   "arguments of a call");
    }
    return Value{};
}

Value Builder::eval_constant(const ast::Expr& e) {
    switch (e.const_kind) {
        case ast::ConstKind::Int:
            if (e.int_value > (uint64_t)std::numeric_limits<int64_t>::max())
                return const_value(types::scalar_type(ScalarType::UInt64), true,
                                   (int64_t)e.int_value, 0);
            return const_value(
                e.int_value > 0x7fffffffull ? types::int64_type() : types::int32_type(), true,
                (int64_t)e.int_value, 0);
        case ast::ConstKind::Float:
            return const_value(types::float32_type(), true, 0, e.float_value);
        case ast::ConstKind::Bool:
            return const_value(types::bool_type(), false, (int64_t)e.int_value, 0);
        case ast::ConstKind::Str: {
            Value v;
            v.kind = Value::Kind::Str;
            v.text = e.str_value;
            return v;
        }
        case ast::ConstKind::None:
            return Value{};
        case ast::ConstKind::Ellipsis:
            fail(e.span, ErrorKind::Syntax, who() + "'...' (Ellipsis) is not supported in kernels");
    }
    return Value{};
}

Value Builder::eval_if_exp(const ast::Expr& e) {
    int line = e.span.line;
    VarId c = condition(*e.args[0]);
    ir::Block* parent = m_block;
    ir::Instr& ifi = emit(InstrKind::If, line);
    ifi.args = {c};
    m_block = &ifi.body;
    Value a = eval(*e.args[1]);
    m_block = &ifi.orelse;
    Value b = eval(*e.args[2]);
    std::vector<ArgInfo> infos{arg_info(a, *e.args[1]), arg_info(b, *e.args[2])};
    const types::Type* t = infos[0].type == infos[1].type && !infos[0].weak && !infos[1].weak
                               ? infos[0].type
                               : unify_scalars(infos);
    if (!t)
        type_error(e.span, who() + "the two sides of 'x if c else y' have different types " +
                               describe_args(infos));
    VarId r = m_fn.new_var(t, "", true);
    m_block = &ifi.body;
    VarId va = coerce(a, t, *e.args[1]);
    emit(InstrKind::Assign, line).dsts = {r};
    m_block->back().args = {va};
    m_block = &ifi.orelse;
    VarId vb = coerce(b, t, *e.args[2]);
    emit(InstrKind::Assign, line).dsts = {r};
    m_block->back().args = {vb};
    m_block = parent;
    // A copy, so that the result is an ordinary immutable value.
    return Value{Value::Kind::Var, emit_value(InstrKind::Copy, line, t, {r})};
}

}  // namespace treadle::sema
