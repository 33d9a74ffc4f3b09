// src/runtime/buffer.h -- CPU memory blocks behind arrays: owned, aligned, or borrowed views
#pragma once

#include <cstddef>
#include <memory>

namespace treadle {

/// A contiguous block of CPU memory that arrays point into. Always held through
/// std::shared_ptr<Buffer>, so an array (or a kernel launch) keeps its memory alive by holding
/// the pointer. The block never moves or changes size. Two kinds:
///  - owned: allocated by make_cpu_buffer(), 64-byte aligned, freed by the destructor;
///  - external: wraps memory someone else owns (e.g. a numpy array) and holds `owner` until
///    the Buffer dies, so the memory outlives every view of it. No alignment is promised.
/// The Buffer itself is immutable and may be shared freely between threads; synchronising
/// reads and writes of the bytes is the user's business.
class Buffer {
public:
    static constexpr size_t alignment = 64;

    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    void* data() const { return m_data; }
    size_t size() const { return m_size; }
    /// True when this Buffer allocated the memory (false for wrapped external memory).
    bool owns_memory() const { return m_allocation != nullptr; }

private:
    friend std::shared_ptr<Buffer> make_cpu_buffer(size_t bytes, bool zero);
    friend std::shared_ptr<Buffer> wrap_external_buffer(void* data, size_t bytes,
                                                        std::shared_ptr<void> owner);
    Buffer() = default;

    void* m_data = nullptr;  ///< first byte; non-null for owned buffers, even when empty
    size_t m_size = 0;
    void* m_allocation = nullptr;   ///< what to free(), or nullptr for external memory
    std::shared_ptr<void> m_owner;  ///< keep-alive of external memory
};

/// Allocates `bytes` of 64-byte-aligned CPU memory, zero-filled when `zero` (large zeroed
/// blocks come straight from the OS, already zero, without a memset). Throws treadle::Error
/// with ErrorKind::OutOfMemory naming the size when the allocation fails.
std::shared_ptr<Buffer> make_cpu_buffer(size_t bytes, bool zero);

/// A Buffer over `bytes` at `data` that keeps `owner` alive as long as the Buffer lives, for
/// zero-copy views of memory owned elsewhere (e.g. a py::object holding a numpy array).
std::shared_ptr<Buffer> wrap_external_buffer(void* data, size_t bytes, std::shared_ptr<void> owner);

}  // namespace treadle
