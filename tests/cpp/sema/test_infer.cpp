// tests/cpp/sema/test_infer.cpp -- inference from source to typed IR: literal typing, name
// resolution order, type errors with their spans
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sema_test_util.h"
#include "types/types.h"

namespace treadle::sema {
namespace {

using test::build;
using test::build_error;
using test::find_kind;
using test::MapResolver;
using test::stored_type;

const types::Type* f64() { return types::scalar_type(ScalarType::Float64); }

TEST(SemaInfer, AKernelGetsItsAnnotatedParameters) {
    auto p = build("k",
                   "def k(x: wp.array(dtype=float), n: int, v: wp.vec3d):\n"
                   "    x[0] = float(n)\n");
    const ir::Function& k = *p->kernel;
    EXPECT_TRUE(k.is_kernel);
    EXPECT_EQ(k.name, "k");
    ASSERT_EQ(k.params.size(), 3u);
    EXPECT_EQ(k.param_names, (std::vector<std::string>{"x", "n", "v"}));
    EXPECT_EQ(k.type_of(k.params[0]), types::array_type(types::float32_type(), 1));
    EXPECT_EQ(k.type_of(k.params[1]), types::int32_type());
    EXPECT_EQ(k.type_of(k.params[2]), types::vector_type(3, ScalarType::Float64));
    EXPECT_TRUE(k.vars[k.params[0]].param);
    EXPECT_EQ(k.return_type, types::void_type());
}

TEST(SemaInfer, WeakFloatLiteralAdoptsFloat64) {
    auto p = build("k",
                   "def k(x: wp.array(dtype=wp.float64)):\n"
                   "    i = wp.tid()\n"
                   "    x[i] = x[i] * 2.0\n");
    EXPECT_EQ(stored_type(*p), f64());
    // The literal itself was emitted as a float64 constant, not a float32 one converted.
    auto consts = find_kind(*p, ir::InstrKind::Const);
    ASSERT_EQ(consts.size(), 1u);
    EXPECT_EQ(p->kernel->type_of(consts[0]->dsts[0]), f64());
    EXPECT_DOUBLE_EQ(consts[0]->value.f, 2.0);
    EXPECT_TRUE(find_kind(*p, ir::InstrKind::Cast).empty());
}

TEST(SemaInfer, ABuiltinOfLiteralsGivesAStrongFloat32) {
    // wp.sqrt(2.0) is a float32 value, not a literal: it does not adopt float64.
    Error e = build_error("k",
                          "def k(x: wp.array(dtype=wp.float64)):\n"
                          "    x[0] = x[0] * wp.sqrt(2.0)\n");
    EXPECT_EQ(e.message(),
              "operator '*': unsupported operand types (float64, float32) (the operands must "
              "have the same type)");
    EXPECT_EQ(e.where().line, 2);
    EXPECT_EQ(e.where().col, 12);
}

TEST(SemaInfer, WeakIntLiteralAdoptsAFloatOperand) {
    auto p = build("k",
                   "def k(x: wp.array(dtype=wp.float16)):\n"
                   "    x[0] = x[0] + 1\n");
    EXPECT_EQ(stored_type(*p), types::scalar_type(ScalarType::Float16));
}

TEST(SemaInfer, LiteralsAloneAreInt32AndFloat32) {
    auto p = build("k",
                   "def k(x: wp.array(dtype=float), y: wp.array(dtype=int)):\n"
                   "    a = 2\n"
                   "    b = 2.5\n"
                   "    y[0] = a\n"
                   "    x[0] = b\n");
    auto stores = find_kind(*p, ir::InstrKind::Store);
    ASSERT_EQ(stores.size(), 2u);
    EXPECT_EQ(p->kernel->type_of(stores[0]->args.back()), types::int32_type());
    EXPECT_EQ(p->kernel->type_of(stores[1]->args.back()), types::float32_type());
}

TEST(SemaInfer, OverloadResolutionPicksTheResultType) {
    auto p = build("k",
                   "def k(m: wp.array(dtype=wp.mat33d), v: wp.array(dtype=wp.vec3d),\n"
                   "      out: wp.array(dtype=wp.vec3d)):\n"
                   "    i = wp.tid()\n"
                   "    out[i] = m[i] * v[i] + wp.normalize(v[i]) * wp.length(v[i])\n");
    EXPECT_EQ(stored_type(*p), types::vector_type(3, ScalarType::Float64));
}

TEST(SemaInfer, NamesResolveToLocalsBeforeParametersBeforeGlobals) {
    auto resolver = std::make_shared<MapResolver>();
    resolver->set_float("scale", 3.0);
    resolver->set_float("offset", 7.0);

    // A global is read through the resolver.
    auto p = build("k",
                   "def k(x: wp.array(dtype=wp.float64)):\n"
                   "    x[0] = x[0] * scale\n",
                   resolver);
    EXPECT_TRUE(resolver->was_asked("scale"));
    auto consts = find_kind(*p, ir::InstrKind::Const);
    ASSERT_EQ(consts.size(), 3u);  // the indices 0 of the load and the store, and the global
    const ir::Instr* global = nullptr;
    for (const ir::Instr* c : consts)
        if (c->value.f == 3.0) global = c;
    ASSERT_NE(global, nullptr) << ir::print(*p->kernel);
    EXPECT_EQ(p->kernel->type_of(global->dsts[0]), f64());  // a weak Python float adopts float64

    // A parameter hides the global of the same name: the resolver is never asked.
    resolver->asked.clear();
    p = build("k",
              "def k(x: wp.array(dtype=float), scale: float):\n"
              "    x[0] = x[0] * scale\n",
              resolver);
    EXPECT_FALSE(resolver->was_asked("scale"));
    for (const ir::Instr* c : find_kind(*p, ir::InstrKind::Const)) EXPECT_EQ(c->value.i, 0);

    // A local re-binds a parameter's name and hides the global too.
    resolver->asked.clear();
    p = build("k",
              "def k(x: wp.array(dtype=float), offset: float):\n"
              "    scale = offset + 1.0\n"
              "    offset = 2.0\n"
              "    x[0] = scale * offset\n",
              resolver);
    EXPECT_FALSE(resolver->was_asked("scale"));
    EXPECT_FALSE(resolver->was_asked("offset"));
    for (const ir::Instr* c : find_kind(*p, ir::InstrKind::Const)) {
        EXPECT_NE(c->value.f, 3.0);
        EXPECT_NE(c->value.f, 7.0);
    }
}

TEST(SemaInfer, AnUnknownNameIsAKeyErrorAtItsSpan) {
    Error e = build_error("undefined",
                          "def undefined(x: wp.array(dtype=float)):\n"
                          "    y = 2.0\n"
                          "    x[0] = y + z\n");
    EXPECT_EQ(e.kind(), ErrorKind::Key);
    EXPECT_EQ(e.message(), "undefined(): Referencing undefined symbol: z");
    EXPECT_EQ(e.where().file, "test.py");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.where().col, 16);
    EXPECT_EQ(e.where().line_text, "    x[0] = y + z");
}

TEST(SemaInfer, MixedPrecisionOperandsAreATypeError) {
    Error e = build_error("mixed",
                          "def mixed(x: wp.array(dtype=float), y: wp.array(dtype=wp.float64)):\n"
                          "    i = wp.tid()\n"
                          "    x[i] = x[i] + y[i]\n");
    EXPECT_EQ(e.kind(), ErrorKind::Type);
    EXPECT_EQ(e.message(),
              "operator '+': unsupported operand types (float32, float64) (the operands must have "
              "the same type)");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.where().col, 12);
}

