// src/frontend/parser_expr.cpp -- expression parsing, from the ternary down to atoms
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

/// The precedence level of a binary operator token, from 1 (|) to 6 (* / // % @); 0 when
/// `tok` is not a binary operator.
int binary_level(const Token& tok, ast::BinOpKind& kind) {
    struct BinaryOp {
        const char* text;
        ast::BinOpKind kind;
        int level;
    };
    static const BinaryOp k_ops[] = {
        {"|", ast::BinOpKind::BitOr, 1},   {"^", ast::BinOpKind::BitXor, 2},
        {"&", ast::BinOpKind::BitAnd, 3},  {"<<", ast::BinOpKind::LShift, 4},
        {">>", ast::BinOpKind::RShift, 4}, {"+", ast::BinOpKind::Add, 5},
        {"-", ast::BinOpKind::Sub, 5},     {"*", ast::BinOpKind::Mul, 6},
        {"/", ast::BinOpKind::Div, 6},     {"//", ast::BinOpKind::FloorDiv, 6},
        {"%", ast::BinOpKind::Mod, 6},     {"@", ast::BinOpKind::MatMul, 6},
    };
    if (tok.kind != TokenKind::Op) return 0;
    for (const BinaryOp& op : k_ops) {
        if (tok.text == op.text) {
            kind = op.kind;
            return op.level;
        }
    }
    return 0;
}

}  // namespace

