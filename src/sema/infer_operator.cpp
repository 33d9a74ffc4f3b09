// src/sema/infer_operator.cpp -- inference of operators: arithmetic and bitwise (table builtins,
// folded on weak constants), unary, boolean, comparison chains
#include "sema/infer_internal.h"

namespace treadle::sema {

using ast::ExprKind;
using ir::InstrKind;
using ir::VarId;

namespace {

/// Folds an operator on two weak constants (so `2.0 * pi` stays a weak literal).
bool fold(const std::string& op, const types::ConstValue& a, const types::ConstValue& b,
          types::ConstValue& out) {
    if (!a.weak || !b.weak) return false;
    bool fl = a.type->is_float() || b.type->is_float();
    double x = a.type->is_float() ? a.f : (double)a.i;
    double y = b.type->is_float() ? b.f : (double)b.i;
    out = types::ConstValue{
        fl ? types::float32_type() : (a.type == b.type ? a.type : types::int64_type()), true, 0, 0};
    if (fl) {
        if (op == "add")
            out.f = x + y;
        else if (op == "sub")
            out.f = x - y;
        else if (op == "mul")
            out.f = x * y;
        else if (op == "div" && y != 0)
            out.f = x / y;
        else
            return false;
        return true;
    }
    // Wrapping int64 arithmetic, as the generated code's (a signed overflow would be undefined).
    uint64_t x64 = (uint64_t)a.i, y64 = (uint64_t)b.i;
    if (op == "add")
        out.i = (int64_t)(x64 + y64);
    else if (op == "sub")
        out.i = (int64_t)(x64 - y64);
    else if (op == "mul")
        out.i = (int64_t)(x64 * y64);
    else if ((op == "floordiv" || op == "mod") && b.i != 0 && b.i != -1)
        // the generated code's integer // and % (truncation, Warp's rule), on constants
        out.i = op == "floordiv" ? a.i / b.i : a.i % b.i;
    else
        return false;
    if (out.i >= INT32_MIN && out.i <= INT32_MAX) out.type = types::int32_type();
    return true;
}

/// The operator builtin of a binary operator in Python syntax (table lookup by its spelling).
const char* bin_op_name(ast::BinOpKind op) {
    const Builtin* b = find_syntax_operator(ast::op_text(op), 2);
    return b ? b->name : "?";
}

const char* cmp_c_op(ast::CmpOpKind op) {
    switch (op) {
        case ast::CmpOpKind::Eq:
            return "==";
        case ast::CmpOpKind::NotEq:
            return "!=";
        case ast::CmpOpKind::Lt:
            return "<";
        case ast::CmpOpKind::LtE:
            return "<=";
        case ast::CmpOpKind::Gt:
            return ">";
        case ast::CmpOpKind::GtE:
            return ">=";
        default:
            return nullptr;
    }
}
}  // namespace

Value Builder::eval_binary(const ast::Expr& e) {
    Value a = eval(*e.args[0]);
    Value b = eval(*e.args[1]);
    return binary(bin_op_name(e.bin_op), ast::op_text(e.bin_op), a, b, *e.args[0], *e.args[1], e);
}

Value Builder::binary(const std::string& op_name, const char* op_text, const Value& a,
                      const Value& b, const ast::Expr& ea, const ast::Expr& eb,
                      const ast::Expr& at) {
    const Builtin* builtin = find_operator(op_name);
    if (!builtin)
        type_error(at.span, std::string("operator '") + op_text + "' is not supported here");
    if (a.kind == Value::Kind::Const && b.kind == Value::Kind::Const) {
        types::ConstValue folded;
        if (fold(op_name, a.constant, b.constant, folded)) {
            Value v;
            v.kind = Value::Kind::Const;
            v.constant = folded;
            return v;
        }
    }
    std::vector<ArgInfo> infos{arg_info(a, ea), arg_info(b, eb)};
    auto sig = builtin->rule(infos);
    if (!sig && (op_name == "mul" || op_name == "div") &&
        (infos[0].type->is_tile() || infos[1].type->is_tile())) {
        // Warp's messages for products of tiles with non-scalar elements on both sides
        auto named = [](const types::Type* t) {
            return t->is_tile() ? "tile<" + t->dtype->name + ">" : t->name;
        };
        const types::Type* x = infos[0].type->is_tile() ? infos[0].type->dtype : infos[0].type;
        const types::Type* y = infos[1].type->is_tile() ? infos[1].type->dtype : infos[1].type;
        const std::string verb = op_name == "mul" ? "multiply" : "divide";
        if (infos[0].type->is_tile() && infos[1].type->is_tile() && !x->is_scalar() &&
            !y->is_scalar())
            type_error(at.span, std::string("operator '") + op_text + "' on " +
                                    named(infos[0].type) + " and " + named(infos[1].type) +
                                    ": one tile's element type must be scalar");
        if (!x->is_scalar() && !y->is_scalar())
            type_error(at.span, "Cannot " + verb + " " + named(infos[0].type) + " by " +
                                    named(infos[1].type) +
                                    ": at least one operand must be a scalar type");
    }
    if (!sig) {
        std::string why = "the operands must have the same type";
        if (infos[0].type == infos[1].type || infos[0].type->is_array() ||
            infos[1].type->is_array())
            why = "the operator does not apply to these types";
        if (op_name == "matmul") why = "'@' multiplies vectors and matrices";
        if (op_name == "pow") why = "'**' needs floating-point operands";
        if (op_name == "lshift" || op_name == "rshift") why = "shifts need integer operands";
        type_error(at.span, std::string("operator '") + op_text + "': unsupported operand types " +
                                describe_args(infos) + " (" + why + ")");
    }
    VarId x = coerce(a, sig->params[0], ea);
    VarId y = coerce(b, sig->params[1], eb);
    return var_value(emit_call(at.span.line, sig->ret, {x, y}, *builtin));
}

Value Builder::eval_unary(const ast::Expr& e) {
    int line = e.span.line;
    if (e.unary_op == ast::UnaryOpKind::Not) {
        Value operand = eval(*e.args[0]);
        if (auto truth = constant_truth(operand)) return bool_constant(!*truth);
        VarId c = condition_of(operand, *e.args[0]);
        return Value{Value::Kind::Var,
                     emit_value(InstrKind::Logical, line, types::bool_type(), {c}, "!")};
    }
    Value a = eval(*e.args[0]);
    if (a.kind == Value::Kind::Const && e.unary_op != ast::UnaryOpKind::Invert) {
        if (a.constant.type->is_bool())
            type_error(e.span,
                       who() + "unary '" + ast::op_text(e.unary_op) + "' does not apply to bool");
        Value r = a;
        if (e.unary_op == ast::UnaryOpKind::Neg) {
            r.constant.i = (int64_t)(0 - (uint64_t)r.constant.i);  // wraps, no UB
            r.constant.f = -r.constant.f;
        }
        return r;
    }
    const Builtin* b = find_syntax_operator(ast::op_text(e.unary_op), 1);
    ArgInfo ai = arg_info(a, *e.args[0]);
    auto sig = b->rule({ai});
    if (!sig)
        type_error(e.span, std::string("operator '") + ast::op_text(e.unary_op) +
                               "': not defined for " + describe_args({ai}));
    VarId x = coerce(a, sig->params[0], *e.args[0]);
    return Value{Value::Kind::Var, emit_call(line, sig->ret, {x}, *b)};
}

Value Builder::eval_bool_op(const ast::Expr& e) {
    const int line = e.span.line;
    const bool is_and = e.bool_op == ast::BoolOpKind::And;
    const size_t n = e.args.size();
    // Leading constant operands decide at compile time or drop out.
    size_t i = 0;
    Value first = eval(*e.args[0]);
    while (auto truth = constant_truth(first)) {
        if (*truth != is_and || i + 1 == n) return bool_constant(*truth);
        first = eval(*e.args[++i]);
    }
    VarId c = condition_of(first, *e.args[i]);
    if (i + 1 == n) return var_value(c);
    // r holds the result so far; each later operand is evaluated only while r leaves the
    // result open (true for `and`, false for `or`), under an If on a snapshot of r.
    VarId r = m_fn.new_var(types::bool_type(), "", true);
    emit(InstrKind::Assign, line).dsts = {r};
    m_block->back().args = {c};
    ir::Block* parent = m_block;
    for (++i; i < n; ++i) {
        VarId so_far = emit_value(InstrKind::Copy, line, types::bool_type(), {r});
        ir::Instr& ifi = emit(InstrKind::If, line);
        ifi.args = {so_far};
        m_block = is_and ? &ifi.body : &ifi.orelse;
        VarId next = condition(*e.args[i]);
        emit(InstrKind::Assign, line).dsts = {r};
        m_block->back().args = {next};
        m_block = parent;
    }
    return var_value(emit_value(InstrKind::Copy, line, types::bool_type(), {r}));
}

Value Builder::eval_compare(const ast::Expr& e) {
    int line = e.span.line;
    Value left = eval(*e.args[0]);
    VarId acc = 0;
    for (size_t i = 0; i < e.cmp_ops.size(); ++i) {
        const ast::Expr& le = *e.args[i];
        const ast::Expr& re = *e.args[i + 1];
        Value right = eval(re);
        const char* op = cmp_c_op(e.cmp_ops[i]);
        if (!op)
            type_error(e.span, who() + "operator '" + ast::op_text(e.cmp_ops[i]) +
                                   "' is not supported in kernels");
        std::vector<ArgInfo> infos{arg_info(left, le), arg_info(right, re)};
        auto sig = find_operator("compare")->rule(infos);
        if (!sig)
            type_error(e.span, std::string("operator '") + op + "': cannot compare " +
                                   describe_args(infos));
        bool equality = std::string(op) == "==" || std::string(op) == "!=";
        if (!equality && !sig->params[0]->is_scalar())
            type_error(e.span, std::string("operator '") + op + "': cannot order " +
                                   describe_args(infos) + " (only == and != compare " +
                                   sig->params[0]->name + " values)");
        VarId a = coerce(left, sig->params[0], le);
        VarId b = coerce(right, sig->params[1], re);
        VarId r = emit_value(InstrKind::Compare, line, types::bool_type(), {a, b}, op);
        acc = i == 0 ? r : emit_value(InstrKind::Logical, line, types::bool_type(), {acc, r}, "&&");
        left = right;
    }
    return Value{Value::Kind::Var, acc};
}

const char* operator_text(const std::string& name) {
    const Builtin* b = find_operator(name);
    return b && b->kind == BuiltinKind::Operator && b->traits.callable ? b->traits.op : nullptr;
}

}  // namespace treadle::sema
