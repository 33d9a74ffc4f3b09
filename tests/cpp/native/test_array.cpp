// tests/cpp/native/test_array.cpp -- array_t addressing, views, launch unravel, checked access
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "../../../native/treadle/array.h"

namespace {

using wp::array_t;
using wp::int32;
using wp::int64;

// A 3-D (2, 3, 4) view into a larger float buffer with element strides (40, 12, 2): no
// dimension is contiguous.
struct Strided {
    std::vector<float> buf = std::vector<float>(200);
    std::vector<float> gbuf = std::vector<float>(200);
    array_t<float> a{};
    Strided() {
        for (size_t n = 0; n < buf.size(); ++n) buf[n] = float(n);
        a.data = buf.data();
        a.grad = gbuf.data();
        a.shape[0] = 2;
        a.shape[1] = 3;
        a.shape[2] = 4;
        a.strides[0] = 40 * 4;
        a.strides[1] = 12 * 4;
        a.strides[2] = 2 * 4;
        a.ndim = 3;
    }
};

TEST(NativeArray, LayoutMatchesHost) {
    EXPECT_EQ(sizeof(array_t<double>), 72u);
    EXPECT_EQ(offsetof(array_t<float>, shape), 16u);
    EXPECT_EQ(offsetof(array_t<float>, strides), 32u);
    EXPECT_EQ(offsetof(array_t<float>, ndim), 64u);
    EXPECT_EQ(offsetof(wp::launch_bounds_t, size), 24u);
    EXPECT_EQ(sizeof(wp::bounds_error_t), 328u);
}

TEST(NativeArray, AddressLoadStoreWithByteStrides) {
    Strided s;
    const array_t<float>& a = s.a;
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) {
            for (int k = 0; k < 4; ++k) {
                EXPECT_EQ(wp::address(a, i, j, k), s.buf.data() + i * 40 + j * 12 + k * 2);
                EXPECT_EQ(wp::load(a, i, j, k), float(i * 40 + j * 12 + k * 2));
                EXPECT_EQ(wp::grad_address(a, i, j, k), s.gbuf.data() + i * 40 + j * 12 + k * 2);
            }
        }
    }
    EXPECT_EQ(wp::address(a, 1), s.buf.data() + 40);
    EXPECT_EQ(wp::address(a, 1, 2), s.buf.data() + 64);
    wp::store(a, 1, 2, 3, -1.0f);
    EXPECT_EQ(s.buf[40 + 24 + 6], -1.0f);
    wp::store(a, 1, 5.0f);
    EXPECT_EQ(s.buf[40], 5.0f);
    array_t<float> nograd = a;
    nograd.grad = nullptr;
    EXPECT_EQ(wp::grad_address(nograd, 1, 1), nullptr);

    // 4-D with a negative stride (a reversed first dimension).
    array_t<int32> b{};
    std::vector<int32> ibuf(2 * 2 * 2 * 3);
    for (size_t n = 0; n < ibuf.size(); ++n) ibuf[n] = int32(n);
    b.data = ibuf.data() + 12;  // element [0] is the second block
    b.shape[0] = 2;
    b.shape[1] = 2;
    b.shape[2] = 2;
    b.shape[3] = 3;
    b.strides[0] = -12 * 4;
    b.strides[1] = 6 * 4;
    b.strides[2] = 3 * 4;
    b.strides[3] = 4;
    b.ndim = 4;
    EXPECT_EQ(wp::load(b, 0, 1, 1, 2), 12 + 6 + 3 + 2);
    EXPECT_EQ(wp::load(b, 1, 0, 1, 0), 3);
    wp::store(b, 1, 1, 1, 2, 99);
    EXPECT_EQ(ibuf[11], 99);
    EXPECT_EQ(wp::grad_address(b, 0, 0, 0, 0), nullptr);
}

TEST(NativeArray, Int64Offsets) {
    // Offsets beyond 2^31 bytes must not overflow (computed in int64; nothing is touched).
    array_t<double> a{};
    a.data = reinterpret_cast<double*>(0x100000000000ull);
    a.shape[0] = 1 << 30;
    a.shape[1] = 1 << 30;
    a.strides[0] = int64(1) << 33;
    a.strides[1] = 8;
    a.ndim = 2;
    EXPECT_EQ(reinterpret_cast<wp::uint64>(wp::address(a, 3, 5)),
              0x100000000000ull + (3ull << 33) + 40);
}