TEST(SemaInfer, AFloatLiteralDoesNotBecomeAnInteger) {
    Error e = build_error("k",
                          "def k(x: wp.array(dtype=int)):\n"
                          "    i = wp.tid()\n"
                          "    x[i] = i * 2.5\n");
    EXPECT_EQ(e.kind(), ErrorKind::Type);
    EXPECT_EQ(e.message(),
              "operator '*': unsupported operand types (int32, float literal) (the operands must "
              "have the same type)");
    EXPECT_EQ(e.where().line, 3);
}

/// The values of the kernel's constants.
std::vector<int64_t> const_ints(const ir::Program& p) {
    std::vector<int64_t> out;
    for (const ir::Instr* c : find_kind(p, ir::InstrKind::Const)) out.push_back(c->value.i);
    return out;
}

TEST(SemaInfer, FoldedIntegerLiteralsWrapAroundLikeInt64) {
    // Literal arithmetic is folded at compile time; beyond int64 it wraps as the generated
    // int64 arithmetic would (computing it in signed arithmetic was undefined behaviour).
    const char* head = "def k(y: wp.array(dtype=wp.int64)):\n    y[0] = ";
    auto p = build("k", std::string(head) + "9223372036854775807 + 1\n");
    EXPECT_EQ(const_ints(*p), (std::vector<int64_t>{0, INT64_MIN}));  // the index, the value
    p = build("k", std::string(head) + "-9223372036854775807 - 2\n");
    EXPECT_EQ(const_ints(*p), (std::vector<int64_t>{0, INT64_MAX}));
    p = build("k", std::string(head) + "4611686018427387904 * 4\n");
    EXPECT_EQ(const_ints(*p), (std::vector<int64_t>{0, 0}));
    p = build("k", std::string(head) + "-(-9223372036854775807 - 1)\n");
    EXPECT_EQ(const_ints(*p), (std::vector<int64_t>{0, INT64_MIN}));
    p = build("k", std::string(head) + "-(2 * 3) + 7\n");  // and ordinary folding
    EXPECT_EQ(const_ints(*p), (std::vector<int64_t>{0, 1}));
}

