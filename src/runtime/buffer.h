// src/runtime/buffer.h -- memory blocks behind arrays: owned CPU or CUDA memory, or borrowed views
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

#include "treadle/device.h"

namespace treadle {

/// A contiguous block of memory on one device that arrays point into. Always held through
/// std::shared_ptr<Buffer>, so an array (or a kernel launch) keeps its memory alive by holding
/// the pointer. The block never moves or changes size. Three kinds:
///  - owned CPU memory: allocated by make_cpu_buffer(), 64-byte aligned, freed by the
///    destructor;
///  - owned CUDA memory: allocated by make_cuda_buffer() on one device, freed by the
///    destructor with cuda::free (stream-ordered on the device's default stream);
///  - external: wraps memory someone else owns (e.g. a numpy array, or a CUDA pointer from
///    __cuda_array_interface__) and holds `owner` until the Buffer dies, so the memory outlives
///    every view of it. No alignment is promised.
/// The Buffer itself is immutable and may be shared freely between threads; synchronising
/// reads and writes of the bytes is the user's business.
class Buffer {
public:
    static constexpr size_t alignment = 64;

    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    /// First byte (a device address for CUDA memory: never dereference it on the host).
    void* data() const { return m_data; }
    size_t size() const { return m_size; }
    /// The device the memory lives on.
    Device device() const { return m_device; }
    /// True when this Buffer allocated the memory (false for wrapped external memory).
    bool owns_memory() const { return m_allocation != nullptr; }
    /// True for pinned (page-locked) host memory from make_pinned_buffer().
    bool pinned() const { return m_pinned; }

    /// Write counter of this memory, shared by every view of it: bumped by each kernel launch
    /// that may write into it and by host writes through Array. A tape compares it to find
    /// arrays overwritten after a recorded launch read them.
    uint64_t version() const { return m_version.load(std::memory_order_relaxed); }
    /// Label of the last kernel launch that wrote here ("host" for host writes), or null.
    const char* last_writer() const { return m_last_writer.load(std::memory_order_relaxed); }
    /// Records a write by `writer` (a label that lives for the whole process).
    void note_write(const char* writer) {
        m_version.fetch_add(1, std::memory_order_relaxed);
        m_last_writer.store(writer, std::memory_order_relaxed);
    }

    /// Whether a launch recorded on a tape has read this memory since the flag was last
    /// cleared (Warp's verify_autograd_array_access): shared by every view of the memory.
    bool marked_read() const { return m_marked_read.load(std::memory_order_relaxed); }
    void set_marked_read(bool read) { m_marked_read.store(read, std::memory_order_relaxed); }

private:
    friend std::shared_ptr<Buffer> make_cpu_buffer(size_t bytes, bool zero);
    friend std::shared_ptr<Buffer> make_cuda_buffer(int ordinal, size_t bytes, bool zero);
    friend std::shared_ptr<Buffer> make_pinned_buffer(size_t bytes, bool zero);
    friend std::shared_ptr<Buffer> wrap_external_buffer(void* data, size_t bytes,
                                                        std::shared_ptr<void> owner, Device device);
    std::atomic<uint64_t> m_version{0};
    std::atomic<bool> m_marked_read{false};
    std::atomic<const char*> m_last_writer{nullptr};
    Buffer() = default;

    void* m_data = nullptr;  ///< first byte; non-null for owned CPU buffers, even when empty
    size_t m_size = 0;
    Device m_device;
    bool m_pinned = false;
    void* m_allocation = nullptr;   ///< what to free (per m_device), or nullptr for external
    std::shared_ptr<void> m_owner;  ///< keep-alive of external memory
};

/// Allocates `bytes` of 64-byte-aligned CPU memory, zero-filled when `zero` (large zeroed
/// blocks come straight from the OS, already zero, without a memset). Throws treadle::Error
/// with ErrorKind::OutOfMemory naming the size when the allocation fails.
std::shared_ptr<Buffer> make_cpu_buffer(size_t bytes, bool zero);

/// Allocates `bytes` of memory on CUDA device `ordinal` (cuda::alloc: stream-ordered on the
/// device's default stream where memory pools are supported), zero-filled with cuda::memset
/// when `zero`. An empty buffer (bytes == 0) allocates nothing and has a null data(). Throws
/// ErrorKind::OutOfMemory when the device is out of memory, and the errors of treadle::cuda
/// (Runtime when CUDA is missing, Value for a bad ordinal).
std::shared_ptr<Buffer> make_cuda_buffer(int ordinal, size_t bytes, bool zero);

/// Allocates `bytes` of pinned host memory (cuda::host_alloc) for the CPU device, so copies to
/// and from CUDA devices are asynchronous. When CUDA is not available it returns ordinary CPU
/// memory, whose Buffer reports pinned() == false.
std::shared_ptr<Buffer> make_pinned_buffer(size_t bytes, bool zero);

/// A Buffer over `bytes` at `data` on `device` that keeps `owner` alive as long as the Buffer
/// lives, for zero-copy views of memory owned elsewhere (e.g. a py::object holding a numpy
/// array, or the exporter of a __cuda_array_interface__).
std::shared_ptr<Buffer> wrap_external_buffer(void* data, size_t bytes, std::shared_ptr<void> owner,
                                             Device device = Device::cpu());

}  // namespace treadle