TEST(NativeArray, Views) {
    Strided s;
    const array_t<float> r = wp::view(s.a, 1);
    EXPECT_EQ(r.ndim, 2);
    EXPECT_EQ(r.shape[0], 3);
    EXPECT_EQ(r.shape[1], 4);
    EXPECT_EQ(r.shape[2], 0);
    EXPECT_EQ(r.strides[0], 48);
    EXPECT_EQ(r.strides[1], 8);
    EXPECT_EQ(r.data, s.buf.data() + 40);
    EXPECT_EQ(r.grad, s.gbuf.data() + 40);
    EXPECT_EQ(wp::load(r, 2, 3), float(40 + 24 + 6));
    const array_t<float> row = wp::view(s.a, 1, 2);
    EXPECT_EQ(row.ndim, 1);
    EXPECT_EQ(row.shape[0], 4);
    EXPECT_EQ(wp::load(row, 3), float(40 + 24 + 6));
    EXPECT_EQ(row.grad, s.gbuf.data() + 64);
    array_t<float> nograd = s.a;
    nograd.grad = nullptr;
    EXPECT_EQ(wp::view(nograd, 1).grad, nullptr);
}

TEST(NativeArray, TidUnravelRowMajor) {
    wp::launch_bounds_t b{};
    b.shape[0] = 3;
    b.shape[1] = 4;
    b.shape[2] = 5;
    b.shape[3] = 2;
    for (int ndim = 1; ndim <= 4; ++ndim) {
        int64 size = 1;
        for (int d = 0; d < ndim; ++d) size *= b.shape[d];
        b.ndim = ndim;
        b.size = size;
        for (int64 t = 0; t < size; ++t) {
            int32 i = -1, j = -1, k = -1, l = -1;
            int64 back = 0;
            switch (ndim) {
                case 1:
                    wp::tid_unravel(t, b, i);
                    back = i;
                    break;
                case 2:
                    wp::tid_unravel(t, b, i, j);
                    back = int64(i) * 4 + j;
                    EXPECT_LT(j, 4);
                    break;
                case 3:
                    wp::tid_unravel(t, b, i, j, k);
                    back = (int64(i) * 4 + j) * 5 + k;
                    EXPECT_LT(k, 5);
                    break;
                default:
                    wp::tid_unravel(t, b, i, j, k, l);
                    back = ((int64(i) * 4 + j) * 5 + k) * 2 + l;
                    EXPECT_LT(l, 2);
            }
            EXPECT_EQ(back, t);
            EXPECT_LT(i, 3);
        }
    }
    int32 i, j;
    wp::tid_unravel(7, b, i, j);  // last dimension fastest
    EXPECT_EQ(i, 1);
    EXPECT_EQ(j, 3);
}

TEST(NativeArray, NegativeIndicesCountFromTheEnd) {
    wp_take_bounds_error(nullptr);
    Strided s;  // shape (2, 3, 4)
    EXPECT_EQ(wp::address(s.a, -1, -1, -1), wp::address(s.a, 1, 2, 3));
    EXPECT_EQ(wp::address(s.a, -2, 0, -4), wp::address(s.a, 0, 0, 0));
    EXPECT_EQ(wp::address_checked(s.a, -1, -3, -2, "a.py", 1, 5, "k"), wp::address(s.a, 1, 0, 2));
    EXPECT_EQ(wp::view(s.a, -1).data, wp::view(s.a, 1).data);
    EXPECT_EQ(wp_take_bounds_error(nullptr), 0);
}

TEST(NativeArray, CheckedAccessRecordsFirstFailure) {
    wp_take_bounds_error(nullptr);  // start clean
    Strided s;
    EXPECT_EQ(wp::address_checked(s.a, 1, 2, 3, "a.py", 1, 5, "k"), wp::address(s.a, 1, 2, 3));
    wp::bounds_error_t rec;
    EXPECT_EQ(wp_take_bounds_error(&rec), 0);

    float* p = wp::address_checked(s.a, 1, 3, 0, "/src/model.py", 42, 5, "integrate");
    EXPECT_EQ(p, wp::bounds_dummy<float>());
    *p = 123.0f;  // writes land in the dummy, not in the array
    float* q = wp::address_checked(s.a, -3, "/src/other.py", 7, 5, "other");
    EXPECT_EQ(q, p);  // -2 is the first row of 2, -3 is before it
    EXPECT_EQ(wp::address_checked(s.a, 0, 0, 0, 4, "x", 1, 5, "y"), p);

    ASSERT_EQ(wp_take_bounds_error(&rec), 1);
    EXPECT_EQ(rec.flag, 2);
    EXPECT_EQ(rec.line, 42);
    EXPECT_EQ(rec.column, 5);
    EXPECT_EQ(rec.dim, 1);
    EXPECT_EQ(rec.ndim, 3);
    EXPECT_EQ(rec.index[0], 1);
    EXPECT_EQ(rec.index[1], 3);
    EXPECT_EQ(rec.index[2], 0);
    EXPECT_EQ(rec.shape[0], 2);
    EXPECT_EQ(rec.shape[1], 3);
    EXPECT_EQ(rec.shape[2], 4);
    EXPECT_STREQ(rec.kernel, "integrate");
    EXPECT_STREQ(rec.file, "/src/model.py");
    EXPECT_EQ(wp_take_bounds_error(&rec), 0);  // taken: cleared

    // After clearing, the next failure is recorded again; long names are truncated.
    const std::string long_file(500, 'f');
    wp::address_checked(s.a, 2, long_file.c_str(), 9, 5, "k2");
    ASSERT_EQ(wp_take_bounds_error(&rec), 1);
    EXPECT_EQ(rec.dim, 0);
    EXPECT_EQ(rec.ndim, 1);
    EXPECT_EQ(rec.index[0], 2);
    EXPECT_EQ(std::strlen(rec.file), sizeof(rec.file) - 1);

    // view_checked: an out-of-bounds row gives an empty view whose accesses hit the dummy.
    const array_t<float> bad = wp::view_checked(s.a, 5, "v.py", 3, 5, "kv");
    EXPECT_EQ(bad.shape[0], 0);
    EXPECT_EQ(wp::address_checked(bad, 0, 0, "v.py", 4, 5, "kv"), p);
    ASSERT_EQ(wp_take_bounds_error(&rec), 1);
    EXPECT_EQ(rec.line, 3);
    EXPECT_EQ(rec.index[0], 5);
    const array_t<float> good = wp::view_checked(s.a, 1, "v.py", 3, 5, "kv");
    EXPECT_EQ(good.data, wp::view(s.a, 1).data);
    EXPECT_EQ(wp_take_bounds_error(&rec), 0);

    // An int64 index is checked whole: 2^32 + 1 would be 1 (in bounds) once truncated.
    const int64 big = (int64(1) << 32) + 1;
    EXPECT_EQ(wp::address_checked(s.a, big, 0, 0, "w.py", 8, 3, "kw"), p);
    EXPECT_EQ(wp::view_checked(s.a, -big, "w.py", 8, 3, "kw").shape[0], 0);
    ASSERT_EQ(wp_take_bounds_error(&rec), 1);
    EXPECT_EQ(rec.index[0], big);
    EXPECT_EQ(rec.column, 3);
}

