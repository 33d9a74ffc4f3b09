// tests/cpp/compile/test_kernel_cache_safety.cpp -- cache permissions, refusals, links, locks
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "compile/host_compiler.h"
#include "compile/kernel_cache.h"
#include "compile/sha256.h"
#include "runtime/dynlib.h"
#include "temp_dir.h"
#include "treadle/error.h"

namespace treadle {
namespace {

using testing::read_text;
using testing::TempDir;
using testing::write_text;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const std::string k_key = sha256_hex("a kernel");
const std::string k_binary = "kernel.so";
const std::string k_bytes(5000, 'k');

mode_t mode_of(const std::string& path) {
    struct stat st;
    EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
    return st.st_mode & 07777;
}

std::string entry_of(const std::string& root, const std::string& key = k_key) {
    return root + "/" + key.substr(0, 2) + "/" + key;
}

void publish_bytes(KernelCache& cache, const std::string& key = k_key,
                   const std::string& bytes = k_bytes) {
    std::string stage = cache.make_staging_dir();
    write_text(stage + "/" + k_binary, bytes);
    cache.publish(key, "// source\n", stage + "/" + k_binary, k_binary, "0.1.0");
    cache.discard_staging_dir(stage);
}

// Runs `body` in a child process with a deadline; returns its exit status (-signal if killed).
template <typename Body>
int in_child(Body&& body, unsigned deadline_s = 30) {
    pid_t pid = ::fork();
    if (pid == 0) {
        ::alarm(deadline_s);
        int status = 1;
        try {
            status = body();
        } catch (...) {
            status = 3;
        }
        ::_exit(status);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

// Restores the umask when it goes out of scope.
struct UmaskGuard {
    explicit UmaskGuard(mode_t mask) : saved(::umask(mask)) {}
    ~UmaskGuard() { ::umask(saved); }
    mode_t saved;
};

TEST(KernelCacheSafety, PrivatePermissionsWhateverTheUmask) {
    for (mode_t mask : {mode_t(0), mode_t(0777)}) {
        SCOPED_TRACE(mask);
        TempDir dir;
        std::string root = dir / "a/b/cache";
        {
            UmaskGuard guard(mask);
            KernelCache cache(root);
            publish_bytes(cache);
            ASSERT_TRUE(cache.lookup(k_key, k_binary).has_value());
            EXPECT_EQ(cache.root_problem(), "");
        }
        for (const std::string& d : {dir / "a", dir / "a/b", root, root + "/tmp", root + "/locks",
                                     root + "/" + k_key.substr(0, 2), entry_of(root)})
            EXPECT_EQ(mode_of(d), 0700u) << d;
        for (const char* f : {"meta.txt", "source.cpp", "kernel.so"})
            EXPECT_EQ(mode_of(entry_of(root) + "/" + f), 0600u) << f;
    }
}

TEST(KernelCacheSafety, AnExistingRootKeepsItsModeButNewFoldersArePrivate) {
    TempDir dir;
    std::string root = dir / "project";
    fs::create_directory(root);
    ::chmod(root.c_str(), 0755);
    KernelCache cache(root);
    publish_bytes(cache);
    EXPECT_EQ(mode_of(root), 0755u);  // the user's folder: not ours to change
    EXPECT_EQ(mode_of(root + "/tmp"), 0700u);
    EXPECT_EQ(mode_of(entry_of(root)), 0700u);
}

// A root that others can write is refused: nothing in it is loaded, a warning says why, the
// process builds in a private temporary cache, and clear() refuses to touch it.
void expect_refused(const std::string& root, const std::string& problem) {
    ::testing::internal::CaptureStderr();
    KernelCache cache(root);
    EXPECT_FALSE(cache.lookup(k_key, k_binary).has_value());
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("treadle warning: kernel cache: not using '" + root + "': " + problem),
              std::string::npos)
        << err;
    EXPECT_NE(cache.active_root(), root);
    EXPECT_EQ(cache.root_problem().rfind(problem, 0), 0u) << cache.root_problem();
    EXPECT_EQ(mode_of(cache.active_root()), 0700u);
    publish_bytes(cache);  // still works, privately
    EXPECT_TRUE(cache.lookup(k_key, k_binary).has_value());
    try {
        cache.clear();
        ADD_FAILURE() << "clear() of a refused root did not throw";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Runtime);
        EXPECT_EQ(e.message().rfind(
                      "clear_kernel_cache(): refusing to clear '" + root + "': " + problem, 0),
                  0u)
            << e.message();
        EXPECT_NE(e.message().find("(nothing was deleted)"), std::string::npos);
    }
    EXPECT_EQ(read_text(entry_of(root) + "/kernel.so"), k_bytes);  // the planted entry stays
}

TEST(KernelCacheSafety, WorldWritableRootIsRefused) {
    TempDir dir;
    std::string root = dir / "cache";
    {
        KernelCache planter(root);
        publish_bytes(planter);  // a valid-looking entry someone else could have put there
    }
    ::chmod(root.c_str(), 0777);
    expect_refused(root, "it is writable by every user (mode 0777)");
}

TEST(KernelCacheSafety, RootOwnedByAnotherUserIsRefused) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a folder to another user";
    TempDir dir;
    std::string root = dir / "cache";
    {
        KernelCache planter(root);
        publish_bytes(planter);
    }
    ASSERT_EQ(::chown(root.c_str(), 65534, 65534), 0);
    expect_refused(root, "it is owned by another user (uid 65534)");
}

TEST(KernelCacheSafety, EntryOwnedByAnotherUserIsNotLoaded) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a file to another user";
    TempDir dir;
    KernelCache cache(dir / "cache");
    publish_bytes(cache);
    ASSERT_EQ(::chown((entry_of(dir / "cache") + "/kernel.so").c_str(), 65534, 65534), 0);
    EXPECT_FALSE(cache.lookup(k_key, k_binary).has_value());
}

