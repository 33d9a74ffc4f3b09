// include/treadle/array.h -- n-dimensional arrays (up to 4-D) on a device, shared by views
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "treadle/device.h"
#include "treadle/dtype.h"

namespace treadle {

class Buffer;

/// What an array element is beyond its scalar, rows and cols (see DType).
enum class ElementKind : uint8_t {
    Plain,      ///< a scalar, vector or matrix
    Quat,       ///< a quaternion: a vector of 4
    Transform,  ///< a transform (p, q): a vector of 7
    Struct,     ///< a struct of `rows` bytes (scalar UInt8) whose layout `struct_type` names
};

/// Element type of an array: a scalar, a vector/matrix of scalars, or a struct.
/// `rows == 0` means a plain scalar; a vector of length n has rows = n, cols = 0. Quaternions,
/// transforms and structs say so in `kind`.
struct DType {
    ScalarType scalar = ScalarType::Float32;
    int rows = 0;
    int cols = 0;
    ElementKind kind = ElementKind::Plain;
    /// Struct elements: the compiler's interned struct type (opaque here, never freed); two
    /// struct dtypes are equal exactly when these are.
    const void* struct_type = nullptr;

    DType() = default;
    DType(ScalarType s) : scalar(s) {}
    size_t size() const;
    bool is_struct() const { return kind == ElementKind::Struct; }
    bool operator==(const DType& o) const {
        return scalar == o.scalar && rows == o.rows && cols == o.cols && kind == o.kind &&
               struct_type == o.struct_type;
    }
    bool operator!=(const DType& o) const { return !(*this == o); }
};

/// Largest number of dimensions of an array or a launch.
constexpr int k_max_dims = 4;

/// An array: a typed, strided view of a reference-counted Buffer. Copying an Array copies the
/// view, not the data (like numpy). Strides are in bytes and 64-bit; each dimension is below
/// 2^31 (Warp's rule). A default-constructed Array is null (no buffer).
class Array {
public:
    Array() = default;

    /// Allocates an uninitialised contiguous array; throws ErrorKind::Value for a bad shape and
    /// ErrorKind::OutOfMemory when allocation fails.
    /// `pinned`: page-locked host memory for fast asynchronous copies (CPU arrays only; plain
    /// memory when CUDA is absent, see pinned()).
    static Array empty(DType dtype, const std::vector<int64_t>& shape, Device device = {},
                       bool pinned = false);
    static Array zeros(DType dtype, const std::vector<int64_t>& shape, Device device = {},
                       bool pinned = false);
    /// A view of memory owned elsewhere; `owner` keeps it alive (for numpy zero-copy).
    static Array wrap(void* data, DType dtype, const std::vector<int64_t>& shape,
                      const std::vector<int64_t>& byte_strides, Device device,
                      std::shared_ptr<void> owner);

    bool is_null() const { return m_data == nullptr && m_size == 0 && !m_buffer; }
    DType dtype() const { return m_dtype; }
    int ndim() const { return m_ndim; }
    int64_t shape(int d) const { return m_shape[d]; }
    int64_t stride(int d) const { return m_strides[d]; }
    std::vector<int64_t> shape() const { return {m_shape, m_shape + m_ndim}; }
    std::vector<int64_t> strides() const { return {m_strides, m_strides + m_ndim}; }
    /// Number of elements.
    int64_t size() const { return m_size; }
    Device device() const { return m_device; }
    void* data() const { return m_data; }
    template <typename T>
    T* data_as() const {
        return static_cast<T*>(m_data);
    }
    bool is_contiguous() const;
    /// True when the memory is pinned host memory.
    bool pinned() const;

    /// The gradient array (null when the array does not require gradients).
    const Array* grad() const { return m_grad.get(); }
    void set_grad(std::shared_ptr<Array> grad) { m_grad = std::move(grad); }
    const std::shared_ptr<Array>& grad_ptr() const { return m_grad; }
    /// Gives the array a zeroed gradient (Python's requires_grad=True) unless it has one, and
    /// returns *this. The gradient has the array's dtype, shape, strides and device, in fresh
    /// memory covering the bytes the view reaches, so kernels index it with the array's strides
    /// (views made afterwards view it too). It belongs to this Array object and copies made
    /// from it later; copies made before keep their own gradient. Throws ErrorKind::Value for a
    /// null array.
    Array& enable_grad();
    /// Whether backward passes keep this array's gradient where a kernel stored to it (Python's
    /// retain_grad=True); by default a store's adjoint consumes (zeroes) the element's gradient.
    /// Views made afterwards inherit it.
    bool retain_grad() const { return m_retain_grad; }
    void set_retain_grad(bool retain) { m_retain_grad = retain; }