// Two kernel modules built from the same source: each has its own record, reachable with dlsym
// on its own handle, even when the first is loaded RTLD_GLOBAL.
std::string source_root() {
#ifdef TREADLE_SOURCE_DIR
    return TREADLE_SOURCE_DIR;
#else
    const std::string f = __FILE__;
    const size_t slash = f.rfind('/');
    return (slash == std::string::npos ? std::string(".") : f.substr(0, slash)) + "/../../..";
#endif
}

TEST(NativeArray, EachModuleHasItsOwnBoundsRecord) {
    const std::string native = source_root() + "/native";
    ASSERT_TRUE(std::ifstream(native + "/treadle/cpu.h").good()) << native;
    const std::string dir = ::testing::TempDir();
    const std::string src = dir + "/treadle_bounds_mod.cpp";
    {
        std::ofstream out(src);
        out << "#include \"treadle/cpu.h\"\n"
               "WP_EXPORT void trigger(wp::array_t<float> a, int i) {\n"
               "    *wp::address_checked(a, i, \"mod.py\", 7, \"trig\") = 1.0f;\n"
               "}\n";
    }
    const char* cxx = std::getenv("CXX");
    std::vector<void*> handles;
    for (int m = 0; m < 2; ++m) {
        const std::string so = dir + "/treadle_bounds_mod" + std::to_string(m) + ".so";
        const std::string cmd = std::string(cxx ? cxx : "g++") +
                                " -std=c++17 -O1 -shared -fPIC -I" + native + " " + src + " -o " +
                                so;
        if (std::system(cmd.c_str()) != 0) GTEST_SKIP() << "cannot compile: " << cmd;
        void* h = dlopen(so.c_str(), RTLD_NOW | (m == 0 ? RTLD_GLOBAL : RTLD_LOCAL));
        ASSERT_NE(h, nullptr) << dlerror();
        handles.push_back(h);
    }
    using take_fn = int (*)(wp::bounds_error_t*);
    using trigger_fn = void (*)(array_t<float>, int);
    take_fn take0 = reinterpret_cast<take_fn>(dlsym(handles[0], "wp_take_bounds_error"));
    take_fn take1 = reinterpret_cast<take_fn>(dlsym(handles[1], "wp_take_bounds_error"));
    trigger_fn trig1 = reinterpret_cast<trigger_fn>(dlsym(handles[1], "trigger"));
    ASSERT_TRUE(take0 && take1 && trig1);
    EXPECT_NE(take0, take1);
    float x[3] = {0, 0, 0};
    array_t<float> a{};
    a.data = x;
    a.shape[0] = 3;
    a.strides[0] = 4;
    a.ndim = 1;
    trig1(a, 1);
    EXPECT_EQ(x[1], 1.0f);
    trig1(a, 3);
    wp::bounds_error_t rec;
    EXPECT_EQ(take0(&rec), 0);
    EXPECT_EQ(wp_take_bounds_error(&rec), 0);  // nor in this executable's copy
    ASSERT_EQ(take1(&rec), 1);
    EXPECT_EQ(rec.index[0], 3);
    EXPECT_STREQ(rec.kernel, "trig");
    for (void* h : handles) dlclose(h);
}

}  // namespace