TEST(KernelCacheSafety, UnusableRootFallsBackToAPrivateTemporaryCache) {
    TempDir dir;
    write_text(dir / "file", "not a folder");
    std::string root = dir / "file/cache";
    ::testing::internal::CaptureStderr();
    std::string fallback;
    {
        KernelCache cache(root);
        publish_bytes(cache);
        auto found = cache.lookup(k_key, k_binary);
        ASSERT_TRUE(found.has_value());
        fallback = cache.active_root();
        EXPECT_EQ(cache.root_problem(), "cannot create it (Not a directory)");
        EXPECT_EQ(found->path().rfind(fallback + "/tmp/pin-", 0), 0u);
        EXPECT_EQ(mode_of(fallback), 0700u);
        cache.clear();  // nothing of ours in the root: no error, the fallback is emptied
        EXPECT_FALSE(cache.lookup(k_key, k_binary).has_value());
    }
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("not using '" + root +
                       "': cannot create it (Not a directory); kernels "
                       "are cached in the private temporary folder '" +
                       fallback + "' for this process only"),
              std::string::npos)
        << err;
    EXPECT_FALSE(fs::exists(fallback));  // removed with the cache
}

TEST(KernelCacheSafety, ReadOnlyRootFallsBack) {
    if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only folders";
    TempDir dir;
    std::string root = dir / "cache";
    fs::create_directory(root);
    ::chmod(root.c_str(), 0500);
    ::testing::internal::CaptureStderr();
    KernelCache cache(root);
    publish_bytes(cache);
    EXPECT_TRUE(cache.lookup(k_key, k_binary).has_value());
    ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(cache.root_problem(), "it is not writable (Permission denied)");
    ::chmod(root.c_str(), 0700);
}

TEST(KernelCacheSafety, FifosDoNotBlock) {
    for (const char* name : {"meta.txt", "kernel.so"}) {
        SCOPED_TRACE(name);
        TempDir dir;
        std::string root = dir / "cache";
        KernelCache cache(root);
        publish_bytes(cache);
        std::string planted = entry_of(root) + "/" + name;
        fs::remove(planted);
        ASSERT_EQ(::mkfifo(planted.c_str(), 0600), 0);
        // A blocked open() would hang the child until its alarm kills it.
        EXPECT_EQ(in_child([&] {
                      KernelCache other(root);
                      other.clear();  // not recognisable as an entry: left alone
                      if (!fs::is_fifo(planted)) return 4;
                      return other.lookup(k_key, k_binary).has_value() ? 5 : 0;
                  }),
                  0);
        EXPECT_FALSE(fs::exists(fs::symlink_status(entry_of(root))));  // lookup removed it
        publish_bytes(cache);
        EXPECT_TRUE(cache.lookup(k_key, k_binary).has_value());
    }
}