    /// Sets every element to zero / to the bytes of one element value.
    void zero_();
    void fill_bytes(const void* value, size_t value_size);
    /// Copies all elements of `src` (same shape and dtype) into this array.
    void assign(const Array& src);
    /// A new contiguous array with the same contents on `device`.
    Array clone(Device device) const;
    /// A view with another shape (contiguous arrays only); -1 infers one dimension.
    Array reshape(const std::vector<int64_t>& shape) const;
    /// A view of the dimensions reordered by `axes`.
    Array transpose(const std::vector<int>& axes) const;
    /// A view of element range [begin, end) with step along dimension `dim`.
    Array slice(int dim, int64_t begin, int64_t end, int64_t step) const;
    /// The view `a[i]`: one dimension fewer.
    Array index(int64_t i) const;
    /// The view with dimension `dim` fixed at element `i`: one dimension fewer.
    Array select(int dim, int64_t i) const;
    /// A view of the same bytes as another dtype of the same element size.
    Array view_as(DType dtype) const;

    const std::shared_ptr<Buffer>& buffer() const { return m_buffer; }

    /// The write counter of the memory (shared by views; 0 for a null array). See Buffer.
    uint64_t version() const;
    /// Label of the last launch that wrote the memory ("host" for host writes), or "".
    std::string last_writer() const;
    /// Records a write by `writer`, a label that lives for the whole process.
    void note_write(const char* writer) const;

private:
    static Array allocate(DType dtype, const std::vector<int64_t>& shape, Device device, bool zero,
                          bool pinned);

    DType m_dtype;
    int m_ndim = 0;
    int64_t m_shape[k_max_dims] = {0, 0, 0, 0};
    int64_t m_strides[k_max_dims] = {0, 0, 0, 0};
    int64_t m_size = 0;
    void* m_data = nullptr;
    bool m_retain_grad = false;
    Device m_device;
    std::shared_ptr<Buffer> m_buffer;  ///< keeps the memory alive; shared by views
    std::shared_ptr<Array> m_grad;
};

/// Typed helpers for C++ programs: treadle::zeros<float>({n}, Device::cpu()).
template <typename T>
struct dtype_of;
template <>
struct dtype_of<bool> {
    static DType get() { return ScalarType::Bool; }
};
template <>
struct dtype_of<int8_t> {
    static DType get() { return ScalarType::Int8; }
};
template <>
struct dtype_of<uint8_t> {
    static DType get() { return ScalarType::UInt8; }
};
template <>
struct dtype_of<int16_t> {
    static DType get() { return ScalarType::Int16; }
};
template <>
struct dtype_of<uint16_t> {
    static DType get() { return ScalarType::UInt16; }
};
template <>
struct dtype_of<int32_t> {
    static DType get() { return ScalarType::Int32; }
};
template <>
struct dtype_of<uint32_t> {
    static DType get() { return ScalarType::UInt32; }
};
template <>
struct dtype_of<int64_t> {
    static DType get() { return ScalarType::Int64; }
};
template <>
struct dtype_of<uint64_t> {
    static DType get() { return ScalarType::UInt64; }
};
template <>
struct dtype_of<float> {
    static DType get() { return ScalarType::Float32; }
};
template <>
struct dtype_of<double> {
    static DType get() { return ScalarType::Float64; }
};

template <typename T>
Array zeros(std::initializer_list<int64_t> shape, Device device = {}) {
    return Array::zeros(dtype_of<T>::get(), std::vector<int64_t>(shape), device);
}
template <typename T>
Array empty(std::initializer_list<int64_t> shape, Device device = {}) {
    return Array::empty(dtype_of<T>::get(), std::vector<int64_t>(shape), device);
}
/// A 1-D array holding a copy of `values`.
template <typename T>
Array from_vector(const std::vector<T>& values, Device device = {}) {
    Array a = Array::empty(dtype_of<T>::get(), {(int64_t)values.size()}, Device::cpu());
    for (size_t i = 0; i < values.size(); ++i) a.data_as<T>()[i] = values[i];
    return device.is_cpu() ? a : a.clone(device);
}
/// The elements of an array (any device, any layout), copied out in row-major order.
template <typename T>
std::vector<T> to_vector(const Array& a) {
    Array c = (a.device().is_cpu() && a.is_contiguous()) ? a : a.clone(Device::cpu());
    return std::vector<T>(c.data_as<T>(), c.data_as<T>() + c.size());
}

}  // namespace treadle
