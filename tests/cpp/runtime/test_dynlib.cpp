// tests/cpp/runtime/test_dynlib.cpp -- loading kernel shared objects and their symbols
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "../compile/temp_dir.h"
#include "compile/host_compiler.h"
#include "runtime/dynlib.h"
#include "treadle/error.h"

namespace treadle {
namespace {

using testing::TempDir;
using testing::write_text;

class DynamicLibraryTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = new TempDir();
        write_text(*s_dir / "lib.cpp",
                   "extern \"C\" int add(int a, int b) { return a + b; }\n"
                   "extern \"C\" int counter = 7;\n");
        CompileResult r = compile_shared_object(*s_dir / "lib.cpp", *s_dir / "lib.so", {}, {});
        ASSERT_TRUE(r.ok) << r.diagnostics;
        write_text(*s_dir / "tls.cpp",
                   "thread_local int slot = 3;\n"
                   "extern \"C\" int bump() { return ++slot; }\n");
        r = compile_shared_object(*s_dir / "tls.cpp", *s_dir / "tls.so", {}, {});
        ASSERT_TRUE(r.ok) << r.diagnostics;
    }
    static void TearDownTestSuite() { delete s_dir; }
    static TempDir* s_dir;
};
TempDir* DynamicLibraryTest::s_dir = nullptr;

TEST_F(DynamicLibraryTest, LoadsAndCalls) {
    DynamicLibrary lib(*s_dir / "lib.so");
    EXPECT_TRUE(lib.is_open());
    auto add = reinterpret_cast<int (*)(int, int)>(lib.symbol("add"));
    EXPECT_EQ(add(2, 3), 5);
    EXPECT_EQ(*static_cast<int*>(lib.symbol("counter")), 7);
}

TEST_F(DynamicLibraryTest, LibrariesWithThreadLocalsStayLoaded) {
    const std::string plain = *s_dir / "lib.so", tls = *s_dir / "tls.so";
    {
        DynamicLibrary a(plain), b(tls);
        EXPECT_EQ(reinterpret_cast<int (*)()>(b.symbol("bump"))(), 4);
    }
    // the plain library is unloaded; the one with a thread_local stays (its threads' blocks)
    void* p = ::dlopen(plain.c_str(), RTLD_NOW | RTLD_NOLOAD);
    void* t = ::dlopen(tls.c_str(), RTLD_NOW | RTLD_NOLOAD);
    EXPECT_EQ(p, nullptr);
    EXPECT_NE(t, nullptr);
    if (p) ::dlclose(p);
    if (t) ::dlclose(t);
}

TEST_F(DynamicLibraryTest, MissingSymbolThrowsWithName) {
    DynamicLibrary lib(*s_dir / "lib.so");
    EXPECT_EQ(lib.find_symbol("no_such_symbol"), nullptr);
    try {
        lib.symbol("no_such_symbol");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Runtime);
        EXPECT_NE(std::string(e.what()).find("no_such_symbol"), std::string::npos);
    }
}

TEST_F(DynamicLibraryTest, MissingFileThrowsWithDlerrorText) {
    try {
        DynamicLibrary lib(*s_dir / "absent.so");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Runtime);
        EXPECT_NE(std::string(e.what()).find("absent.so"), std::string::npos);
    }
    write_text(*s_dir / "notelf.so", "not an ELF file");
    EXPECT_THROW(DynamicLibrary(*s_dir / "notelf.so"), Error);
}

TEST_F(DynamicLibraryTest, MoveTransfersOwnership) {
    DynamicLibrary a(*s_dir / "lib.so");
    DynamicLibrary b(std::move(a));
    EXPECT_FALSE(a.is_open());
    EXPECT_TRUE(b.is_open());
    DynamicLibrary c;
    c = std::move(b);
    EXPECT_FALSE(b.is_open());
    EXPECT_EQ(reinterpret_cast<int (*)(int, int)>(c.symbol("add"))(1, 1), 2);
    EXPECT_THROW(b.symbol("add"), Error);
    c.close();
    EXPECT_FALSE(c.is_open());
}

}  // namespace
}  // namespace treadle
