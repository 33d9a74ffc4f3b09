// src/runtime/buffer.cpp -- aligned CPU and CUDA device allocation, keep-alive external wrapping
#include "runtime/buffer.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "runtime/cuda.h"
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

Buffer::~Buffer() {
    if (!m_allocation) return;
    if (m_pinned) {
        try {
            cuda::host_free(m_allocation);
        } catch (...) {
        }
        return;
    }
    if (m_device.is_cuda()) {
        // A destructor must not throw; a failed free (a context torn down at exit, say) leaks.
        try {
            cuda::free(m_device.ordinal(), m_allocation);
        } catch (...) {
        }
        return;
    }
    std::free(m_allocation);
}

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

std::shared_ptr<Buffer> make_cuda_buffer(int ordinal, size_t bytes, bool zero) {
    // Validates the ordinal (and that CUDA exists) with the messages of get_device().
    const Device device = Device::parse("cuda:" + std::to_string(ordinal));
    std::shared_ptr<Buffer> buffer(new Buffer());
    buffer->m_device = device;
    buffer->m_size = bytes;
    if (bytes == 0) return buffer;
    void* ptr = cuda::alloc(ordinal, bytes);
    buffer->m_allocation = ptr;  // owned from here: the destructor frees it if memset throws
    buffer->m_data = ptr;
    if (zero) cuda::memset(ordinal, ptr, 0, 1, bytes);
    return buffer;
}

std::shared_ptr<Buffer> make_pinned_buffer(size_t bytes, bool zero) {
    if (!cuda::is_available()) return make_cpu_buffer(bytes, zero);
    std::shared_ptr<Buffer> buffer(new Buffer());
    buffer->m_size = bytes;
    buffer->m_pinned = true;
    void* ptr = cuda::host_alloc(bytes == 0 ? 1 : bytes);
    buffer->m_allocation = ptr;
    buffer->m_data = ptr;
    if (zero) std::memset(ptr, 0, bytes);
    return buffer;
}

std::shared_ptr<Buffer> wrap_external_buffer(void* data, size_t bytes, std::shared_ptr<void> owner,
                                             Device device) {
    std::shared_ptr<Buffer> buffer(new Buffer());
    buffer->m_data = data;
    buffer->m_size = bytes;
    buffer->m_device = device;
    buffer->m_owner = std::move(owner);
    return buffer;
}

}  // namespace treadle
