// tests/cpp/frontend/test_parser_robustness.cpp -- truncations, mutations and deep nesting
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "frontend_test_util.h"

namespace treadle::frontend::testing {
namespace {

const char* const k_corpus[] = {
    R"(import warp as wp

@wp.kernel
def saxpy(x: wp.array(dtype=float), y: wp.array(dtype=float), a: float):
    """y = a * x + y"""
    i = wp.tid()
    y[i] = a * x[i] + y[i]
)",
    R"(@wp.kernel
def integrate(pos: wp.array(dtype=wp.vec3), vel: wp.array(dtype=wp.vec3), dt: float):
    tid = wp.tid()
    v = vel[tid] + wp.vec3(0.0, -9.8, 0.0) * dt
    p = pos[tid] + v * dt
    if p[1] < 0.0:
        p = wp.vec3(p[0], 0.0, p[2])
        v = wp.vec3(v[0], -v[1] * 0.5, v[2])
    pos[tid] = p
    vel[tid] = v
)",
    R"(N = 1_024
SCALE = 1.5e-3

@wp.func
def clamp01(x: float) -> float:
    return wp.min(wp.max(x, 0.0), 1.0)

@wp.kernel
def blur(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = float(0.0)
    for di in range(-1, 2):
        for dj in range(-1, 2):
            acc += src[i + di, j + dj]
    dst[i, j] = clamp01(acc / 9.0 * SCALE)
)",
    R"(@wp.kernel
def reduce(a: wp.array(dtype=int), out: wp.array(dtype=int)):
    i = wp.tid()
    x = a[i]
    while x > 1:
        if x % 2 == 0:
            x //= 2
        elif x & 1 and not (x == 3):
            x = 3 * x + 1
        else:
            break
    else:
        x = -1
    wp.atomic_add(out, 0, x)
)",
    R"(    @wp.kernel
    def indented(a: wp.array(dtype=float), n: int = 4):
        i = wp.tid()
        s = 0.0
        for k in range(n):
            s = s + a[i] ** 2 if k != 0 else s - 1.0
        a[i] = s; a[i] *= 2.0
)",
    R"(from . import helpers as h
from .math import (lerp, smoothstep,)

@wp.struct
class Particle:
    """A particle."""
    pos: wp.vec3
    mass: float

@wp.kernel
def step(ps: wp.array(dtype=Particle), t: float):
    i = wp.tid()
    p = ps[i]
    p.pos = lerp(p.pos, p.pos * 2.0, smoothstep(0.0, 1.0, t))
    ps[i] = p
)",
    R"(@wp.kernel
def matmul(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), c: wp.array2d(dtype=float)):
    i, j = wp.tid()
    s = float(0.0)
    for k in range(a.shape[1]):
        s += a[i, k] * b[k, j]
    c[i, j] = s
    assert i >= 0, "negative index"
)",
    R"(@wp.kernel(enable_backward=False)
def bits(a: wp.array(dtype=wp.uint32)):
    i = wp.tid()
    v = a[i]
    v = (v >> 1) ^ (v << 3) | 0xFF & ~v
    v = v if v is not None else 0b1010
    a[i] = v
    x = a[1:3]; y = a[::2]; z = a[i, 1:]
)",
    R"(@wp.kernel
def strings(out: wp.array(dtype=int)):
    s = 'a' "b" '''c
d''' r'\n'
    b = b'x'
    t = (1, 2, 3)
    u = [1, 2,
         3]
    (p, q) = t[0], t[1]
    a = b = 0
    out[0] = len(s) + p + q + a + b
)",
    R"(@wp.kernel
def deep(a: wp.array(dtype=float)):
    i = wp.tid()
    if i > 0:
        if i > 1:
            if i > 2:
                for j in range(i):
                    while j < i:
                        j += 1
                        if j == 5: continue
                        a[i] = ((a[i] + 1.0) * (2.0 - a[j])) / (1.0 + wp.abs(a[j]))
    return
)",
};

