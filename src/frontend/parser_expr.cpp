// src/frontend/parser_expr.cpp -- expression parsing, one function per precedence level
#include <optional>
#include <utility>

#include "frontend/parser_internal.h"

namespace treadle::frontend::detail {

using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;
using ast::Span;

namespace {

ExprPtr make_expr(ExprKind kind, const Span& span) { return std::make_unique<Expr>(kind, span); }

struct BinaryOp {
    const char* text;
    ast::BinOpKind kind;
};

/// Binary operator levels from loosest (|) to tightest (* / // % @).
const std::vector<BinaryOp> k_binary_levels[] = {
    {{"|", ast::BinOpKind::BitOr}},
    {{"^", ast::BinOpKind::BitXor}},
    {{"&", ast::BinOpKind::BitAnd}},
    {{"<<", ast::BinOpKind::LShift}, {">>", ast::BinOpKind::RShift}},
    {{"+", ast::BinOpKind::Add}, {"-", ast::BinOpKind::Sub}},
    {{"*", ast::BinOpKind::Mul},
     {"/", ast::BinOpKind::Div},
     {"//", ast::BinOpKind::FloorDiv},
     {"%", ast::BinOpKind::Mod},
     {"@", ast::BinOpKind::MatMul}},
};
constexpr int k_num_binary_levels = (int)(sizeof k_binary_levels / sizeof k_binary_levels[0]);

}  // namespace

bool Parser::starts_expression(const Token& tok) {
    switch (tok.kind) {
        case TokenKind::Number:
        case TokenKind::String: return true;
        case TokenKind::Name:
            return !is_keyword(tok.text) || tok.text == "True" || tok.text == "False" ||
                   tok.text == "None" || tok.text == "not" || tok.text == "lambda" ||
                   tok.text == "await" || tok.text == "yield";
        case TokenKind::Op:
            return tok.text == "(" || tok.text == "[" || tok.text == "{" || tok.text == "-" ||
                   tok.text == "+" || tok.text == "~" || tok.text == "*" || tok.text == "...";
        default: return false;
    }
}

void Parser::check_missing_comma(const Span& element) {
    if (starts_expression(peek()))
        fail_generic(element, "invalid syntax. Perhaps you forgot a comma?");
}

ExprPtr Parser::parse_star_expressions() {
    const Span start = peek().span;
    ExprPtr first = parse_expression();
    if (!at_op(",")) return first;
    ExprPtr tuple = make_expr(ExprKind::Tuple, start);
    tuple->args.push_back(std::move(first));
    while (accept_op(",")) {
        if (!starts_expression(peek())) break;
        tuple->args.push_back(parse_expression());
    }
    tuple->span = span_from(start);
    return tuple;
}

ExprPtr Parser::parse_target_list() {
    const Span start = peek().span;
    ExprPtr first = parse_binary(0);
    if (!at_op(",")) return first;
    ExprPtr tuple = make_expr(ExprKind::Tuple, start);
    tuple->args.push_back(std::move(first));
    while (accept_op(",")) {
        if (!starts_expression(peek())) break;
        tuple->args.push_back(parse_binary(0));
    }
    tuple->span = span_from(start);
    return tuple;
}

ExprPtr Parser::parse_expression() {
    const Token& tok = peek();
    const Span start = tok.span;
    DepthGuard guard(*this, start);
    if (tok.is_keyword("lambda")) fail(start, "lambda expressions are not supported");
    ExprPtr body = parse_disjunction();
    if (!accept_keyword("if")) return body;
    ExprPtr test = parse_disjunction();
    if (!accept_keyword("else")) fail(peek().span, "expected 'else' after 'if' expression");
    ExprPtr orelse = parse_expression();
    ExprPtr e = make_expr(ExprKind::IfExp, start);
    e->args.push_back(std::move(test));
    e->args.push_back(std::move(body));
    e->args.push_back(std::move(orelse));
    e->span = span_from(start);
    return e;
}

ExprPtr Parser::parse_disjunction() {
    const Span start = peek().span;
    ExprPtr first = parse_conjunction();
    if (!at_keyword("or")) return first;
    ExprPtr e = make_expr(ExprKind::BoolOp, start);
    e->bool_op = ast::BoolOpKind::Or;
    e->args.push_back(std::move(first));
    while (accept_keyword("or")) e->args.push_back(parse_conjunction());
    e->span = span_from(start);
    return e;
}

ExprPtr Parser::parse_conjunction() {
    const Span start = peek().span;
    ExprPtr first = parse_inversion();
    if (!at_keyword("and")) return first;
    ExprPtr e = make_expr(ExprKind::BoolOp, start);
    e->bool_op = ast::BoolOpKind::And;
    e->args.push_back(std::move(first));
    while (accept_keyword("and")) e->args.push_back(parse_inversion());
    e->span = span_from(start);
    return e;
}

ExprPtr Parser::parse_inversion() {
    if (!at_keyword("not")) return parse_comparison();
    const Span start = take().span;
    DepthGuard guard(*this, start);
    ExprPtr e = make_expr(ExprKind::UnaryOp, start);
    e->unary_op = ast::UnaryOpKind::Not;
    e->args.push_back(parse_inversion());
    e->span = span_from(start);
    return e;
}

ExprPtr Parser::parse_comparison() {
    static const std::pair<const char*, ast::CmpOpKind> k_cmp_ops[] = {
        {"==", ast::CmpOpKind::Eq}, {"!=", ast::CmpOpKind::NotEq}, {"<", ast::CmpOpKind::Lt},
        {"<=", ast::CmpOpKind::LtE}, {">", ast::CmpOpKind::Gt},    {">=", ast::CmpOpKind::GtE},
    };
    const Span start = peek().span;
    ExprPtr first = parse_binary(0);
    ExprPtr cmp;
    for (;;) {
        std::optional<ast::CmpOpKind> op;
        for (const auto& [text, kind] : k_cmp_ops)
            if (at_op(text)) op = kind;
        if (op) {
            take();
        } else if (at_keyword("in")) {
            take();
            op = ast::CmpOpKind::In;
        } else if (at_keyword("not") && at_keyword("in", 1)) {
            take();
            take();
            op = ast::CmpOpKind::NotIn;
        } else if (at_keyword("is")) {
            take();
            op = accept_keyword("not") ? ast::CmpOpKind::IsNot : ast::CmpOpKind::Is;
        } else {
            break;
        }
        if (!cmp) {
            cmp = make_expr(ExprKind::Compare, start);
            cmp->args.push_back(std::move(first));
        }
        cmp->cmp_ops.push_back(*op);
        cmp->args.push_back(parse_binary(0));
    }
    if (!cmp) return first;
    cmp->span = span_from(start);
    return cmp;
}

ExprPtr Parser::parse_binary(int level) {
    if (level == k_num_binary_levels) return parse_factor();
    const Span start = peek().span;
    ExprPtr left = parse_binary(level + 1);
    std::optional<DepthGuard> guard;  // a left-associative chain deepens the tree
    for (;;) {
        const Token& tok = peek();
        if (tok.kind != TokenKind::Op) break;
        const BinaryOp* found = nullptr;
        for (const BinaryOp& op : k_binary_levels[level])
            if (tok.text == op.text) found = &op;
        if (!found) break;
        if (guard) {
            guard->bump(tok.span);
        } else {
            guard.emplace(*this, tok.span);
        }
        take();
        ExprPtr e = make_expr(ExprKind::BinOp, start);
        e->bin_op = found->kind;
        e->args.push_back(std::move(left));
        e->args.push_back(parse_binary(level + 1));
        e->span = span_from(start);
        left = std::move(e);
    }
    return left;
}

ExprPtr Parser::parse_factor() {
    const Token& tok = peek();
    ast::UnaryOpKind op;
    if (tok.is_op("-")) {
        op = ast::UnaryOpKind::Neg;
    } else if (tok.is_op("+")) {
        op = ast::UnaryOpKind::Pos;
    } else if (tok.is_op("~")) {
        op = ast::UnaryOpKind::Invert;
    } else {
        return parse_power();
    }
    const Span start = take().span;
    DepthGuard guard(*this, start);
    ExprPtr e = make_expr(ExprKind::UnaryOp, start);
    e->unary_op = op;
    e->args.push_back(parse_factor());
    e->span = span_from(start);
    return e;
}

ExprPtr Parser::parse_power() {
    const Span start = peek().span;
    ExprPtr base = parse_primary();
    if (!at_op("**")) return base;
    DepthGuard guard(*this, take().span);
    ExprPtr e = make_expr(ExprKind::BinOp, start);
    e->bin_op = ast::BinOpKind::Pow;
    e->args.push_back(std::move(base));
    e->args.push_back(parse_factor());  // right-associative; allows 2**-1
    e->span = span_from(start);
    return e;
}

ExprPtr Parser::parse_primary() {
    const Span start = peek().span;
    ExprPtr e = parse_atom();
    std::optional<DepthGuard> guard;  // each postfix operation deepens the tree
    for (;;) {
        const Token& tok = peek();
        ExprKind kind;
        if (tok.is_op(".")) {
            kind = ExprKind::Attribute;
        } else if (tok.is_op("(")) {
            kind = ExprKind::Call;
        } else if (tok.is_op("[")) {
            kind = ExprKind::Subscript;
        } else {
            break;
        }
        if (guard) {
            guard->bump(tok.span);
        } else {
            guard.emplace(*this, tok.span);
        }
        take();
        ExprPtr outer = make_expr(kind, start);
        outer->args.push_back(std::move(e));
        if (kind == ExprKind::Attribute) {
            outer->name = expect_name().text;
        } else if (kind == ExprKind::Call) {
            parse_call_args(*outer);
        } else {
            outer->args.push_back(parse_subscript_index());
            if (!accept_op("]")) fail_unexpected(peek());
        }
        outer->span = span_from(start);
        e = std::move(outer);
    }
    return e;
}

void Parser::parse_call_args(Expr& call) {
    while (!at_op(")")) {
        const Token& tok = peek();
        const Span arg_start = tok.span;
        if (tok.is_op("*") || tok.is_op("**"))
            fail(arg_start, "argument unpacking with '*' or '**' is not supported");
        if (tok.kind == TokenKind::Name && !is_keyword(tok.text) && peek(1).is_op("=")) {
            ast::Keyword kw;
            kw.name = take().text;
            take();  // '='
            for (const ast::Keyword& other : call.keywords)
                if (other.name == kw.name) fail(arg_start, "keyword argument repeated: " + kw.name);
            kw.value = parse_expression();
            kw.span = span_from(arg_start);
            call.keywords.push_back(std::move(kw));
        } else {
            ExprPtr arg = parse_expression();
            if (at_keyword("for")) fail(peek().span, "generator expressions are not supported");
            if (at_op("="))
                fail(span_from(arg_start),
                     "expression cannot contain assignment, perhaps you meant \"==\"?");
            if (!call.keywords.empty())
                fail(span_from(arg_start), "positional argument follows keyword argument");
            call.args.push_back(std::move(arg));
        }
        if (!accept_op(",")) {
            check_missing_comma(arg_start);
            break;
        }
    }
    if (!accept_op(")")) fail_unexpected(peek());
}

ExprPtr Parser::parse_subscript_index() {
    const Span start = peek().span;
    ExprPtr first = parse_slice_item();
    if (!at_op(",")) {
        check_missing_comma(start);
        return first;
    }
    ExprPtr tuple = make_expr(ExprKind::Tuple, start);
    tuple->args.push_back(std::move(first));
    while (accept_op(",")) {
        if (at_op("]")) break;
        const Span item_start = peek().span;
        tuple->args.push_back(parse_slice_item());
        if (!at_op(",")) check_missing_comma(item_start);
    }
    tuple->span = span_from(start);
    return tuple;
}

ExprPtr Parser::parse_slice_item() {
    const Span start = peek().span;
    ExprPtr lower;
    if (!at_op(":")) {
        lower = parse_expression();
        if (!at_op(":")) return lower;
    }
    take();  // ':'
    ExprPtr e = make_expr(ExprKind::Slice, start);
    e->args.push_back(std::move(lower));
    e->args.push_back(starts_expression(peek()) ? parse_expression() : nullptr);
    ExprPtr step;
    if (accept_op(":") && starts_expression(peek())) step = parse_expression();
    e->args.push_back(std::move(step));
    e->span = span_from(start);
    return e;
}

ExprPtr Parser::parse_atom() {
    const Token& tok = peek();
    const Span span = tok.span;
    switch (tok.kind) {
        case TokenKind::Name: {
            if (!is_keyword(tok.text)) {
                ExprPtr e = make_expr(ExprKind::Name, span);
                e->name = take().text;
                return e;
            }
            if (tok.text == "True" || tok.text == "False" || tok.text == "None") {
                ExprPtr e = make_expr(ExprKind::Constant, span);
                e->const_kind = tok.text == "None" ? ast::ConstKind::None : ast::ConstKind::Bool;
                e->int_value = tok.text == "True" ? 1 : 0;
                take();
                return e;
            }
            if (tok.text == "lambda") fail(span, "lambda expressions are not supported");
            if (tok.text == "yield" || tok.text == "await")
                fail(span, "'" + tok.text + "' is not supported");
            fail_unexpected(tok);
        }
        case TokenKind::Number: {
            ExprPtr e = make_expr(ExprKind::Constant, span);
            Token num = take();
            e->const_kind = num.is_float ? ast::ConstKind::Float : ast::ConstKind::Int;
            e->int_value = num.int_value;
            e->float_value = num.float_value;
            return e;
        }
        case TokenKind::String: return parse_strings();
        case TokenKind::Op:
            if (tok.text == "(") return parse_paren();
            if (tok.text == "[") return parse_list();
            if (tok.text == "{") fail(span, "dict and set displays are not supported");
            if (tok.text == "...") fail(span, "'...' (Ellipsis) is not supported");
            if (tok.text == "*") fail(span, "starred expressions are not supported");
            fail_unexpected(tok);
        default: fail_unexpected(tok);
    }
}

ExprPtr Parser::parse_strings() {
    Token first = take();
    ExprPtr e = make_expr(ExprKind::Constant, first.span);
    e->const_kind = ast::ConstKind::Str;
    e->str_value = std::move(first.text);
    while (peek().kind == TokenKind::String) {
        Token next = take();
        if (next.is_bytes != first.is_bytes)
            fail(first.span, "cannot mix bytes and nonbytes literals");
        e->str_value += next.text;
    }
    e->span = span_from(first.span);
    return e;
}

ExprPtr Parser::parse_paren() {
    const Span start = take().span;  // '('
    if (accept_op(")")) return make_expr(ExprKind::Tuple, span_from(start));
    const Span first_start = peek().span;
    ExprPtr first = parse_expression();
    if (at_keyword("for")) fail(peek().span, "generator expressions are not supported");
    if (at_op(":=")) fail(peek().span, "assignment expressions (':=') are not supported");
    if (accept_op(")")) return first;  // a parenthesised expression keeps its own span
    if (!at_op(",")) {
        check_missing_comma(first_start);
        fail_unexpected(peek());
    }
    ExprPtr tuple = make_expr(ExprKind::Tuple, start);
    tuple->args.push_back(std::move(first));
    while (accept_op(",")) {
        if (at_op(")")) break;
        const Span item_start = peek().span;
        tuple->args.push_back(parse_expression());
        if (!at_op(",")) check_missing_comma(item_start);
    }
    if (!accept_op(")")) fail_unexpected(peek());
    tuple->span = span_from(start);
    return tuple;
}

ExprPtr Parser::parse_list() {
    const Span start = take().span;  // '['
    ExprPtr list = make_expr(ExprKind::List, start);
    while (!at_op("]")) {
        const Span item_start = peek().span;
        list->args.push_back(parse_expression());
        if (at_keyword("for")) fail(peek().span, "list comprehensions are not supported");
        if (!accept_op(",")) {
            check_missing_comma(item_start);
            break;
        }
    }
    if (!accept_op("]")) fail_unexpected(peek());
    list->span = span_from(start);
    return list;
}

}  // namespace treadle::frontend::detail
