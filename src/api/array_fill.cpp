// src/api/array_fill.cpp -- fills and copies of strided and indexed arrays with device kernels
//
// The kernels see memory as words (4, 2 or 1 bytes, the widest that the element size, the
// strides and the addresses allow): one thread per word of each element. An element's address
// is its array's data pointer plus, per dimension, its coordinate (through the dimension's
// index array when it has one) times the stride. A fill's value travels in the launch as a
// vector of 64 words; wider elements take one launch per 64 words.
#include "api/array_fill.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "api/internal_module.h"
#include "treadle/error.h"
#include "treadle/module.h"

namespace treadle {

namespace {

constexpr int k_value_words = 64;

const char* const k_source = R"(import treadle as wp


@wp.func
def place(e: wp.int64, n: wp.int64, stride: wp.int64, idx: wp.array(dtype=wp.int32)):
    c = e % n
    if idx:
        c = wp.int64(idx[c])
    return c * stride


@wp.func
def word_of(e: wp.int64, shape: wp.vec4l, strides: wp.vec4l,
            i0: wp.array(dtype=wp.int32), i1: wp.array(dtype=wp.int32),
            i2: wp.array(dtype=wp.int32), i3: wp.array(dtype=wp.int32)):
    off = place(e, shape[3], strides[3], i3)
    e = e // shape[3]
    off = off + place(e, shape[2], strides[2], i2)
    e = e // shape[2]
    off = off + place(e, shape[1], strides[1], i1)
    e = e // shape[1]
    return off + place(e, shape[0], strides[0], i0)


)";

/// The fill and copy kernels for words of `type` (uint32, uint16, uint8).
std::string kernels_for(const std::string& type) {
    const std::string v = "wp.types.vector(length=64, dtype=wp." + type + ")";
    const std::string a = "wp.array(dtype=wp." + type + ")";
    const std::string idx =
        "i0: wp.array(dtype=wp.int32), i1: wp.array(dtype=wp.int32), "
        "i2: wp.array(dtype=wp.int32), i3: wp.array(dtype=wp.int32)";
    const std::string sidx =
        "j0: wp.array(dtype=wp.int32), j1: wp.array(dtype=wp.int32), "
        "j2: wp.array(dtype=wp.int32), j3: wp.array(dtype=wp.int32)";
    return "@wp.kernel(enable_backward=False)\ndef fill_" + type + "(base: " + a +
           ", shape: wp.vec4l, strides: wp.vec4l, " + idx + ", value: " + v +
           ", first: wp.int64):\n    e, j = wp.tid()\n"
           "    w = word_of(wp.int64(e), shape, strides, i0, i1, i2, i3)\n"
           "    base[w + first + wp.int64(j)] = value[j]\n\n\n"
           "@wp.kernel(enable_backward=False)\ndef copy_" +
           type + "(dst: " + a + ", shape: wp.vec4l, strides: wp.vec4l, " + idx + ", src: " + a +
           ", src_strides: wp.vec4l, " + sidx +
           "):\n    e, j = wp.tid()\n"
           "    w = word_of(wp.int64(e), shape, strides, i0, i1, i2, i3)\n"
           "    r = word_of(wp.int64(e), shape, src_strides, j0, j1, j2, j3)\n"
           "    dst[w + wp.int64(j)] = src[r + wp.int64(j)]\n\n\n";
}

Kernel word_kernel(const char* what, int word, Device device) {
    static const std::string source =
        k_source + kernels_for("uint32") + kernels_for("uint16") + kernels_for("uint8");
    const char* type = word == 4 ? "uint32" : word == 2 ? "uint16" : "uint8";
    return internal_kernel("<array_fill>", source.c_str(), std::string(what) + "_" + type, device);
}

/// One side of a kernel fill or copy: the memory as an array of words, and per dimension (the
/// last four, with leading dimensions of 1) the stride in words and the index array.
struct Side {
    Array words;
    std::array<int64_t, 4> strides{0, 0, 0, 0};
    std::array<Array, 4> indices;  ///< null where the dimension is not indexed
};

bool aligned(const Array& a, int word) {
    if (reinterpret_cast<uintptr_t>(a.data()) % word != 0) return false;
    for (int64_t s : a.strides())
        if (s % word != 0) return false;
    return true;
}

/// The words of `a` (its data array: indices pick along its dimensions), or false when a
/// stride is negative.
bool side_of(const Array& a, const IndexArrays& indices, int word, Side& side) {
    int64_t span = (int64_t)a.dtype().size();
    const int nd = a.ndim();
    for (int d = 0; d < nd; ++d) {
        const int64_t stride = a.strides()[d];
        if (stride < 0) return false;
        span += (a.shape()[d] - 1) * stride;
        const int slot = 4 - nd + d;
        side.strides[slot] = stride / word;
        if (d < (int)indices.size()) side.indices[slot] = indices[d];
    }
    const DType type(word == 4   ? ScalarType::UInt32
                     : word == 2 ? ScalarType::UInt16
                                 : ScalarType::UInt8);
    side.words = Array::wrap(a.data(), type, {span / word}, {word}, a.device(), a.buffer());
    return true;
}

/// The shape of the elements picked: an indexed dimension has its index array's length.
std::array<int64_t, 4> picked_shape(const Array& a, const IndexArrays& indices, int64_t& count) {
    std::array<int64_t, 4> shape{1, 1, 1, 1};
    count = 1;
    const int nd = a.ndim();
    for (int d = 0; d < nd; ++d) {
        int64_t n = a.shape()[d];
        if (d < (int)indices.size() && !indices[d].is_null()) n = indices[d].size();
        shape[4 - nd + d] = n;
        count *= n;
    }
    return shape;
}

int word_size(const Array& a, const Array* b) {
    const size_t elem = a.dtype().size();
    for (int word : {4, 2}) {
        if (elem % word != 0 || !aligned(a, word)) continue;
        if (b && !aligned(*b, word)) continue;
        return word;
    }
    return 1;
}

bool contiguous_plain(const Array& a, const IndexArrays& indices) {
    for (const Array& i : indices)
        if (!i.is_null()) return false;
    return a.is_contiguous();
}

/// Whether memset can fill with `value`: one repeated byte, half-word or word.
bool periodic(const unsigned char* value, size_t size) {
    for (size_t period : {size_t(1), size_t(2), size_t(4)}) {
        if (size % period != 0) continue;
        if (std::memcmp(value, value + period, size - period) == 0) return true;
    }
    return false;
}

}  // namespace