TEST(SemaInfer, KernelsMustAnnotateParametersAndReturnNothing) {
    Error e = build_error("k", "def k(x):\n    pass\n");
    EXPECT_EQ(e.kind(), ErrorKind::Type);
    EXPECT_EQ(e.message(), "k(): kernel parameter 'x' needs a type annotation");
    EXPECT_EQ(e.where().line, 1);
    EXPECT_EQ(e.where().col, 7);

    e = build_error("k", "def k(x: int) -> int:\n    return x\n");
    EXPECT_EQ(e.message(), "k(): kernels cannot return a value");
    EXPECT_EQ(e.where().line, 1);
}

// --- static unrolling decisions -----------------------------------------------------------

size_t loops(const ir::Program& p) { return find_kind(p, ir::InstrKind::ForRange).size(); }
size_t loads(const ir::Program& p) { return find_kind(p, ir::InstrKind::Load).size(); }

/// The constant indices of the kernel's loads, in order (for unrolled `x[j]` reads).
std::vector<int64_t> load_indices(const ir::Program& p) {
    std::vector<int64_t> indices;
    for (const ir::Instr* load : find_kind(p, ir::InstrKind::Load))
        for (const ir::Instr* c : find_kind(p, ir::InstrKind::Const))
            if (c->dsts[0] == load->args[1]) indices.push_back(c->value.i);
    return indices;
}

TEST(SemaUnroll, AConstantRangeIsUnrolled) {
    auto p = build("k",
                   "def k(x: wp.array(dtype=float)):\n"
                   "    s = float(0.0)\n"
                   "    for j in range(1, 7, 2):\n"
                   "        s += x[j]\n"
                   "    x[0] = s\n");
    EXPECT_EQ(loops(*p), 0u);
    ASSERT_EQ(loads(*p), 3u);                                      // j = 1, 3, 5
    EXPECT_EQ(load_indices(*p), (std::vector<int64_t>{1, 3, 5}));  // constant indices
}

