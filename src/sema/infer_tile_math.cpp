// src/sema/infer_tile_math.cpp -- tile builtins that apply functions and solve: tile_matmul,
// tile_map, tile_sum / tile_reduce, and the Cholesky factorisation and triangular solves
//
// The element function of tile_map and tile_reduce (a builtin, or a user function specialised
// to the element types) is resolved here once (tile_element_op); codegen applies it to each
// element the thread holds (FunctionEmitter::tile_map / tile_reduce).
#include "sema/infer_internal.h"

namespace treadle::sema {

using ir::InstrKind;
using ir::VarId;

Value Builder::tile_matmul(const Builtin& b, const std::map<std::string, const ast::Expr*>& named,
                           const ast::Expr& e) {
    auto get = [&](const char* k) -> const ast::Expr* {
        auto it = named.find(k);
        return it == named.end() ? nullptr : it->second;
    };
    if (!get("a") || !get("b")) type_error(e.span, "tile_matmul(): needs a and b");
    VarId a = tile_operand(*get("a"), "tile_matmul");
    VarId bb = tile_operand(*get("b"), "tile_matmul");
    const types::Type *at = m_fn.type_of(a), *bt = m_fn.type_of(bb);
    if (!at->dtype->is_scalar() || !bt->dtype->is_scalar())
        type_error(e.span,
                   "tile_matmul() does not support complex tiles (vector elements), got a " +
                       at->name + " and a " + bt->name);
    if (at->ndim != 2 || bt->ndim != 2 || !at->dtype->is_float() || !bt->dtype->is_float() ||
        at->shape[1] != bt->shape[0])
        type_error(e.span,
                   "tile_matmul(): expects an (M, K) and a (K, N) tile of float types, got a " +
                       at->name + " and a " + bt->name);
    const ast::Expr* out = get("out");
    const types::Type* out_t = nullptr;
    if (out) {
        Value ov = eval(*out);
        if (ov.kind == Value::Kind::Var && m_fn.type_of(ov.var)->is_tile())
            out_t = m_fn.type_of(ov.var);
    }
    const types::Type* s = out_t ? out_t->dtype : at->dtype;
    if (s->scalar == ScalarType::BFloat16)
        type_error(e.span,
                   "tile_matmul() does not support a bfloat16 'out' tile (accumulate in "
                   "float16 or float32)");
    const types::Type* rt = types::tile_type(s, {at->shape[0], bt->shape[1]});
    const bool bf16 =
        at->dtype->scalar == ScalarType::BFloat16 || bt->dtype->scalar == ScalarType::BFloat16;
    if (bf16 && m_program.enable_backward)
        type_error(e.span,
                   "tile_matmul() does not support bfloat16 'a' or 'b' tiles when the backward "
                   "pass is enabled (declare the kernel with enable_backward=False)");
    // Warp's overloads: (a, b, out, alpha, beta) accumulates into out; (a, b, alpha) returns
    if (out) {
        Value ov = eval(*out);
        if (ov.kind != Value::Kind::Var || m_fn.type_of(ov.var) != rt) {
            if (!get("alpha") && ov.kind != Value::Kind::Var) {
                // tile_matmul(a, b, 2.0): the third positional argument is alpha
                VarId r = emit_call(e.span.line, rt, {a, bb}, b);
                return binary("mul", "*", var_value(r), ov, e, *out, e);
            }
            type_error(out->span, "tile_matmul(): out must be a tile of type " + rt->name);
        }
        auto scale = [&](const char* k) {
            const ast::Expr* x = get(k);
            if (!x) return emit_const(types::ConstValue{s, false, 1, 1.0}, s, e.span.line);
            return coerce(eval(*x), s, *x);
        };
        VarId alpha = scale("alpha"), beta = scale("beta");
        VarId r = emit_call(e.span.line, rt, {a, bb, ov.var, alpha, beta},
                            table_entry("tile_matmul_acc"));
        write_back(*out, r, e);
        return Value{};
    }
    VarId r = emit_call(e.span.line, rt, {a, bb}, b);
    if (const ast::Expr* alpha = get("alpha"))
        return binary("mul", "*", var_value(r), eval(*alpha), e, *alpha, e);
    return var_value(r);
}

Builder::TileOp Builder::tile_element_op(const ast::Expr& op_expr,
                                         const std::vector<const types::Type*>& types,
                                         const std::vector<const ast::Expr*>& exprs,
                                         const std::string& fn) {
    Value op = eval(op_expr);
    if (op.kind != Value::Kind::Builtin && op.kind != Value::Kind::Func)
        type_error(op_expr.span, fn + "(): the first argument must be a builtin or @wp.func");
    TileOp out;
    if (op.kind == Value::Kind::Builtin) {
        const Builtin* f = op.builtin;
        if (!f || !f->rule ||
            (f->kind != BuiltinKind::Regular && f->kind != BuiltinKind::Operator) ||
            f->traits.template_args != builtins::TemplateArgs::None || f->traits.header)
            type_error(op_expr.span, fn + "(): " + (f ? std::string(f->name) : op.text) +
                                         " cannot be applied to tile elements");
        std::vector<ArgInfo> infos;
        for (const types::Type* t : types) infos.push_back(ArgInfo{t, false});
        auto sig = f->rule(infos);
        if (!sig || !sig->ret || !sig->ret->is_element() || sig->outputs_from != SIZE_MAX)
            type_error(
                op_expr.span,
                fn + "(): no overload of " + std::string(f->name) + "() accepts " +
                    describe_args(infos) +
                    (types[0]->is_struct() ? " (elements of a Warp struct take a @wp.func)" : ""));
        for (size_t i = 0; i < types.size(); ++i)
            if (sig->params[i] != types[i])
                type_error(exprs[i]->span, fn + "(): " + std::string(f->name) + "() takes " +
                                               sig->params[i]->name + " here, not " +
                                               types[i]->name);
        out.builtin = f;
        out.ret = sig->ret;
        return out;
    }
    // a user function: specialised to the element types, through a call of hidden locals
    auto synthetic = std::make_unique<ast::Expr>(ast::ExprKind::Call, op_expr.span);
    synthetic->args.push_back(ast::clone(op_expr));
    std::vector<std::string> hidden;
    for (size_t i = 0; i < types.size(); ++i) {
        std::string h = "tile_element:" + std::to_string(i);
        m_scope[h] = m_fn.new_var(types[i], "tile_element");
        hidden.push_back(h);
        auto n = std::make_unique<ast::Expr>(ast::ExprKind::Name, exprs[i]->span);
        n->name = h;
        synthetic->args.push_back(std::move(n));
    }
    m_synthetic.push_back(std::move(synthetic));
    std::vector<VarId> bound;
    ir::Function* g = bind_function_call(op.func, *m_synthetic.back(), bound);
    for (const std::string& h : hidden) m_scope.erase(h);
    if (g->params.size() != types.size())
        type_error(op_expr.span,
                   fn + "(): " + op.func->name + "() must take one parameter per operand");
    for (size_t i = 0; i < types.size(); ++i)
        if (g->type_of(g->params[i]) != types[i])
            type_error(exprs[i]->span, fn + "(): " + op.func->name + "() takes " +
                                           g->type_of(g->params[i])->name + " here, not " +
                                           types[i]->name);
    if (!g->return_type || !g->return_type->is_element())
        type_error(op_expr.span, fn + "(): " + op.func->name + "() must return one value");
    out.func = g;
    out.ret = g->return_type;
    return out;
}

Value Builder::tile_map(const Builtin& b, const ast::Expr& e) {
    if (e.args.size() < 3 || !e.keywords.empty())
        type_error(e.span, "tile_map(): takes a function and one or more tiles (and values)");
    // the operands: tiles of one shape, and values every element sees
    std::vector<VarId> operands;
    std::vector<const types::Type*> elements;
    std::vector<const ast::Expr*> exprs;
    const types::Type* shape = nullptr;
    for (size_t i = 2; i < e.args.size(); ++i) {
        Value v = eval(*e.args[i]);
        VarId x = materialize(v, *e.args[i]);
        const types::Type* t = m_fn.type_of(x);
        if (t->is_tile()) {
            if (shape && shape->shape != t->shape)
                type_error(e.args[i]->span, "tile_map(): tiles of shapes " + shape->name + " and " +
                                                t->name + " do not match");
            shape = t;
        } else if (!t->is_element()) {
            type_error(e.args[i]->span,
                       "tile_map(): operands must be tiles or values, got " + t->name);
        }
        operands.push_back(x);
        elements.push_back(t->is_tile() ? t->dtype : t);
        exprs.push_back(e.args[i].get());
    }
    if (!shape) type_error(e.span, "tile_map(): needs at least one tile operand");
    TileOp op = tile_element_op(*e.args[1], elements, exprs, "tile_map");
    VarId r = emit_call(e.span.line, types::tile_like(shape, op.ret), operands, b);
    if (op.builtin) current_block()->back().text = op.builtin->name;  // found by name later
    current_block()->back().func = op.func;
    return var_value(r);
}

Value Builder::tile_reduce(const Builtin& b, const ast::Expr* op_expr, const ast::Expr& tile_expr,
                           const ast::Expr* axis_expr, const ast::Expr& e) {
    const std::string fn = b.name;
    VarId t = tile_operand(tile_expr, fn);
    const types::Type* tt = m_fn.type_of(t);
    int axis = -1;
    if (axis_expr) {
        Value a = eval(*axis_expr);
        if (a.kind != Value::Kind::Const || !a.constant.type->is_integer() ||
            a.constant.i < -tt->ndim || a.constant.i >= tt->ndim)
            type_error(axis_expr->span, fn + "(): axis must be a constant from " +
                                            std::to_string(-tt->ndim) + " to " +
                                            std::to_string(tt->ndim - 1));
        axis = (int)(a.constant.i < 0 ? a.constant.i + tt->ndim : a.constant.i);
    }
    std::vector<int> shape;
    for (int d = 0; d < tt->ndim; ++d)
        if (axis >= 0 && d != axis) shape.push_back(tt->shape[d]);
    if (shape.empty()) shape.push_back(1);
    const types::Type* rt = types::tile_type(tt->dtype, shape);
    VarId av = emit_const(types::ConstValue{types::int32_type(), false, axis, 0.0},
                          types::int32_type(), e.span.line);
    if (!op_expr) {  // tile_sum
        if (axis < 0) return var_value(emit_call(e.span.line, rt, {t}, b));
        return var_value(emit_call(e.span.line, rt, {t, av}, table_entry("tile_sum_axis")));
    }
    TileOp op = tile_element_op(*op_expr, {tt->dtype, tt->dtype}, {&tile_expr, &tile_expr}, fn);
    if (op.ret != tt->dtype)
        type_error(op_expr->span, fn + "(): the operation must return the tile element type " +
                                      tt->dtype->name + ", not " + op.ret->name);
    VarId r = emit_call(e.span.line, rt, {t, av}, axis < 0 ? b : table_entry("tile_reduce_axis"));
    if (op.builtin) current_block()->back().text = op.builtin->name;
    current_block()->back().func = op.func;
    return var_value(r);
}

Value Builder::tile_linalg(const Builtin& b, const std::map<std::string, const ast::Expr*>& named,
                           const ast::Expr& e) {
    const std::string name = b.name;
    auto get = [&](const char* k) -> const ast::Expr* {
        auto it = named.find(k);
        return it == named.end() ? nullptr : it->second;
    };
    const bool inplace = name.size() > 8 && name.compare(name.size() - 8, 8, "_inplace") == 0;
    const std::vector<builtins::Param>& params = builtins::builtin_params(b);
    const ast::Expr* mx = get(params[0].name.c_str());
    const ast::Expr* rx =
        params.size() > 1 && params[1].name != "fill_mode" ? get(params[1].name.c_str()) : nullptr;
    if (!mx) type_error(e.span, name + "(): missing argument '" + params[0].name + "'");
    VarId m = tile_operand(*mx, name);
    const types::Type* mt = m_fn.type_of(m);
    const bool diag = name == "tile_diag_add";
    if (mt->ndim != 2 || mt->shape[0] != mt->shape[1] ||
        (!diag && mt->dtype != types::float32_type() &&
         mt->dtype != types::scalar_type(ScalarType::Float64)))
        type_error(mx->span, name + "(): expects a square tile" +
                                 std::string(diag ? "" : " of float32 or float64") + ", got a " +
                                 mt->name);
    const int n = mt->shape[0];
    int upper = 0;
    if (const ast::Expr* fx = get("fill_mode")) {
        Value f = eval(*fx);
        if (f.kind != Value::Kind::Str || (f.text != "lower" && f.text != "upper"))
            fail(fx->span, ErrorKind::Value, name + "(): fill_mode must be \"lower\" or \"upper\"");
        upper = f.text == "upper";
    }
    const int line = e.span.line;
    VarId flag = emit_const(types::ConstValue{types::int32_type(), false, upper, 0.0},
                            types::int32_type(), line);
    if (name.rfind("tile_cholesky", 0) == 0 && name.find("solve") == std::string::npos) {
        VarId r = emit_call(line, mt, {m, flag}, b);
        if (!inplace) return var_value(r);
        write_back(*mx, r, e);
        return Value{};
    }
    if (!rx) type_error(e.span, name + "(): missing argument '" + params[1].name + "'");
    VarId y = tile_operand(*rx, name);
    const types::Type* yt = m_fn.type_of(y);
    if (diag) {
        if (yt->ndim != 1 || yt->shape[0] != n || yt->dtype != mt->dtype)
            type_error(rx->span, "tile_diag_add(): d must be a tile of shape (" +
                                     std::to_string(n) + ",) of the matrix's element type, got a " +
                                     yt->name);
        return var_value(emit_call(line, mt, {m, y}, b));
    }
    if (yt->dtype != mt->dtype || yt->ndim > 2 || yt->shape[0] != n)
        type_error(rx->span, name + "(): the right-hand side must be an (" + std::to_string(n) +
                                 ",) or (" + std::to_string(n) +
                                 ", M) tile of the matrix's element type, got a " + yt->name);
    std::vector<VarId> operands{m, y};
    if (name.find("cholesky") != std::string::npos) operands.push_back(flag);
    VarId r = emit_call(line, yt, operands, b);
    if (!inplace) return var_value(r);
    write_back(*rx, r, e);
    return Value{};
}

}  // namespace treadle::sema
