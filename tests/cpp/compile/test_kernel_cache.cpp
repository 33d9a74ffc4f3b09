// tests/cpp/compile/test_kernel_cache.cpp -- cache round trip, corruption recovery, races
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <thread>
#include <vector>

#include "compile/host_compiler.h"
#include "compile/kernel_cache.h"
#include "compile/sha256.h"
#include "runtime/dynlib.h"
#include "temp_dir.h"

namespace treadle {
namespace {

using testing::read_text;
using testing::TempDir;
using testing::write_text;
namespace fs = std::filesystem;

const std::string k_key = sha256_hex("some kernel");
const std::string k_binary = "kernel.so";

// A stand-in for a built binary: ~20 KB of deterministic bytes.
std::string fake_binary_bytes() {
    std::string bytes(20000, '\0');
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = char((i * 2654435761u) >> 13);
    return bytes;
}

class KernelCacheTest : public ::testing::Test {
protected:
    TempDir m_dir;
    KernelCache m_cache{m_dir / "cache"};

    std::string entry() const { return m_dir / ("cache/" + k_key.substr(0, 2) + "/" + k_key); }

    // Builds a fake binary in a staging dir and publishes it.
    CachedBinary publish_fake(const std::string& key = k_key) {
        std::string stage = m_cache.make_staging_dir();
        write_text(stage + "/" + k_binary, fake_binary_bytes());
        CachedBinary pin =
            m_cache.publish(key, "// source\n", stage + "/" + k_binary, k_binary, "0.1.0");
        m_cache.discard_staging_dir(stage);
        return pin;
    }

    // True when `pin` is a pin under the cache's tmp/ holding the fake binary.
    bool is_fake_pin(const CachedBinary& pin) const {
        std::string tmp = m_dir / "cache/tmp/pin-";
        return pin.path().rfind(tmp, 0) == 0 && read_text(pin.path()) == fake_binary_bytes();
    }

