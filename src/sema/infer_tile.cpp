// src/sema/infer_tile.cpp -- tile builtins whose types come from constant arguments
//
// tile_zeros(shape=(16, 16), dtype=float) and the other BuiltinKind::Tile entries: the shape
// (an int or a tuple of ints) and dtype are compile-time values that make the result type;
// offsets and indices (tuples of ints evaluated at run time) become one vector of int32
// operands, so that each lowering is one Call of a table entry. Errors name the builtin and
// point at the offending argument.
#include <cmath>

#include "sema/infer_internal.h"

namespace treadle::sema {

using ir::InstrKind;
using ir::VarId;

namespace {

/// The arguments of a call matched to the builtin's documented parameters: by position, then
/// by keyword; `rest` collects positional arguments past a variadic first parameter.
struct TileArgs {
    std::map<std::string, const ast::Expr*> named;
    std::vector<const ast::Expr*> rest;
    const ast::Expr* get(const std::string& name) const {
        auto it = named.find(name);
        return it == named.end() ? nullptr : it->second;
    }
};

using TileNamed = std::map<std::string, const ast::Expr*>;

/// The argument named `param`, or null.
const ast::Expr* tile_named(const TileNamed& named, const char* param) {
    auto it = named.find(param);
    return it == named.end() ? nullptr : it->second;
}

}  // namespace

/// The argument named `param` of builtin `fn`'s call `e`; fails when it was not given.
const ast::Expr& Builder::tile_needed(const TileNamed& named, const std::string& fn,
                                      const char* param, const ast::Expr& e) const {
    const ast::Expr* x = tile_named(named, param);
    if (!x) type_error(e.span, fn + "(): missing argument '" + param + "'");
    return *x;
}

Value Builder::call_tile(const Builtin& b, const ast::Expr& e) {
    const std::string name = b.name;
    const std::vector<builtins::Param>& params = builtins::builtin_params(b);
    TileArgs args;
    // a variadic parameter (tile_arange(*args), tile_extract(a, *args)) takes the rest
    size_t position = 0;
    for (size_t i = 1; i < e.args.size(); ++i) {
        if (position < params.size() && params[position].variadic) {
            args.rest.push_back(e.args[i].get());
            continue;
        }
        if (position >= params.size())
            type_error(e.args[i]->span,
                       name + "(): takes at most " + std::to_string(params.size()) + " arguments");
        args.named[params[position++].name] = e.args[i].get();
    }
    for (const auto& k : e.keywords) {
        bool known = false;
        for (const builtins::Param& p : params) known |= !p.variadic && p.name == k.name;
        if (!known) type_error(k.span, name + "(): unexpected argument '" + k.name + "'");
        if (args.named.count(k.name))
            type_error(k.span, name + "(): argument '" + k.name + "' given twice");
        args.named[k.name] = k.value.get();
    }
    // storage= is accepted as Warp spells it; every tile lives spread over the block
    if (const ast::Expr* s = args.get("storage")) {
        Value v = eval(*s);
        if (v.kind != Value::Kind::Str || (v.text != "register" && v.text != "shared"))
            type_error(s->span, name + "(): storage must be \"register\" or \"shared\"");
    }
    for (const char* flag : {"bounds_check", "aligned", "preserve_type"}) {
        const ast::Expr* x = args.get(flag);
        if (!x) continue;
        Value v = eval(*x);
        if (!constant_truth(v))
            type_error(x->span, name + "(): " + flag + " must be a constant True or False");
    }
    auto need = [&](const char* param) -> const ast::Expr& {
        return tile_needed(args.named, name, param, e);
    };
    const int line = e.span.line;
    if (name == "tile_reshape" || name == "tile_squeeze") return tile_reshape(b, args.named, e);
    if (name == "tile_assign") {
        VarId dst = tile_operand(need("dst"), name);
        VarId src = tile_operand(need("src"), name);
        const types::Type *dt = m_fn.type_of(dst), *st = m_fn.type_of(src);
        if (dt->dtype != st->dtype || dt->ndim != st->ndim)
            type_error(need("src").span, "tile_assign(): a " + st->name +
                                             " cannot be assigned into a " + dt->name +
                                             " (element types and dimensions must match)");
        VarId base = tile_coordinates(args.get("offset"), dt->ndim, "offset", name, line);
        std::vector<VarId> ones;
        for (int d = 0; d < dt->ndim; ++d)
            ones.push_back(emit_const(types::ConstValue{types::int32_type(), false, 1, 0.0},
                                      types::int32_type(), line));
        VarId step = emit_value(InstrKind::Construct, line,
                                types::vector_type(dt->ndim, ScalarType::Int32), std::move(ones));
        VarId updated =
            emit_call(line, dt, {dst, base, step, src}, table_entry("tile_view_assign"));
        write_back(need("dst"), updated, e);
        return Value{};
    }
    if (name == "tile_zeros" || name == "tile_empty" || name == "tile_ones" || name == "tile_full")
        return tile_filled(b, args.named, e);
    if (name == "tile_arange") return tile_arange(b, args.rest, args.get("dtype"), e);
    if (name == "tile_load" || name == "tile_store" || name == "tile_atomic_add")
        return tile_memory(b, args.named, e);
    if (name == "tile_load_indexed" || name == "tile_store_indexed" ||
        name == "tile_atomic_add_indexed")
        return tile_indexed_access(b, args.named, e);
    if (name == "tile_slice_indexed") return tile_slice_indexed(b, args.named, e);
    if (name == "tile" || name == "untile") return tile_of_thread(b, args.named, e);
    if (name == "tile_broadcast") {
        VarId t = tile_operand(need("a"), name);
        const types::Type* tt = m_fn.type_of(t);
        std::vector<int> shape = tile_shape(need("shape"), name);
        bool fits = shape.size() >= tt->shape.size();
        for (size_t d = 0; fits && d < tt->shape.size(); ++d) {
            int from = tt->shape[d], to = shape[d + shape.size() - tt->shape.size()];
            fits = from == to || from == 1;
        }
        if (!fits)
            type_error(need("shape").span,
                       name + "(): a " + tt->name + " cannot be broadcast to that shape");
        return var_value(emit_call(line, types::tile_type(tt->dtype, shape), {t}, b));
    }
    if (name == "tile_matmul") return tile_matmul(b, args.named, e);
    if (name == "tile_map") return tile_map(b, e);
    if (name == "tile_fft" || name == "tile_ifft") {
        VarId t = tile_operand(need("inout"), name);
        const types::Type* tt = m_fn.type_of(t);
        if (!tt->dtype->is_vector() || tt->dtype->rows != 2 ||
            (tt->dtype->scalar != ScalarType::Float32 && tt->dtype->scalar != ScalarType::Float64))
            type_error(need("inout").span, name +
                                               "(): expects a tile of vec2f or vec2d (complex) "
                                               "values, got a " +
                                               tt->name);
        write_back(need("inout"), emit_call(line, tt, {t}, b), e);
        return Value{};
    }
    if (name.rfind("tile_cholesky", 0) == 0 || name.rfind("tile_lower_solve", 0) == 0 ||
        name.rfind("tile_upper_solve", 0) == 0 || name == "tile_diag_add")
        return tile_linalg(b, args.named, e);
    if (name == "tile_dot" || name == "tile_axpy") return tile_dot_axpy(b, args.named, e);
    if (name == "tile_bvh_query_next" || name == "bvh_query_next_tiled" ||
        name == "tile_mesh_query_aabb_next" || name == "mesh_query_aabb_next_tiled") {
        const bool mesh = name.find("mesh") != std::string::npos;
        const types::Type* qt =
            types::native_struct_by_name(mesh ? "MeshQueryAABBTiled" : "BvhQueryTiled");
        Value q = eval(need("query"));
        if (q.kind != Value::Kind::Var || m_fn.type_of(q.var) != qt)
            type_error(need("query").span,
                       name + "(): expects a " + qt->name + " (from " +
                           (mesh ? "tile_mesh_query_aabb" : "tile_bvh_query_aabb or _ray") + ")");
        const types::Type* rt = types::tile_type(types::int32_type(), {m_program.tile_block_dim});
        std::vector<VarId> out = emit_multi_call(b, types::tuple_type({qt, rt}), {q.var}, line);
        write_back(need("query"), out[0], e);
        return var_value(out[1]);
    }
    if (name == "tile_sum") return tile_reduce(b, nullptr, need("a"), args.get("axis"), e);
    if (name == "tile_reduce") return tile_reduce(b, &need("op"), need("a"), args.get("axis"), e);
    if (name == "tile_view") return tile_view(b, args.named, e);
    if (name.rfind("tile_stack", 0) == 0 || name == "tile_sort" || name == "tile_randi" ||
        name == "tile_randf" || name == "tile_from_thread" || name.rfind("tile_scatter", 0) == 0)
        return tile_block_call(b, args.named, args.rest, e);
    if (name == "tile_extract") {
        VarId t = tile_operand(need("a"), name);
        return index_tile(t, args.rest, e);
    }
    type_error(e.span, name + "(): cannot be called here");
}

/// tile_reshape(t, shape) and tile_squeeze(t[, axis]): the same elements in another shape.
Value Builder::tile_reshape(const Builtin& b, const TileNamed& named, const ast::Expr& e) {
    const std::string name = b.name;
    auto arg = [&](const char* p) { return tile_named(named, p); };
    auto need = [&](const char* p) -> const ast::Expr& { return tile_needed(named, name, p, e); };
    const int line = e.span.line;
    VarId t = tile_operand(need("t"), name);
    const types::Type* tt = m_fn.type_of(t);
    if (name == "tile_reshape" && m_strided_views.count(t))
        fail(need("t").span, ErrorKind::Value,
             "tile_reshape() requires a contiguous tile, not a strided view (t[::2], "
             "t[::-1]); tile_assign the view into a new tile first");
    std::vector<int> shape;
    if (name == "tile_reshape") {
        Value sv = eval(need("shape"));
        std::vector<Value> dims =
            sv.kind == Value::Kind::Tuple ? sv.elements : std::vector<Value>{sv};
        int64_t known = 1;
        int inferred = -1;
        for (size_t d = 0; d < dims.size(); ++d) {
            const Value& x = dims[d];
            if (x.kind != Value::Kind::Const || !x.constant.type->is_integer() ||
                (x.constant.i < 1 && x.constant.i != -1) || (x.constant.i == -1 && inferred >= 0))
                type_error(need("shape").span,
                           "tile_reshape(): shape must be constant extents (at "
                           "least 1; one may be -1)");
            if (x.constant.i == -1)
                inferred = (int)d;
            else
                known *= x.constant.i;
            shape.push_back((int)x.constant.i);
        }
        if (inferred >= 0 && known > 0 && tt->tile_size() % known == 0)
            shape[inferred] = (int)(tt->tile_size() / known), known = tt->tile_size();
        if (shape.empty() || shape.size() > 4 || known != tt->tile_size())
            type_error(need("shape").span, "tile_reshape(): cannot reshape a " + tt->name +
                                               " to that shape (the element count must stay)");
    } else {
        std::vector<bool> drop(tt->ndim, false);
        if (const ast::Expr* ax = arg("axis")) {
            Value av = eval(*ax);
            std::vector<Value> axes =
                av.kind == Value::Kind::Tuple ? av.elements : std::vector<Value>{av};
            for (const Value& a : axes) {
                if (a.kind != Value::Kind::Const || !a.constant.type->is_integer() ||
                    a.constant.i < -tt->ndim || a.constant.i >= tt->ndim)
                    type_error(ax->span, "tile_squeeze(): axis must be constant dimensions");
                int d = (int)(a.constant.i < 0 ? a.constant.i + tt->ndim : a.constant.i);
                if (tt->shape[d] != 1)
                    type_error(ax->span, "tile_squeeze(): dimension " + std::to_string(d) +
                                             " of a " + tt->name + " is not 1");
                drop[d] = true;
            }
        } else {
            for (int d = 0; d < tt->ndim; ++d) drop[d] = tt->shape[d] == 1;
        }
        for (int d = 0; d < tt->ndim; ++d)
            if (!drop[d]) shape.push_back(tt->shape[d]);
        if (shape.empty()) shape.push_back(1);
    }
    return var_value(emit_call(line, types::tile_type(tt->dtype, shape), {t}, b));
}

/// tile_zeros, tile_empty, tile_ones and tile_full: a tile of one value.
Value Builder::tile_filled(const Builtin& b, const TileNamed& named, const ast::Expr& e) {
    const std::string name = b.name;
    auto arg = [&](const char* p) { return tile_named(named, p); };
    auto need = [&](const char* p) -> const ast::Expr& { return tile_needed(named, name, p, e); };
    const int line = e.span.line;
    std::vector<int> shape = tile_shape(need("shape"), name);
    const ast::Expr* dt = arg("dtype");
    if (name == "tile_full") {
        Value v = eval(need("value"));
        const types::Type* t =
            dt ? eval_annotation(*dt) : materialize_type(arg_info(v, need("value")).type);
        if (!t->is_element())
            type_error(need("value").span,
                       name + "(): value must be a number, vector, matrix or struct");
        VarId x = t->is_struct() ? materialize(v, need("value")) : coerce(v, t, need("value"));
        if (m_fn.type_of(x) != t)
            type_error(need("value").span, name + "(): value has type " + m_fn.type_of(x)->name +
                                               ", not the dtype " + t->name);
        return var_value(emit_call(line, types::tile_type(t, shape), {x}, b));
    }
    const types::Type* t = dt ? eval_annotation(*dt) : types::float32_type();
    if (name == "tile_ones" && t->is_struct())
        type_error(dt->span,
                   "tile_ones(): a tile of ones cannot hold a Warp struct (" + t->name + ")");
    if (!t->is_element())
        type_error(dt->span, name + "(): dtype must be a scalar, vector, matrix or struct type");
    return var_value(emit_call(line, types::tile_type(t, shape), {}, b));
}

/// tile_load(a, shape, offset), tile_store(a, t, offset) and tile_atomic_add(a, t, offset).
Value Builder::tile_memory(const Builtin& b, const TileNamed& named, const ast::Expr& e) {
    const std::string name = b.name;
    auto arg = [&](const char* p) { return tile_named(named, p); };
    auto need = [&](const char* p) -> const ast::Expr& { return tile_needed(named, name, p, e); };
    const int line = e.span.line;
    if (name == "tile_load") {
        VarId a = tile_array(need("a"), name);
        const types::Type* at = m_fn.type_of(a);
        std::vector<int> shape = tile_shape(need("shape"), name);
        if ((int)shape.size() != at->ndim)
            type_error(need("shape").span,
                       name + "(): the shape has " + std::to_string(shape.size()) +
                           " dimensions but the array has " + std::to_string(at->ndim));
        VarId o = tile_coordinates(arg("offset"), at->ndim, "offset", name, line);
        return var_value(emit_call(line, types::tile_type(at->dtype, shape), {a, o}, b));
    }
    if (name == "tile_store" || name == "tile_atomic_add") {
        VarId a = tile_array(need("a"), name);
        const types::Type* at = m_fn.type_of(a);
        VarId t = tile_operand(need("t"), name);
        const types::Type* tt = m_fn.type_of(t);
        if (name == "tile_atomic_add") check_tile_atomic(tt, need("t"), name);
        if (tt->dtype != at->dtype || tt->ndim != at->ndim)
            type_error(need("t").span, name + "(): a " + tt->name + " cannot be stored in an " +
                                           at->name + " (element types and dimensions must match)");
        VarId o = tile_coordinates(arg("offset"), at->ndim, "offset", name, line);
        if (name == "tile_store") {
            emit_call(line, types::int32_type(), {a, t, o}, b);
            return Value{};
        }
        return var_value(emit_call(line, tt, {a, t, o}, b));
    }
    type_error(e.span, name + "(): cannot be called here");
}

/// tile(x): one value a thread as a tile of the block; untile(t): the reverse.
Value Builder::tile_of_thread(const Builtin& b, const TileNamed& named, const ast::Expr& e) {
    const std::string name = b.name;
    auto arg = [&](const char* p) { return tile_named(named, p); };
    auto need = [&](const char* p) -> const ast::Expr& { return tile_needed(named, name, p, e); };
    const int line = e.span.line;
    if (name == "tile") {
        Value v = eval(need("x"));
        VarId x = materialize(v, need("x"));
        const types::Type* xt = m_fn.type_of(x);
        const ast::Expr* keep = arg("preserve_type");
        const bool preserve = keep && constant_truth(eval(*keep)).value_or(false);
        const int block = m_program.tile_block_dim;
        if (xt->is_vector() && !preserve)
            return var_value(
                emit_call(line, types::tile_type(types::scalar_type(xt->scalar), {xt->rows, block}),
                          {x}, table_entry("tile_from_vector")));
        if (xt->is_matrix() && !preserve)
            return var_value(emit_call(
                line, types::tile_type(types::scalar_type(xt->scalar), {xt->rows, xt->cols, block}),
                {x}, table_entry("tile_from_matrix")));
        if (!xt->is_element())
            type_error(need("x").span, "tile(): x must be a number, vector, matrix or struct");
        return var_value(emit_call(line, types::tile_type(xt, {block}), {x}, b));
    }
    if (name == "untile") {
        VarId t = tile_operand(need("a"), name);
        const types::Type* tt = m_fn.type_of(t);
        const int block = m_program.tile_block_dim;
        if (tt->ndim == 1 && tt->shape[0] == block)
            return var_value(emit_call(line, tt->dtype, {t}, b));
        if (tt->ndim == 2 && tt->shape[1] == block && tt->dtype->is_scalar() &&
            tt->shape[0] <= types::k_max_vector_length)
            return var_value(
                emit_call(line, types::vector_type(tt->shape[0], tt->dtype->scalar), {t}, b));
        if (tt->ndim == 3 && tt->shape[2] == block && tt->dtype->is_scalar() &&
            tt->shape[0] <= types::k_max_vector_length &&
            tt->shape[1] <= types::k_max_vector_length)
            return var_value(emit_call(
                line, types::matrix_type(tt->shape[0], tt->shape[1], tt->dtype->scalar), {t}, b));
        type_error(need("a").span,
                   "untile(): expects a tile of shape (block_dim,), (N, block_dim) or "
                   "(M, N, block_dim) "
                   "with block_dim " +
                       std::to_string(block) + ", got a " + tt->name);
    }
    type_error(e.span, name + "(): cannot be called here");
}

/// tile_dot(a, b) (one element) and tile_axpy(alpha, src, dest) (re-binds dest).
Value Builder::tile_dot_axpy(const Builtin& b, const TileNamed& named, const ast::Expr& e) {
    const std::string name = b.name;
    auto need = [&](const char* p) -> const ast::Expr& { return tile_needed(named, name, p, e); };
    const int line = e.span.line;
    if (name == "tile_dot") {
        VarId x = tile_operand(need("a"), name), y = tile_operand(need("b"), name);
        const types::Type* t = m_fn.type_of(x);
        if (m_fn.type_of(y) != t)
            type_error(need("b").span, "tile_dot(): a and b must have one type, got a " + t->name +
                                           " and a " + m_fn.type_of(y)->name);
        const types::Type* s = types::scalar_type(t->dtype->scalar);
        VarId products;
        if (t->dtype->is_scalar()) {
            products = emit_call(line, t, {x, y}, table_entry("mul"));
        } else if (t->dtype->is_vector() || t->dtype->is_matrix()) {
            products = emit_call(line, types::tile_like(t, s), {x, y}, table_entry("tile_map"));
            current_block()->back().text = t->dtype->is_vector() ? "dot" : "ddot";
        } else {
            type_error(need("a").span, "tile_dot(): elements must be scalars, vectors or matrices");
        }
        return var_value(
            emit_call(line, types::tile_type(s, {1}), {products}, table_entry("tile_sum")));
    }
    if (name == "tile_axpy") {
        VarId src = tile_operand(need("src"), name), dest = tile_operand(need("dest"), name);
        if (m_fn.type_of(src) != m_fn.type_of(dest))
            type_error(need("src").span, "tile_axpy(): src and dest must have one type");
        Value scaled =
            binary("mul", "*", eval(need("alpha")), var_value(src), need("alpha"), need("src"), e);
        Value sum = binary("add", "+", var_value(dest), scaled, need("dest"), need("src"), e);
        if (sum.kind != Value::Kind::Var || m_fn.type_of(sum.var) != m_fn.type_of(dest))
            type_error(need("alpha").span,
                       "tile_axpy(): alpha must be a scalar of the tiles' scalar type");
        write_back(need("dest"), sum.var, e);
        return Value{};
    }
    type_error(e.span, name + "(): cannot be called here");
}

/// tile_view(t, offset[, shape]): a window of t (offsets may be slices).
Value Builder::tile_view(const Builtin& b, const TileNamed& named, const ast::Expr& e) {
    const std::string name = b.name;
    auto arg = [&](const char* p) { return tile_named(named, p); };
    auto need = [&](const char* p) -> const ast::Expr& { return tile_needed(named, name, p, e); };
    const int line = e.span.line;
    VarId t = tile_operand(need("t"), name);
    if (std::optional<Value> v = tile_view_of_slices(t, need("t"), need("offset"), arg("shape"), e))
        return *v;
    const types::Type* tt = m_fn.type_of(t);
    Value ov = eval(need("offset"));
    std::vector<Value> offs = ov.kind == Value::Kind::Tuple ? ov.elements : std::vector<Value>{ov};
    const int k = (int)offs.size();
    if (k < 1 || k > tt->ndim)
        type_error(need("offset").span,
                   "tile_view(): offset needs 1 to " + std::to_string(tt->ndim) + " integers");
    std::vector<int> shape;
    const ast::Expr* sx = arg("shape");
    if (sx) shape = tile_shape(*sx, name);
    const bool window = sx && (int)shape.size() == tt->ndim;
    if (sx && !window && (int)shape.size() != tt->ndim - k)
        type_error(sx->span, "tile_view(): shape must have " + std::to_string(tt->ndim) + " or " +
                                 std::to_string(tt->ndim - k) + " dimensions");
    auto constant = [&](int64_t v) {
        return emit_const(types::ConstValue{types::int32_type(), false, v, 0.0},
                          types::int32_type(), line);
    };
    std::vector<VarId> base, step;
    std::vector<int> result;
    for (int d = 0; d < tt->ndim; ++d) {
        if (d < k) {
            if (offs[d].kind == Value::Kind::Const && !offs[d].constant.type->is_integer())
                fail(need("offset").span, ErrorKind::Value,
                     "tile_view(): offsets must be integers or slices");
            if (offs[d].kind == Value::Kind::Const &&
                (offs[d].constant.i < 0 || offs[d].constant.i >= tt->shape[d]))
                fail(need("offset").span, ErrorKind::Value,
                     "tile_view(): offset " + std::to_string(offs[d].constant.i) +
                         " is out of bounds for dimension " + std::to_string(d) + " of a " +
                         tt->name);
            base.push_back(index_value(offs[d], need("offset"), "tile_view(): offset "));
        } else {
            base.push_back(constant(0));
        }
        const bool kept = window || d >= k;
        step.push_back(constant(kept ? 1 : 0));
        if (kept) result.push_back(sx ? shape[window ? d : d - k] : tt->shape[d]);
    }
    if (result.empty())
        type_error(need("offset").span, "tile_view(): the view must keep a dimension");
    const types::Type* vt = types::vector_type(tt->ndim, ScalarType::Int32);
    VarId bv = emit_value(InstrKind::Construct, line, vt, std::move(base));
    VarId sv = emit_value(InstrKind::Construct, line, vt, std::move(step));
    VarId view = emit_call(line, types::tile_type(tt->dtype, result), {t, bv, sv}, b);
    note_tile_view(view, need("t"), bv, sv);
    return var_value(view);
}

std::optional<Value> Builder::tile_view_of_slices(VarId t, const ast::Expr& parent,
                                                  const ast::Expr& offset, const ast::Expr* shape,
                                                  const ast::Expr& e) {
    auto is_slice_call = [&](const ast::Expr& x) {
        return x.kind == ast::ExprKind::Call && x.args[0]->kind == ast::ExprKind::Name &&
               x.args[0]->name == "slice" && !m_scope.count("slice") && x.keywords.empty() &&
               x.args.size() >= 2 && x.args.size() <= 4;
    };
    std::vector<const ast::Expr*> items;
    if (offset.kind == ast::ExprKind::Tuple)
        for (const auto& a : offset.args) items.push_back(a.get());
    else
        items.push_back(&offset);
    bool any = false;
    for (const ast::Expr* x : items) any |= is_slice_call(*x);
    if (!any) return std::nullopt;
    if (shape)
        fail(shape->span, ErrorKind::Value,
             "tile_view(): 'shape' together with a slice offset is not supported (the slices "
             "give the view's shape)");
    // slice(stop), slice(start, stop[, step]) as the subscript t[start:stop:step] would be
    std::vector<ast::ExprPtr> slices;
    std::vector<const ast::Expr*> idx;
    for (const ast::Expr* x : items) {
        if (!is_slice_call(*x)) {
            idx.push_back(x);
            continue;
        }
        auto s = std::make_unique<ast::Expr>(ast::ExprKind::Slice, x->span);
        const size_t n = x->args.size() - 1;
        s->args.resize(3);
        for (size_t k = 0; k < n; ++k) {
            const ast::Expr& bound = *x->args[k + 1];
            if (bound.kind == ast::ExprKind::Constant && bound.const_kind == ast::ConstKind::None)
                continue;
            Value v = eval(bound);
            if (v.kind != Value::Kind::Const || !v.constant.type->is_integer())
                fail(bound.span, ErrorKind::Value,
                     "tile_view(): slice bounds must be compile-time constant integers (the "
                     "view's shape is part of its type)");
            s->args[n == 1 ? 1 : k] = ast::clone(bound);
        }
        idx.push_back(s.get());
        slices.push_back(std::move(s));
    }
    const types::Type* tt = m_fn.type_of(t);
    TileSelection sel = tile_selection(t, idx, e);
    if (sel.shape.empty()) type_error(offset.span, "tile_view(): the view must keep a dimension");
    VarId view = emit_call(e.span.line, types::tile_type(tt->dtype, sel.shape),
                           {t, sel.base, sel.step}, table_entry("tile_view"));
    note_tile_view(view, parent, sel.base, sel.step);
    if (sel.strided) m_strided_views.insert(view);
    return var_value(view);
}

void Builder::check_tile_atomic(const types::Type* tt, const ast::Expr& x, const std::string& fn) {
    const ScalarType es = tt->dtype->scalar;
    if (!tt->dtype->is_struct() &&
        (es == ScalarType::Bool || es == ScalarType::Int8 || es == ScalarType::UInt8 ||
         es == ScalarType::Int16 || es == ScalarType::UInt16))
        fail(x.span, ErrorKind::Codegen,
             fn +
                 "(): only supports tiles of int32, uint32, int64, uint64, float16, bfloat16, "
                 "float32 or float64 elements (or vectors, matrices and structs of them), got a " +
                 tt->name);
}

std::vector<int> Builder::tile_shape(const ast::Expr& x, const std::string& fn) {
    Value v = eval(x);
    std::vector<Value> dims = v.kind == Value::Kind::Tuple ? v.elements : std::vector<Value>{v};
    std::vector<int> shape;
    int64_t size = 1;
    for (const Value& d : dims) {
        if (d.kind != Value::Kind::Const || !d.constant.type->is_integer() || d.constant.i < 1 ||
            d.constant.i > types::k_max_tile_elements)
            type_error(x.span,
                       fn + "(): shape must be a constant int or tuple of ints, each at least 1");
        shape.push_back((int)d.constant.i);
        size *= d.constant.i;
    }
    if (shape.empty() || shape.size() > 4)
        type_error(x.span, fn + "(): a tile has 1 to 4 dimensions");
    if (size > types::k_max_tile_elements)
        type_error(x.span, fn + "(): a tile holds at most " +
                               std::to_string(types::k_max_tile_elements) + " elements");
    return shape;
}

VarId Builder::tile_coordinates(const ast::Expr* x, int ndim, const char* what,
                                const std::string& fn, int line) {
    std::vector<VarId> parts;
    if (!x) {
        for (int d = 0; d < ndim; ++d)
            parts.push_back(emit_const(types::ConstValue{types::int32_type(), false, 0, 0.0},
                                       types::int32_type(), line));
    } else {
        Value v = eval(*x);
        std::vector<Value> items =
            v.kind == Value::Kind::Tuple ? v.elements : std::vector<Value>{v};
        if ((int)items.size() != ndim)
            type_error(x->span, fn + "(): " + what + " needs " + std::to_string(ndim) +
                                    (ndim == 1 ? " index" : " indices") + ", got " +
                                    std::to_string(items.size()));
        for (const Value& item : items)
            parts.push_back(index_value(item, *x, fn + "(): " + what + " "));
    }
    return emit_value(InstrKind::Construct, line, types::vector_type(ndim, ScalarType::Int32),
                      std::move(parts));
}

VarId Builder::tile_array(const ast::Expr& x, const std::string& fn) {
    Value v = eval(x);
    const types::Type* t = v.kind == Value::Kind::Var ? m_fn.type_of(v.var) : nullptr;
    if (!t || !t->is_array() || t->indexed || t->fabric || !t->dtype->is_element())
        type_error(x.span, fn + "(): expects an array of numbers, vectors, matrices or structs" +
                               (t ? ", got " + t->name : std::string()));
    return v.var;
}

VarId Builder::tile_operand(const ast::Expr& x, const std::string& fn) {
    Value v = eval(x);
    const types::Type* t = v.kind == Value::Kind::Var ? m_fn.type_of(v.var) : nullptr;
    if (!t || !t->is_tile())
        type_error(x.span, fn + "(): expects a tile" + (t ? ", got " + t->name : std::string()));
    return v.var;
}

Value Builder::tile_arange(const Builtin& b, const std::vector<const ast::Expr*>& range,
                           const ast::Expr* dtype, const ast::Expr& e) {
    if (range.empty() || range.size() > 3)
        type_error(e.span,
                   "tile_arange(): takes 1 to 3 arguments (stop; start, stop; start, stop, step)");
    std::vector<types::ConstValue> c;
    bool any_float = false;
    for (const ast::Expr* x : range) {
        Value v = eval(*x);
        if (v.kind != Value::Kind::Const || !v.constant.type->is_scalar() ||
            v.constant.type->is_bool())
            type_error(x->span, "tile_arange(): arguments must be constant numbers");
        any_float |= v.constant.type->is_float();
        c.push_back(v.constant);
    }
    auto as_double = [](const types::ConstValue& k) {
        return k.type->is_float() ? k.f : (double)k.i;
    };
    double start = range.size() > 1 ? as_double(c[0]) : 0.0;
    double stop = as_double(c[range.size() > 1 ? 1 : 0]);
    double step = range.size() > 2 ? as_double(c[2]) : 1.0;
    if (step == 0.0) type_error(range.back()->span, "tile_arange(): step must not be zero");
    double count = (stop - start) / step;
    int n = count > 0 ? (int)std::ceil(count) : 0;
    if (n < 1 || n > types::k_max_tile_elements)
        type_error(e.span, "tile_arange(): the range must have 1 to " +
                               std::to_string(types::k_max_tile_elements) + " elements");
    const types::Type* t =
        dtype ? eval_annotation(*dtype) : (any_float ? types::float32_type() : types::int32_type());
    if (!t->is_scalar() || t->is_bool())
        type_error(e.span,
                   "tile_arange(): dtype must be a number type" +
                       (t->is_struct() ? ", not a Warp struct (" + t->name + ")" : std::string()));
    auto constant = [&](double x) {
        types::ConstValue k{t, false, (int64_t)x, x};
        return emit_const(k, t, e.span.line);
    };
    return var_value(
        emit_call(e.span.line, types::tile_type(t, {n}), {constant(start), constant(step)}, b));
}

Builder::TileSelection Builder::tile_selection(VarId tile, const std::vector<const ast::Expr*>& idx,
                                               const ast::Expr& e,
                                               const std::vector<Value>* values) {
    const types::Type* t = m_fn.type_of(tile);
    if (idx.size() > (size_t)t->ndim)
        type_error(e.span, who() + "a " + t->name + " takes at most " + std::to_string(t->ndim) +
                               (t->ndim == 1 ? " index" : " indices") + ", got " +
                               std::to_string(idx.size()));
    TileSelection sel;
    std::vector<VarId> base, step;
    auto constant = [&](int64_t v) {
        return emit_const(types::ConstValue{types::int32_type(), false, v, 0.0},
                          types::int32_type(), e.span.line);
    };
    for (int d = 0; d < t->ndim; ++d) {
        const ast::Expr* x = d < (int)idx.size() ? idx[d] : nullptr;
        if (x && x->kind != ast::ExprKind::Slice) {
            Value v = values ? (*values)[d] : eval(*x);
            if (v.kind == Value::Kind::Const && !v.constant.type->is_integer())
                type_error(x->span, who() + "tile indices must be integers or slices");
            if (v.kind == Value::Kind::Const &&
                (v.constant.i >= t->shape[d] || v.constant.i < -t->shape[d]))
                fail(x->span, ErrorKind::Value,
                     who() + "tile index " + std::to_string(v.constant.i) +
                         " is out of bounds for dimension " + std::to_string(d) + " of a " +
                         t->name);
            base.push_back(index_value(v, *x, who() + "tile index "));
            step.push_back(constant(0));
            continue;
        }
        std::vector<int64_t> positions;
        if (x) {
            for (const auto& bound : x->args)
                if (bound) {
                    Value v = eval(*bound);
                    if (v.kind != Value::Kind::Const || !v.constant.type->is_integer())
                        type_error(bound->span,
                                   who() + "tile slice bounds must be constant integers");
                }
            positions = slice_positions(*x, t->shape[d]);
        } else {
            for (int i = 0; i < t->shape[d]; ++i) positions.push_back(i);
        }
        if (positions.empty())
            fail(x->span, ErrorKind::Value,
                 who() +
                     "this tile slice selects nothing (a zero-length axis would make an empty "
                     "tile)");
        sel.shape.push_back((int)positions.size());
        sel.strided |= positions.size() > 1 && positions[1] - positions[0] != 1;
        base.push_back(constant(positions[0]));
        step.push_back(constant(positions.size() > 1 ? positions[1] - positions[0] : 1));
    }
    const types::Type* vt = types::vector_type(t->ndim, ScalarType::Int32);
    sel.base = emit_value(InstrKind::Construct, e.span.line, vt, std::move(base));
    sel.step = emit_value(InstrKind::Construct, e.span.line, vt, std::move(step));
    return sel;
}

void Builder::assign_tile_element(const ast::Expr& target, VarId tile, const Value& v,
                                  const ast::Expr& value_expr) {
    const types::Type* t = m_fn.type_of(tile);
    std::vector<const ast::Expr*> idx = index_exprs(*target.args[1]);
    TileSelection sel = tile_selection(tile, idx, target);
    VarId updated;
    if (sel.shape.empty()) {
        VarId x = coerce_assigned(v, t->dtype, value_expr, "an element of a " + t->name);
        updated =
            emit_call(target.span.line, t, {tile, sel.base, x}, table_entry("tile_assign_element"));
    } else {
        const types::Type* want = types::tile_type(t->dtype, sel.shape);
        VarId x = v.kind == Value::Kind::Var ? v.var : 0;
        const types::Type* got = v.kind == Value::Kind::Var ? m_fn.type_of(x) : nullptr;
        if (!got || !got->is_tile())
            fail(value_expr.span, ErrorKind::Value,
                 who() + "assigning to part of a " + t->name +
                     " requires a tile of matching shape " + want->name + ", not a single value");
        if (got != want)
            fail(value_expr.span, ErrorKind::Value,
                 who() + "tile shape mismatch: a " + got->name + " does not fit the " + want->name +
                     " part of a " + t->name);
        updated = emit_call(target.span.line, t, {tile, sel.base, sel.step, x},
                            table_entry("tile_view_assign"));
    }
    write_back(*target.args[0], updated, value_expr);
}

void Builder::note_tile_view(VarId view, const ast::Expr& parent, VarId base, VarId step) {
    if (parent.kind == ast::ExprKind::Name && m_scope.count(parent.name))
        m_tile_views[view] = TileViewOf{parent.name, base, step};
}

Value Builder::index_tile(VarId tile, const std::vector<const ast::Expr*>& idx,
                          const ast::Expr& e) {
    const types::Type* t = m_fn.type_of(tile);
    // each index once: one that is a tile makes the subscript a gather
    std::vector<Value> values(idx.size());
    bool gather = false;
    for (size_t d = 0; d < idx.size() && d < (size_t)t->ndim; ++d) {
        if (idx[d]->kind == ast::ExprKind::Slice) continue;
        values[d] = eval(*idx[d]);
        gather |= values[d].kind == Value::Kind::Var && m_fn.type_of(values[d].var)->is_tile();
    }
    if (gather) return gather_tile(tile, idx, values, e);
    TileSelection sel = tile_selection(tile, idx, e, &values);
    if (sel.shape.empty())
        return var_value(
            emit_call(e.span.line, t->dtype, {tile, sel.base}, table_entry("tile_extract")));
    VarId view = emit_call(e.span.line, types::tile_type(t->dtype, sel.shape),
                           {tile, sel.base, sel.step}, table_entry("tile_view"));
    note_tile_view(view, *e.args[0], sel.base, sel.step);
    if (sel.strided) m_strided_views.insert(view);
    return var_value(view);
}

}  // namespace treadle::sema
