// src/frontend/parser.cpp -- parser entry points, token stream and error helpers
/*
 * The frontend turns kernel source text into the AST of ast.h in two layers:
 *
 *   Lexer (lexer.h)      text -> tokens, on demand, with INDENT/DEDENT and bracket tracking.
 *   Parser (parser_internal.h), a recursive-descent parser split over three files:
 *     parser.cpp         entry points (parse_module, parse_function), token helpers, errors;
 *     parser_stmt.cpp    statements: parse_statement is the dispatcher, start reading there;
 *     parser_expr.cpp    expressions, one function per Python precedence level from
 *                        parse_expression (ternary) down to parse_atom, except that all
 *                        binary operators share parse_binary (precedence climbing).
 *
 * Spans: every node starts at its first token and ends after its last real token
 * (m_prev_end_*), so a parenthesised operand widens the node that contains it, while a
 * parenthesised expression keeps the span of its content (as in Python's ast).
 * Robustness: the lexer caps bracket nesting (200) and indentation depth (100); DepthGuard
 * caps expression recursion and operator/postfix chain length (k_max_depth), which bounds
 * both the parser's stack and the depth of the tree; hostile input throws treadle::Error.
 * The functions on the recursive path keep their frames small (about 2 KB per bracket
 * level), so the worst case stays well under 1 MB of stack.
 */
#include "frontend/parser.h"

#include "frontend/parser_internal.h"

namespace treadle::frontend {

namespace detail {

Parser::Parser(std::shared_ptr<const ast::SourceFile> src, bool function_mode)
    : m_src(std::move(src)), m_lexer(*m_src, function_mode) {}

void Parser::fail(const ast::Span& at, const std::string& message) {
    throw Error(ErrorKind::Syntax, message, ast::location(*m_src, at));
}

void Parser::DepthGuard::bump(const ast::Span& at) {
    ++m_units;
    if (++m_parser.m_depth > k_max_depth) m_parser.fail(at, "expression is too deeply nested");
}

const Token& Parser::peek(size_t ahead) {
    while (m_ahead.size() <= ahead) m_ahead.push_back(m_lexer.next());
    return m_ahead[ahead];
}

Token Parser::take() {
    peek();
    Token tok = std::move(m_ahead.front());
    m_ahead.pop_front();
    if (tok.kind != TokenKind::Newline && tok.kind != TokenKind::Indent &&
        tok.kind != TokenKind::Dedent && tok.kind != TokenKind::EndMarker) {
        m_prev_end_line = tok.span.end_line;
        m_prev_end_col = tok.span.end_col;
    }
    return tok;
}

ast::Span Parser::skip() { return take().span; }

bool Parser::accept_op(std::string_view op) {
    if (!at_op(op)) return false;
    skip();
    return true;
}

bool Parser::accept_keyword(std::string_view kw) {
    if (!at_keyword(kw)) return false;
    skip();
    return true;
}

void Parser::expect_op(std::string_view op, const std::string& message) {
    if (!accept_op(op)) fail(peek().span, message);
}

Token Parser::expect_name() {
    const Token& tok = peek();
    if (tok.kind != TokenKind::Name || is_keyword(tok.text)) fail_unexpected(tok);
    return take();
}

ast::Span Parser::span_from(const ast::Span& first) const {
    return ast::Span{first.line, first.col, m_prev_end_line, m_prev_end_col};
}

void Parser::fail_unexpected(const Token& tok) {
    const Token copy = tok;  // `tok` may live in m_ahead
    if (copy.kind == TokenKind::Indent) fail(copy.span, "unexpected indent");
    if (copy.is_op(":=")) fail(copy.span, "assignment expressions (':=') are not supported");
    fail_generic(copy.span, "invalid syntax");
}

void Parser::fail_generic(const ast::Span& at, const std::string& message) {
    // The lexer always makes progress and ends with ENDMARKER forever, so this ends.
    while (m_lexer.next().kind != TokenKind::EndMarker) {
    }
    fail(at, message);
}

std::vector<ast::StmtPtr> Parser::parse_file() {
    std::vector<ast::StmtPtr> body;
    for (;;) {
        const Token& tok = peek();
        if (tok.kind == TokenKind::EndMarker) break;
        if (tok.kind == TokenKind::Newline) {
            skip();
            continue;
        }
        parse_statement(body);
    }
    return body;
}

namespace {

/// How Python names an expression that cannot be assigned to.
const char* describe(const ast::Expr& e) {
    switch (e.kind) {
        case ast::ExprKind::Constant:
            if (e.const_kind == ast::ConstKind::None) return "None";
            if (e.const_kind == ast::ConstKind::Bool) return e.int_value ? "True" : "False";
            return "literal";
        case ast::ExprKind::Call:
            return "function call";
        case ast::ExprKind::Compare:
            return "comparison";
        case ast::ExprKind::IfExp:
            return "conditional expression";
        case ast::ExprKind::Tuple:
            return "tuple";
        case ast::ExprKind::List:
            return e.name == "{}" ? "dict or set display" : "list";
        default:
            return "expression";
    }
}

}  // namespace

void check_target(Parser& parser, const ast::Expr& e, std::string_view kind) {
    using ast::ExprKind;
    bool simple =
        e.kind == ExprKind::Name || e.kind == ExprKind::Attribute || e.kind == ExprKind::Subscript;
    if (simple) return;
    if (kind == "aug") {
        parser.fail(e.span, std::string("'") + describe(e) +
                                "' is an illegal expression for augmented assignment");
    }
    if (kind == "ann") {
        if (e.kind == ExprKind::Tuple || e.kind == ExprKind::List)
            parser.fail(e.span, std::string("only single target (not ") + describe(e) +
                                    ") can be annotated");
        parser.fail(e.span, "illegal target for annotation");
    }
    if (e.kind == ExprKind::Tuple || (e.kind == ExprKind::List && e.name != "{}")) {
        for (const auto& element : e.args) check_target(parser, *element, kind);
        return;
    }
    parser.fail(e.span, std::string("cannot assign to ") + describe(e));
}

}  // namespace detail

std::unique_ptr<ast::Module> parse_module(std::shared_ptr<const ast::SourceFile> src) {
    auto module = std::make_unique<ast::Module>();
    module->source = src;
    detail::Parser parser(std::move(src), false);
    module->body = parser.parse_file();
    return module;
}

std::unique_ptr<ast::Module> parse_function(std::shared_ptr<const ast::SourceFile> src) {
    auto module = std::make_unique<ast::Module>();
    module->source = src;
    detail::Parser parser(src, true);
    module->body = parser.parse_file();
    if (module->body.empty()) {
        parser.fail(ast::Span{src->first_line, 1, src->first_line, 1},
                    "expected a function definition");
    }
    const ast::Stmt& first = *module->body[0];
    if (first.kind != ast::StmtKind::FunctionDef)
        parser.fail(first.span, "expected a function definition");
    if (module->body.size() > 1)
        parser.fail(module->body[1]->span, "expected a single function definition");
    return module;
}

}  // namespace treadle::frontend
