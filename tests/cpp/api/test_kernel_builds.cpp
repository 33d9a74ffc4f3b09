// tests/cpp/api/test_kernel_builds.cpp -- the one build cache: one build per device and options
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "api/kernel_builds.h"
#include "api/module_resolver.h"
#include "frontend/parser.h"

namespace {

const char* k_source = R"(import treadle as wp


@wp.kernel
def sum8(out: wp.array(dtype=float)):
    s = 0.0
    for j in range(8):
        s += float(j)
    out[0] = s


@wp.kernel
def fill(out: wp.array(dtype=float), v: float):
    out[wp.tid()] = v
)";

struct Loaded {
    std::shared_ptr<treadle::ModuleResolver> resolver;
    std::shared_ptr<treadle::sema::FunctionSource> sum8, fill;
};

Loaded load() {
    auto src = treadle::ast::make_source("builds.py", k_source, 1);
    std::shared_ptr<const treadle::ast::Module> parsed = treadle::frontend::parse_module(src);
    Loaded l;
    l.resolver = std::make_shared<treadle::ModuleResolver>(parsed);
    l.sum8 = l.resolver->function("sum8");
    l.fill = l.resolver->function("fill");
    return l;
}

size_t loops(const treadle::Kernel& k) {
    size_t n = 0;
    for (size_t at = k.compiled()->source.find("for ("); at != std::string::npos;
         at = k.compiled()->source.find("for (", at + 1))
        ++n;
    return n;
}

TEST(KernelBuilds, KeepsOneBuildPerDeviceAndOptions) {
    Loaded l = load();
    treadle::KernelBuilds builds;
    treadle::BuildOptions release;
    EXPECT_FALSE(builds.find(treadle::Device::cpu(), release));
    treadle::Kernel a = builds.get(*l.sum8, treadle::Device::cpu(), release, l.resolver);
    treadle::Kernel b = builds.get(*l.sum8, treadle::Device::cpu(), release, l.resolver);
    EXPECT_EQ(a.compiled(), b.compiled());  // found, not built again
    ASSERT_TRUE(builds.find(treadle::Device::cpu(), release));
    EXPECT_EQ(builds.find(treadle::Device::cpu(), release)->compiled(), a.compiled());
    EXPECT_EQ(builds.size(), 1u);

    treadle::BuildOptions small = release;
    small.max_unroll = 4;  // changes the generated code: the 8-trip loop stays a loop
    treadle::Kernel c = builds.get(*l.sum8, treadle::Device::cpu(), small, l.resolver);
    EXPECT_NE(c.compiled(), a.compiled());
    EXPECT_EQ(loops(a), 1u);  // only the launch loop
    EXPECT_EQ(loops(c), 2u);
    EXPECT_EQ(builds.size(), 2u);
    EXPECT_EQ(builds.all().size(), 2u);

    builds.clear();
    EXPECT_EQ(builds.size(), 0u);
    EXPECT_FALSE(builds.find(treadle::Device::cpu(), release));
}

TEST(KernelBuilds, PreparesInOrderAndFinishesTogether) {
    Loaded l = load();
    treadle::KernelBuilds first, second;
    treadle::BuildOptions options;
    std::vector<treadle::KernelBuilds::Pending> pending;
    pending.push_back(*first.prepare(*l.sum8, treadle::Device::cpu(), options, l.resolver));
    pending.push_back(*second.prepare(*l.fill, treadle::Device::cpu(), options, l.resolver));
    std::vector<treadle::Kernel> built = treadle::KernelBuilds::finish(pending);
    ASSERT_EQ(built.size(), 2u);
    EXPECT_EQ(built[0].name(), "sum8");
    EXPECT_EQ(built[1].name(), "fill");
    EXPECT_EQ(first.find(treadle::Device::cpu(), options)->compiled(), built[0].compiled());
    EXPECT_EQ(second.find(treadle::Device::cpu(), options)->compiled(), built[1].compiled());
    // a build that exists has nothing to prepare
    EXPECT_FALSE(first.prepare(*l.sum8, treadle::Device::cpu(), options, l.resolver));

    auto out = treadle::zeros<float>({3});
    built[1].launch({3}, out, 2.5f);
    EXPECT_EQ(treadle::to_vector<float>(out), (std::vector<float>{2.5f, 2.5f, 2.5f}));
    // the kept build's backward pass comes from the same source
    EXPECT_TRUE(second.find(treadle::Device::cpu(), options)->with_adjoint().compiled()->adjoint);
}

}  // namespace