TEST(SemaUnroll, TripCountsAboveMaxUnrollStayLoops) {
    const char* src =
        "def k(x: wp.array(dtype=float)):\n"
        "    for j in range(17):\n"
        "        x[j] = 1.0\n";
    EXPECT_EQ(loops(*build("k", src)), 1u);  // 17 > 16, the default
    EXPECT_EQ(loops(*build("k", src, nullptr, 32)), 0u);
    const char* four =
        "def k(x: wp.array(dtype=float)):\n"
        "    for j in range(4):\n"
        "        x[j] = 1.0\n";
    EXPECT_EQ(loops(*build("k", four)), 0u);
    EXPECT_EQ(loops(*build("k", four, nullptr, 3)), 1u);
}

TEST(SemaUnroll, DynamicBoundsAndBreaksStayLoops) {
    EXPECT_EQ(loops(*build("k",
                           "def k(x: wp.array(dtype=float), n: int):\n"
                           "    for j in range(n):\n"
                           "        x[j] = 1.0\n")),
              1u);
    EXPECT_EQ(loops(*build("k",
                           "def k(x: wp.array(dtype=float)):\n"
                           "    for j in range(4):\n"
                           "        if x[j] > 0.0:\n"
                           "            break\n"
                           "        x[j] = 1.0\n")),
              1u);
    EXPECT_EQ(loops(*build("k",
                           "def k(x: wp.array(dtype=float)):\n"
                           "    for j in range(4):\n"
                           "        if x[j] > 0.0:\n"
                           "            continue\n"
                           "        x[j] = 1.0\n")),
              1u);
}

TEST(SemaUnroll, NegativeStepsCountDown) {
    auto p = build("k",
                   "def k(x: wp.array(dtype=float)):\n"
                   "    s = float(0.0)\n"
                   "    for j in range(5, -1, -2):\n"
                   "        s += x[j]\n"
                   "    x[0] = s\n");
    EXPECT_EQ(loops(*p), 0u);
    EXPECT_EQ(load_indices(*p), (std::vector<int64_t>{5, 3, 1}));
}

TEST(SemaUnroll, TripCountsOfExtremeBoundsDoNotOverflow) {
    // (stop - start + step - 1) overflows an int64 for these; the loops are far too long to
    // unroll and must stay loops (an overflowed count once unrolled them to nothing).
    EXPECT_EQ(loops(*build("k",
                           "def k(x: wp.array(dtype=float)):\n"
                           "    for j in range(0, 9223372036854775807, 2):\n"
                           "        x[0] = 1.0\n")),
              1u);
    EXPECT_EQ(loops(*build("k",
                           "def k(x: wp.array(dtype=float)):\n"
                           "    for j in range(-9223372036854775807, 9223372036854775807):\n"
                           "        x[0] = 1.0\n")),
              1u);
    EXPECT_EQ(loops(*build("k",
                           "def k(x: wp.array(dtype=float)):\n"
                           "    for j in range(9223372036854775807, -9223372036854775807, -3):\n"
                           "        x[0] = 1.0\n")),
              1u);
    // Four trips whose k * step alone does not fit an int64.
    auto p = build("k",
                   "def k(x: wp.array(dtype=float)):\n"
                   "    s = float(0.0)\n"
                   "    for j in range(-9223372036854775807, 9223372036854775807, "
                   "4611686018427387904):\n"
                   "        s += x[j]\n"
                   "    x[0] = s\n");
    EXPECT_EQ(loops(*p), 0u);
    EXPECT_EQ(load_indices(*p), (std::vector<int64_t>{-9223372036854775807, -4611686018427387903, 1,
                                                      4611686018427387905}));
}

TEST(SemaUnroll, AGlobalConstantBoundIsConstant) {
    auto resolver = std::make_shared<MapResolver>();
    GlobalValue n;
    n.kind = GlobalValue::Kind::Constant;
    n.constant = types::ConstValue{types::int32_type(), true, 3, 0.0};
    resolver->globals["N"] = n;
    auto p = build("k",
                   "def k(x: wp.array(dtype=float)):\n"
                   "    for j in range(N):\n"
                   "        x[j] = 1.0\n",
                   resolver);
    EXPECT_EQ(loops(*p), 0u);
    EXPECT_EQ(find_kind(*p, ir::InstrKind::Store).size(), 3u);
}

}  // namespace
}  // namespace treadle::sema
