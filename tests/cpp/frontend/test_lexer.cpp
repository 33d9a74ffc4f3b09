// tests/cpp/frontend/test_lexer.cpp -- tokenizer: literals, operators, layout tokens, errors
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "frontend_test_util.h"

namespace treadle::frontend::testing {
namespace {

struct LexError {
    std::string message;
    int line = 0, col = 0;
};

LexError lex_error(const std::string& text, bool function_mode = false) {
    try {
        auto src = source(text);
        tokenize(*src, function_mode);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Syntax);
        return LexError{e.message(), e.where().line, e.where().col};
    }
    return LexError{"<no error>"};
}

TEST(Lexer, IntegerLiterals) {
    struct Case {
        const char* text;
        uint64_t value;
    };
    const Case cases[] = {
        {"0", 0},
        {"00", 0},
        {"0_0", 0},
        {"7", 7},
        {"123", 123},
        {"1_000", 1000},
        {"1_000_000", 1000000},
        {"0x1F", 31},
        {"0XfF", 255},
        {"0x_ff", 255},
        {"0xdead_beef", 0xdeadbeef},
        {"0o17", 15},
        {"0O7_7", 63},
        {"0b1010", 10},
        {"0B_1_1", 3},
        {"18446744073709551615", std::numeric_limits<uint64_t>::max()},
        {"0xFFFFFFFFFFFFFFFF", std::numeric_limits<uint64_t>::max()},
    };
    for (const Case& c : cases) {
        Token tok = first_token(c.text);
        EXPECT_EQ(tok.kind, TokenKind::Number) << c.text;
        EXPECT_FALSE(tok.is_float) << c.text;
        EXPECT_EQ(tok.int_value, c.value) << c.text;
        EXPECT_EQ(tok.text, c.text);
        EXPECT_EQ(tok.span.end_col, 1 + (int)std::string(c.text).size()) << c.text;
    }
}

TEST(Lexer, FloatLiterals) {
    struct Case {
        const char* text;
        double value;
    };
    const Case cases[] = {
        {"1.", 1.0},
        {".5", 0.5},
        {"1.5", 1.5},
        {"1e-3", 1e-3},
        {"1.5E+3", 1500.0},
        {"1e3", 1000.0},
        {"1.e2", 100.0},
        {"1_0.2_5", 10.25},
        {"1e1_0", 1e10},
        {"0.0", 0.0},
        {"00.5", 0.5},
        {"09.5", 9.5},
        {"0e0", 0.0},
        {"2.5e-308", 2.5e-308},
        {"5e-324", 5e-324},
        {"1e-400", 0.0},
        {"3.141592653589793", 3.141592653589793},
    };
    for (const Case& c : cases) {
        Token tok = first_token(c.text);
        EXPECT_EQ(tok.kind, TokenKind::Number) << c.text;
        EXPECT_TRUE(tok.is_float) << c.text;
        EXPECT_EQ(tok.float_value, c.value) << c.text;
    }
    EXPECT_TRUE(std::isinf(first_token("1e400").float_value));
    EXPECT_TRUE(std::isinf(first_token("1" + std::string(400, '0') + ".0").float_value));
    EXPECT_EQ(first_token("0." + std::string(400, '0') + "1").float_value, 0.0);
}

TEST(Lexer, NumberErrors) {
    struct Case {
        const char* text;
        const char* message;
    };
    const char* leading =
        "leading zeros in decimal integer literals are not permitted; use an 0o prefix for "
        "octal integers";
    const Case cases[] = {
        {"x = 1j", "imaginary literals are not supported"},
        {"x = 1.5J", "imaginary literals are not supported"},
        {"x = 1e3j", "imaginary literals are not supported"},
        {"x = 0x", "invalid hexadecimal literal"},
        {"x = 0xg", "invalid hexadecimal literal"},
        {"x = 0x1g", "invalid hexadecimal literal"},
        {"x = 0x_", "invalid hexadecimal literal"},
        {"x = 0o", "invalid octal literal"},
        {"x = 0o8", "invalid digit '8' in octal literal"},
        {"x = 0b2", "invalid digit '2' in binary literal"},
        {"x = 0b12", "invalid digit '2' in binary literal"},
        {"x = 01", leading},
        {"x = 0_1", leading},
        {"x = 1_", "invalid decimal literal"},
        {"x = 1__0", "invalid decimal literal"},
        {"x = 1._5", "invalid decimal literal"},
        {"x = 1e", "invalid decimal literal"},
        {"x = 1e+", "invalid decimal literal"},
        {"x = 1abc", "invalid decimal literal"},
        {"x = 18446744073709551616", "integer literal is too large"},
        {"x = 0x1_0000_0000_0000_0000", "integer literal is too large"},
    };
    for (const Case& c : cases) {
        LexError err = lex_error(c.text);
        EXPECT_EQ(err.message, c.message) << c.text;
        EXPECT_EQ(err.line, 1) << c.text;
        EXPECT_EQ(err.col, 5) << c.text;
    }
}

TEST(Lexer, StringLiterals) {
    struct Case {
        const char* text;
        std::string value;
        bool bytes;
    };
    const Case cases[] = {
        {"'abc'", "abc", false},
        {"\"abc\"", "abc", false},
        {"''", "", false},
        {"'a\"b'", "a\"b", false},
        {"'''a\nb'''", "a\nb", false},
        {"\"\"\"x\"y\"\"z\"\"\"", "x\"y\"\"z", false},
        {"'''a''b'''", "a''b", false},
        {"r'\\n\\d'", "\\n\\d", false},
        {"R\"\\\"\"", "\\\"", false},
        {"u'x'", "x", false},
        {"U'x'", "x", false},
        {"b'x\\x00'", std::string("x\0", 2), true},
        {"B'x'", "x", true},
        {"rb'\\x'", "\\x", true},
        {"Rb'\\x'", "\\x", true},
        {"bR'\\x'", "\\x", true},
        {"BR'\\x'", "\\x", true},
        {"'\\n\\t\\r\\\\\\'\\\"'", "\n\t\r\\'\"", false},
        {"'\\a\\b\\f\\v'", "\a\b\f\v", false},
        {"'\\x41\\101\\0'", std::string("AA\0", 3), false},
        {"'\\u00e9\\U0001F600'", "\xC3\xA9\xF0\x9F\x98\x80", false},
        {"'\\xe9'", "\xC3\xA9", false},
        {"b'\\xe9\\u00e9'", "\xE9\\u00e9", true},
        {"'\\q\\d'", "\\q\\d", false},
        {"'ab\\\ncd'", "abcd", false},
        {"'caf\xC3\xA9'", "caf\xC3\xA9", false},
    };
    for (const Case& c : cases) {
        Token tok = first_token(c.text);
        EXPECT_EQ(tok.kind, TokenKind::String) << c.text;
        EXPECT_EQ(tok.text, c.value) << c.text;
        EXPECT_EQ(tok.is_bytes, c.bytes) << c.text;
    }
}

TEST(Lexer, StringErrors) {
    struct Case {
        const char* text;
        const char* message;
        int line, col;
    };
    const Case cases[] = {
        {"x = 'abc", "unterminated string literal (detected at line 1)", 1, 5},
        {"x = 'abc\ny = 1\n", "unterminated string literal (detected at line 1)", 1, 5},
        {"x = b\"abc", "unterminated string literal (detected at line 1)", 1, 5},
        {"x = '''abc\n\ny\n", "unterminated triple-quoted string literal (detected at line 4)", 1,
         5},
        {"x = f'{y}'", "f-strings are not supported", 1, 5},
        {"x = rF'{y}'", "f-strings are not supported", 1, 5},
        {"x = 'a\\N{DASH}'", "\\N{...} escapes are not supported", 1, 7},
        {"x = '\\x4'", "truncated \\xXX escape", 1, 6},
        {"x = '\\u12'", "truncated \\uXXXX escape", 1, 6},
        {"x = '\\U0011FFFF'", "illegal Unicode character", 1, 6},
        {"x = b'caf\xC3\xA9'", "bytes can only contain ASCII literal characters", 1, 10},
        {"x = b'\\777'", "octal escape value out of range in bytes literal", 1, 7},
    };
    for (const Case& c : cases) {
        LexError err = lex_error(c.text);
        EXPECT_EQ(err.message, c.message) << c.text;
        EXPECT_EQ(err.line, c.line) << c.text;
        EXPECT_EQ(err.col, c.col) << c.text;
    }
}

TEST(Lexer, Operators) {
    EXPECT_EQ(lex("**= //= >>= <<= @= -> := ... != == <= >= ** // << >>"),
              "OP(**=) OP(//=) OP(>>=) OP(<<=) OP(@=) OP(->) OP(:=) OP(...) OP(!=) OP(==) "
              "OP(<=) OP(>=) OP(**) OP(//) OP(<<) OP(>>) NEWLINE ENDMARKER");
    EXPECT_EQ(lex("+= -= *= /= %= &= |= ^= + - * / % @ & | ^ ~ < > , : . ; ="),
              "OP(+=) OP(-=) OP(*=) OP(/=) OP(%=) OP(&=) OP(|=) OP(^=) OP(+) OP(-) OP(*) OP(/) "
              "OP(%) OP(@) OP(&) OP(|) OP(^) OP(~) OP(<) OP(>) OP(,) OP(:) OP(.) OP(;) OP(=) "
              "NEWLINE ENDMARKER");
    EXPECT_EQ(lex("a**-b"), "NAME(a) OP(**) OP(-) NAME(b) NEWLINE ENDMARKER");
    EXPECT_EQ(lex("x.y..."), "NAME(x) OP(.) NAME(y) OP(...) NEWLINE ENDMARKER");
    EXPECT_EQ(lex("1..2"), "NUMBER(1.) NUMBER(.2) NEWLINE ENDMARKER");
    EXPECT_EQ(lex("a[1:-1]"),
              "NAME(a) OP([) NUMBER(1) OP(:) OP(-) NUMBER(1) OP(]) NEWLINE "
              "ENDMARKER");
}

TEST(Lexer, KeywordsAreNames) {
    EXPECT_EQ(lex("if not x is None"),
              "NAME(if) NAME(not) NAME(x) NAME(is) NAME(None) NEWLINE ENDMARKER");
    EXPECT_TRUE(is_keyword("while"));
    EXPECT_TRUE(is_keyword("True"));
    EXPECT_FALSE(is_keyword("match"));
    EXPECT_FALSE(is_keyword("print"));
    EXPECT_EQ(lex("_x1 \xC3\xA9t\xC3\xA9 rb ub'x'"),
              "NAME(_x1) NAME(\xC3\xA9t\xC3\xA9) NAME(rb) NAME(ub) STRING(x) NEWLINE ENDMARKER");
}

TEST(Lexer, IndentAndDedent) {
    EXPECT_EQ(lex("if x:\n    y\n    if z:\n        w\nv\n"),
              "NAME(if) NAME(x) OP(:) NEWLINE INDENT NAME(y) NEWLINE NAME(if) NAME(z) OP(:) "
              "NEWLINE INDENT NAME(w) NEWLINE DEDENT DEDENT NAME(v) NEWLINE ENDMARKER");
    // Dedents at the end of the file, and a last line without '\n'.
    EXPECT_EQ(lex("if x:\n  if y:\n    z"),
              "NAME(if) NAME(x) OP(:) NEWLINE INDENT NAME(if) NAME(y) OP(:) NEWLINE INDENT "
              "NAME(z) NEWLINE DEDENT DEDENT ENDMARKER");
    // Blank lines and comments at any indentation are ignored.
    EXPECT_EQ(lex("\n# top\nif x:\n    y\n# c\n  \n        # deep\n\n    z  # tail\n"),
              "NAME(if) NAME(x) OP(:) NEWLINE INDENT NAME(y) NEWLINE NAME(z) NEWLINE DEDENT "
              "ENDMARKER");
    // Tabs advance to the next multiple of 8.
    EXPECT_EQ(lex("if x:\n\ty\n\tif z:\n\t\tw\n"),
              "NAME(if) NAME(x) OP(:) NEWLINE INDENT NAME(y) NEWLINE NAME(if) NAME(z) OP(:) "
              "NEWLINE INDENT NAME(w) NEWLINE DEDENT DEDENT ENDMARKER");
    EXPECT_EQ(lex("if x:\r\n    y\r\nz\r\n"),
              "NAME(if) NAME(x) OP(:) NEWLINE INDENT NAME(y) NEWLINE DEDENT NAME(z) NEWLINE "
              "ENDMARKER");
    EXPECT_EQ(lex("\xEF\xBB\xBFx = 1\n"), "NAME(x) OP(=) NUMBER(1) NEWLINE ENDMARKER");  // BOM
    EXPECT_EQ(lex("x\f=\t1 \r\n"), "NAME(x) OP(=) NUMBER(1) NEWLINE ENDMARKER");
    EXPECT_EQ(lex(""), "ENDMARKER");
    EXPECT_EQ(lex("\n\n  # only a comment"), "ENDMARKER");
}

TEST(Lexer, IndentationErrors) {
    LexError err = lex_error("if x:\n    y\n  z\n");
    EXPECT_EQ(err.message, "unindent does not match any outer indentation level");
    EXPECT_EQ(err.line, 3);
    EXPECT_EQ(err.col, 3);
    err = lex_error("if x:\n\ty\n        z\n");
    EXPECT_EQ(err.message, "inconsistent use of tabs and spaces in indentation");
    EXPECT_EQ(err.line, 3);
    std::string deep;
    for (int i = 0; i < 120; ++i) deep += std::string((size_t)i, ' ') + "if x:\n";
    err = lex_error(deep);
    EXPECT_EQ(err.message, "too many levels of indentation");
    EXPECT_EQ(err.line, 102);
}

TEST(Lexer, LineJoining) {
    EXPECT_EQ(lex("x = (1 +\n  2)\n"),
              "NAME(x) OP(=) OP(() NUMBER(1) OP(+) NUMBER(2) OP()) NEWLINE ENDMARKER");
    EXPECT_EQ(lex("x = [1,  # one\n\n        2,\n]\ny\n"),
              "NAME(x) OP(=) OP([) NUMBER(1) OP(,) NUMBER(2) OP(,) OP(]) NEWLINE NAME(y) NEWLINE "
              "ENDMARKER");
    EXPECT_EQ(lex("if x:\n    y = 1 + \\\n2\n    z\n"),
              "NAME(if) NAME(x) OP(:) NEWLINE INDENT NAME(y) OP(=) NUMBER(1) OP(+) NUMBER(2) "
              "NEWLINE NAME(z) NEWLINE DEDENT ENDMARKER");
    EXPECT_EQ(lex("f(a,\n  {b:\n c})\n"),
              "NAME(f) OP(() NAME(a) OP(,) OP({) NAME(b) OP(:) NAME(c) OP(}) OP()) NEWLINE "
              "ENDMARKER");
}

TEST(Lexer, LayoutErrors) {
    struct Case {
        const char* text;
        const char* message;
        int line, col;
    };
    const Case cases[] = {
        {"x = 1 \\ 2", "unexpected character after line continuation character", 1, 8},
        {"x = 1 + \\", "unexpected EOF while parsing", 1, 9},
        {"x = (1,\n 2", "'(' was never closed", 1, 5},
        {"x = f(a[1,\n", "'[' was never closed", 1, 8},
        {"x = 1)", "unmatched ')'", 1, 6},
        {"x = (1]", "closing parenthesis ']' does not match opening parenthesis '('", 1, 7},
        {"x = {1,\n2)", "closing parenthesis ')' does not match opening parenthesis '{' on line 1",
         2, 2},
        {"x = $", "invalid character '$' (U+0024)", 1, 5},
        {"x = a ? b", "invalid character '?' (U+003F)", 1, 7},
        {"x = !a", "invalid character '!' (U+0021)", 1, 5},
        {"x = 1\ny = \x01", "invalid character (byte 0x01)", 2, 5},
    };
    for (const Case& c : cases) {
        LexError err = lex_error(c.text);
        EXPECT_EQ(err.message, c.message) << c.text;
        EXPECT_EQ(err.line, c.line) << c.text;
        EXPECT_EQ(err.col, c.col) << c.text;
    }
    LexError err = lex_error(std::string("x = 1\ny = 'a\0b'\n", 14));
    EXPECT_EQ(err.message, "source code cannot contain null bytes");
    EXPECT_EQ(err.line, 2);
    EXPECT_EQ(err.col, 7);
    err = lex_error(std::string(300, '('));
    EXPECT_EQ(err.message, "too many nested parentheses");
    EXPECT_EQ(err.col, 201);
}

TEST(Lexer, FunctionModeBaseIndentation) {
    const char* text = "\n    # comment\n    @dec\n    def f():\n        return 1\n";
    EXPECT_EQ(lex(text, true),
              "OP(@) NAME(dec) NEWLINE NAME(def) NAME(f) OP(() OP()) OP(:) NEWLINE INDENT "
              "NAME(return) NUMBER(1) NEWLINE DEDENT ENDMARKER");
    LexError err = lex_error(text);        // not in function mode: the first line is indented
    EXPECT_EQ(err.message, "<no error>");  // the tokenizer emits INDENT; the parser rejects it
    err = lex_error("    def f():\n        x\n  y\n", true);
    EXPECT_EQ(err.message, "unindent does not match any outer indentation level");
    EXPECT_EQ(err.line, 3);
}

TEST(Lexer, Spans) {
    auto src = source("x = 1\n", 40);
    std::vector<Token> toks = tokenize(*src);
    ASSERT_EQ(toks.size(), 5u);
    EXPECT_EQ(ast::dump(toks[0].span), "40:1-40:2");
    EXPECT_EQ(ast::dump(toks[1].span), "40:3-40:4");
    auto src2 = source("y = '''p\nq''' + 10\n", 40);
    toks = tokenize(*src2);
    ASSERT_EQ(toks.size(), 7u);
    EXPECT_EQ(toks[2].kind, TokenKind::String);
    EXPECT_EQ(ast::dump(toks[2].span), "40:5-41:5");
    EXPECT_EQ(ast::dump(toks[4].span), "41:8-41:10");
    EXPECT_EQ(toks[5].kind, TokenKind::Newline);
    EXPECT_EQ(ast::dump(toks[5].span), "41:10-41:11");
}

TEST(Lexer, SourceFileLines) {
    auto src = source("a\r\nbb\n\nc", 10);
    ASSERT_EQ(src->lines.size(), 4u);
    EXPECT_EQ(src->line_text(10), "a");
    EXPECT_EQ(src->line_text(11), "bb");
    EXPECT_EQ(src->line_text(12), "");
    EXPECT_EQ(src->line_text(13), "c");
    EXPECT_EQ(src->line_text(9), "");
    EXPECT_EQ(src->line_text(14), "");
    SourceLocation loc = ast::location(*src, ast::Span{11, 2, 11, 3});
    EXPECT_EQ(loc.file, "kernel.py");
    EXPECT_EQ(loc.line, 11);
    EXPECT_EQ(loc.col, 2);
    EXPECT_EQ(loc.line_text, "bb");
}

TEST(Lexer, OpText) {
    EXPECT_STREQ(ast::op_text(ast::BinOpKind::FloorDiv), "//");
    EXPECT_STREQ(ast::op_text(ast::BinOpKind::MatMul), "@");
    EXPECT_STREQ(ast::op_text(ast::UnaryOpKind::Not), "not");
    EXPECT_STREQ(ast::op_text(ast::UnaryOpKind::Invert), "~");
    EXPECT_STREQ(ast::op_text(ast::BoolOpKind::Or), "or");
    EXPECT_STREQ(ast::op_text(ast::CmpOpKind::IsNot), "is not");
    EXPECT_STREQ(ast::op_text(ast::CmpOpKind::NotIn), "not in");
    EXPECT_STREQ(ast::op_text(ast::CmpOpKind::LtE), "<=");
}

}  // namespace
}  // namespace treadle::frontend::testing