    size_t tmp_leftovers() const {
        size_t count = 0;
        std::error_code ec;
        for (auto it = fs::directory_iterator(m_dir / "cache/tmp", ec);
             !ec && it != fs::directory_iterator(); it.increment(ec))
            ++count;
        return count;
    }
};

TEST(KernelCacheRoot, EnvironmentOrder) {
    std::string saved_cache =
        std::getenv("TREADLE_CACHE_DIR") ? std::getenv("TREADLE_CACHE_DIR") : "";
    std::string saved_xdg = std::getenv("XDG_CACHE_HOME") ? std::getenv("XDG_CACHE_HOME") : "";
    ::setenv("TREADLE_CACHE_DIR", "/tmp/a/b/", 1);
    EXPECT_EQ(default_cache_root(), "/tmp/a/b/");
    ::unsetenv("TREADLE_CACHE_DIR");
    ::setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
    EXPECT_EQ(default_cache_root(), "/tmp/xdg/treadle");
    ::unsetenv("XDG_CACHE_HOME");
    if (const char* home = std::getenv("HOME")) {
        EXPECT_EQ(default_cache_root(),
                  fs::path(std::string(home) + "/.cache/treadle").lexically_normal().string());
    }
    if (!saved_cache.empty()) ::setenv("TREADLE_CACHE_DIR", saved_cache.c_str(), 1);
    if (!saved_xdg.empty()) ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
    KernelCache cache("relative/dir/");
    EXPECT_EQ(cache.root()[0], '/');
    EXPECT_NE(cache.root().back(), '/');
}

TEST_F(KernelCacheTest, MissThenRoundTrip) {
    EXPECT_FALSE(m_cache.lookup(k_key, k_binary).has_value());
    {
        CachedBinary published = publish_fake();
        EXPECT_TRUE(is_fake_pin(published));
        EXPECT_EQ(read_text(entry() + "/" + k_binary), fake_binary_bytes());
        auto found = m_cache.lookup(k_key, k_binary);
        ASSERT_TRUE(found.has_value());
        EXPECT_TRUE(is_fake_pin(*found));
        EXPECT_NE(found->path(), published.path());  // each load gets its own pin
    }
    EXPECT_EQ(read_text(entry() + "/source.cpp"), "// source\n");
    std::string meta = read_text(entry() + "/meta.txt");
    EXPECT_NE(meta.find("key " + k_key), std::string::npos);
    EXPECT_NE(meta.find("sha256 " + sha256_hex(fake_binary_bytes())), std::string::npos);
    EXPECT_NE(meta.find("version 0.1.0"), std::string::npos);
    EXPECT_EQ(tmp_leftovers(), 0u);
}

TEST_F(KernelCacheTest, LookupIsFast) {
    publish_fake();
    constexpr int reps = 200;
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) ASSERT_TRUE(m_cache.lookup(k_key, k_binary).has_value());
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                    .count() /
                reps;
    std::printf("[ info ] cache lookup of a 20 KB binary: %.1f us\n", us);
#if defined(__SANITIZE_ADDRESS__)
    EXPECT_LT(us, 10000.0);  // AddressSanitizer checks every byte the hash reads
#else
    EXPECT_LT(us, 1000.0);
#endif
}

TEST_F(KernelCacheTest, RealKernelRoundTrip) {
    std::string stage = m_cache.make_staging_dir();
    std::string source = "extern \"C\" int answer() { return 42; }\n";
    write_text(stage + "/source.cpp", source);
    CompileResult r = compile_shared_object(stage + "/source.cpp", stage + "/" + k_binary, {}, {});
    ASSERT_TRUE(r.ok) << r.diagnostics;
    std::string key = sha256_hex(source + host_compiler().identity);
    m_cache.publish(key, source, stage + "/" + k_binary, k_binary);
    m_cache.discard_staging_dir(stage);
    auto found = m_cache.lookup(key, k_binary);
    ASSERT_TRUE(found.has_value());
    DynamicLibrary lib(found->path());
    EXPECT_EQ(reinterpret_cast<int (*)()>(lib.symbol("answer"))(), 42);
}

// Each way an entry can go bad: lookup must reject it, remove it, and a rebuild must work.
struct Corruption {
    const char* name;
    std::function<void(const std::string& entry)> damage;
};

TEST_F(KernelCacheTest, EveryCorruptionIsRemovedAndRebuilt) {
    const std::vector<Corruption> corruptions = {
        {"missing binary", [](const std::string& e) { fs::remove(e + "/" + k_binary); }},
        {"truncated binary",
         [](const std::string& e) { ::truncate((e + "/" + k_binary).c_str(), 1000); }},
        {"flipped byte, same size",
         [](const std::string& e) {
             std::string bytes = read_text(e + "/" + k_binary);
             bytes[12345] ^= 0x5a;
             write_text(e + "/" + k_binary, bytes);
         }},
        {"empty binary", [](const std::string& e) { write_text(e + "/" + k_binary, ""); }},
        {"missing meta", [](const std::string& e) { fs::remove(e + "/meta.txt"); }},
        {"empty meta", [](const std::string& e) { write_text(e + "/meta.txt", ""); }},
        {"garbage meta",
         [](const std::string& e) { write_text(e + "/meta.txt", "\x01\x02 not a meta file"); }},
        {"truncated meta",
         [](const std::string& e) {
             std::string meta = read_text(e + "/meta.txt");
             write_text(e + "/meta.txt", meta.substr(0, meta.size() / 2));
         }},
        {"wrong key in meta",
         [](const std::string& e) {
             std::string meta = read_text(e + "/meta.txt");
             meta.replace(meta.find("key ") + 4, 64, sha256_hex("other"));
             write_text(e + "/meta.txt", meta);
         }},
        {"wrong size in meta",
         [](const std::string& e) {
             std::string meta = read_text(e + "/meta.txt");
             meta.replace(meta.find("size 20000"), 10, "size 20001");
             write_text(e + "/meta.txt", meta);
         }},
        {"binary replaced by a directory",
         [](const std::string& e) {
             fs::remove(e + "/" + k_binary);
             fs::create_directory(e + "/" + k_binary);
         }},
        {"entry is an empty directory",
         [](const std::string& e) {
             fs::remove_all(e);
             fs::create_directory(e);
         }},
        {"entry is a file",
         [](const std::string& e) {
             fs::remove_all(e);
             write_text(e, "junk");
         }},
    };
    for (const auto& c : corruptions) {
        SCOPED_TRACE(c.name);
        publish_fake();
        ASSERT_TRUE(m_cache.lookup(k_key, k_binary).has_value());
        c.damage(entry());
        EXPECT_FALSE(m_cache.lookup(k_key, k_binary).has_value());
        EXPECT_FALSE(fs::exists(fs::symlink_status(entry())));
        EXPECT_FALSE(m_cache.lookup(k_key, k_binary).has_value());  // a plain miss now
        EXPECT_TRUE(is_fake_pin(publish_fake()));
        EXPECT_TRUE(m_cache.lookup(k_key, k_binary).has_value());
        EXPECT_EQ(tmp_leftovers(), 0u);
    }
}

TEST_F(KernelCacheTest, PublishOverACorruptEntryReplacesIt) {
    publish_fake();
    write_text(entry() + "/meta.txt", "garbage\n");
    EXPECT_TRUE(is_fake_pin(publish_fake()));
    EXPECT_TRUE(m_cache.lookup(k_key, k_binary).has_value());
}

TEST_F(KernelCacheTest, AskingForAnotherBinaryNameIsAMiss) {
    publish_fake();
    EXPECT_FALSE(m_cache.lookup(k_key, "other.so").has_value());
}

TEST_F(KernelCacheTest, ClearRemovesEntries) {
    publish_fake();
    publish_fake(sha256_hex("second"));
    m_cache.clear();
    EXPECT_FALSE(m_cache.lookup(k_key, k_binary).has_value());
    EXPECT_FALSE(m_cache.lookup(sha256_hex("second"), k_binary).has_value());
    publish_fake();
    EXPECT_TRUE(m_cache.lookup(k_key, k_binary).has_value());
}

TEST_F(KernelCacheTest, SetRootMovesTheCache) {
    publish_fake();
    m_cache.set_root(m_dir / "elsewhere");
    EXPECT_FALSE(m_cache.lookup(k_key, k_binary).has_value());
    m_cache.set_root(m_dir / "cache");
    EXPECT_TRUE(m_cache.lookup(k_key, k_binary).has_value());
}

TEST_F(KernelCacheTest, ConcurrentPublishFromThreads) {
    constexpr int threads = 8;
    std::vector<std::string> results(threads);
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i) {
        pool.emplace_back([&, i] {
            KernelCache cache(m_dir / "cache");
            for (int round = 0; round < 20; ++round) {
                std::string key = sha256_hex("kernel " + std::to_string(round));
                if (cache.lookup(key, k_binary)) continue;
                std::string stage = cache.make_staging_dir();
                write_text(stage + "/" + k_binary, fake_binary_bytes());
                CachedBinary pin = cache.publish(key, "src", stage + "/" + k_binary, k_binary);
                cache.discard_staging_dir(stage);
                if (read_text(pin.path()) != fake_binary_bytes()) results[i] = "bad pin";
            }
        });
    }
    for (auto& t : pool) t.join();
    for (int round = 0; round < 20; ++round) {
        auto found = m_cache.lookup(sha256_hex("kernel " + std::to_string(round)), k_binary);
        ASSERT_TRUE(found.has_value());
        EXPECT_EQ(read_text(found->path()), fake_binary_bytes());
    }
    for (const auto& r : results) EXPECT_EQ(r, "");
    EXPECT_EQ(tmp_leftovers(), 0u);
}

