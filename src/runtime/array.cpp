// src/runtime/array.cpp -- allocation, copies within and across devices, views of treadle::Array
#include "treadle/array.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "runtime/buffer.h"
#include "runtime/cuda.h"
#include "treadle/error.h"
#include "types/types.h"

namespace treadle {

namespace {

constexpr int64_t k_max_dim_size = int64_t(1) << 31;

std::string shape_str(const int64_t* shape, int ndim) {
    std::string s = "(";
    for (int i = 0; i < ndim; ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    if (ndim == 1) s += ",";
    return s + ")";
}

std::string shape_str(const std::vector<int64_t>& shape) {
    return shape_str(shape.data(), (int)shape.size());
}

std::string dtype_str(const DType& t) {
    if (t.is_struct()) return static_cast<const types::Type*>(t.struct_type)->name;
    std::string s = scalar_name(t.scalar);
    if (t.rows > 0)
        s += "[" + std::to_string(t.rows) + (t.cols > 0 ? "x" + std::to_string(t.cols) : "") + "]";
    return s;
}

/// Checks the number and range of dimensions; returns the element count.
int64_t checked_size(const std::vector<int64_t>& shape, size_t elem_size) {
    if (shape.size() > (size_t)k_max_dims)
        throw Error(ErrorKind::Value, "array shape " + shape_str(shape) + " has " +
                                          std::to_string(shape.size()) +
                                          " dimensions; at most 4 are supported");
    int64_t size = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] < 0 || shape[d] >= k_max_dim_size)
            throw Error(ErrorKind::Value, "array shape " + shape_str(shape) + ": dimension " +
                                              std::to_string(d) + " has size " +
                                              std::to_string(shape[d]) +
                                              "; each size must be in [0, 2^31)");
        size *= shape[d];
        // Four factors below 2^31 can overflow: bound the running product by bytes.
        if (size > std::numeric_limits<int64_t>::max() / 8 / (int64_t)elem_size)
            throw Error(ErrorKind::Value, "array shape " + shape_str(shape) + " is too large");
    }
    return size;
}

/// Shape and byte strides padded with leading unit dimensions to exactly 4 dimensions.
struct Layout4 {
    int64_t shape[k_max_dims];
    int64_t stride[k_max_dims];
};

Layout4 pad4(const Array& a) {
    Layout4 l;
    int pad = k_max_dims - a.ndim();
    for (int d = 0; d < k_max_dims; ++d) {
        l.shape[d] = d < pad ? 1 : a.shape(d - pad);
        l.stride[d] = d < pad ? 0 : a.stride(d - pad);
    }
    return l;
}

/// Calls row(ptr, inner_count, inner_stride) for every innermost row of `a`.
template <typename Row>
void for_each_row(const Array& a, Row&& row) {
    if (a.size() == 0) return;
    Layout4 l = pad4(a);
    char* base = static_cast<char*>(a.data());
    for (int64_t i0 = 0; i0 < l.shape[0]; ++i0)
        for (int64_t i1 = 0; i1 < l.shape[1]; ++i1)
            for (int64_t i2 = 0; i2 < l.shape[2]; ++i2)
                row(base + i0 * l.stride[0] + i1 * l.stride[1] + i2 * l.stride[2], l.shape[3],
                    l.stride[3]);
}

/// The byte range [lo, hi) a view of `size` elements can reach, relative to its first element.
struct Extent {
    int64_t lo = 0, hi = 0;
    size_t bytes() const { return (size_t)(hi - lo); }
};

Extent byte_extent(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                   size_t elem, int64_t size) {
    Extent e;
    if (size == 0) return e;
    e.hi = (int64_t)elem;
    for (size_t d = 0; d < shape.size(); ++d) {
        const int64_t reach = (shape[d] - 1) * strides[d];
        if (reach < 0)
            e.lo += reach;
        else
            e.hi += reach;
    }
    return e;
}

Extent byte_extent(const Array& a) {
    return byte_extent(a.shape(), a.strides(), a.dtype().size(), a.size());
}

bool ranges_overlap(const void* a, const void* b, size_t bytes) {
    const uintptr_t x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
    return x < y + bytes && y < x + bytes;
}

