// tests/cpp/frontend/test_parser_errors.cpp -- exact syntax error messages and locations
#include <gtest/gtest.h>

#include "frontend_test_util.h"

namespace treadle::frontend::testing {
namespace {

struct Case {
    const char* text;
    const char* message;
    int line, col;
};

void check_cases(const std::vector<Case>& cases, bool function_mode = false) {
    for (const Case& c : cases) {
        ErrorInfo err = parse_error(c.text, function_mode);
        EXPECT_EQ(err.message, c.message) << c.text;
        EXPECT_EQ(err.line, c.line) << c.text;
        EXPECT_EQ(err.col, c.col) << c.text;
        if (err.message != "<no error>") {
            EXPECT_EQ(err.kind, ErrorKind::Syntax) << c.text;
        }
    }
}

TEST(ParserErrors, Layout) {
    check_cases({
        {"x = (1, 2\ny = 3\n", "'(' was never closed", 1, 5},
        {"x = [1, 2", "'[' was never closed", 1, 5},
        {"x = (1 +\n", "'(' was never closed", 1, 5},
        {"x = f(a)\ny = (b c\nz = 1\n", "'(' was never closed", 2, 5},
        {"  x = 1\n", "unexpected indent", 1, 3},
        {"x = 1\n    y = 2\n", "unexpected indent", 2, 5},
        {"def f():\nreturn 1\n", "expected an indented block after function definition on line 1",
         2, 1},
        {"for i in x:\n", "expected an indented block after 'for' statement on line 1", 2, 1},
        {"class C:\n\nx = 1\n", "expected an indented block after class definition on line 1", 3,
         1},
        {"if a:\n    pass\nelif b:\npass\n",
         "expected an indented block after 'elif' statement on line 3", 4, 1},
        {"while a:\n    pass\nelse:\nx\n",
         "expected an indented block after 'else' statement on line 3", 4, 1},
        {"if x:\n    pass\n  else:\n", "unindent does not match any outer indentation level", 3, 3},
        {"x = 'abc\n", "unterminated string literal (detected at line 1)", 1, 5},
        {"x = 1\ny = '''abc\n", "unterminated triple-quoted string literal (detected at line 3)", 2,
         5},
    });
}

TEST(ParserErrors, Statements) {
    check_cases({
        {"if x\n    pass\n", "expected ':'", 1, 5},
        {"while x y:\n    pass\n", "expected ':'", 1, 9},
        {"def f()\n    pass\n", "expected ':'", 1, 8},
        {"def f:\n    pass\n", "expected '('", 1, 6},
        {"if x = 1:\n    pass\n", "invalid syntax. Maybe you meant '==' or ':=' instead of '='?", 1,
         6},
        {"x = = 1\n", "invalid syntax", 1, 5},
        {"x = 1 y = 2\n", "invalid syntax", 1, 7},
        {"print 'hi'\n", "invalid syntax", 1, 7},
        {"else:\n    pass\n", "invalid syntax", 1, 1},
        {"if x: if y: pass\n", "invalid syntax", 1, 7},
        {"@dec\nx = 1\n", "invalid syntax", 2, 1},
        {"x = \n", "invalid syntax", 1, 5},
        {"x = a.if\n", "invalid syntax", 1, 7},
        {"for x y in z: pass\n", "expected 'in'", 1, 7},
        {"return 1\n", "'return' outside function", 1, 1},
        {"break\n", "'break' outside loop", 1, 1},
        {"class C:\n    return\n", "'return' outside function", 2, 5},
        {"for i in x:\n    def f():\n        break\n", "'break' outside loop", 3, 9},
        {"def f():\n    for i in x:\n        pass\n    else:\n        continue\n",
         "'continue' not properly in loop", 5, 9},
        {"nonlocal a\n", "nonlocal declaration not allowed at module level", 1, 1},
        {"def f(a=1, b):\n    pass\n",
         "parameter without a default follows parameter with a default", 1, 12},
        {"def f(a, a):\n    pass\n", "duplicate argument 'a' in function definition", 1, 10},
        {"def f(*args):\n    pass\n", "'*' in parameter lists is not supported", 1, 7},
        {"def f(a, **kw):\n    pass\n", "'**' in parameter lists is not supported", 1, 10},
        {"class C(metaclass=M): pass\n", "keyword arguments in class bases are not supported", 1,
         9},
        {"from x import a,\n", "trailing comma not allowed without surrounding parentheses", 1, 16},
        {"try:\n    pass\n", "'try' statements are not supported", 1, 1},
        {"with a: pass\n", "'with' statements are not supported", 1, 1},
        {"x = 1; del x\n", "'del' statements are not supported", 1, 8},
        {"raise E\n", "'raise' statements are not supported", 1, 1},
    });
}

TEST(ParserErrors, Targets) {
    check_cases({
        {"f() = 1\n", "cannot assign to function call", 1, 1},
        {"1 = x\n", "cannot assign to literal", 1, 1},
        {"a + b = c\n", "cannot assign to expression", 1, 1},
        {"None = 1\n", "cannot assign to None", 1, 1},
        {"x = True = 1\n", "cannot assign to True", 1, 5},
        {"(a, f()) = x\n", "cannot assign to function call", 1, 5},
        {"a < b = c\n", "cannot assign to comparison", 1, 1},
        {"a if b else c = d\n", "cannot assign to conditional expression", 1, 1},
        {"for f() in z: pass\n", "cannot assign to function call", 1, 5},
        {"a, b += 1\n", "'tuple' is an illegal expression for augmented assignment", 1, 1},
        {"f() -= 1\n", "'function call' is an illegal expression for augmented assignment", 1, 1},
        {"a, b: int\n", "only single target (not tuple) can be annotated", 1, 1},
        {"[a]: int = 1\n", "only single target (not list) can be annotated", 1, 1},
        {"f(): int\n", "illegal target for annotation", 1, 1},
    });
}

TEST(ParserErrors, Expressions) {
    check_cases({
        {"x = a if b\n", "expected 'else' after 'if' expression", 1, 11},
        {"f(a, b=1, c)\n", "positional argument follows keyword argument", 1, 11},
        {"f(a, **kw)\n", "argument unpacking with '**' is not supported", 1, 6},
        {"f(a b)\n", "invalid syntax. Perhaps you forgot a comma?", 1, 3},
        {"x = (a, b c)\n", "invalid syntax. Perhaps you forgot a comma?", 1, 9},
        {"x = [1 2]\n", "invalid syntax. Perhaps you forgot a comma?", 1, 6},
        {"x = a[1 2]\n", "invalid syntax. Perhaps you forgot a comma?", 1, 7},
        {"f(a=1, a=2)\n", "keyword argument repeated: a", 1, 8},
        {"f(a.b=1)\n", "expression cannot contain assignment, perhaps you meant \"==\"?", 1, 3},
        {"x = lambda: 1\n", "lambda expressions are not supported", 1, 5},
        {"x = [i for i in y]\n", "list comprehensions are not supported", 1, 8},
        {"x = {i for i in y}\n", "comprehensions are not supported", 1, 8},
        {"x = f(i for i in y)\n", "generator expressions are not supported", 1, 9},
        {"x = (y := 1)\n", "assignment expressions (':=') are not supported", 1, 8},
        {"x = *a, b\n", "starred expressions are not supported", 1, 5},
        {"x = yield 1\n", "'yield' is not supported", 1, 5},
        {"x = 'a' b'b'\n", "cannot mix bytes and nonbytes literals", 1, 5},
        {"x = a[]\n", "invalid syntax", 1, 7},
        {"x = f(,)\n", "invalid syntax", 1, 7},
        {"x = -not a\n", "invalid syntax", 1, 6},
        {"x = a not b\n", "invalid syntax", 1, 7},
        {"x = 1 +\n", "invalid syntax", 1, 8},
        {"x = f'{a}'\n", "f-strings are not supported", 1, 5},
    });
}

TEST(ParserErrors, FunctionMode) {
    check_cases(
        {
            {"def f():\n    pass\ndef g():\n    pass\n", "expected a single function definition", 3,
             1},
            {"x = 1\n", "expected a function definition", 1, 1},
            {"", "expected a function definition", 1, 1},
            {"  \n  # nothing\n", "expected a function definition", 1, 1},
            {"    def f():\n        pass\n  x = 1\n",
             "unindent does not match any outer indentation level", 3, 3},
        },
        true);
    ErrorInfo err = parse_error("    def f():\n        x = = 1\n", true, 41);
    EXPECT_EQ(err.message, "invalid syntax");
    EXPECT_EQ(err.line, 42);
    EXPECT_EQ(err.col, 13);
    EXPECT_EQ(err.line_text, "        x = = 1");
}

TEST(ParserErrors, FormattedMessage) {
    try {
        parse_module(source("def k():\n    x = (1, 2\n", 7));
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Syntax);
        EXPECT_EQ(e.where().file, "kernel.py");
        EXPECT_EQ(std::string(e.what()),
                  "kernel.py:8:9: '(' was never closed\n"
                  "        x = (1, 2\n"
                  "            ^");
    }
}

}  // namespace
}  // namespace treadle::frontend::testing