TEST_F(KernelCacheTest, ConcurrentPublishFromProcesses) {
    constexpr int children = 4;
    std::string root = m_dir / "cache";
    std::vector<pid_t> pids;
    for (int i = 0; i < children; ++i) {
        pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            int status = 0;
            try {
                KernelCache cache(root);
                for (int round = 0; round < 10; ++round) {
                    std::string key = sha256_hex("proc kernel " + std::to_string(round));
                    std::string stage = cache.make_staging_dir();
                    write_text(stage + "/" + k_binary, fake_binary_bytes());
                    CachedBinary pin = cache.publish(key, "src", stage + "/" + k_binary, k_binary);
                    cache.discard_staging_dir(stage);
                    if (!cache.lookup(key, k_binary) ||
                        read_text(pin.path()) != fake_binary_bytes())
                        status = 2;
                }
            } catch (...) {
                status = 1;
            }
            ::_exit(status);
        }
        pids.push_back(pid);
    }
    for (pid_t pid : pids) {
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    }
    for (int round = 0; round < 10; ++round)
        EXPECT_TRUE(m_cache.lookup(sha256_hex("proc kernel " + std::to_string(round)), k_binary));
    EXPECT_EQ(tmp_leftovers(), 0u);
}

TEST_F(KernelCacheTest, ClearWhilePublishingAndLookingUp) {
    std::atomic<bool> stop{false};
    std::atomic<int> errors{0}, hits{0};
    std::vector<std::thread> workers;
    for (int t = 0; t < 3; ++t) {
        workers.emplace_back([&, t] {
            KernelCache cache(m_dir / "cache");
            for (int round = 0; round < 60; ++round) {
                std::string key = sha256_hex("stress " + std::to_string((round + t) % 5));
                try {
                    if (auto found = cache.lookup(key, k_binary)) {
                        // Pinned: clear() running meanwhile cannot take it away.
                        if (read_text(found->path()) != fake_binary_bytes()) ++errors;
                        ++hits;
                        continue;
                    }
                    std::string stage = cache.make_staging_dir();
                    write_text(stage + "/" + k_binary, fake_binary_bytes());
                    cache.publish(key, "src", stage + "/" + k_binary, k_binary);
                    cache.discard_staging_dir(stage);
                } catch (const std::exception& e) {
                    ADD_FAILURE() << e.what();
                }
            }
        });
    }
    std::thread clearer([&] {
        KernelCache cache(m_dir / "cache");
        while (!stop.load()) {
            cache.clear();
            std::this_thread::sleep_for(std::chrono::microseconds(300));
        }
    });
    for (auto& w : workers) w.join();
    stop = true;
    clearer.join();
    EXPECT_EQ(errors.load(), 0);
    publish_fake();
    EXPECT_TRUE(m_cache.lookup(k_key, k_binary).has_value());
}

TEST_F(KernelCacheTest, StagingDirsAreUniqueAndDiscardable) {
    std::string a = m_cache.make_staging_dir(), b = m_cache.make_staging_dir();
    EXPECT_NE(a, b);
    EXPECT_EQ(a.rfind(m_dir / "cache/tmp/", 0), 0u);
    m_cache.discard_staging_dir(a);
    m_cache.discard_staging_dir(b);
    EXPECT_EQ(tmp_leftovers(), 0u);
}

}  // namespace
}  // namespace treadle