/// Checks that every child span lies within its parent and that spans are ordered.
bool before_or_equal(int l1, int c1, int l2, int c2) { return l1 < l2 || (l1 == l2 && c1 <= c2); }

void check_span(const ast::Span& s, const ast::Span& parent, const std::string& what) {
    EXPECT_TRUE(before_or_equal(s.line, s.col, s.end_line, s.end_col)) << what;
    EXPECT_TRUE(before_or_equal(parent.line, parent.col, s.line, s.col)) << what;
    EXPECT_TRUE(before_or_equal(s.end_line, s.end_col, parent.end_line, parent.end_col)) << what;
}

void check_expr(const ast::Expr& e, const ast::Span& parent) {
    check_span(e.span, parent, ast::dump(e));
    for (const auto& child : e.args)
        if (child) check_expr(*child, e.span);
    for (const ast::Keyword& kw : e.keywords) {
        check_span(kw.span, e.span, kw.name);
        check_expr(*kw.value, kw.span);
    }
}

void check_stmt(const ast::Stmt& s, const ast::Span& parent) {
    check_span(s.span, parent, ast::dump(s));
    for (const auto& d : s.decorators) check_expr(*d, s.span);
    for (const ast::Param& p : s.params) {
        check_span(p.span, s.span, p.name);
        if (p.annotation) check_expr(*p.annotation, p.span);
        if (p.default_value) check_expr(*p.default_value, p.span);
    }
    for (const ast::ExprPtr* e : {&s.returns, &s.value, &s.annotation, &s.test})
        if (*e) check_expr(**e, s.span);
    for (const auto& t : s.targets) check_expr(*t, s.span);
    for (const auto& b : s.body) check_stmt(*b, s.span);
    for (const auto& b : s.orelse) check_stmt(*b, s.span);
}

/// Parses `text` as a module and as a function; anything but success or treadle::Error
/// fails the test. Returns true when either parse succeeded.
bool parse_any(const std::string& text) {
    bool ok = false;
    for (bool function_mode : {false, true}) {
        try {
            auto src = source(text, 5);
            auto module = function_mode ? parse_function(src) : parse_module(src);
            ast::Span whole{5, 1, 5 + (int)src->lines.size(), 1};
            for (const auto& s : module->body) check_stmt(*s, whole);
            EXPECT_FALSE(ast::dump(*module).empty() && !module->body.empty());
            ok = true;
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::Syntax) << text;
            EXPECT_FALSE(e.message().empty());
            EXPECT_GE(e.where().line, 5) << text;
            EXPECT_GE(e.where().col, 1) << text;
        } catch (const std::exception& e) {
            ADD_FAILURE() << "unexpected exception " << e.what() << " for:\n" << text;
        }
    }
    return ok;
}

TEST(ParserRobustness, CorpusParses) {
    for (const char* text : k_corpus) {
        EXPECT_TRUE(parse_any(text)) << text;
        if (std::string(text).rfind("    @", 0) == 0) {
            EXPECT_NO_THROW(parse_function(source(text)));
        } else {
            EXPECT_NO_THROW(parse_module(source(text)));
        }
    }
}

