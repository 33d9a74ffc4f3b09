// src/sema/infer_tile_block.cpp -- tile builtins the block runs together (entries_tile_block)
//
// tile_stack(capacity=64, dtype=int) and its push / pop / count / clear, tile_sort(keys,
// values) (which re-binds both tiles), tile_randi / tile_randf(shape, rng[, min, max]),
// tile_from_thread(shape, value, thread_idx) and tile_scatter_add / tile_scatter_masked(a, i,
// [j, ...,] value, has_value). Errors name the builtin and point at the
// offending argument.
#include "sema/infer_internal.h"

namespace treadle::sema {

using ir::VarId;

namespace {

const ast::Expr* named_arg(const std::map<std::string, const ast::Expr*>& named,
                           const std::string& param) {
    auto it = named.find(param);
    return it == named.end() ? nullptr : it->second;
}

}  // namespace

VarId Builder::tile_stack_operand(const ast::Expr& x, const std::string& fn) {
    Value v = eval(x);
    const types::Type* t = v.kind == Value::Kind::Var ? m_fn.type_of(v.var) : nullptr;
    if (!types::is_tile_stack(t))
        type_error(x.span, fn + "(): expects a tile stack (from wp.tile_stack)" +
                               (t                              ? ", got " + t->name
                                : v.kind == Value::Kind::Const ? std::string(", got a constant")
                                                               : std::string()));
    return v.var;
}

Value Builder::tile_block_call(const Builtin& b,
                               const std::map<std::string, const ast::Expr*>& named,
                               const std::vector<const ast::Expr*>& rest, const ast::Expr& e) {
    const std::string name = b.name;
    const int line = e.span.line;
    auto need = [&](const char* param) -> const ast::Expr& {
        const ast::Expr* x = named_arg(named, param);
        if (!x) type_error(e.span, name + "(): missing argument '" + param + "'");
        return *x;
    };
    if (name == "tile_stack") {
        Value cap = eval(need("capacity"));
        if (cap.kind != Value::Kind::Const || !cap.constant.type->is_integer() ||
            cap.constant.type->is_bool())
            fail(need("capacity").span, ErrorKind::Codegen,
                 "tile_stack(): no overload takes this capacity: it must be a positive integer "
                 "constant" +
                     std::string(cap.kind == Value::Kind::Const && cap.constant.type->is_bool()
                                     ? ", not a bool"
                                     : ""));
        if (cap.constant.i < 1 || cap.constant.i > types::k_max_tile_elements)
            fail(need("capacity").span, ErrorKind::Value,
                 "tile_stack(): capacity must be a positive integer (at most " +
                     std::to_string(types::k_max_tile_elements) + "), got " +
                     std::to_string(cap.constant.i));
        const types::Type* dt = eval_annotation(need("dtype"));
        if (!dt->is_element())
            type_error(need("dtype").span,
                       "tile_stack(): dtype must be a scalar, vector, matrix or struct type, got " +
                           dt->name);
        return var_value(emit_call(line, types::tile_stack_type(dt, (int)cap.constant.i), {}, b));
    }
    if (name == "tile_stack_push") {
        VarId s = tile_stack_operand(need("s"), name);
        const types::Type* dt = m_fn.type_of(s)->dtype;
        Value v = eval(need("value"));
        ArgInfo info = arg_info(v, need("value"));
        const bool literal_fits = info.weak && info.type->is_scalar() && dt->is_scalar() &&
                                  !dt->is_bool() && (dt->is_float() || info.type->is_integer());
        if (info.type != dt && !literal_fits)
            type_error(need("value").span, "tile_stack_push(): value type " + info.type->name +
                                               " does not match the stack's dtype " + dt->name);
        VarId x = coerce(v, dt, need("value"));
        VarId has = coerce(eval(need("has_value")), types::bool_type(), need("has_value"));
        return var_value(emit_call(line, types::int32_type(), {s, x, has}, b));
    }
    if (name == "tile_stack_pop") {
        VarId s = tile_stack_operand(need("s"), name);
        const types::Type* dt = m_fn.type_of(s)->dtype;
        std::vector<VarId> out =
            emit_multi_call(b, types::tuple_type({dt, types::int32_type()}), {s}, line);
        Value r;
        r.kind = Value::Kind::Tuple;
        r.elements = {var_value(out[0]), var_value(out[1])};
        return r;
    }
    if (name == "tile_stack_count")
        return var_value(
            emit_call(line, types::int32_type(), {tile_stack_operand(need("s"), name)}, b));
    if (name == "tile_stack_clear") {
        emit_call(line, types::int32_type(), {tile_stack_operand(need("s"), name)}, b);
        return Value{};
    }
    if (name == "tile_sort") {
        VarId k = tile_operand(need("keys"), name), v = tile_operand(need("values"), name);
        const types::Type *kt = m_fn.type_of(k), *vt = m_fn.type_of(v);
        const ScalarType ks = kt->dtype->scalar;
        if (!kt->dtype->is_scalar() ||
            (ks != ScalarType::Float32 && ks != ScalarType::Int32 && ks != ScalarType::UInt32 &&
             ks != ScalarType::Int64 && ks != ScalarType::UInt64))
            type_error(need("keys").span,
                       "tile_sort(): keys must be a tile of float32, int32, uint32, int64 or "
                       "uint64, got a " +
                           kt->name);
        if (kt->ndim != 1 || vt->ndim != 1 || kt->shape[0] != vt->shape[0])
            type_error(need("values").span,
                       "tile_sort(): keys and values must be 1-D tiles of one length, got a " +
                           kt->name + " and a " + vt->name);
        std::vector<VarId> out = emit_multi_call(b, types::tuple_type({kt, vt}), {k, v}, line);
        write_back(need("keys"), out[0], e);
        write_back(need("values"), out[1], e);
        return Value{};
    }
    if (name == "tile_randi" || name == "tile_randf") {
        std::vector<int> shape = tile_shape(need("shape"), name);
        const bool ints = name == "tile_randi";
        const types::Type* et = ints ? types::int32_type() : types::float32_type();
        std::vector<VarId> args{
            coerce(eval(need("rng")), types::scalar_type(ScalarType::UInt32), need("rng"))};
        const ast::Expr *lo = named_arg(named, "min"), *hi = named_arg(named, "max");
        if ((lo == nullptr) != (hi == nullptr))
            type_error((lo ? lo : hi)->span, name + "(): give both min and max, or neither");
        if (lo) {
            args.push_back(coerce(eval(*lo), et, *lo));
            args.push_back(coerce(eval(*hi), et, *hi));
        }
        return var_value(emit_call(line, types::tile_type(et, shape), std::move(args), b));
    }
    if (name == "tile_scatter_add" || name == "tile_scatter_masked") {
        VarId t = tile_operand(need("a"), name);
        const types::Type* tt = m_fn.type_of(t);
        // (a, i, [j, k, l,] value, has_value): one index per dimension of the tile
        if (rest.size() != size_t(tt->ndim) + 2)
            type_error(e.span, name + "(): expects " + std::to_string(tt->ndim) +
                                   (tt->ndim == 1 ? " index" : " indices") +
                                   " (one per dimension of the " + tt->name +
                                   "), then value and has_value; got " +
                                   std::to_string(rest.size()) + " arguments after the tile");
        std::vector<VarId> index;
        for (int d = 0; d < tt->ndim; ++d)
            index.push_back(coerce(eval(*rest[d]), types::int32_type(), *rest[d]));
        const ast::Expr& value = *rest[tt->ndim];
        const ast::Expr& has_value = *rest[tt->ndim + 1];
        VarId i = emit_value(ir::InstrKind::Construct, line,
                             types::vector_type(tt->ndim, ScalarType::Int32), std::move(index));
        VarId x = coerce_assigned(eval(value), tt->dtype, value, "an element of a " + tt->name);
        VarId has = coerce(eval(has_value), types::bool_type(), has_value);
        bool atomic = true;
        if (const ast::Expr* a = named_arg(named, "atomic")) {
            std::optional<bool> c = constant_truth(eval(*a));
            if (!c) type_error(a->span, name + "(): atomic must be a constant True or False");
            atomic = *c;
        }
        const char* mode = name == "tile_scatter_masked" ? "0" : atomic ? "1" : "2";
        VarId m = emit_const(types::ConstValue{types::int32_type(), false, mode[0] - '0', 0.0},
                             types::int32_type(), line);
        write_back(need("a"), emit_call(line, tt, {t, i, x, has, m}, b), e);
        return Value{};
    }
    if (name == "tile_from_thread") {
        std::vector<int> shape = tile_shape(need("shape"), name);
        Value v = eval(need("value"));
        VarId x = materialize(v, need("value"));
        const types::Type* t = m_fn.type_of(x);
        if (!t->is_element())
            type_error(need("value").span,
                       name + "(): value must be a number, vector, matrix or struct");
        VarId thread = coerce(eval(need("thread_idx")), types::int32_type(), need("thread_idx"));
        return var_value(emit_call(line, types::tile_type(t, shape), {x, thread}, b));
    }
    type_error(e.span, name + "(): cannot be called here");
}

}  // namespace treadle::sema