/// Copies `bytes` from `src` on `src_dev` to `dst` on `dst_dev` (any pair of devices). Copies
/// that touch host memory are waited for, so the host memory may be reused on return; copies
/// within one CUDA device stay asynchronous on its default stream.
void copy_bytes(Device dst_dev, void* dst, Device src_dev, const void* src, size_t bytes) {
    if (bytes == 0) return;
    if (dst_dev.is_cpu() && src_dev.is_cpu()) {
        std::memmove(dst, src, bytes);
    } else if (src_dev.is_cpu()) {
        cuda::copy_host_to_device(dst_dev.ordinal(), dst, src, bytes);
        cuda::synchronize_stream(dst_dev.ordinal(), nullptr);
    } else if (dst_dev.is_cpu()) {
        cuda::copy_device_to_host(src_dev.ordinal(), dst, src, bytes);
        cuda::synchronize_stream(src_dev.ordinal(), nullptr);
    } else if (dst_dev == src_dev && !ranges_overlap(dst, src, bytes)) {
        cuda::copy_device_to_device(dst_dev.ordinal(), dst, src, bytes);
    } else {
        // Between two CUDA devices, or overlapping ranges of one: through host memory.
        auto staging = make_cpu_buffer(bytes, false);
        copy_bytes(Device::cpu(), staging->data(), src_dev, src, bytes);
        copy_bytes(dst_dev, dst, Device::cpu(), staging->data(), bytes);
    }
}

/// A CPU array with the shape and strides of `a` over a host copy of every byte `a` spans
/// (from its lowest to its highest element), for strided work on CUDA arrays on the host.
Array host_mirror(const Array& a) {
    const Extent e = byte_extent(a);
    auto staging = make_cpu_buffer(e.bytes(), false);
    copy_bytes(Device::cpu(), staging->data(), a.device(), static_cast<char*>(a.data()) + e.lo,
               e.bytes());
    return Array::wrap(static_cast<char*>(staging->data()) - e.lo, a.dtype(), a.shape(),
                       a.strides(), Device::cpu(), staging);
}

/// Copies a host mirror (from host_mirror(a), then modified) back over the bytes `a` spans.
void write_back(const Array& mirror, const Array& a) {
    const Extent e = byte_extent(a);
    copy_bytes(a.device(), static_cast<char*>(a.data()) + e.lo, Device::cpu(),
               static_cast<const char*>(mirror.data()) + e.lo, e.bytes());
}

/// Element-wise copy between two CPU arrays of the same shape and element size.
void assign_host(const Array& dst, const Array& src) {
    const size_t elem = dst.dtype().size();
    Layout4 d = pad4(dst);
    Layout4 s = pad4(src);
    char* dbase = static_cast<char*>(dst.data());
    const char* sbase = static_cast<const char*>(src.data());
    const bool packed_rows = d.stride[3] == (int64_t)elem && s.stride[3] == (int64_t)elem;
    for (int64_t i0 = 0; i0 < d.shape[0]; ++i0)
        for (int64_t i1 = 0; i1 < d.shape[1]; ++i1)
            for (int64_t i2 = 0; i2 < d.shape[2]; ++i2) {
                char* dp = dbase + i0 * d.stride[0] + i1 * d.stride[1] + i2 * d.stride[2];
                const char* sp = sbase + i0 * s.stride[0] + i1 * s.stride[1] + i2 * s.stride[2];
                if (packed_rows) {
                    std::memmove(dp, sp, (size_t)d.shape[3] * elem);
                } else {
                    for (int64_t i3 = 0; i3 < d.shape[3]; ++i3)
                        std::memmove(dp + i3 * d.stride[3], sp + i3 * s.stride[3], elem);
                }
            }
}

