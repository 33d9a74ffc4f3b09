// src/sema/infer_tile_indexed.cpp -- tiles addressed through a 1-D tile of indices along one
// axis: tile_load_indexed, tile_store_indexed, tile_atomic_add_indexed, and gathers of tiles
// (t[indices, :], the builtin tile_slice_indexed)
//
// The axis is a compile-time constant, passed to the native code as an int32 operand; offsets
// are one vector of int32 as for tile_load. Messages about gathers are Warp's.
#include "sema/infer_internal.h"

namespace treadle::sema {

using ir::InstrKind;
using ir::VarId;

namespace {

const ast::Expr* named_arg(const std::map<std::string, const ast::Expr*>& named, const char* name) {
    auto it = named.find(name);
    return it == named.end() ? nullptr : it->second;
}

}  // namespace

Value Builder::tile_indexed_access(const Builtin& b,
                                   const std::map<std::string, const ast::Expr*>& named,
                                   const ast::Expr& e) {
    const std::string name = b.name;
    const int line = e.span.line;
    auto need = [&](const char* param) -> const ast::Expr& {
        const ast::Expr* x = named_arg(named, param);
        if (!x) type_error(e.span, name + "(): missing argument '" + param + "'");
        return *x;
    };
    VarId a = tile_array(need("a"), name);
    const types::Type* at = m_fn.type_of(a);
    VarId indices = tile_operand(need("indices"), name);
    const types::Type* it = m_fn.type_of(indices);
    if (it->ndim != 1)
        fail(need("indices").span, ErrorKind::Value,
             name + "(): indices argument must be a 1D tile, got " + std::to_string(it->ndim) +
                 " dimensions instead");
    if (!it->dtype->is_integer())
        type_error(need("indices").span,
                   name + "(): indices must be a tile of integers, got a " + it->name);
    int axis = 0;
    if (const ast::Expr* ax = named_arg(named, "axis")) {
        Value av = eval(*ax);
        if (av.kind != Value::Kind::Const || !av.constant.type->is_integer() ||
            av.constant.i < -at->ndim || av.constant.i >= at->ndim)
            fail(ax->span, ErrorKind::Value,
                 name + "(): axis argument must be valid axis of array " + at->name +
                     " (a constant from " + std::to_string(-at->ndim) + " to " +
                     std::to_string(at->ndim - 1) + ")");
        axis = (int)(av.constant.i < 0 ? av.constant.i + at->ndim : av.constant.i);
    }
    VarId av = emit_const(types::ConstValue{types::int32_type(), false, axis, 0.0},
                          types::int32_type(), line);
    const char* role = name == "tile_load_indexed" ? "output" : "input";
    auto check_length = [&](const std::vector<int>& shape, const ast::Expr& where) {
        if (shape[axis] != it->shape[0])
            fail(where.span, ErrorKind::Value,
                 name + "(): the number of elements in the 1D indices tile (" +
                     std::to_string(it->shape[0]) + ") must match the " + role +
                     " tile shape along the specified axis (" + std::to_string(shape[axis]) + ")");
    };
    if (name == "tile_load_indexed") {
        std::vector<int> shape = tile_shape(need("shape"), name);
        if ((int)shape.size() != at->ndim)
            type_error(need("shape").span,
                       name + "(): the shape has " + std::to_string(shape.size()) +
                           " dimensions but the array has " + std::to_string(at->ndim));
        check_length(shape, need("shape"));
        VarId o = tile_coordinates(named_arg(named, "offset"), at->ndim, "offset", name, line);
        return var_value(
            emit_call(line, types::tile_type(at->dtype, shape), {a, indices, o, av}, b));
    }
    VarId t = tile_operand(need("t"), name);
    const types::Type* tt = m_fn.type_of(t);
    if (name == "tile_atomic_add_indexed") check_tile_atomic(tt, need("t"), name);
    if (tt->dtype != at->dtype || tt->ndim != at->ndim)
        type_error(need("t").span, name + "(): a " + tt->name + " cannot be stored in an " +
                                       at->name + " (element types and dimensions must match)");
    check_length(tt->shape, need("t"));
    VarId o = tile_coordinates(named_arg(named, "offset"), at->ndim, "offset", name, line);
    // the stored tile second, as tile_store has it (Traits::writes_first_array)
    if (name == "tile_store_indexed") {
        emit_call(line, types::int32_type(), {a, t, indices, o, av}, b);
        return Value{};
    }
    return var_value(emit_call(line, tt, {a, t, indices, o, av}, b));
}

Value Builder::tile_slice_indexed(const Builtin& b,
                                  const std::map<std::string, const ast::Expr*>& named,
                                  const ast::Expr& e) {
    const ast::Expr* tx = named_arg(named, "t");
    const ast::Expr* ix = named_arg(named, "indices");
    if (!tx || !ix)
        type_error(e.span,
                   std::string(b.name) + "(): missing argument '" + (tx ? "indices" : "t") + "'");
    VarId t = tile_operand(*tx, b.name);
    Value iv = eval(*ix);
    std::vector<Value> values =
        iv.kind == Value::Kind::Tuple ? iv.elements : std::vector<Value>{iv};
    // every entry is a value here (no slice syntax): errors point at the indices argument
    std::vector<const ast::Expr*> idx(values.size(), ix);
    return gather_tile(t, idx, values, e);
}

Value Builder::gather_tile(VarId tile, const std::vector<const ast::Expr*>& idx,
                           const std::vector<Value>& values, const ast::Expr& e) {
    const types::Type* t = m_fn.type_of(tile);
    if (idx.size() > (size_t)t->ndim)
        fail(e.span, ErrorKind::Value,
             who() + "tile indexing specified too many indices " + std::to_string(idx.size()) +
                 " > " + std::to_string(t->ndim));
    int axis = -1;
    VarId indices = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
        const ast::Expr& x = *idx[d];
        if (x.kind == ast::ExprKind::Slice) {
            for (const auto& bound : x.args)
                if (bound) {
                    Value v = eval(*bound);
                    if (v.kind != Value::Kind::Const || !v.constant.type->is_integer())
                        type_error(bound->span,
                                   who() + "tile slice bounds must be constant integers");
                }
            std::vector<int64_t> positions = slice_positions(x, t->shape[d]);
            bool full = (int64_t)positions.size() == t->shape[d];
            for (size_t i = 0; full && i < positions.size(); ++i) full = positions[i] == (int)i;
            if (!full)
                fail(x.span, ErrorKind::Value,
                     who() +
                         "Tile indexing with an integer index tile requires ':' on all other "
                         "axes, e.g. `t[indices, :]`.");
            continue;
        }
        const Value& v = values[d];
        const types::Type* vt = v.kind == Value::Kind::Var ? m_fn.type_of(v.var) : nullptr;
        if (!vt || !vt->is_tile())
            fail(x.span, ErrorKind::Value,
                 who() +
                     "Tile indexing entries must be a 1D integer index tile or full slices "
                     "':'.");
        if (axis >= 0)
            fail(x.span, ErrorKind::Value,
                 who() + "Tile indexing supports exactly one 1D integer index tile.");
        if (vt->ndim != 1)
            fail(x.span, ErrorKind::Value,
                 who() + "Tile indexing requires a 1D integer index tile, got " +
                     std::to_string(vt->ndim) + " dimensions.");
        if (!vt->dtype->is_integer())
            fail(x.span, ErrorKind::Value,
                 who() + "Tile indexing requires an integer index tile, got dtype " +
                     vt->dtype->name + ".");
        axis = (int)d;
        indices = v.var;
    }
    if (axis < 0)
        fail(e.span, ErrorKind::Value, who() + "Tile indexing requires an integer index tile.");
    std::vector<int> shape = t->shape;
    shape[axis] = m_fn.type_of(indices)->shape[0];
    VarId av = emit_const(types::ConstValue{types::int32_type(), false, axis, 0.0},
                          types::int32_type(), e.span.line);
    return var_value(emit_call(e.span.line, types::tile_type(t->dtype, shape), {tile, indices, av},
                               table_entry("tile_slice_indexed")));
}

}  // namespace treadle::sema