TEST(KernelCacheSafety, SymbolicLinksAreNotFollowed) {
    TempDir dir;
    std::string root = dir / "cache", victim_root = dir / "victim";
    {
        KernelCache victim(victim_root);
        publish_bytes(victim);  // a genuine entry elsewhere
    }
    std::string victim_entry = entry_of(victim_root);
    std::string shard = k_key.substr(0, 2);
    KernelCache cache(root);
    ASSERT_EQ(cache.active_root(), root);
    // A symlinked shard, and a symlinked entry in a real shard (another key's).
    fs::create_directory_symlink(victim_root + "/" + shard, root + "/" + shard);
    EXPECT_FALSE(cache.lookup(k_key, k_binary).has_value());
    cache.clear();
    EXPECT_EQ(read_text(victim_entry + "/kernel.so"), k_bytes);
    EXPECT_TRUE(fs::is_symlink(root + "/" + shard));
    fs::remove(root + "/" + shard);
    fs::create_directory(root + "/" + shard);
    fs::create_directory_symlink(victim_entry, entry_of(root));
    cache.clear();
    EXPECT_TRUE(fs::is_symlink(entry_of(root)));
    EXPECT_FALSE(cache.lookup(k_key, k_binary).has_value());  // removes the link only
    EXPECT_FALSE(fs::exists(fs::symlink_status(entry_of(root))));
    EXPECT_EQ(read_text(victim_entry + "/kernel.so"), k_bytes);
    // A binary that is a link to another file.
    publish_bytes(cache);
    fs::remove(entry_of(root) + "/kernel.so");
    fs::create_symlink(victim_entry + "/kernel.so", entry_of(root) + "/kernel.so");
    EXPECT_FALSE(cache.lookup(k_key, k_binary).has_value());
    EXPECT_EQ(read_text(victim_entry + "/kernel.so"), k_bytes);
    // A tmp/ that is a link: the root is not used.
    std::string root2 = dir / "cache2";
    fs::create_directory(root2);
    fs::create_directory_symlink(victim_root, root2 + "/tmp");
    ::testing::internal::CaptureStderr();
    KernelCache linked(root2);
    EXPECT_NE(linked.active_root(), root2);
    ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(linked.root_problem(), "'" + root2 + "/tmp': it is a symbolic link");
}

TEST(KernelCacheSafety, ClearDeletesOnlyWhatTreadleWrote) {
    TempDir dir;
    std::string root = dir / "project";
    fs::create_directories(root + "/src");
    write_text(root + "/src/main.py", "print('hello')\n");
    write_text(root + "/notes.txt", "notes");
    fs::create_directories(root + "/ab");  // a two-hex-digit folder of the user's
    write_text(root + "/ab/data.bin", "data");
    fs::create_directories(root + "/tmp/old");
    write_text(root + "/tmp/old/build.log", "log");
    write_text(root + "/tmp/stage-notes.txt", "mine");
    // Old enough for clear() to sweep it if it were one of the cache's own leftovers.
    std::string touch = "touch -h -d '2 hours ago' '" + root + "/tmp/old' '" + root +
                        "/tmp/old/build.log' '" + root + "/tmp/stage-notes.txt'";
    ASSERT_EQ(std::system(touch.c_str()), 0);
    KernelCache cache(root);
    publish_bytes(cache);
    std::string other = sha256_hex("other kernel");
    publish_bytes(cache, other);
    write_text(entry_of(root, other) + "/my-notes.txt", "the user's");  // no longer ours alone
    std::string lookalike = entry_of(root, sha256_hex("no meta"));
    fs::create_directories(lookalike);
    write_text(lookalike + "/kernel.so", "user file");
    cache.clear();
    EXPECT_FALSE(fs::exists(entry_of(root)));
    EXPECT_EQ(read_text(root + "/src/main.py"), "print('hello')\n");
    EXPECT_EQ(read_text(root + "/notes.txt"), "notes");
    EXPECT_EQ(read_text(root + "/ab/data.bin"), "data");
    EXPECT_EQ(read_text(root + "/tmp/old/build.log"), "log");
    EXPECT_EQ(read_text(root + "/tmp/stage-notes.txt"), "mine");
    EXPECT_EQ(read_text(entry_of(root, other) + "/my-notes.txt"), "the user's");
    EXPECT_EQ(read_text(entry_of(root, other) + "/kernel.so"), k_bytes);
    EXPECT_EQ(read_text(lookalike + "/kernel.so"), "user file");
}

