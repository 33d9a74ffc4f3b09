// src/runtime/buffer.cpp -- aligned CPU allocation and keep-alive wrapping of external memory
#include "runtime/buffer.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "treadle/error.h"

namespace treadle {

namespace {

[[noreturn]] void throw_out_of_memory(size_t bytes) {
    char human[64];
    double mib = double(bytes) / (1024.0 * 1024.0);
    if (mib >= 1024.0)
        std::snprintf(human, sizeof(human), "%.2f GiB", mib / 1024.0);
    else
        std::snprintf(human, sizeof(human), "%.2f MiB", mib);
    throw Error(ErrorKind::OutOfMemory, "out of CPU memory: failed to allocate " +
                                            std::to_string(bytes) + " bytes (" + human + ")");
}

}  // namespace

Buffer::~Buffer() { std::free(m_allocation); }

std::shared_ptr<Buffer> make_cpu_buffer(size_t bytes, bool zero) {
    const size_t request = bytes == 0 ? 1 : bytes;
    void* allocation = nullptr;
    void* data = nullptr;
    if (zero) {
        // calloc knows when fresh pages are already zero (large blocks are mmap()ed), so
        // over-allocate by the alignment and align by hand instead of memset()ing.
        if (request <= SIZE_MAX - Buffer::alignment)
            allocation = std::calloc(1, request + Buffer::alignment);
        if (allocation) {
            uintptr_t p = reinterpret_cast<uintptr_t>(allocation);
            data = reinterpret_cast<void*>((p + Buffer::alignment - 1) &
                                           ~uintptr_t(Buffer::alignment - 1));
        }
    } else if (::posix_memalign(&allocation, Buffer::alignment, request) == 0) {
        data = allocation;
    } else {
        allocation = nullptr;
    }
    if (!allocation) throw_out_of_memory(bytes);

    std::shared_ptr<Buffer> buffer;
    try {
        buffer.reset(new Buffer());
    } catch (const std::bad_alloc&) {
        std::free(allocation);
        throw_out_of_memory(bytes);
    }
    buffer->m_allocation = allocation;
    buffer->m_data = data;
    buffer->m_size = bytes;
    return buffer;
}

std::shared_ptr<Buffer> wrap_external_buffer(void* data, size_t bytes,
                                             std::shared_ptr<void> owner) {
    std::shared_ptr<Buffer> buffer(new Buffer());
    buffer->m_data = data;
    buffer->m_size = bytes;
    buffer->m_owner = std::move(owner);
    return buffer;
}

}  // namespace treadle
