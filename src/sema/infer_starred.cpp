// src/sema/infer_starred.cpp -- `f(*x)`: a call's starred arguments become the elements of x
//
// The call is rewritten before it is inferred: `wp.vec4(*v3, 1.0)` becomes
// `wp.vec4(v3[0], v3[1], v3[2], 1.0)`. A starred value is evaluated once and bound to a hidden
// name that the element subscripts read; a slice (`*arr[0:3]`, `*v[1:]`) needs constant bounds
// and expands to one subscript of its base per index.
#include "sema/infer_internal.h"

namespace treadle::sema {

using ast::ExprKind;

namespace {

ast::ExprPtr int_constant(int64_t i, const ast::Span& span) {
    auto c = std::make_unique<ast::Expr>(ExprKind::Constant, span);
    c->const_kind = ast::ConstKind::Int;
    c->int_value = (uint64_t)i;
    return c;
}

ast::ExprPtr element(const ast::Expr& base, int64_t i, const ast::Span& span) {
    auto sub = std::make_unique<ast::Expr>(ExprKind::Subscript, span);
    sub->args.push_back(ast::clone(base));
    sub->args.push_back(int_constant(i, span));
    return sub;
}

ast::ExprPtr name_node(const std::string& name, const ast::Span& span) {
    auto n = std::make_unique<ast::Expr>(ExprKind::Name, span);
    n->name = name;
    return n;
}

/// The number of elements `*x` gives for a value of type `t` (0: not unpackable).
int64_t element_count(const types::Type* t) {
    if (t->is_vector()) return t->rows;
    if (t->is_quat()) return 4;
    if (t->is_matrix()) return t->rows;
    return 0;
}

const char* k_unsupported =
    "Starred expressions are only supported for vectors, quaternions, matrices (their rows), "
    "tuples and constant slices of these and of arrays";

}  // namespace

int64_t Builder::slice_bound(const ast::Expr* e, int64_t fallback) {
    if (!e) return fallback;
    Value v = eval(*e);
    if (v.kind != Value::Kind::Const || !v.constant.type->is_integer())
        fail(e->span, ErrorKind::Value, who() + "Slice component must be a compile-time constant");
    return v.constant.i;
}

void Builder::expand_starred_arg(const ast::Expr& arg, std::vector<ast::ExprPtr>& out,
                                 std::vector<std::string>& hidden) {
    const ast::Expr& x = *arg.args[0];
    const ast::Span& span = arg.span;
    if (x.kind == ExprKind::Subscript && x.args[1]->kind == ExprKind::Slice) {
        const ast::Expr& base = *x.args[0];
        const ast::Expr& slice = *x.args[1];
        Value b = eval(base);
        const types::Type* t = b.kind == Value::Kind::Var ? m_fn.type_of(b.var) : nullptr;
        const bool is_array = t && t->is_array();
        const int64_t n = t && !is_array ? element_count(t) : 0;
        if (!is_array && n == 0) type_error(span, who() + k_unsupported);
        if (!is_array) {  // Python's rules (infer_slice.cpp)
            for (int64_t i : slice_positions(slice, n)) out.push_back(element(base, i, span));
            return;
        }
        const int64_t step = slice_bound(slice.args[2].get(), 1);
        if (step == 0) fail(slice.span, ErrorKind::Value, who() + "slice step cannot be zero");
        if (step < 0)
            fail(slice.span, ErrorKind::Value,
                 who() + "slice step cannot be negative for arrays in starred expressions");
        if (!slice.args[1])
            fail(slice.span, ErrorKind::Value,
                 who() + "a starred slice of an array requires explicit upper bound");
        const int64_t lo = slice_bound(slice.args[0].get(), 0);
        const int64_t hi = slice_bound(slice.args[1].get(), 0);
        if (lo < 0 || hi < 0)
            fail(slice.span, ErrorKind::Value,
                 who() + "slice bounds cannot be negative for arrays in starred expressions");
        for (int64_t i = lo; i < hi; i += step) out.push_back(element(base, i, span));
        return;
    }
    Value v = eval(x);
    if (v.kind == Value::Kind::Tuple) {  // re-read per element (tuples are values, not vars)
        for (size_t i = 0; i < v.elements.size(); ++i) out.push_back(element(x, (int64_t)i, span));
        return;
    }
    const int64_t n = v.kind == Value::Kind::Var ? element_count(m_fn.type_of(v.var)) : 0;
    if (n == 0) type_error(span, who() + k_unsupported);
    // evaluated once: the element subscripts read a hidden name bound to the value
    std::string name =
        "*" + std::to_string(m_synthetic.size()) + "." + std::to_string(hidden.size());
    m_scope[name] = v.var;
    hidden.push_back(name);
    ast::ExprPtr ref = name_node(name, span);
    for (int64_t i = 0; i < n; ++i) out.push_back(element(*ref, i, span));
}

const ast::Expr* Builder::expand_starred(const ast::Expr& e, std::vector<std::string>& hidden) {
    bool any = false;
    for (size_t i = 1; i < e.args.size(); ++i) any |= e.args[i]->kind == ExprKind::Starred;
    if (!any) return nullptr;
    auto call = std::make_unique<ast::Expr>(ExprKind::Call, e.span);
    call->args.push_back(ast::clone(*e.args[0]));
    for (size_t i = 1; i < e.args.size(); ++i) {
        if (e.args[i]->kind == ExprKind::Starred)
            expand_starred_arg(*e.args[i], call->args, hidden);
        else
            call->args.push_back(ast::clone(*e.args[i]));
    }
    for (const ast::Keyword& k : e.keywords)
        call->keywords.push_back(ast::Keyword{k.name, ast::clone(*k.value), k.span});
    m_synthetic.push_back(std::move(call));
    return m_synthetic.back().get();
}

}  // namespace treadle::sema