/// Sets `count` contiguous elements of `elem` bytes at `dst` on CUDA device `device` to `value`.
/// A value that repeats with a period of 1, 2 or 4 bytes is one memset; any other value is
/// copied once from the host and then doubled by copies within the device.
void fill_device(Device device, void* dst, const char* value, size_t elem, size_t count) {
    const int ordinal = device.ordinal();
    for (size_t period : {size_t(1), size_t(2), size_t(4)}) {
        if (elem % period != 0) continue;
        bool periodic = true;
        for (size_t i = period; i < elem && periodic; ++i) periodic = value[i] == value[i - period];
        if (!periodic) continue;
        uint32_t word = 0;
        uint8_t w8;
        uint16_t w16;
        if (period == 1) {
            std::memcpy(&w8, value, 1);
            word = w8;
        } else if (period == 2) {
            std::memcpy(&w16, value, 2);
            word = w16;
        } else {
            std::memcpy(&word, value, 4);
        }
        cuda::memset(ordinal, dst, word, period, count * (elem / period));
        return;
    }
    const size_t first = std::min(count, std::max<size_t>(1, (size_t(64) << 10) / elem));
    std::vector<char> pattern(first * elem);
    for (size_t i = 0; i < first; ++i) std::memcpy(pattern.data() + i * elem, value, elem);
    copy_bytes(device, dst, Device::cpu(), pattern.data(), pattern.size());
    char* base = static_cast<char*>(dst);
    for (size_t filled = first; filled < count;) {
        const size_t n = std::min(filled, count - filled);
        cuda::copy_device_to_device(ordinal, base + filled * elem, base, n * elem);
        filled += n;
    }
}

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape, size_t elem) {
    std::vector<int64_t> strides(shape.size());
    int64_t s = (int64_t)elem;
    for (int d = (int)shape.size() - 1; d >= 0; --d) {
        strides[d] = s;
        s *= shape[d] > 0 ? shape[d] : 1;
    }
    return strides;
}

}  // namespace

size_t DType::size() const {
    size_t n = scalar_size(scalar);
    if (rows > 0) n *= (size_t)rows;
    if (cols > 0) n *= (size_t)cols;
    return n;
}

Array Array::allocate(DType dtype, const std::vector<int64_t>& shape, Device device, bool zero,
                      bool pinned) {
    if (pinned && !device.is_cpu())
        throw Error(ErrorKind::Value,
                    "array allocation: pinned memory is host memory; it needs "
                    "device 'cpu', not '" +
                        device.alias() + "'");
    const size_t elem = dtype.size();
    const int64_t size = checked_size(shape, elem);
    Array a;
    a.m_dtype = dtype;
    a.m_ndim = (int)shape.size();
    std::vector<int64_t> strides = contiguous_strides(shape, elem);
    for (int d = 0; d < a.m_ndim; ++d) {
        a.m_shape[d] = shape[d];
        a.m_strides[d] = strides[d];
    }
    a.m_size = size;
    a.m_device = device;
    const size_t bytes = (size_t)size * elem;
    a.m_buffer = device.is_cuda() ? make_cuda_buffer(device.ordinal(), bytes, zero)
                 : pinned         ? make_pinned_buffer(bytes, zero)
                                  : make_cpu_buffer(bytes, zero);
    a.m_data = a.m_buffer->data();
    return a;
}

Array Array::empty(DType dtype, const std::vector<int64_t>& shape, Device device, bool pinned) {
    return allocate(dtype, shape, device, false, pinned);
}

bool Array::pinned() const { return m_buffer && m_buffer->pinned(); }

Array Array::zeros(DType dtype, const std::vector<int64_t>& shape, Device device, bool pinned) {
    return allocate(dtype, shape, device, true, pinned);
}

Array& Array::enable_grad() {
    if (is_null()) throw Error(ErrorKind::Value, "enable_grad(): the array is null");
    if (m_grad) return *this;
    // Same byte offsets as the array: the gradient of an element sits where the element sits
    // relative to the first one, also in a strided view.
    const Extent e = byte_extent(*this);
    auto grad = std::make_shared<Array>(*this);
    grad->m_buffer = m_device.is_cuda() ? make_cuda_buffer(m_device.ordinal(), e.bytes(), true)
                                        : make_cpu_buffer(e.bytes(), true);
    grad->m_data = static_cast<char*>(grad->m_buffer->data()) - e.lo;
    grad->m_grad = nullptr;
    m_grad = std::move(grad);
    return *this;
}