bool Parser::starts_expression(const Token& tok) {
    switch (tok.kind) {
        case TokenKind::Number:
        case TokenKind::String:
            return true;
        case TokenKind::Name:
            return !is_keyword(tok.text) || tok.text == "True" || tok.text == "False" ||
                   tok.text == "None" || tok.text == "not" || tok.text == "lambda" ||
                   tok.text == "await" || tok.text == "yield";
        case TokenKind::Op:
            return tok.text == "(" || tok.text == "[" || tok.text == "{" || tok.text == "-" ||
                   tok.text == "+" || tok.text == "~" || tok.text == "*" || tok.text == "...";
        default:
            return false;
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
    ExprPtr first = parse_binary(1);
    if (!at_op(",")) return first;
    ExprPtr tuple = make_expr(ExprKind::Tuple, start);
    tuple->args.push_back(std::move(first));
    while (accept_op(",")) {
        if (!starts_expression(peek())) break;
        tuple->args.push_back(parse_binary(1));
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
    const Span start = skip();
    DepthGuard guard(*this, start);
    ExprPtr e = make_expr(ExprKind::UnaryOp, start);
    e->unary_op = ast::UnaryOpKind::Not;
    e->args.push_back(parse_inversion());
    e->span = span_from(start);
    return e;
}

ExprPtr Parser::parse_comparison() {
    static const std::pair<const char*, ast::CmpOpKind> k_cmp_ops[] = {
        {"==", ast::CmpOpKind::Eq},  {"!=", ast::CmpOpKind::NotEq}, {"<", ast::CmpOpKind::Lt},
        {"<=", ast::CmpOpKind::LtE}, {">", ast::CmpOpKind::Gt},     {">=", ast::CmpOpKind::GtE},
    };
    const Span start = peek().span;
    ExprPtr first = parse_binary(1);
    ExprPtr cmp;
    for (;;) {
        std::optional<ast::CmpOpKind> op;
        for (const auto& [text, kind] : k_cmp_ops)
            if (at_op(text)) op = kind;
        if (op) {
            skip();
        } else if (at_keyword("in")) {
            skip();
            op = ast::CmpOpKind::In;
        } else if (at_keyword("not") && at_keyword("in", 1)) {
            skip();
            skip();
            op = ast::CmpOpKind::NotIn;
        } else if (at_keyword("is")) {
            skip();
            op = accept_keyword("not") ? ast::CmpOpKind::IsNot : ast::CmpOpKind::Is;
        } else {
            break;
        }
        if (!cmp) {
            cmp = make_expr(ExprKind::Compare, start);
            cmp->args.push_back(std::move(first));
        }
        cmp->cmp_ops.push_back(*op);
        cmp->args.push_back(parse_binary(1));
    }
    if (!cmp) return first;
    cmp->span = span_from(start);
    return cmp;
}

ExprPtr Parser::parse_binary(int min_level) {
    const Span start = peek().span;
    ExprPtr left = parse_factor();
    std::optional<DepthGuard> guard;  // a left-associative chain deepens the tree
    for (;;) {
        ast::BinOpKind kind = ast::BinOpKind::Add;
        const int level = binary_level(peek(), kind);
        if (level == 0 || level < min_level) break;
        if (guard) {
            guard->bump(peek().span);
        } else {
            guard.emplace(*this, peek().span);
        }
        skip();
        ExprPtr e = make_expr(ExprKind::BinOp, start);
        e->bin_op = kind;
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
    const Span start = skip();
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
    DepthGuard guard(*this, skip());
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
        skip();
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
        if (tok.is_op("**")) fail(arg_start, "argument unpacking with '**' is not supported");
        if (tok.is_op("*")) {
            skip();  // '*'
            ExprPtr starred = make_expr(ExprKind::Starred, arg_start);
            starred->args.push_back(parse_expression());
            starred->span = span_from(arg_start);
            call.args.push_back(std::move(starred));
            if (!accept_op(",")) break;
            continue;
        }
        if (tok.kind == TokenKind::Name && !is_keyword(tok.text) && peek(1).is_op("=")) {
            ast::Keyword kw;
            kw.name = take().text;
            skip();  // '='
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
    skip();  // ':'
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
    // Only the bracketed forms recurse; everything else is in parse_leaf, keeping this frame
    // (which is on the stack once per nesting level) small.
    if (at_op("(")) return parse_paren();
    if (at_op("[")) return parse_list();
    return parse_leaf();
}

ExprPtr Parser::parse_leaf() {
    const Token& tok = peek();
    const Span span = tok.span;
    if (tok.kind == TokenKind::String) return parse_strings();
    if (tok.kind == TokenKind::Number) {
        ExprPtr e = make_expr(ExprKind::Constant, span);
        e->const_kind = tok.is_float ? ast::ConstKind::Float : ast::ConstKind::Int;
        e->int_value = tok.int_value;
        e->float_value = tok.float_value;
        skip();
        return e;
    }
    if (tok.kind == TokenKind::Name && !is_keyword(tok.text)) {
        ExprPtr e = make_expr(ExprKind::Name, span);
        e->name = tok.text;
        skip();
        return e;
    }
    if (tok.is_keyword("True") || tok.is_keyword("False") || tok.is_keyword("None")) {
        ExprPtr e = make_expr(ExprKind::Constant, span);
        e->const_kind = tok.text == "None" ? ast::ConstKind::None : ast::ConstKind::Bool;
        e->int_value = tok.text == "True" ? 1 : 0;
        skip();
        return e;
    }
    if (tok.is_keyword("lambda")) fail(span, "lambda expressions are not supported");
    if (tok.is_keyword("yield") || tok.is_keyword("await"))
        fail(span, "'" + tok.text + "' is not supported");
    if (tok.is_op("{")) return parse_display();
    if (tok.is_op("...")) {
        ExprPtr e = make_expr(ExprKind::Constant, span);
        e->const_kind = ast::ConstKind::Ellipsis;
        skip();
        return e;
    }
    if (tok.is_op("*")) fail(span, "starred expressions are not supported");
    fail_unexpected(tok);
}

ExprPtr Parser::parse_strings() {
    const Span start = peek().span;
    const bool bytes = peek().is_bytes;
    ExprPtr e = make_expr(ExprKind::Constant, start);
    e->const_kind = ast::ConstKind::Str;
    while (peek().kind == TokenKind::String) {
        if (peek().is_bytes != bytes) fail(start, "cannot mix bytes and nonbytes literals");
        e->str_value += peek().text;
        skip();
    }
    e->span = span_from(start);
    return e;
}

ExprPtr Parser::parse_paren() {
    const Span start = skip();  // '('
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
    const Span start = skip();  // '['
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

ExprPtr Parser::parse_display() {
    const Span start = skip();  // '{'
    ExprPtr display = make_expr(ExprKind::List, start);
    display->name = "{}";
    while (!at_op("}")) {
        const Span item_start = peek().span;
        if (at_op("**") || at_op("*")) fail(item_start, "unpacking in a display is not supported");
        display->args.push_back(parse_expression());
        if (accept_op(":")) display->args.push_back(parse_expression());
        if (at_keyword("for")) fail(peek().span, "comprehensions are not supported");
        if (!accept_op(",")) {
            check_missing_comma(item_start);
            break;
        }
    }
    if (!accept_op("}")) fail_unexpected(peek());
    display->span = span_from(start);
    return display;
}

}  // namespace treadle::frontend::detail
