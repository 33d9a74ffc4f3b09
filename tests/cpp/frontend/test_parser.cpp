// tests/cpp/frontend/test_parser.cpp -- parser: tree shapes, precedence, docstrings, spans
#include <gtest/gtest.h>

#include "frontend_test_util.h"

namespace treadle::frontend::testing {
namespace {

TEST(ParserExpr, Atoms) {
    EXPECT_EQ(expr("x"), "Name(x)");
    EXPECT_EQ(expr("42"), "Int(42)");
    EXPECT_EQ(expr("0x10"), "Int(16)");
    EXPECT_EQ(expr("1.5"), "Float(1.5)");
    EXPECT_EQ(expr("1e3"), "Float(1000.0)");
    EXPECT_EQ(expr("True"), "True");
    EXPECT_EQ(expr("False"), "False");
    EXPECT_EQ(expr("None"), "None");
    EXPECT_EQ(expr("'a'"), "Str(\"a\")");
    EXPECT_EQ(expr("'a' \"b\" '''c'''"), "Str(\"abc\")");
    EXPECT_EQ(expr("('a'\n 'b')"), "Str(\"ab\")");
    EXPECT_EQ(expr("b'a' b'b'"), "Str(\"ab\")");
    EXPECT_EQ(expr("(x)"), "Name(x)");
    EXPECT_EQ(expr("((x))"), "Name(x)");
}

TEST(ParserExpr, TuplesAndLists) {
    EXPECT_EQ(expr("()"), "Tuple()");
    EXPECT_EQ(expr("(a,)"), "Tuple(Name(a))");
    EXPECT_EQ(expr("(a, b)"), "Tuple(Name(a), Name(b))");
    EXPECT_EQ(expr("(a, b,)"), "Tuple(Name(a), Name(b))");
    EXPECT_EQ(expr("a, b"), "Tuple(Name(a), Name(b))");
    EXPECT_EQ(expr("a,"), "Tuple(Name(a))");
    EXPECT_EQ(expr("((a, b), c)"), "Tuple(Tuple(Name(a), Name(b)), Name(c))");
    EXPECT_EQ(expr("[]"), "List()");
    EXPECT_EQ(expr("[a]"), "List(Name(a))");
    EXPECT_EQ(expr("[a, [b, c],]"), "List(Name(a), List(Name(b), Name(c)))");
}

TEST(ParserExpr, Primaries) {
    EXPECT_EQ(expr("a.b.c"), "Attribute(Attribute(Name(a), b), c)");
    EXPECT_EQ(expr("f()"), "Call(Name(f))");
    EXPECT_EQ(expr("f(a, b=1)"), "Call(Name(f), Name(a), b=Int(1))");
    EXPECT_EQ(expr("f(a, b, c=1, d=x + 1,)"),
              "Call(Name(f), Name(a), Name(b), c=Int(1), d=BinOp(+, Name(x), Int(1)))");
    EXPECT_EQ(expr("f(a == b)"), "Call(Name(f), Compare(Name(a), ==, Name(b)))");
    EXPECT_EQ(expr("wp.vec3(1.0, 2.0, 3.0)"),
              "Call(Attribute(Name(wp), vec3), Float(1.0), Float(2.0), Float(3.0))");
    EXPECT_EQ(expr("f(x)(y)"), "Call(Call(Name(f), Name(x)), Name(y))");
    EXPECT_EQ(expr("a[i]"), "Subscript(Name(a), Name(i))");
    EXPECT_EQ(expr("a[i, j]"), "Subscript(Name(a), Tuple(Name(i), Name(j)))");
    EXPECT_EQ(expr("a[i,]"), "Subscript(Name(a), Tuple(Name(i)))");
    EXPECT_EQ(expr("a[(i, j)]"), "Subscript(Name(a), Tuple(Name(i), Name(j)))");
    EXPECT_EQ(expr("a[1:3]"), "Subscript(Name(a), Slice(Int(1), Int(3), _))");
    EXPECT_EQ(expr("a[::2]"), "Subscript(Name(a), Slice(_, _, Int(2)))");
    EXPECT_EQ(expr("a[:]"), "Subscript(Name(a), Slice(_, _, _))");
    EXPECT_EQ(expr("a[::]"), "Subscript(Name(a), Slice(_, _, _))");
    EXPECT_EQ(expr("a[1:]"), "Subscript(Name(a), Slice(Int(1), _, _))");
    EXPECT_EQ(expr("a[:-1]"), "Subscript(Name(a), Slice(_, UnaryOp(-, Int(1)), _))");
    EXPECT_EQ(expr("a[i, 1:]"), "Subscript(Name(a), Tuple(Name(i), Slice(Int(1), _, _)))");
    EXPECT_EQ(expr("a[i:j:k, ::-1]"),
              "Subscript(Name(a), Tuple(Slice(Name(i), Name(j), Name(k)), "
              "Slice(_, _, UnaryOp(-, Int(1)))))");
    EXPECT_EQ(expr("a[i][j].x(1)[0]"),
              "Subscript(Call(Attribute(Subscript(Subscript(Name(a), Name(i)), Name(j)), x), "
              "Int(1)), Int(0))");
    EXPECT_EQ(expr("(a + b).c"), "Attribute(BinOp(+, Name(a), Name(b)), c)");
}

TEST(ParserExpr, Operators) {
    EXPECT_EQ(expr("a + b"), "BinOp(+, Name(a), Name(b))");
    EXPECT_EQ(expr("a - b - c"), "BinOp(-, BinOp(-, Name(a), Name(b)), Name(c))");
    EXPECT_EQ(expr("a * b / c // d % e @ f"),
              "BinOp(@, BinOp(%, BinOp(//, BinOp(/, BinOp(*, Name(a), Name(b)), Name(c)), "
              "Name(d)), Name(e)), Name(f))");
    EXPECT_EQ(expr("a << b >> c"), "BinOp(>>, BinOp(<<, Name(a), Name(b)), Name(c))");
    EXPECT_EQ(expr("a | b ^ c & d"),
              "BinOp(|, Name(a), BinOp(^, Name(b), BinOp(&, Name(c), Name(d))))");
    EXPECT_EQ(expr("-a"), "UnaryOp(-, Name(a))");
    EXPECT_EQ(expr("+a"), "UnaryOp(+, Name(a))");
    EXPECT_EQ(expr("~a"), "UnaryOp(~, Name(a))");
    EXPECT_EQ(expr("- - a"), "UnaryOp(-, UnaryOp(-, Name(a)))");
    EXPECT_EQ(expr("not a"), "UnaryOp(not, Name(a))");
    EXPECT_EQ(expr("not not a"), "UnaryOp(not, UnaryOp(not, Name(a)))");
    EXPECT_EQ(expr("a and b"), "BoolOp(and, Name(a), Name(b))");
    EXPECT_EQ(expr("a or b or c"), "BoolOp(or, Name(a), Name(b), Name(c))");
    EXPECT_EQ(expr("a if c else b"), "IfExp(Name(c), Name(a), Name(b))");
    EXPECT_EQ(expr("a if b else c if d else e"),
              "IfExp(Name(b), Name(a), IfExp(Name(d), Name(c), Name(e)))");
}

TEST(ParserExpr, Comparisons) {
    EXPECT_EQ(expr("a < b"), "Compare(Name(a), <, Name(b))");
    EXPECT_EQ(expr("a < b <= c"), "Compare(Name(a), <, Name(b), <=, Name(c))");
    EXPECT_EQ(expr("a == b != c > d >= e"),
              "Compare(Name(a), ==, Name(b), !=, Name(c), >, Name(d), >=, Name(e))");
    EXPECT_EQ(expr("a is None"), "Compare(Name(a), is, None)");
    EXPECT_EQ(expr("a is not None"), "Compare(Name(a), is not, None)");
    EXPECT_EQ(expr("a in b"), "Compare(Name(a), in, Name(b))");
    EXPECT_EQ(expr("a not in b"), "Compare(Name(a), not in, Name(b))");
    EXPECT_EQ(expr("a is not b not in c"), "Compare(Name(a), is not, Name(b), not in, Name(c))");
}

TEST(ParserExpr, Precedence) {
    struct Case {
        const char* text;
        const char* tree;
    };
    const Case cases[] = {
        {"a + b * c", "BinOp(+, Name(a), BinOp(*, Name(b), Name(c)))"},
        {"(a + b) * c", "BinOp(*, BinOp(+, Name(a), Name(b)), Name(c))"},
        {"-x**2", "UnaryOp(-, BinOp(**, Name(x), Int(2)))"},
        {"2**-1", "BinOp(**, Int(2), UnaryOp(-, Int(1)))"},
        {"a**b**c", "BinOp(**, Name(a), BinOp(**, Name(b), Name(c)))"},
        {"-a**-b", "UnaryOp(-, BinOp(**, Name(a), UnaryOp(-, Name(b))))"},
        {"(-a)**b", "BinOp(**, UnaryOp(-, Name(a)), Name(b))"},
        {"a.b**c.d", "BinOp(**, Attribute(Name(a), b), Attribute(Name(c), d))"},
        {"-a * b", "BinOp(*, UnaryOp(-, Name(a)), Name(b))"},
        {"~a + b", "BinOp(+, UnaryOp(~, Name(a)), Name(b))"},
        {"a + b << c", "BinOp(<<, BinOp(+, Name(a), Name(b)), Name(c))"},
        {"a << b & c", "BinOp(&, BinOp(<<, Name(a), Name(b)), Name(c))"},
        {"a & b ^ c", "BinOp(^, BinOp(&, Name(a), Name(b)), Name(c))"},
        {"a ^ b | c", "BinOp(|, BinOp(^, Name(a), Name(b)), Name(c))"},
        {"a | b < c", "Compare(BinOp(|, Name(a), Name(b)), <, Name(c))"},
        {"not a < b", "UnaryOp(not, Compare(Name(a), <, Name(b)))"},
        {"not a and b", "BoolOp(and, UnaryOp(not, Name(a)), Name(b))"},
        {"a and b or c and d",
         "BoolOp(or, BoolOp(and, Name(a), Name(b)), BoolOp(and, Name(c), Name(d)))"},
        {"a or b and c", "BoolOp(or, Name(a), BoolOp(and, Name(b), Name(c)))"},
        {"a if b or c else d", "IfExp(BoolOp(or, Name(b), Name(c)), Name(a), Name(d))"},
        {"x + 1 if x > 0 else -x",
         "IfExp(Compare(Name(x), >, Int(0)), BinOp(+, Name(x), Int(1)), UnaryOp(-, Name(x)))"},
        {"a, b if c else d", "Tuple(Name(a), IfExp(Name(c), Name(b), Name(d)))"},
        {"a * (b + c) % d", "BinOp(%, BinOp(*, Name(a), BinOp(+, Name(b), Name(c))), Name(d))"},
        {"a - -b", "BinOp(-, Name(a), UnaryOp(-, Name(b)))"},
        {"a @ b * c", "BinOp(*, BinOp(@, Name(a), Name(b)), Name(c))"},
        {"-1", "UnaryOp(-, Int(1))"},
        {"a < b == c", "Compare(Name(a), <, Name(b), ==, Name(c))"},
        {"a[1] ** 2", "BinOp(**, Subscript(Name(a), Int(1)), Int(2))"},
    };
    for (const Case& c : cases) EXPECT_EQ(expr(c.text), c.tree) << c.text;
}

TEST(ParserStmt, Assignments) {
    EXPECT_EQ(parse_dump("x = 1\n"), "Assign(Name(x) = Int(1))\n");
    EXPECT_EQ(parse_dump("a, b = f()\n"), "Assign(Tuple(Name(a), Name(b)) = Call(Name(f)))\n");
    EXPECT_EQ(parse_dump("(a, b) = c, d\n"),
              "Assign(Tuple(Name(a), Name(b)) = Tuple(Name(c), Name(d)))\n");
    EXPECT_EQ(parse_dump("[a, (b, c)] = x\n"),
              "Assign(List(Name(a), Tuple(Name(b), Name(c))) = Name(x))\n");
    EXPECT_EQ(parse_dump("a = b = c\n"), "Assign(Name(a) = Name(b) = Name(c))\n");
    EXPECT_EQ(parse_dump("a.x = y[i] = 0\n"),
              "Assign(Attribute(Name(a), x) = Subscript(Name(y), Name(i)) = Int(0))\n");
    EXPECT_EQ(parse_dump("x: float = 1.0\n"), "AnnAssign(Name(x): Name(float) = Float(1.0))\n");
    EXPECT_EQ(parse_dump("x: wp.vec3\n"), "AnnAssign(Name(x): Attribute(Name(wp), vec3))\n");
    EXPECT_EQ(parse_dump("self.v: int = 0\n"),
              "AnnAssign(Attribute(Name(self), v): Name(int) = Int(0))\n");
    const char* ops[] = {"+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "|", "^", "&"};
    for (const char* op : ops) {
        EXPECT_EQ(parse_dump(std::string("a[i] ") + op + "= 2\n"),
                  std::string("AugAssign(Subscript(Name(a), Name(i)) ") + op + "= Int(2))\n");
    }
    EXPECT_EQ(parse_dump("f(x)\n"), "Expr(Call(Name(f), Name(x)))\n");
    EXPECT_EQ(parse_dump("x = 1; y = 2;\nz = 3\n"),
              "Assign(Name(x) = Int(1))\nAssign(Name(y) = Int(2))\nAssign(Name(z) = Int(3))\n");
}

TEST(ParserStmt, ControlFlow) {
    const char* src =
        "def f(n):\n"
        "    if a:\n"
        "        pass\n"
        "    elif b: x = 1\n"
        "    elif c:\n"
        "        return\n"
        "    else:\n"
        "        return a, b\n"
        "    for i in range(n):\n"
        "        if i: continue\n"
        "        break\n"
        "    else:\n"
        "        y = 2\n"
        "    for i, (j, k) in z:\n"
        "        pass\n"
        "    while x < 3:\n"
        "        x += 1\n"
        "    else: pass\n"
        "    while True: break\n";
    EXPECT_EQ(parse_dump(src),
              "FunctionDef(f, [n])\n"
              "  If(Name(a))\n"
              "    Pass\n"
              "  else:\n"
              "    If(Name(b))\n"
              "      Assign(Name(x) = Int(1))\n"
              "    else:\n"
              "      If(Name(c))\n"
              "        Return\n"
              "      else:\n"
              "        Return(Tuple(Name(a), Name(b)))\n"
              "  For(Name(i) in Call(Name(range), Name(n)))\n"
              "    If(Name(i))\n"
              "      Continue\n"
              "    Break\n"
              "  else:\n"
              "    Assign(Name(y) = Int(2))\n"
              "  For(Tuple(Name(i), Tuple(Name(j), Name(k))) in Name(z))\n"
              "    Pass\n"
              "  While(Compare(Name(x), <, Int(3)))\n"
              "    AugAssign(Name(x) += Int(1))\n"
              "  else:\n"
              "    Pass\n"
              "  While(True)\n"
              "    Break\n");
    EXPECT_EQ(parse_dump("for x in a, b: pass\n"),
              "For(Name(x) in Tuple(Name(a), Name(b)))\n  Pass\n");
    EXPECT_EQ(parse_dump("for a.b[0] in c: pass\n"),
              "For(Subscript(Attribute(Name(a), b), Int(0)) in Name(c))\n  Pass\n");
    EXPECT_EQ(parse_dump("if x: a = 1; b = 2\n"),
              "If(Name(x))\n  Assign(Name(a) = Int(1))\n  Assign(Name(b) = Int(2))\n");
}

TEST(ParserStmt, SimpleStatements) {
    EXPECT_EQ(parse_dump("import a.b as c, d\n"), "Import(a.b as c, d)\n");
    EXPECT_EQ(parse_dump("import warp as wp\n"), "Import(warp as wp)\n");
    EXPECT_EQ(parse_dump("from x import a as b, c\n"), "ImportFrom(x: a as b, c)\n");
    EXPECT_EQ(parse_dump("from x.y import (c, d,)\n"), "ImportFrom(x.y: c, d)\n");
    EXPECT_EQ(parse_dump("from . import x\n"), "ImportFrom(.: x)\n");
    EXPECT_EQ(parse_dump("from ..pkg.mod import x\n"), "ImportFrom(..pkg.mod: x)\n");
    EXPECT_EQ(parse_dump("from ... import x\n"), "ImportFrom(...: x)\n");
    EXPECT_EQ(parse_dump("from m import *\n"), "ImportFrom(m: *)\n");
    EXPECT_EQ(parse_dump("global a, b\n"), "Global(a, b)\n");
    EXPECT_EQ(parse_dump("def f():\n    nonlocal a\n"), "FunctionDef(f, [])\n  Nonlocal(a)\n");
    EXPECT_EQ(parse_dump("assert x\n"), "Assert(Name(x))\n");
    EXPECT_EQ(parse_dump("assert x > 0, 'bad'\n"),
              "Assert(Compare(Name(x), >, Int(0)), Str(\"bad\"))\n");
    EXPECT_EQ(parse_dump("pass\n"), "Pass\n");
    EXPECT_EQ(parse_dump("def f(x: int):\n    ...\n"), "FunctionDef(f, [x: Name(int)])\n  Pass\n");
    EXPECT_EQ(parse_dump("N = 16\nSCALE = 2.0 * N\n"),
              "Assign(Name(N) = Int(16))\nAssign(Name(SCALE) = BinOp(*, Float(2.0), Name(N)))\n");
}

TEST(ParserStmt, DefsAndClasses) {
    const char* src =
        "@wp.kernel\n"
        "@decorator(x=1)\n"
        "def saxpy(a: wp.array(dtype=float), s: float = 2.0, n=3) -> None:\n"
        "    '''Scales.\n"
        "    Adds.'''\n"
        "    i = wp.tid()\n"
        "\n"
        "@wp.struct\n"
        "class Particle(Base, mod.Other):\n"
        "    \"doc\"\n"
        "    pos: wp.vec3\n"
        "    def m(self): return self.pos\n"
        "class Empty: pass\n"
        "def g(x,): \"only a docstring\"\n";
    EXPECT_EQ(parse_dump(src),
              "FunctionDef(saxpy, [a: Call(Attribute(Name(wp), array), dtype=Name(float)), "
              "s: Name(float) = Float(2.0), n = Int(3)], returns=None, "
              "decorators=[Attribute(Name(wp), kernel), Call(Name(decorator), x=Int(1))], "
              "doc=\"Scales.\\n    Adds.\")\n"
              "  Assign(Name(i) = Call(Attribute(Name(wp), tid)))\n"
              "ClassDef(Particle, bases=[Name(Base), Attribute(Name(mod), Other)], "
              "decorators=[Attribute(Name(wp), struct)], doc=\"doc\")\n"
              "  AnnAssign(Name(pos): Attribute(Name(wp), vec3))\n"
              "  FunctionDef(m, [self])\n"
              "    Return(Attribute(Name(self), pos))\n"
              "ClassDef(Empty)\n"
              "  Pass\n"
              "FunctionDef(g, [x], doc=\"only a docstring\")\n");
    // A string that is not first stays a statement; a module docstring stays a statement.
    EXPECT_EQ(parse_dump("'mod'\ndef f():\n    x = 1\n    'not doc'\n"),
              "Expr(Str(\"mod\"))\nFunctionDef(f, [])\n  Assign(Name(x) = Int(1))\n"
              "  Expr(Str(\"not doc\"))\n");
}

TEST(ParserStmt, ParseFunction) {
    const char* src =
        "    @wp.kernel\n"
        "    def k(a: wp.array(dtype=float)):\n"
        "        i = wp.tid()\n"
        "        if i > 0:\n"
        "            a[i] = 1.0\n"
        "\n"
        "  # a trailing comment at another indentation\n";
    auto module = parse_function(source(src, 40));
    ASSERT_EQ(module->body.size(), 1u);
    EXPECT_EQ(ast::dump(*module),
              "FunctionDef(k, [a: Call(Attribute(Name(wp), array), dtype=Name(float))], "
              "decorators=[Attribute(Name(wp), kernel)])\n"
              "  Assign(Name(i) = Call(Attribute(Name(wp), tid)))\n"
              "  If(Compare(Name(i), >, Int(0)))\n"
              "    Assign(Subscript(Name(a), Name(i)) = Float(1.0))\n");
    EXPECT_EQ(module->source->first_line, 40);
    // A function at column 1 works too.
    auto plain = parse_function(source("def f():\n    return 1\n"));
    EXPECT_EQ(ast::dump(*plain), "FunctionDef(f, [])\n  Return(Int(1))\n");
}

TEST(ParserSpans, IndentedFunctionWithFirstLine) {
    const char* src =
        "    @wp.kernel\n"                      // 40
        "    def k(a: int, b=(1 + 2)):\n"       // 41
        "        x = (a + b) * f(a, k=2)[0]\n"  // 42
        "        y, z = a[1:, ::2], (a,)\n"     // 43
        "        if x:\n"                       // 44
        "            return -x**2\n"            // 45
        "        elif y:\n"                     // 46
        "            pass\n";                   // 47
    auto module = parse_function(source(src, 40));
    const ast::Stmt& def = *module->body[0];
    EXPECT_EQ(ast::dump(def.span), "40:5-47:17");
    EXPECT_EQ(ast::dump(def.decorators[0]->span), "40:6-40:15");
    ASSERT_EQ(def.params.size(), 2u);
    EXPECT_EQ(ast::dump(def.params[0].span), "41:11-41:17");
    EXPECT_EQ(ast::dump(def.params[1].span), "41:19-41:28");
    EXPECT_EQ(ast::dump(def.params[1].default_value->span), "41:22-41:27");

    const ast::Stmt& assign = *def.body[0];
    EXPECT_EQ(ast::dump(assign.span), "42:9-42:35");
    EXPECT_EQ(ast::dump(assign.targets[0]->span), "42:9-42:10");
    const ast::Expr& mul = *assign.value;
    EXPECT_EQ(ast::dump(mul.span), "42:13-42:35");
    EXPECT_EQ(ast::dump(mul.args[0]->span), "42:14-42:19");  // the parentheses are not its own
    const ast::Expr& sub = *mul.args[1];
    EXPECT_EQ(sub.kind, ast::ExprKind::Subscript);
    EXPECT_EQ(ast::dump(sub.span), "42:23-42:35");
    const ast::Expr& call = *sub.args[0];
    EXPECT_EQ(ast::dump(call.span), "42:23-42:32");
    EXPECT_EQ(ast::dump(call.keywords[0].span), "42:28-42:31");
    EXPECT_EQ(ast::dump(call.keywords[0].value->span), "42:30-42:31");

    const ast::Stmt& unpack = *def.body[1];
    EXPECT_EQ(ast::dump(unpack.targets[0]->span), "43:9-43:13");
    const ast::Expr& rhs = *unpack.value;
    EXPECT_EQ(ast::dump(rhs.span), "43:16-43:32");
    const ast::Expr& index = *rhs.args[0]->args[1];
    EXPECT_EQ(index.kind, ast::ExprKind::Tuple);
    EXPECT_EQ(ast::dump(index.span), "43:18-43:25");
    EXPECT_EQ(ast::dump(index.args[0]->span), "43:18-43:20");
    EXPECT_EQ(ast::dump(index.args[1]->span), "43:22-43:25");
    EXPECT_EQ(ast::dump(rhs.args[1]->span), "43:28-43:32");

    const ast::Stmt& branch = *def.body[2];
    EXPECT_EQ(ast::dump(branch.span), "44:9-47:17");
    EXPECT_EQ(ast::dump(branch.body[0]->span), "45:13-45:25");
    EXPECT_EQ(ast::dump(branch.body[0]->value->span), "45:20-45:25");
    EXPECT_EQ(ast::dump(branch.body[0]->value->args[0]->span), "45:21-45:25");
    EXPECT_EQ(ast::dump(branch.orelse[0]->span), "46:9-47:17");
}

TEST(ParserSpans, ModuleSpans) {
    auto module = parse_module(source("x = 'a' \\\n  'b'\nfor i in r:\n    pass\n", 3));
    EXPECT_EQ(ast::dump(module->body[0]->span), "3:1-4:6");
    EXPECT_EQ(ast::dump(module->body[0]->value->span), "3:5-4:6");
    EXPECT_EQ(ast::dump(module->body[1]->span), "5:1-6:9");
    EXPECT_EQ(ast::dump(module->body[1]->targets[0]->span), "5:5-5:6");
    auto triple = parse_module(source("s = '''a\nb'''\n"));
    EXPECT_EQ(ast::dump(triple->body[0]->span), "1:1-2:5");
}

}  // namespace
}  // namespace treadle::frontend::testing
