// src/sema/infer_index.cpp -- inference of subscripts: array elements and views, components of
// vectors and matrices, array.shape[i], tuple elements
#include "sema/infer_internal.h"

namespace treadle::sema {

using ast::ExprKind;
using ir::InstrKind;
using ir::VarId;

Value Builder::eval_subscript(const ast::Expr& e) {
    if (ast::ExprPtr parts = adjoint_parts(e)) {  // wp.adjoint[p.field] in a func_grad
        m_synthetic.push_back(std::move(parts));
        return eval(*m_synthetic.back());
    }
    std::string slot = adjoint_slot(e);
    if (!slot.empty()) return resolve_name(slot, e);
    Value base = eval(*e.args[0]);
    const ast::Expr& index = *e.args[1];
    std::vector<const ast::Expr*> idx = index_exprs(index);
    const bool composite =
        base.kind == Value::Kind::Var &&
        (m_fn.type_of(base.var)->is_vector() || m_fn.type_of(base.var)->is_quat() ||
         m_fn.type_of(base.var)->is_matrix() || m_fn.type_of(base.var)->is_transform());
    if (base.kind == Value::Kind::Var && m_fn.type_of(base.var)->is_tile())
        return index_tile(base.var, idx, e);  // elements, rows and slices of tiles
    if (composite && has_slice(idx)) return index_slice(base.var, idx, e);
    if (has_slice(idx)) {
        const types::Type* bt = base.kind == Value::Kind::Var ? m_fn.type_of(base.var) : nullptr;
        if (!bt || !bt->is_array() || bt->indexed || bt->fabric) {
            for (const ast::Expr* i : idx)
                if (i->kind == ExprKind::Slice)
                    type_error(i->span, who() + "slices are only supported on arrays in kernels");
        }
        return slice_array(base.var, idx, e);
    }
    if (base.kind == Value::Kind::Shape) return index_shape(base.var, e);
    if (base.kind == Value::Kind::Tuple) return index_tuple(base, e);
    if (composite) return index_component(base.var, idx, e);
    if (base.kind != Value::Kind::Var || !m_fn.type_of(base.var)->is_array())
        type_error(e.span, who() + "only arrays can be indexed" +
                               (base.kind == Value::Kind::Var
                                    ? " (this value has type " + m_fn.type_of(base.var)->name + ")"
                                    : std::string()));
    return index_array(base.var, idx, e);
}

Value Builder::index_shape(VarId array, const ast::Expr& e) {
    const ast::Expr& index = *e.args[1];
    Value k = eval(index);
    const types::Type* at = m_fn.type_of(array);
    // Warp's shape holds 4 entries: those past ndim are 0 (a Fabric array has one)
    const int64_t last = at->fabric ? at->ndim - 1 : 3;
    if (k.kind != Value::Kind::Const || !k.constant.type->is_integer() || k.constant.i < 0 ||
        k.constant.i > last)
        type_error(index.span, who() + "array.shape index must be a constant from 0 to " +
                                   std::to_string(last));
    if (at->fabric && k.constant.i > 0)
        type_error(index.span, who() +
                                   "a Fabric array's shape has one entry, its size (the "
                                   "elements of a Fabric array of arrays differ in length)");
    VarId dst = emit_value(InstrKind::Shape, e.span.line, types::int32_type(), {array});
    m_block->back().value = types::ConstValue{types::int32_type(), false, k.constant.i, 0};
    Value v;
    v.kind = Value::Kind::Var;
    v.var = dst;
    return v;
}

Value Builder::index_tuple(const Value& tuple, const ast::Expr& e) {
    const ast::Expr& index = *e.args[1];
    Value k = eval(index);
    if (k.kind == Value::Kind::Var && m_int_consts.count(k.var)) {  // an unrolled loop's index
        const int64_t i = m_int_consts.at(k.var);
        k = Value{};
        k.kind = Value::Kind::Const;
        k.constant = types::ConstValue{types::int32_type(), false, i, 0.0};
    }
    const int64_t n = (int64_t)tuple.elements.size();
    if (k.kind != Value::Kind::Const || !k.constant.type->is_integer() || k.constant.i < -n ||
        k.constant.i >= n)
        type_error(index.span, who() + "tuple index must be a constant in range");
    return tuple.elements[k.constant.i < 0 ? k.constant.i + n : k.constant.i];
}

Value Builder::index_component(VarId base, const std::vector<const ast::Expr*>& idx,
                               const ast::Expr& e) {
    const types::Type* vt = m_fn.type_of(base);
    size_t most = vt->is_matrix() ? 2 : 1;
    if (idx.size() > most) type_error(e.span, who() + "too many indices for " + vt->name);
    std::vector<VarId> args{base};
    for (size_t k = 0; k < idx.size(); ++k)
        args.push_back(
            component_operand(*idx[k], (vt->is_matrix() && k == 1) ? vt->cols : vt->rows, vt));
    const types::Type* rt = (vt->is_matrix() && idx.size() == 1)
                                ? types::vector_type(vt->cols, vt->scalar)
                                : types::scalar_type(vt->scalar);
    return Value{Value::Kind::Var,
                 emit_call(e.span.line, rt, std::move(args), table_entry("extract"))};
}

Value Builder::index_array(VarId array, const std::vector<const ast::Expr*>& idx,
                           const ast::Expr& e) {
    int line = e.span.line;
    const types::Type* at = m_fn.type_of(array);
    if ((int)idx.size() > at->ndim)
        type_error(e.span, who() + "too many indices for a " + std::to_string(at->ndim) +
                               "-D array (" + std::to_string(idx.size()) + ")");
    std::vector<VarId> args{array};
    for (const ast::Expr* i : idx) args.push_back(index_operand(*i, who() + "array index "));
    Value v;
    v.kind = Value::Kind::Var;
    if ((int)idx.size() == at->ndim) {
        v.var = emit_value(InstrKind::Load, line, at->dtype, std::move(args));
    } else {
        v.var = emit_value(InstrKind::View, line,
                           types::array_type_like(at, at->ndim - (int)idx.size()), std::move(args));
    }
    return v;
}

Value Builder::slice_array(VarId array, const std::vector<const ast::Expr*>& idx,
                           const ast::Expr& e) {
    const int line = e.span.line;
    const types::Type* at = m_fn.type_of(array);
    if ((int)idx.size() > at->ndim)
        type_error(e.span, who() + "too many indices for a " + std::to_string(at->ndim) +
                               "-D array (" + std::to_string(idx.size()) + ")");
    std::vector<VarId> args{array};
    std::string spec;
    int dropped = 0;
    const VarId zero =
        emit_const(types::ConstValue{types::int32_type(), false, 0, 0}, types::int32_type(), line);
    for (const ast::Expr* i : idx) {
        if (i->kind != ExprKind::Slice) {
            args.push_back(index_value(eval(*i), *i, who() + "array index ", false));
            spec += 'i';
            ++dropped;
            continue;
        }
        int given = 0;
        for (int part = 0; part < 3; ++part) {
            const ast::Expr* p = i->args.size() > (size_t)part ? i->args[part].get() : nullptr;
            if (!p || (p->kind == ExprKind::Constant && p->const_kind == ast::ConstKind::None)) {
                args.push_back(zero);
                continue;
            }
            Value pv = eval(*p);
            if (part == 2 && pv.kind == Value::Kind::Const && pv.constant.type->is_integer() &&
                pv.constant.i == 0)
                fail(p->span, ErrorKind::Value, who() + "Slice step cannot be zero");
            args.push_back(index_value(pv, *p, who() + "slice bound ", false));
            given |= 1 << part;
        }
        spec += 's';
        spec += char('0' + given);
    }
    const int ndim = at->ndim - dropped;
    VarId dst =
        emit_value(InstrKind::View, line, types::array_type(at->dtype, ndim), std::move(args));
    m_block->back().text = spec;
    Value v;
    v.kind = Value::Kind::Var;
    v.var = dst;
    return v;
}

std::vector<const ast::Expr*> Builder::index_exprs(const ast::Expr& index) {
    std::vector<const ast::Expr*> idx;
    if (index.kind == ExprKind::Tuple)
        for (const auto& i : index.args) idx.push_back(i.get());
    else
        idx.push_back(&index);
    return idx;
}

VarId Builder::component_operand(const ast::Expr& e, int64_t bound, const types::Type* t) {
    Value iv = eval(e);
    if (iv.kind == Value::Kind::Const && iv.constant.type->is_integer()) {
        // a constant index: negative ones count from the end (v[-1] is the last component)
        int64_t i = iv.constant.i;
        if (i >= bound || i < -bound)
            type_error(e.span, who() + "index " + std::to_string(i) + " is out of range for " +
                                   t->name + " (size " + std::to_string(bound) + ")");
        if (i < 0) i += bound;
        return emit_const(types::ConstValue{types::int32_type(), false, i, 0}, types::int32_type(),
                          e.span.line);
    }
    return index_value(iv, e, who() + "index ");
}

VarId Builder::index_operand(const ast::Expr& e, const std::string& what) {
    return index_value(eval(e), e, what, true);
}

VarId Builder::index_value(const Value& iv, const ast::Expr& e, const std::string& what,
                           bool keep_wide) {
    ArgInfo ai = arg_info(iv, e);
    if (!ai.type->is_integer())
        type_error(e.span, what + "must be an integer, got " +
                               (ai.weak && ai.type->is_float() ? std::string("float literal")
                                                               : ai.type->name));
    VarId ix = coerce(iv, ai.weak ? types::int32_type() : ai.type, e);
    // Array indices of 64 bits (or uint32) stay whole, so checked mode sees the true value.
    const ScalarType st = m_fn.type_of(ix)->scalar;
    if (keep_wide &&
        (st == ScalarType::Int64 || st == ScalarType::UInt64 || st == ScalarType::UInt32))
        return ix;
    if (m_fn.type_of(ix) != types::int32_type())
        ix = emit_value(InstrKind::Cast, e.span.line, types::int32_type(), {ix});
    return ix;
}

}  // namespace treadle::sema