Array Array::wrap(void* data, DType dtype, const std::vector<int64_t>& shape,
                  const std::vector<int64_t>& byte_strides, Device device,
                  std::shared_ptr<void> owner) {
    const size_t elem = dtype.size();
    const int64_t size = checked_size(shape, elem);
    std::vector<int64_t> strides =
        byte_strides.empty() ? contiguous_strides(shape, elem) : byte_strides;
    if (strides.size() != shape.size())
        throw Error(ErrorKind::Value, "array wrap: " + std::to_string(strides.size()) +
                                          " strides given for shape " + shape_str(shape));
    if (data == nullptr && size > 0)
        throw Error(ErrorKind::Value, "array wrap: null pointer for a non-empty array");
    const Extent e = byte_extent(shape, strides, elem, size);
    Array a;
    a.m_dtype = dtype;
    a.m_ndim = (int)shape.size();
    for (int d = 0; d < a.m_ndim; ++d) {
        a.m_shape[d] = shape[d];
        a.m_strides[d] = strides[d];
    }
    a.m_size = size;
    a.m_device = device;
    a.m_data = data;
    a.m_buffer =
        wrap_external_buffer(static_cast<char*>(data) + e.lo, e.bytes(), std::move(owner), device);
    return a;
}

bool Array::is_contiguous() const {
    if (m_size == 0) return true;
    int64_t expected = (int64_t)m_dtype.size();
    for (int d = m_ndim - 1; d >= 0; --d) {
        if (m_shape[d] == 1) continue;
        if (m_strides[d] != expected) return false;
        expected *= m_shape[d];
    }
    return true;
}

uint64_t Array::version() const { return m_buffer ? m_buffer->version() : 0; }

std::string Array::last_writer() const {
    const char* w = m_buffer ? m_buffer->last_writer() : nullptr;
    return w ? w : "";
}

void Array::note_write(const char* writer) const {
    if (m_buffer) m_buffer->note_write(writer);
}

void Array::zero_() {
    note_write("host");
    if (m_size == 0) return;
    const size_t elem = m_dtype.size();
    if (m_device.is_cuda()) {
        if (is_contiguous()) {
            cuda::memset(m_device.ordinal(), m_data, 0, 1, (size_t)m_size * elem);
        } else {
            Array mirror = host_mirror(*this);
            mirror.zero_();
            write_back(mirror, *this);
        }
        return;
    }
    if (is_contiguous()) {
        std::memset(m_data, 0, (size_t)m_size * elem);
        return;
    }
    for_each_row(*this, [&](char* p, int64_t n, int64_t stride) {
        if (stride == (int64_t)elem) {
            std::memset(p, 0, (size_t)n * elem);
        } else {
            for (int64_t i = 0; i < n; ++i) std::memset(p + i * stride, 0, elem);
        }
    });
}

void Array::fill_bytes(const void* value, size_t value_size) {
    note_write("host");
    const size_t elem = m_dtype.size();
    if (value_size != elem)
        throw Error(ErrorKind::Value, "fill: value has " + std::to_string(value_size) +
                                          " bytes but an element of dtype " + dtype_str(m_dtype) +
                                          " has " + std::to_string(elem));
    if (m_size == 0) return;
    const char* v = static_cast<const char*>(value);
    if (m_device.is_cuda()) {
        if (is_contiguous()) {
            fill_device(m_device, m_data, v, elem, (size_t)m_size);
        } else {
            Array mirror = host_mirror(*this);
            mirror.fill_bytes(value, value_size);
            write_back(mirror, *this);
        }
        return;
    }
    for_each_row(*this, [&](char* p, int64_t n, int64_t stride) {
        for (int64_t i = 0; i < n; ++i) std::memcpy(p + i * stride, v, elem);
    });
}