bool fill_by_kernel(const Array& dst, const void* value, size_t size, const IndexArrays& indices) {
    int64_t count = 0;
    const std::array<int64_t, 4> shape = picked_shape(dst, indices, count);
    if (count == 0) return true;
    const int word = word_size(dst, nullptr);
    const size_t words = size / word;
    Side side;
    if (!side_of(dst, indices, word, side)) return false;
    dst.note_write("host");
    const Kernel fill = word_kernel("fill", word, dst.device());
    const auto* bytes = static_cast<const unsigned char*>(value);
    // Elements wider than the value vector are filled a slice of words per launch.
    for (size_t first = 0; first < words; first += k_value_words) {
        const size_t n = std::min(words - first, (size_t)k_value_words);
        std::array<double, k_value_words> v{};
        for (size_t w = 0; w < n; ++w) {
            uint32_t x = 0;
            std::memcpy(&x, bytes + (first + w) * word, word);
            v[w] = (double)x;
        }
        fill.launch({count, (int64_t)n}, side.words, shape, side.strides, side.indices[0],
                    side.indices[1], side.indices[2], side.indices[3], v, (int64_t)first);
    }
    return true;
}

bool copy_by_kernel(const Array& dst, const Array& src, const IndexArrays& dst_indices,
                    const IndexArrays& src_indices) {
    int64_t count = 0, src_count = 0;
    const std::array<int64_t, 4> shape = picked_shape(dst, dst_indices, count);
    if (picked_shape(src, src_indices, src_count) != shape)
        throw Error(ErrorKind::Value, "copy: the source and destination shapes differ");
    if (count == 0) return true;
    const int word = word_size(dst, &src);
    const size_t words = dst.dtype().size() / word;
    Side to, from;
    if (!side_of(dst, dst_indices, word, to) || !side_of(src, src_indices, word, from))
        return false;
    dst.note_write("host");
    word_kernel("copy", word, dst.device())
        .launch({count, (int64_t)words}, to.words, shape, to.strides, to.indices[0], to.indices[1],
                to.indices[2], to.indices[3], from.words, from.strides, from.indices[0],
                from.indices[1], from.indices[2], from.indices[3]);
    return true;
}

void fill_array(const Array& dst, const void* value, size_t size, const IndexArrays& indices) {
    if (size != dst.dtype().size())
        throw Error(ErrorKind::Value, "fill: value has " + std::to_string(size) +
                                          " bytes but an element has " +
                                          std::to_string(dst.dtype().size()));
    const bool plain = contiguous_plain(dst, indices);
    if (dst.device().is_cuda() &&
        !(plain && periodic(static_cast<const unsigned char*>(value), size)) &&
        fill_by_kernel(dst, value, size, indices))
        return;
    if (!plain && !indices.empty())
        throw Error(ErrorKind::Value, "fill: index arrays need a CUDA array");
    Array target = dst;
    target.fill_bytes(value, size);
}

void copy_array(const Array& dst, const Array& src, const IndexArrays& dst_indices,
                const IndexArrays& src_indices) {
    if (dst.dtype() != src.dtype())
        throw Error(ErrorKind::Type, "copy: the arrays have different dtypes");
    const bool plain = contiguous_plain(dst, dst_indices) && contiguous_plain(src, src_indices);
    if (dst.device().is_cuda() && dst.device() == src.device() && !plain &&
        copy_by_kernel(dst, src, dst_indices, src_indices))
        return;
    if (!dst_indices.empty() || !src_indices.empty())
        throw Error(ErrorKind::Value, "copy: index arrays need arrays of one CUDA device");
    Array target = dst;
    target.assign(src);
}

}  // namespace treadle
