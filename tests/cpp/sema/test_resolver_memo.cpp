// tests/cpp/sema/test_resolver_memo.cpp -- a build asks its resolvers each question once
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "ir/ir.h"
#include "sema/infer.h"
#include "sema/resolver.h"

namespace treadle::sema {
namespace {

/// A resolver of three globals (wp, N = 4, helper) that counts every question.
class CountingResolver : public Resolver {
public:
    std::map<std::string, int> asked;
    std::shared_ptr<FunctionSource> helper;

    GlobalValue lookup(const std::string& name) override {
        ++asked["lookup " + name];
        GlobalValue g;
        if (name == "wp") {
            g.kind = GlobalValue::Kind::Module;
            g.module = "treadle";
        } else if (name == "N") {
            g.kind = GlobalValue::Kind::Constant;
            g.constant = types::ConstValue{types::int32_type(), true, 4, 0.0};
        } else if (name == "helper") {
            g.kind = GlobalValue::Kind::Function;
            g.function = helper;
        }
        return g;
    }
    GlobalValue annotation(const std::string& param) override {
        ++asked["annotation " + param];
        return {};
    }
    GlobalValue static_value(const std::string& expression,
                             const std::vector<std::pair<std::string, int64_t>>& indices) override {
        std::string key = "static " + expression;
        for (const auto& [name, value] : indices) key += " " + name + "=" + std::to_string(value);
        ++asked[key];
        GlobalValue g;
        g.kind = GlobalValue::Kind::Constant;
        g.constant = types::ConstValue{types::int32_type(), true,
                                       indices.empty() ? 4 : 2 * indices[0].second, 0.0};
        return g;
    }
};

std::shared_ptr<FunctionSource> function(const std::string& name, const std::string& text,
                                         std::shared_ptr<Resolver> resolver, bool is_kernel) {
    auto fn = std::make_shared<FunctionSource>();
    fn->key = "test." + name;
    fn->name = name;
    fn->source = ast::make_source("memo.py", text, 1);
    fn->resolver = std::move(resolver);
    fn->is_kernel = is_kernel;
    return fn;
}

TEST(ResolverMemo, EachQuestionIsAskedOncePerBuild) {
    auto names = std::make_shared<CountingResolver>();
    // Non-owning, as the module loader's functions point at their resolver (no cycle).
    std::shared_ptr<Resolver> unowned(std::shared_ptr<void>(), names.get());
    names->helper =
        function("helper", "def helper(x: float):\n    return x * float(N)\n", unowned, false);
    auto kernel = function("k",
                           "def k(a: wp.array(dtype=float)):\n"
                           "    i = wp.tid()\n"
                           "    s = float(N) + float(N)\n"
                           "    for j in range(wp.static(N)):\n"
                           "        s += helper(float(wp.static(j * 2)))\n"
                           "    a[i] = helper(s) + helper(float(N))\n",
                           names, true);
    std::unique_ptr<ir::Program> program = build_program(*kernel);
    ASSERT_TRUE(program->kernel);
    EXPECT_EQ(names->asked["lookup wp"], 1);
    EXPECT_EQ(names->asked["lookup N"], 1);  // the kernel and helper share one resolver
    EXPECT_EQ(names->asked["lookup helper"], 1);
    EXPECT_EQ(names->asked["annotation a"], 1);
    EXPECT_EQ(names->asked["annotation x"], 1);
    EXPECT_EQ(names->asked["static N"], 1);
    // one question per value of the unrolled loop's index
    for (int j = 0; j < 4; ++j)
        EXPECT_EQ(names->asked["static j * 2 j=" + std::to_string(j)], 1) << j;

    // A second build asks again: the memo lives as long as one build.
    build_program(*kernel);
    EXPECT_EQ(names->asked["lookup N"], 2);
}

}  // namespace
}  // namespace treadle::sema