void Array::assign(const Array& src) {
    note_write("host");
    if (m_dtype != src.m_dtype)
        throw Error(ErrorKind::Type, "assign: cannot copy an array of dtype " +
                                         dtype_str(src.m_dtype) + " into an array of dtype " +
                                         dtype_str(m_dtype));
    if (shape() != src.shape())
        throw Error(ErrorKind::Value, "assign: shape mismatch: destination has shape " +
                                          shape_str(m_shape, m_ndim) + ", source has shape " +
                                          shape_str(src.m_shape, src.m_ndim));
    if (m_size == 0) return;
    const size_t bytes = (size_t)m_size * m_dtype.size();
    if (m_device == src.m_device && m_data == src.m_data && strides() == src.strides()) return;
    if (is_contiguous() && src.is_contiguous()) {
        const Array& host = m_device.is_cpu() ? *this : src;
        const Device cuda_side = m_device.is_cpu() ? src.m_device : m_device;
        if (host.m_device.is_cpu() && cuda_side.is_cuda() &&
            cuda::is_capturing(cuda_side.ordinal(), nullptr)) {
            // In a capture: a copy node that reads or writes the host memory at each launch;
            // only pinned memory can be used that way (the caller keeps it alive).
            if (!host.pinned())
                throw Error(ErrorKind::Runtime,
                            "copy between host memory and " + cuda_side.alias() +
                                " during graph capture: the host array must be pinned "
                                "(allocate it with pinned=True)");
            if (m_device.is_cpu())
                cuda::copy_device_to_host(cuda_side.ordinal(), m_data, src.m_data, bytes);
            else
                cuda::copy_host_to_device(cuda_side.ordinal(), m_data, src.m_data, bytes);
            return;
        }
        copy_bytes(m_device, m_data, src.m_device, src.m_data, bytes);
        return;
    }
    if (m_device.is_cpu() && src.m_device.is_cpu()) {
        assign_host(*this, src);
        return;
    }
    // Strided, with a CUDA array on either side: element-wise on the host, through host copies
    // of the bytes each CUDA array spans (the source is read in full before anything is written).
    const Array from = src.m_device.is_cpu() ? src : host_mirror(src);
    if (m_device.is_cpu()) {
        assign_host(*this, from);
    } else if (is_contiguous()) {
        Array packed = empty(m_dtype, shape(), Device::cpu());
        assign_host(packed, from);
        copy_bytes(m_device, m_data, Device::cpu(), packed.m_data, bytes);
    } else {
        Array mirror = host_mirror(*this);
        assign_host(mirror, from);
        write_back(mirror, *this);
    }
}

Array Array::clone(Device device) const {
    if (is_null()) return Array();
    Array out = empty(m_dtype, shape(), device);
    out.assign(*this);
    return out;
}

// Reshape errors are RuntimeErrors, as in Warp.
Array Array::reshape(const std::vector<int64_t>& new_shape) const {
    if (!is_contiguous())
        throw Error(ErrorKind::Runtime, "reshape: cannot reshape a non-contiguous array of shape " +
                                            shape_str(m_shape, m_ndim) +
                                            "; make a contiguous copy first (contiguous())");
    std::vector<int64_t> shape = new_shape;
    int infer = -1;
    int64_t known = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == -1) {
            if (infer >= 0)
                throw Error(ErrorKind::Runtime,
                            "reshape: only one dimension can be -1, got " + shape_str(new_shape));
            infer = (int)d;
        } else if (shape[d] < 0) {
            throw Error(ErrorKind::Runtime, "reshape: invalid shape " + shape_str(new_shape));
        } else {
            known *= shape[d];
        }
    }
    if (infer >= 0) {
        if (known == 0 || m_size % known != 0)
            throw Error(ErrorKind::Runtime, "reshape: cannot reshape an array of size " +
                                                std::to_string(m_size) + " into shape " +
                                                shape_str(new_shape));
        shape[infer] = m_size / known;
    }
    const int64_t size = checked_size(shape, m_dtype.size());
    if (size != m_size)
        throw Error(ErrorKind::Runtime,
                    "reshape: cannot reshape array of shape " + shape_str(m_shape, m_ndim) +
                        " (size " + std::to_string(m_size) + ") into shape " + shape_str(shape) +
                        " (size " + std::to_string(size) + ")");
    Array out = *this;
    out.m_ndim = (int)shape.size();
    std::vector<int64_t> strides = contiguous_strides(shape, m_dtype.size());
    for (int d = 0; d < k_max_dims; ++d) {
        out.m_shape[d] = d < out.m_ndim ? shape[d] : 0;
        out.m_strides[d] = d < out.m_ndim ? strides[d] : 0;
    }
    if (m_grad) out.m_grad = std::make_shared<Array>(m_grad->reshape(shape));
    return out;
}

