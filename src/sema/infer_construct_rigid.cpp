// src/sema/infer_construct_rigid.cpp -- inference of quaternion and transform constructions:
// quatf(...), transformd(...), and Warp's anonymous wp.quaternion(...) / wp.transformation(...)
#include "sema/infer_internal.h"

namespace treadle::sema {

using ir::InstrKind;
using ir::VarId;

VarId Builder::cast_quat(VarId q, ScalarType s, int line) {
    const types::Type* elem = types::scalar_type(s);
    std::vector<VarId> parts;
    for (int64_t i = 0; i < 4; ++i) {
        VarId k = emit_const(types::ConstValue{types::int32_type(), false, i, 0},
                             types::int32_type(), line);
        VarId c = emit_call(line, types::scalar_type(m_fn.type_of(q)->scalar), {q, k},
                            table_entry("extract"));
        parts.push_back(emit_value(InstrKind::Cast, line, elem, {c}));
    }
    return emit_value(InstrKind::Construct, line, types::quat_type(s), std::move(parts));
}

Value Builder::construct_rigid(const types::Type* to, const ast::Expr& e) {
    std::vector<Value> vals;
    std::vector<ArgInfo> infos;
    std::vector<const ast::Expr*> exprs;
    for (size_t i = 1; i < e.args.size(); ++i) {
        vals.push_back(eval(*e.args[i]));
        infos.push_back(arg_info(vals.back(), *e.args[i]));
        exprs.push_back(e.args[i].get());
    }
    for (const auto& k : e.keywords) {
        if (to->is_transform() && (k.name == "p" || k.name == "q")) continue;
        if (k.name == "dtype" && eval_annotation(*k.value) == types::scalar_type(to->scalar))
            continue;
        type_error(k.span, to->name + "(): unexpected argument '" + k.name + "'");
    }
    if (to->is_transform()) {  // transform(p=..., q=...): keywords after the positional ones
        for (const char* name : {"p", "q"})
            for (const auto& k : e.keywords)
                if (k.name == name) {
                    vals.push_back(eval(*k.value));
                    infos.push_back(arg_info(vals.back(), *k.value));
                    exprs.push_back(k.value.get());
                }
    }
    return construct_rigid_from(to, e, vals, infos, exprs, false);
}

Value Builder::construct_anonymous_rigid(const std::string& kind, const ast::Expr& e) {
    const bool quat = kind == "quaternion";
    std::vector<Value> vals;
    std::vector<ArgInfo> infos;
    std::vector<const ast::Expr*> exprs;
    for (size_t i = 1; i < e.args.size(); ++i) {
        vals.push_back(eval(*e.args[i]));
        infos.push_back(arg_info(vals.back(), *e.args[i]));
        exprs.push_back(e.args[i].get());
    }
    const types::Type* dtype = nullptr;
    for (const auto& k : e.keywords) {
        if (k.name == "dtype") {
            dtype = eval_annotation(*k.value);
            if (!dtype->is_float())
                type_error(k.span, who() + kind + "(): dtype must be a float type");
        } else if (!quat && (k.name == "p" || k.name == "q")) {
            vals.push_back(eval(*k.value));
            infos.push_back(arg_info(vals.back(), *k.value));
            exprs.push_back(k.value.get());
        } else {
            type_error(k.span, who() + kind + "(): unexpected argument '" + k.name + "'");
        }
    }
    if (!dtype) {  // the arguments' scalar type; float32 when there are none
        std::vector<ArgInfo> parts;
        for (const ArgInfo& a : infos)
            parts.push_back(
                a.type->is_scalar() ? a : ArgInfo{types::scalar_type(a.type->scalar), false});
        dtype = parts.empty() ? types::float32_type() : unify_scalars(parts, false);
        if (!dtype || !dtype->is_float())
            type_error(e.span, who() + kind + "(): the arguments " + describe_args(infos) +
                                   " have no common float type; give dtype=");
    }
    const types::Type* to =
        quat ? types::quat_type(dtype->scalar) : types::transform_type(dtype->scalar);
    return construct_rigid_from(to, e, vals, infos, exprs, true);
}

Value Builder::construct_rigid_from(const types::Type* to, const ast::Expr& e,
                                    const std::vector<Value>& vals,
                                    const std::vector<ArgInfo>& infos,
                                    const std::vector<const ast::Expr*>& exprs, bool anonymous) {
    int line = e.span.line;
    const types::Type* elem = types::scalar_type(to->scalar);
    auto fits = [&](const ArgInfo& a) {
        return a.type == elem || (a.weak && unify_scalars({{elem, false}, a}) == elem);
    };
    auto scalars = [&](size_t from, size_t n) {
        std::vector<VarId> out;
        for (size_t i = from; i < from + n; ++i) {
            if (!fits(infos[i]))
                type_error(exprs[i]->span, to->name + "(): component " + std::to_string(i) +
                                               " has type " + infos[i].type->name + ", expected " +
                                               elem->name);
            out.push_back(coerce(vals[i], elem, *exprs[i]));
        }
        return out;
    };
    auto result = [](VarId v) { return Value{Value::Kind::Var, v}; };
    if (vals.size() == 1 && infos[0].type == to) return vals[0];
    const types::Type* q = types::quat_type(to->scalar);
    const types::Type* v3 = types::vector_type(3, to->scalar);
    if (to->is_quat()) {
        if (vals.empty()) {
            VarId z = emit_const(types::ConstValue{types::int32_type(), true, 0, 0}, elem, line);
            return result(emit_value(InstrKind::Construct, line, to, {z, z, z, z}));
        }
        if (vals.size() == 1 && infos[0].type->is_quat())  // quatd(qf): convert the components
            return result(cast_quat(materialize(vals[0], *exprs[0]), to->scalar, line));
        if (vals.size() == 2 && infos[0].type == v3 && fits(infos[1])) {  // quat(v, w)
            std::vector<VarId> c;
            for (int64_t i = 0; i < 3; ++i) {
                VarId k = emit_const(types::ConstValue{types::int32_type(), false, i, 0},
                                     types::int32_type(), line);
                c.push_back(emit_call(line, elem, {vals[0].var, k}, table_entry("extract")));
            }
            c.push_back(coerce(vals[1], elem, *exprs[1]));
            return result(emit_value(InstrKind::Construct, line, to, std::move(c)));
        }
        if (vals.size() == 4)
            return result(emit_value(InstrKind::Construct, line, to, scalars(0, 4)));
        type_error(e.span, to->name + "(): expected nothing, a " + to->name +
                               ", (v: vec3, w) or 4 components, got " + describe_args(infos));
    }
    if (vals.empty()) {  // Warp's transform() in a kernel: every component zero (not identity)
        VarId z = emit_const(types::ConstValue{types::int32_type(), true, 0, 0}, elem, line);
        VarId p = emit_call(line, v3, {z}, table_entry("vec_fill"));
        VarId r = emit_value(InstrKind::Construct, line, q, {z, z, z, z});
        return result(emit_call(line, to, {p, r}, table_entry("transform_from")));
    }
    if (vals.size() == 1 && infos[0].type->is_transform()) {
        if (!anonymous)
            fail(e.span, ErrorKind::Runtime,
                 who() +
                     "copy constructing a transform requires matching source and target dtypes, "
                     "got `" +
                     scalar_name(infos[0].type->scalar) + "` and `" + scalar_name(to->scalar) +
                     "`");
        VarId t = materialize(vals[0], *exprs[0]);
        const types::Type* from_p = types::vector_type(3, infos[0].type->scalar);
        VarId p = emit_call(line, from_p, {t}, table_entry("transform_get_translation"));
        VarId r = emit_call(line, types::quat_type(infos[0].type->scalar), {t},
                            table_entry("transform_get_rotation"));
        p = emit_call(line, v3, {p}, table_entry("vec_cast"));
        r = cast_quat(r, to->scalar, line);
        return result(emit_call(line, to, {p, r}, table_entry("transform_from")));
    }
    if (vals.size() == 1 && infos[0].type == v3) {  // transform(p): the identity rotation
        VarId r = emit_call(line, q, {}, table_entry("quat_identity"));
        return result(emit_call(line, to, {vals[0].var, r}, table_entry("transform_from")));
    }
    if (vals.size() == 1 && infos[0].type->is_scalar()) {  // transform(s): every component s
        VarId s = scalars(0, 1)[0];
        VarId p = emit_call(line, v3, {s}, table_entry("vec_fill"));
        VarId r = emit_value(InstrKind::Construct, line, q, {s, s, s, s});
        return result(emit_call(line, to, {p, r}, table_entry("transform_from")));
    }
    if (vals.size() == 2 && infos[0].type == v3 && infos[1].type == q)
        return result(
            emit_call(line, to, {vals[0].var, vals[1].var}, table_entry("transform_from")));
    if (vals.size() == 7) {
        std::vector<VarId> c = scalars(0, 7);
        VarId p = emit_value(InstrKind::Construct, line, v3, {c[0], c[1], c[2]});
        VarId r = emit_value(InstrKind::Construct, line, q, {c[3], c[4], c[5], c[6]});
        return result(emit_call(line, to, {p, r}, table_entry("transform_from")));
    }
    bool all_scalars = true;
    for (const ArgInfo& a : infos) all_scalars = all_scalars && a.type->is_scalar();
    if (all_scalars)
        fail(e.span, ErrorKind::Runtime,
             who() + "incompatible number of values given (" + std::to_string(vals.size()) +
                 ") when constructing a transform; expected 0, 1, or 7");
    type_error(e.span, to->name + "(): expected (p: " + v3->name + ", q: " + q->name +
                           ") or 7 components, got " + describe_args(infos));
}

}  // namespace treadle::sema
