// tests/cpp/passes/test_array_access.cpp -- which arrays hand-built kernels read and write, in
// source order and through the functions they call
#include <gtest/gtest.h>

#include <vector>

#include "../ir_build.h"
#include "passes/array_access.h"

namespace {

using treadle::ir::Function;
using treadle::ir::Instr;
using treadle::ir::InstrKind;
using treadle::passes::array_param_access;
using treadle::passes::k_access_read;
using treadle::passes::k_access_write;
using treadle::passes::k_access_write_after_read;
using treadle::test::IrBuilder;
namespace types = treadle::types;

const types::Type* farray() { return types::array_type(types::float32_type(), 1); }

TEST(ArrayAccess, ReadsWritesAndTheirOrder) {
    Function f;
    IrBuilder b(f, "k", true);
    auto x = b.param(farray(), "x");
    auto y = b.param(farray(), "y");
    auto z = b.param(farray(), "z");
    auto s = b.param(types::float32_type(), "s");
    auto i = b.tid()[0];
    b.store(y, {i}, b.load(x, {i}));  // x read, y written
    b.store(z, {i}, s);               // z written, then read: no write-after-read
    b.load(z, {i});
    b.store(x, {i}, s);  // x written after it was read
    std::vector<uint8_t> access = array_param_access(f);
    ASSERT_EQ(access.size(), 4u);
    EXPECT_EQ(access[0], k_access_read | k_access_write | k_access_write_after_read);
    EXPECT_EQ(access[1], k_access_write);
    EXPECT_EQ(access[2], k_access_write | k_access_read);
    EXPECT_EQ(access[3], 0);
}

TEST(ArrayAccess, FollowsArraysIntoCalledFunctions) {
    Function writer;  // writer(c, idx): c[idx] = 1.0
    {
        IrBuilder w(writer, "writer", false);
        auto c = w.param(farray(), "c");
        auto idx = w.param(types::int32_type(), "idx");
        w.store(c, {idx}, w.const_float(1.0));
    }
    Function k;
    IrBuilder b(k, "k", true);
    auto a = b.param(farray(), "a");
    auto c = b.param(farray(), "c");
    auto i = b.tid()[0];
    b.load(a, {i});
    for (auto arr : {c, a}) {  // writer(c, i), then writer(a, i): a was read before
        Instr call(InstrKind::CallFunc, 1);
        call.func = &writer;
        call.args = {arr, i};
        k.body.push_back(call);
    }
    std::vector<uint8_t> access = array_param_access(k);
    EXPECT_EQ(access[0], k_access_read | k_access_write | k_access_write_after_read);
    EXPECT_EQ(access[1], k_access_write);  // the function only writes it
}

}  // namespace