Array Array::transpose(const std::vector<int>& axes_in) const {
    std::vector<int> axes = axes_in;
    if (axes.empty())
        for (int d = m_ndim - 1; d >= 0; --d) axes.push_back(d);
    if ((int)axes.size() != m_ndim)
        throw Error(ErrorKind::Value, "transpose: " + std::to_string(axes.size()) +
                                          " axes given for an array with " +
                                          std::to_string(m_ndim) + " dimensions");
    bool seen[k_max_dims] = {false, false, false, false};
    for (int a : axes) {
        if (a < 0 || a >= m_ndim || seen[a])
            throw Error(ErrorKind::Value, "transpose: axes must be a permutation of 0.." +
                                              std::to_string(m_ndim - 1));
        seen[a] = true;
    }
    Array out = *this;
    for (int d = 0; d < m_ndim; ++d) {
        out.m_shape[d] = m_shape[axes[d]];
        out.m_strides[d] = m_strides[axes[d]];
    }
    if (m_grad) out.m_grad = std::make_shared<Array>(m_grad->transpose(axes));
    return out;
}

Array Array::slice(int dim, int64_t begin, int64_t end, int64_t step) const {
    if (dim < 0 || dim >= m_ndim)
        throw Error(ErrorKind::Bounds, "slice: dimension " + std::to_string(dim) +
                                           " is out of range for an array with " +
                                           std::to_string(m_ndim) + " dimensions");
    if (step < 1)
        throw Error(ErrorKind::Value, "slice: step must be positive, got " + std::to_string(step));
    const int64_t n = m_shape[dim];
    if (begin < 0 || begin > n || end < 0 || end > n)
        throw Error(ErrorKind::Bounds, "slice: range [" + std::to_string(begin) + ", " +
                                           std::to_string(end) + ") is out of bounds for " +
                                           "dimension " + std::to_string(dim) + " of size " +
                                           std::to_string(n));
    const int64_t len = end > begin ? (end - begin + step - 1) / step : 0;
    Array out = *this;
    if (len > 0) out.m_data = static_cast<char*>(m_data) + begin * m_strides[dim];
    out.m_shape[dim] = len;
    out.m_strides[dim] = m_strides[dim] * step;
    out.m_size = n > 0 ? m_size / n * len : 0;
    if (m_grad) out.m_grad = std::make_shared<Array>(m_grad->slice(dim, begin, end, step));
    return out;
}

Array Array::index(int64_t i) const { return select(0, i); }

Array Array::select(int dim, int64_t i) const {
    if (dim < 0 || dim >= m_ndim)
        throw Error(ErrorKind::Bounds, "index: dimension " + std::to_string(dim) +
                                           " is out of range for an array with " +
                                           std::to_string(m_ndim) + " dimensions");
    const int64_t n = m_shape[dim];
    if (i < 0 || i >= n)
        throw Error(ErrorKind::Bounds, "index " + std::to_string(i) +
                                           " is out of bounds for dimension " +
                                           std::to_string(dim) + " with size " + std::to_string(n));
    Array out = *this;
    out.m_data = static_cast<char*>(m_data) + i * m_strides[dim];
    for (int d = dim; d + 1 < m_ndim; ++d) {
        out.m_shape[d] = m_shape[d + 1];
        out.m_strides[d] = m_strides[d + 1];
    }
    out.m_ndim = m_ndim - 1;
    out.m_shape[out.m_ndim] = 0;
    out.m_strides[out.m_ndim] = 0;
    out.m_size = m_size / n;
    if (m_grad) out.m_grad = std::make_shared<Array>(m_grad->select(dim, i));
    return out;
}

Array Array::view_as(DType dtype) const {
    if (dtype.size() != m_dtype.size())
        throw Error(ErrorKind::Value, "view: cannot view an array of dtype " + dtype_str(m_dtype) +
                                          " (" + std::to_string(m_dtype.size()) + " bytes) as " +
                                          dtype_str(dtype) + " (" + std::to_string(dtype.size()) +
                                          " bytes); element sizes must match");
    Array out = *this;
    out.m_dtype = dtype;
    if (m_grad) out.m_grad = std::make_shared<Array>(m_grad->view_as(dtype));
    return out;
}

}  // namespace treadle
