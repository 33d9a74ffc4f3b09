// src/sema/infer_slice.cpp -- constant slices of vectors, quaternions, transforms and matrices:
// reading (`v[1:]`, `m[1:, :2]`, `m[0, ::2]`) and assigning (`v[::2] = w`, `m[:2, 1] += u`)
//
// A slice's bounds are compile-time constants, so the positions it selects are known here and
// a slice becomes plain component operations: a read is one `extract` per selected component
// gathered by a Construct (a vector for one sliced axis, a matrix for two; an empty selection
// is the zero vector or the 0x0 matrix), an assignment a chain of `with_component` calls, one
// per selected component, written back as any component assignment is. The adjoints are those
// of these operations. An index given with a slice (`m[i, 1:]`) may be a runtime value.
#include "sema/infer_internal.h"

namespace treadle::sema {

using ast::ExprKind;
using ir::InstrKind;
using ir::VarId;

namespace {

/// The number of components along axis `axis` of the composite `t`.
int64_t axis_length(const types::Type* t, size_t axis) {
    if (t->is_matrix()) return axis == 0 ? t->rows : t->cols;
    return t->rows;  // vectors, quaternions (4) and transforms (7)
}

}  // namespace

bool Builder::has_slice(const std::vector<const ast::Expr*>& idx) {
    for (const ast::Expr* i : idx)
        if (i->kind == ExprKind::Slice) return true;
    return false;
}

std::vector<int64_t> Builder::slice_positions(const ast::Expr& slice, int64_t n) {
    const int64_t step = slice_bound(slice.args[2].get(), 1);
    if (step == 0) fail(slice.span, ErrorKind::Value, who() + "Slice step cannot be zero.");
    // Python's slice.indices(n): a negative bound counts from the end, then bounds are clamped
    // to [0, n] (positive step) or [-1, n - 1] (negative step).
    const int64_t lo_clamp = step > 0 ? 0 : -1;
    const int64_t hi_clamp = step > 0 ? n : n - 1;
    auto resolve = [&](const ast::Expr* e, int64_t fallback) {
        if (!e) return fallback;
        int64_t v = slice_bound(e, 0);
        if (v < 0) return std::max(v + n, lo_clamp);
        return std::min(v, hi_clamp);
    };
    const int64_t start = resolve(slice.args[0].get(), step > 0 ? lo_clamp : hi_clamp);
    const int64_t stop = resolve(slice.args[1].get(), step > 0 ? hi_clamp : lo_clamp);
    std::vector<int64_t> out;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out.push_back(i);
    return out;
}

std::vector<Builder::SliceAxis> Builder::slice_axes(VarId base,
                                                    const std::vector<const ast::Expr*>& idx,
                                                    const ast::Expr& e) {
    const types::Type* t = m_fn.type_of(base);
    const size_t axes = t->is_matrix() ? 2 : 1;
    if (idx.size() > axes) type_error(e.span, who() + "too many indices for " + t->name);
    std::vector<SliceAxis> out;
    for (size_t k = 0; k < axes; ++k) {
        SliceAxis a;
        const int64_t n = axis_length(t, k);
        if (k >= idx.size()) {  // m[1:]: every column
            a.sliced = true;
            for (int64_t i = 0; i < n; ++i) a.positions.push_back(i);
        } else if (idx[k]->kind == ExprKind::Slice) {
            a.sliced = true;
            a.positions = slice_positions(*idx[k], n);
        } else {
            a.index = component_operand(*idx[k], n, t);
        }
        out.push_back(std::move(a));
    }
    return out;
}

const types::Type* Builder::slice_type(const types::Type* t, const std::vector<SliceAxis>& axes) {
    std::vector<int> lengths;
    for (const SliceAxis& a : axes)
        if (a.sliced) lengths.push_back((int)a.positions.size());
    if (lengths.size() == 1) return types::vector_type(lengths[0], t->scalar);
    // a matrix with no rows or no columns has neither (Warp's rule)
    if (lengths[0] == 0 || lengths[1] == 0) return types::matrix_type(0, 0, t->scalar);
    return types::matrix_type(lengths[0], lengths[1], t->scalar);
}

void Builder::for_each_slice_element(const std::vector<SliceAxis>& axes, int line,
                                     const std::function<void(const std::vector<VarId>&)>& f) {
    auto constant = [&](int64_t i) {
        return emit_const(types::ConstValue{types::int32_type(), false, i, 0}, types::int32_type(),
                          line);
    };
    std::vector<VarId> at(axes.size());
    std::function<void(size_t)> walk = [&](size_t k) {
        if (k == axes.size()) return f(at);
        if (!axes[k].sliced) {
            at[k] = axes[k].index;
            return walk(k + 1);
        }
        for (int64_t p : axes[k].positions) {
            at[k] = constant(p);
            walk(k + 1);
        }
    };
    walk(0);
}

Value Builder::index_slice(VarId base, const std::vector<const ast::Expr*>& idx,
                           const ast::Expr& e) {
    const int line = e.span.line;
    const types::Type* t = m_fn.type_of(base);
    std::vector<SliceAxis> axes = slice_axes(base, idx, e);
    const types::Type* rt = slice_type(t, axes);
    const types::Type* elem = types::scalar_type(t->scalar);
    std::vector<VarId> parts;
    for_each_slice_element(axes, line, [&](const std::vector<VarId>& at) {
        std::vector<VarId> args{base};
        args.insert(args.end(), at.begin(), at.end());
        parts.push_back(emit_call(line, elem, std::move(args), table_entry("extract")));
    });
    if (parts.empty()) {  // the empty vector or matrix
        VarId zero = emit_const(types::ConstValue{types::int32_type(), true, 0, 0}, elem, line);
        return Value{
            Value::Kind::Var,
            emit_call(line, rt, {zero}, table_entry(rt->is_vector() ? "vec_fill" : "mat_fill"))};
    }
    return Value{Value::Kind::Var, emit_value(InstrKind::Construct, line, rt, std::move(parts))};
}

void Builder::assign_slice(const ast::Expr& target, VarId base, const Value& v,
                           const ast::Expr& value_expr) {
    const int line = target.span.line;
    const types::Type* t = m_fn.type_of(base);
    std::vector<SliceAxis> axes = slice_axes(base, index_exprs(*target.args[1]), target);
    const types::Type* want = slice_type(t, axes);
    const std::string dtype = scalar_name(t->scalar);
    const types::Type* given = arg_info(v, value_expr).type;
    // Warp's checks and messages; a slice is never filled from a scalar.
    if (want->is_vector()) {
        const std::string length = std::to_string(want->rows);
        if (!given->is_vector())
            fail(value_expr.span, ErrorKind::Value,
                 "The provided value is expected to be a vector of length " + length +
                     ", with dtype " + dtype + ".");
        if (given->scalar != t->scalar)
            fail(value_expr.span, ErrorKind::Value,
                 "The provided vector is expected to be of length " + length + " with dtype " +
                     dtype + ".");
        if (given->rows != want->rows)
            fail(value_expr.span, ErrorKind::Value,
                 "The length of the provided vector (" + std::to_string(given->rows) +
                     ") isn't compatible with the given slice (expected " + length + ").");
    } else {
        const std::string shape =
            "(" + std::to_string(want->rows) + ", " + std::to_string(want->cols) + ")";
        if (!given->is_matrix())
            fail(value_expr.span, ErrorKind::Value,
                 "The provided value is expected to be a matrix of shape " + shape +
                     ", with dtype " + dtype + ".");
        if (given->scalar != t->scalar)
            fail(value_expr.span, ErrorKind::Value,
                 "The provided matrix is expected to be of shape " + shape + " with dtype " +
                     dtype + ".");
        if (given->rows != want->rows || given->cols != want->cols)
            fail(value_expr.span, ErrorKind::Value,
                 "The shape of the provided matrix (" + std::to_string(given->rows) + ", " +
                     std::to_string(given->cols) +
                     ") isn't compatible with the given slice (expected " + shape + ").");
    }
    VarId value = coerce(v, given, value_expr);
    const types::Type* elem = types::scalar_type(t->scalar);
    VarId updated = base;
    int64_t k = 0;
    const int64_t cols = want->is_matrix() ? want->cols : 0;
    for_each_slice_element(axes, line, [&](const std::vector<VarId>& at) {
        std::vector<VarId> from{value};
        auto constant = [&](int64_t i) {
            return emit_const(types::ConstValue{types::int32_type(), false, i, 0},
                              types::int32_type(), line);
        };
        if (want->is_vector()) {
            from.push_back(constant(k));
        } else {
            from.push_back(constant(k / cols));
            from.push_back(constant(k % cols));
        }
        ++k;
        VarId part = emit_call(line, elem, std::move(from), table_entry("extract"));
        std::vector<VarId> args{updated};
        args.insert(args.end(), at.begin(), at.end());
        args.push_back(part);
        updated = emit_call(line, t, std::move(args), table_entry("with_component"));
    });
    write_back(*target.args[0], updated, value_expr);
}

}  // namespace treadle::sema