TEST(ParserRobustness, EveryTruncation) {
    auto start = std::chrono::steady_clock::now();
    int parsed = 0;
    for (const char* text : k_corpus) {
        std::string s = text;
        for (size_t n = 0; n <= s.size(); ++n) parsed += parse_any(s.substr(0, n));
    }
    EXPECT_GT(parsed, 0);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

TEST(ParserRobustness, RandomMutations) {
    std::mt19937 rng(12345);
    const std::string interesting = "()[]{}:,.;=+-*/%@&|^~<>!'\"\\#\n\t \r0123456789_eEjJxXabrfu";
    auto pick_byte = [&]() -> char {
        if (rng() % 2) return interesting[rng() % interesting.size()];
        return (char)(rng() % 256);
    };
    const size_t corpus_size = sizeof k_corpus / sizeof k_corpus[0];
    auto start = std::chrono::steady_clock::now();
    int parsed = 0;
    for (int iter = 0; iter < 6000; ++iter) {
        std::string s = k_corpus[rng() % corpus_size];
        int edits = 1 + (int)(rng() % 3);
        for (int e = 0; e < edits && !s.empty(); ++e) {
            size_t pos = rng() % s.size();
            switch (rng() % 4) {
                case 0:
                    s[pos] = pick_byte();
                    break;
                case 1:
                    s.erase(pos, 1);
                    break;
                case 2:
                    s.insert(s.begin() + (long)pos, pick_byte());
                    break;
                default: {  // duplicate or drop a short chunk
                    size_t len = 1 + rng() % 8;
                    std::string chunk = s.substr(pos, len);
                    if (rng() % 2) {
                        s.insert(pos, chunk);
                    } else {
                        s.erase(pos, len);
                    }
                }
            }
        }
        parsed += parse_any(s);
    }
    EXPECT_GT(parsed, 0);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

TEST(ParserRobustness, DeepNestingThrows) {
    struct Case {
        std::string text;
        const char* message;
    };
    auto repeat = [](const std::string& s, int n) {
        std::string out;
        for (int i = 0; i < n; ++i) out += s;
        return out;
    };
    const char* deep = "expression is too deeply nested";
    std::string elifs = "if a:\n    pass\n" + repeat("elif a:\n    pass\n", 5000);
    std::string blocks;
    for (int i = 0; i < 150; ++i) blocks += std::string((size_t)i, ' ') + "if x:\n";
    const Case cases[] = {
        {std::string(10000, '('), "too many nested parentheses"},
        {"x = " + std::string(10000, '['), "too many nested parentheses"},
        {"x = " + repeat("f(", 10000), "too many nested parentheses"},
        {"x = " + std::string(10000, '(') + "1" + std::string(10000, ')'),
         "too many nested parentheses"},
        {"x = " + std::string(10000, '-') + "1", deep},
        {"x = " + repeat("not ", 10000) + "1", deep},
        {"x = " + repeat("~+", 10000) + "1", deep},
        {"x = " + repeat("a if b else ", 10000) + "c", deep},
        {"x = 2" + repeat(" ** 2", 10000), deep},
        {"x = a" + repeat(" + a", 10000), deep},
        {"x = a" + repeat(".b", 10000), deep},
        {"x = a" + repeat("[0]", 10000), deep},
        {"x = f" + repeat("()", 10000), deep},
        {elifs, "too many 'elif' branches"},
        {blocks, "too many levels of indentation"},
    };
    for (const Case& c : cases) {
        ErrorInfo err = parse_error(c.text);
        EXPECT_EQ(err.message, c.message) << c.text.substr(0, 40);
    }
}

TEST(ParserRobustness, ReasonableNestingParses) {
    auto repeat = [](const std::string& s, int n) {
        std::string out;
        for (int i = 0; i < n; ++i) out += s;
        return out;
    };
    std::string blocks;
    for (int i = 0; i < 98; ++i) blocks += std::string((size_t)i, ' ') + "if x:\n";
    blocks += std::string(98, ' ') + "pass\n";
    const std::string texts[] = {
        "x = " + std::string(150, '(') + "1" + std::string(150, ')') + "\n",
        "x = " + repeat("[", 150) + repeat("]", 150) + "\n",
        "x = " + repeat("-", 500) + "1\n",
        "x = a" + repeat(" + a", 500) + "\n",
        "x = a" + repeat(" and a", 5000) + "\n",
        "x = a" + repeat(" < a", 5000) + "\n",
        "x = (" + repeat("a, ", 5000) + ")\n",
        "x = 'a'" + repeat(" 'b'", 5000) + "\n",
        "if a:\n    pass\n" + repeat("elif a:\n    pass\n", 500),
        blocks,
    };
    for (const std::string& text : texts) {
        ErrorInfo err = parse_error(text);
        EXPECT_EQ(err.message, "<no error>") << text.substr(0, 40);
    }
}

}  // namespace
}  // namespace treadle::frontend::testing
