// src/frontend/parser_stmt.cpp -- statement parsing: defs, classes, control flow, assignments
#include <utility>

#include "frontend/parser_internal.h"

namespace treadle::frontend::detail {

using ast::ExprPtr;
using ast::Span;
using ast::Stmt;
using ast::StmtKind;
using ast::StmtPtr;

namespace {

/// Moves a leading string expression statement of a def/class body into `docstring`.
void take_docstring(Stmt& s) {
    if (s.body.empty()) return;
    Stmt& first = *s.body.front();
    if (first.kind != StmtKind::ExprStmt || first.value->kind != ast::ExprKind::Constant ||
        first.value->const_kind != ast::ConstKind::Str)
        return;
    s.docstring = std::move(first.value->str_value);
    s.body.erase(s.body.begin());
}

bool is_unsupported_statement(std::string_view kw) {
    return kw == "try" || kw == "with" || kw == "async" || kw == "raise" || kw == "del";
}

}  // namespace

void Parser::parse_statement(std::vector<StmtPtr>& out) {
    const Token& tok = peek();
    if (tok.kind == TokenKind::Indent) fail(tok.span, "unexpected indent");
    const Span start = tok.span;
    if (tok.is_op("@")) {
        out.push_back(parse_decorated());
    } else if (tok.is_keyword("def")) {
        out.push_back(parse_def(start, {}));
    } else if (tok.is_keyword("class")) {
        out.push_back(parse_class(start, {}));
    } else if (tok.is_keyword("if")) {
        out.push_back(parse_if());
    } else if (tok.is_keyword("for")) {
        out.push_back(parse_for());
    } else if (tok.is_keyword("while")) {
        out.push_back(parse_while());
    } else {
        parse_simple_statements(out);
    }
}

void Parser::parse_simple_statements(std::vector<StmtPtr>& out) {
    out.push_back(parse_simple_statement());
    while (accept_op(";")) {
        TokenKind next = peek().kind;
        if (next == TokenKind::Newline || next == TokenKind::EndMarker) break;
        out.push_back(parse_simple_statement());
    }
    const Token& end = peek();
    if (end.kind == TokenKind::Newline) {
        skip();
    } else if (end.kind != TokenKind::EndMarker) {
        fail_unexpected(end);
    }
}

StmtPtr Parser::parse_simple_statement() {
    const Token& tok = peek();
    if (tok.kind != TokenKind::Name || !is_keyword(tok.text)) return parse_expression_statement();
    const Span start = tok.span;
    const std::string kw = tok.text;
    if (kw == "import") return parse_import();
    if (kw == "from") return parse_from_import();
    if (is_unsupported_statement(kw)) fail(start, "'" + kw + "' statements are not supported");
    if (kw == "yield") fail(start, "'yield' is not supported");
    if (kw == "pass" || kw == "break" || kw == "continue") {
        skip();
        if (kw == "break" && m_loop_depth == 0) fail(start, "'break' outside loop");
        if (kw == "continue" && m_loop_depth == 0) fail(start, "'continue' not properly in loop");
        StmtKind kind = kw == "pass"    ? StmtKind::Pass
                        : kw == "break" ? StmtKind::Break
                                        : StmtKind::Continue;
        return std::make_unique<Stmt>(kind, span_from(start));
    }
    if (kw == "return") {
        skip();
        if (m_func_depth == 0) fail(start, "'return' outside function");
        auto s = std::make_unique<Stmt>(StmtKind::Return, start);
        if (starts_expression(peek())) s->value = parse_star_expressions();
        s->span = span_from(start);
        return s;
    }
    if (kw == "global" || kw == "nonlocal") {
        skip();
        if (kw == "nonlocal" && m_func_depth == 0)
            fail(start, "nonlocal declaration not allowed at module level");
        auto s =
            std::make_unique<Stmt>(kw == "global" ? StmtKind::Global : StmtKind::Nonlocal, start);
        do {
            s->imports.push_back(ast::ImportName{expect_name().text, ""});
        } while (accept_op(","));
        s->span = span_from(start);
        return s;
    }
    if (kw == "assert") {
        skip();
        auto s = std::make_unique<Stmt>(StmtKind::Assert, start);
        s->test = parse_expression();
        if (accept_op(",")) s->value = parse_expression();
        s->span = span_from(start);
        return s;
    }
    return parse_expression_statement();
}

StmtPtr Parser::parse_expression_statement() {
    static const std::pair<const char*, ast::BinOpKind> k_aug_ops[] = {
        {"+=", ast::BinOpKind::Add},       {"-=", ast::BinOpKind::Sub},
        {"*=", ast::BinOpKind::Mul},       {"/=", ast::BinOpKind::Div},
        {"//=", ast::BinOpKind::FloorDiv}, {"%=", ast::BinOpKind::Mod},
        {"**=", ast::BinOpKind::Pow},      {"@=", ast::BinOpKind::MatMul},
        {"<<=", ast::BinOpKind::LShift},   {">>=", ast::BinOpKind::RShift},
        {"|=", ast::BinOpKind::BitOr},     {"^=", ast::BinOpKind::BitXor},
        {"&=", ast::BinOpKind::BitAnd},
    };
    const Span start = peek().span;
    if (at_op("...") && peek(1).kind == TokenKind::Newline) {
        // A statement that is only `...` does nothing, as `pass` (the body of a declaration
        // such as @wp.overload); `...` as a value stays an error.
        skip();
        return std::make_unique<Stmt>(StmtKind::Pass, span_from(start));
    }
    ExprPtr first = parse_star_expressions();
    if (at_op(":")) {
        check_target(*this, *first, "ann");
        skip();
        auto s = std::make_unique<Stmt>(StmtKind::AnnAssign, start);
        s->annotation = parse_expression();
        if (accept_op("=")) s->value = parse_star_expressions();
        s->targets.push_back(std::move(first));
        s->span = span_from(start);
        return s;
    }
    for (const auto& [op, kind] : k_aug_ops) {
        if (!at_op(op)) continue;
        check_target(*this, *first, "aug");
        skip();
        auto s = std::make_unique<Stmt>(StmtKind::AugAssign, start);
        s->aug_op = kind;
        s->value = parse_star_expressions();
        s->targets.push_back(std::move(first));
        s->span = span_from(start);
        return s;
    }
    if (at_op("=")) {
        auto s = std::make_unique<Stmt>(StmtKind::Assign, start);
        check_target(*this, *first, "assign");
        s->targets.push_back(std::move(first));
        while (accept_op("=")) {
            ExprPtr value = parse_star_expressions();
            if (!at_op("=")) {
                s->value = std::move(value);
                break;
            }
            check_target(*this, *value, "assign");
            s->targets.push_back(std::move(value));
        }
        s->span = span_from(start);
        return s;
    }
    auto s = std::make_unique<Stmt>(StmtKind::ExprStmt, start);
    s->value = std::move(first);
    s->span = span_from(start);
    return s;
}

std::string Parser::parse_dotted_name() {
    std::string name = expect_name().text;
    while (accept_op(".")) name += "." + expect_name().text;
    return name;
}

StmtPtr Parser::parse_import() {
    const Span start = skip();
    auto s = std::make_unique<Stmt>(StmtKind::Import, start);
    do {
        ast::ImportName item;
        item.name = parse_dotted_name();
        if (accept_keyword("as")) item.asname = expect_name().text;
        s->imports.push_back(std::move(item));
    } while (accept_op(","));
    s->span = span_from(start);
    return s;
}

StmtPtr Parser::parse_from_import() {
    const Span start = skip();
    auto s = std::make_unique<Stmt>(StmtKind::ImportFrom, start);
    while (at_op(".") || at_op("...")) s->module += take().text;
    if (!at_keyword("import")) s->module += parse_dotted_name();
    if (!accept_keyword("import")) fail_unexpected(peek());
    if (accept_op("*")) {
        s->imports.push_back(ast::ImportName{"*", ""});
    } else {
        bool paren = accept_op("(");
        for (;;) {
            ast::ImportName item;
            item.name = expect_name().text;
            if (accept_keyword("as")) item.asname = expect_name().text;
            s->imports.push_back(std::move(item));
            if (!at_op(",")) break;
            const Span comma = skip();
            if (paren && at_op(")")) break;
            if (!paren && peek().kind != TokenKind::Name)
                fail(comma, "trailing comma not allowed without surrounding parentheses");
        }
        if (paren && !accept_op(")")) fail_unexpected(peek());
    }
    s->span = span_from(start);
    return s;
}

void Parser::expect_colon(bool condition) {
    if (accept_op(":")) return;
    if (condition && at_op("="))
        fail(peek().span, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
    fail(peek().span, "expected ':'");
}

std::vector<StmtPtr> Parser::parse_block(const std::string& what, int line) {
    std::vector<StmtPtr> body;
    if (peek().kind != TokenKind::Newline) {
        parse_simple_statements(body);
        return body;
    }
    skip();
    if (peek().kind != TokenKind::Indent) {
        fail(peek().span,
             "expected an indented block after " + what + " on line " + std::to_string(line));
    }
    skip();
    while (peek().kind != TokenKind::Dedent && peek().kind != TokenKind::EndMarker)
        parse_statement(body);
    if (peek().kind == TokenKind::Dedent) take();
    return body;
}

StmtPtr Parser::parse_decorated() {
    const Span start = peek().span;
    std::vector<ExprPtr> decorators;
    while (accept_op("@")) {
        decorators.push_back(parse_expression());
        if (peek().kind != TokenKind::Newline) fail_unexpected(peek());
        skip();
    }
    const Token& tok = peek();
    if (tok.is_keyword("def")) return parse_def(start, std::move(decorators));
    if (tok.is_keyword("class")) return parse_class(start, std::move(decorators));
    fail_unexpected(tok);
}

StmtPtr Parser::parse_def(const Span& start, std::vector<ExprPtr> decorators) {
    const int line = skip().line;  // 'def'
    auto s = std::make_unique<Stmt>(StmtKind::FunctionDef, start);
    s->decorators = std::move(decorators);
    s->name = expect_name().text;
    expect_op("(", "expected '('");
    parse_params(*s);
    if (accept_op("->")) s->returns = parse_expression();
    expect_colon(false);
    const int saved_func = m_func_depth, saved_loop = m_loop_depth;
    ++m_func_depth;
    m_loop_depth = 0;
    s->body = parse_block("function definition", line);
    m_func_depth = saved_func;
    m_loop_depth = saved_loop;
    take_docstring(*s);
    s->span = span_from(start);
    return s;
}

void Parser::parse_params(Stmt& def) {
    bool seen_default = false;
    while (!at_op(")")) {
        const Token& tok = peek();
        if (tok.is_op("*") || tok.is_op("**") || tok.is_op("/"))
            fail(tok.span, "'" + tok.text + "' in parameter lists is not supported");
        const Span start = tok.span;
        ast::Param param;
        param.name = expect_name().text;
        for (const ast::Param& other : def.params)
            if (other.name == param.name)
                fail(start, "duplicate argument '" + param.name + "' in function definition");
        if (accept_op(":")) param.annotation = parse_expression();
        if (accept_op("=")) {
            param.default_value = parse_expression();
            seen_default = true;
        } else if (seen_default) {
            fail(start, "parameter without a default follows parameter with a default");
        }
        param.span = span_from(start);
        def.params.push_back(std::move(param));
        if (!accept_op(",")) break;
    }
    if (!accept_op(")")) fail_unexpected(peek());
}

StmtPtr Parser::parse_class(const Span& start, std::vector<ExprPtr> decorators) {
    const int line = skip().line;  // 'class'
    auto s = std::make_unique<Stmt>(StmtKind::ClassDef, start);
    s->decorators = std::move(decorators);
    s->name = expect_name().text;
    if (accept_op("(")) {
        while (!at_op(")")) {
            const Token& tok = peek();
            if (tok.is_op("*") || tok.is_op("**"))
                fail(tok.span, "argument unpacking with '*' or '**' is not supported");
            if (tok.kind == TokenKind::Name && !is_keyword(tok.text) && peek(1).is_op("="))
                fail(tok.span, "keyword arguments in class bases are not supported");
            const Span base_start = tok.span;
            s->targets.push_back(parse_expression());
            if (!accept_op(",")) {
                check_missing_comma(base_start);
                break;
            }
        }
        if (!accept_op(")")) fail_unexpected(peek());
    }
    expect_colon(false);
    const int saved_func = m_func_depth, saved_loop = m_loop_depth;
    m_func_depth = 0;
    m_loop_depth = 0;
    s->body = parse_block("class definition", line);
    m_func_depth = saved_func;
    m_loop_depth = saved_loop;
    take_docstring(*s);
    s->span = span_from(start);
    return s;
}

StmtPtr Parser::parse_if() {
    const Span start = skip();  // 'if'
    DepthGuard guard(*this, start);
    auto root = std::make_unique<Stmt>(StmtKind::If, start);
    root->test = parse_expression();
    expect_colon(true);
    root->body = parse_block("'if' statement", start.line);
    // elif chains are built iteratively: each elif is an If alone in its parent's orelse.
    std::vector<Stmt*> chain{root.get()};
    while (at_keyword("elif")) {
        const Span elif_start = skip();
        if (chain.size() > k_max_elifs) fail(elif_start, "too many 'elif' branches");
        guard.bump(elif_start);
        auto branch = std::make_unique<Stmt>(StmtKind::If, elif_start);
        branch->test = parse_expression();
        expect_colon(true);
        branch->body = parse_block("'elif' statement", elif_start.line);
        Stmt* next = branch.get();
        chain.back()->orelse.push_back(std::move(branch));
        chain.push_back(next);
    }
    chain.back()->orelse = parse_else();
    for (Stmt* s : chain) s->span = span_from(s->span);
    return root;
}

std::vector<StmtPtr> Parser::parse_loop_body(const std::string& what, int line) {
    ++m_loop_depth;
    std::vector<StmtPtr> body = parse_block(what, line);
    --m_loop_depth;
    return body;
}

std::vector<StmtPtr> Parser::parse_else() {
    if (!at_keyword("else")) return {};
    const Span start = skip();
    expect_colon(false);
    return parse_block("'else' statement", start.line);
}

StmtPtr Parser::parse_for() {
    const Span start = skip();  // 'for'
    auto s = std::make_unique<Stmt>(StmtKind::For, start);
    ExprPtr target = parse_target_list();
    check_target(*this, *target, "assign");
    s->targets.push_back(std::move(target));
    if (!accept_keyword("in")) fail(peek().span, "expected 'in'");
    s->value = parse_star_expressions();
    expect_colon(false);
    s->body = parse_loop_body("'for' statement", start.line);
    s->orelse = parse_else();
    s->span = span_from(start);
    return s;
}

StmtPtr Parser::parse_while() {
    const Span start = skip();  // 'while'
    auto s = std::make_unique<Stmt>(StmtKind::While, start);
    s->test = parse_expression();
    expect_colon(true);
    s->body = parse_loop_body("'while' statement", start.line);
    s->orelse = parse_else();
    s->span = span_from(start);
    return s;
}

}  // namespace treadle::frontend::detail