TEST(KernelCacheSafety, ClearCannotBreakAnInFlightLoad) {
    TempDir dir;
    std::string root = dir / "cache";
    KernelCache cache(root);
    std::string stage = cache.make_staging_dir();
    std::string source = "extern \"C\" int answer() { return 42; }\n";
    write_text(stage + "/source.cpp", source);
    CompileResult r = compile_shared_object(stage + "/source.cpp", stage + "/" + k_binary, {}, {});
    ASSERT_TRUE(r.ok) << r.diagnostics;
    CachedBinary published = cache.publish(k_key, source, stage + "/" + k_binary, k_binary);
    cache.discard_staging_dir(stage);
    std::optional<CachedBinary> found = cache.lookup(k_key, k_binary);
    ASSERT_TRUE(found.has_value());
    // Another process clears the cache between lookup/publish and dlopen.
    EXPECT_EQ(in_child([&] {
                  KernelCache(root).clear();
                  return 0;
              }),
              0);
    EXPECT_FALSE(fs::exists(entry_of(root)));
    for (const CachedBinary* binary : {&published, &*found}) {
        DynamicLibrary lib(binary->path());
        EXPECT_EQ(reinterpret_cast<int (*)()>(lib.symbol("answer"))(), 42);
    }
    std::string pin = found->path();
    found.reset();
    EXPECT_FALSE(fs::exists(pin));  // a pin lives only as long as its holder
}

TEST(KernelCacheSafety, ConcurrentBuildersRunTheCompilerOnce) {
    TempDir dir;
    std::string root = dir / "cache", log = dir / "builds.log";
    constexpr int children = 8;
    std::vector<pid_t> pids;
    for (int i = 0; i < children; ++i) {
        pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            ::alarm(60);
            int status = 0;
            try {
                KernelCache cache(root);
                if (!cache.lookup(k_key, k_binary)) {
                    BuildLock lock = cache.lock_for_build(k_key);
                    if (!lock.acquired()) status = 2;
                    if (!cache.lookup(k_key, k_binary)) {
                        std::ofstream(log, std::ios::app) << "built\n";
                        ::usleep(300 * 1000);  // the compiler at work
                        publish_bytes(cache);
                    }
                }
                auto found = cache.lookup(k_key, k_binary);
                if (!found || read_text(found->path()) != k_bytes) status = 4;
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
    EXPECT_EQ(read_text(log), "built\n");
    EXPECT_FALSE(fs::exists(root + "/locks/" + k_key + ".lock"));  // released and removed
}

TEST(KernelCacheSafety, BuildLockWaitIsBoundedAndADeadHolderReleasesIt) {
    TempDir dir;
    std::string root = dir / "cache";
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    pid_t holder = ::fork();
    ASSERT_GE(holder, 0);
    if (holder == 0) {
        KernelCache cache(root);
        BuildLock lock = cache.lock_for_build(k_key);
        char c = lock.acquired() ? 'y' : 'n';
        (void)::write(ready[1], &c, 1);
        for (;;) ::pause();  // holds the lock until killed
    }
    char c = 0;
    ASSERT_EQ(::read(ready[0], &c, 1), 1);
    EXPECT_EQ(c, 'y');
    KernelCache cache(root);
    ::testing::internal::CaptureStderr();
    auto start = Clock::now();
    BuildLock timed_out = cache.lock_for_build(k_key, std::chrono::milliseconds(300));
    double waited = std::chrono::duration<double>(Clock::now() - start).count();
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_FALSE(timed_out.acquired());
    EXPECT_GE(waited, 0.3);
    EXPECT_LT(waited, 5.0);
    EXPECT_NE(err.find("gave up waiting for the build lock '" + root + "/locks/" + k_key +
                       ".lock' after 300 ms"),
              std::string::npos)
        << err;
    ::kill(holder, SIGKILL);
    ::waitpid(holder, nullptr, 0);
    start = Clock::now();
    BuildLock lock = cache.lock_for_build(k_key, std::chrono::seconds(30));
    EXPECT_TRUE(lock.acquired());
    EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 2.0);
    ::close(ready[0]);
    ::close(ready[1]);
}

TEST(KernelCacheSafety, ClearLeavesAHeldBuildLock) {
    TempDir dir;
    KernelCache cache(dir / "cache");
    BuildLock lock = cache.lock_for_build(k_key);
    ASSERT_TRUE(lock.acquired());
    cache.clear();
    EXPECT_TRUE(fs::exists(dir / ("cache/locks/" + k_key + ".lock")));
    lock.release();
    EXPECT_FALSE(fs::exists(dir / ("cache/locks/" + k_key + ".lock")));
}

}  // namespace
}  // namespace treadle
