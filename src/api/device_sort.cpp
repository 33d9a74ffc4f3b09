// src/api/device_sort.cpp -- the kernels and passes of src/api/device_sort.h
#include "api/device_sort.h"

#include <algorithm>
#include <string>

#include "api/internal_module.h"
#include "treadle/error.h"

namespace treadle::device_sort {

namespace {

const char* const k_source = R"(import treadle as wp


@wp.kernel(enable_backward=False)
def sort_count(keys: wp.array(dtype=wp.int32), counts: wp.array(dtype=wp.int32),
               count: wp.int32, tile: wp.int32, tiles: wp.int32, shift: wp.int32,
               mask: wp.int32):
    t = wp.tid()
    for d in range(16):
        counts[d * tiles + t] = 0
    start = t * tile
    for i in range(start, wp.min(start + tile, count)):
        slot = ((keys[i] >> shift) & mask) * tiles + t
        counts[slot] = counts[slot] + 1


@wp.kernel(enable_backward=False)
def sort_move(keys: wp.array(dtype=wp.int32), values: wp.array(dtype=wp.int32),
              keys_out: wp.array(dtype=wp.int32), values_out: wp.array(dtype=wp.int32),
              offsets: wp.array(dtype=wp.int32), count: wp.int32, tile: wp.int32,
              tiles: wp.int32, shift: wp.int32, mask: wp.int32):
    t = wp.tid()
    start = t * tile
    for i in range(start, wp.min(start + tile, count)):
        k = keys[i]
        slot = ((k >> shift) & mask) * tiles + t
        p = offsets[slot]
        offsets[slot] = p + 1
        keys_out[p] = k
        values_out[p] = values[i]


@wp.kernel(enable_backward=False)
def copy_pairs(keys: wp.array(dtype=wp.int32), values: wp.array(dtype=wp.int32),
               keys_out: wp.array(dtype=wp.int32), values_out: wp.array(dtype=wp.int32)):
    i = wp.tid()
    keys_out[i] = keys[i]
    values_out[i] = values[i]


@wp.kernel(enable_backward=False)
def scan_chunks(values: wp.array(dtype=wp.int32), count: wp.int32, chunk: wp.int32,
                totals: wp.array(dtype=wp.int32)):
    c = wp.tid()
    total = wp.int32(0)
    for i in range(c * chunk, wp.min(c * chunk + chunk, count)):
        v = values[i]
        values[i] = total
        total = total + v
    totals[c] = total


@wp.kernel(enable_backward=False)
def scan_add(values: wp.array(dtype=wp.int32), chunk: wp.int32,
             offsets: wp.array(dtype=wp.int32)):
    i = wp.tid()
    values[i] = values[i] + offsets[i // chunk]
)";

constexpr int32_t k_tile = 32;        ///< keys a thread counts and moves in a pass
constexpr int32_t k_scan_chunk = 32;  ///< values a thread scans
constexpr int k_digit_bits = 4;

Kernel sort_kernel(const char* name, Device device) {
    return internal_kernel("<device_sort>", k_source, name, device);
}

void check(const Array& a, int64_t count, const char* what) {
    if (a.dtype() != DType(ScalarType::Int32) || !a.is_contiguous() || a.ndim() != 1)
        throw Error(ErrorKind::Value, std::string("sort_pairs: ") + what +
                                          " must be a contiguous one-dimensional int32 array");
    if (a.size() < count)
        throw Error(ErrorKind::Value, std::string("sort_pairs: ") + what + " holds " +
                                          std::to_string(a.size()) + " values, fewer than " +
                                          std::to_string(count));
}

}  // namespace

const char* kernel_source() { return k_source; }

void exclusive_scan(const Array& values, int64_t count) {
    check(values, count, "values");
    if (count <= 0) return;
    if (count > INT32_MAX)
        throw Error(ErrorKind::Value, "exclusive_scan: more than 2^31 - 1 values");
    const Device device = values.device();
    const int32_t n = static_cast<int32_t>(count);
    const int32_t chunks = (n + k_scan_chunk - 1) / k_scan_chunk;
    const Array totals = Array::empty(DType(ScalarType::Int32), {chunks}, device);
    sort_kernel("scan_chunks", device).launch({chunks}, values, n, k_scan_chunk, totals);
    if (chunks == 1) return;
    exclusive_scan(totals, chunks);
    sort_kernel("scan_add", device).launch({n}, values, k_scan_chunk, totals);
}

void sort_pairs(const Array& keys, const Array& values, int64_t count, int bits) {
    check(keys, count, "keys");
    check(values, count, "values");
    if (keys.device() != values.device())
        throw Error(ErrorKind::Value, "sort_pairs: keys and values must be on one device");
    if (bits < 1 || bits > 31)
        throw Error(ErrorKind::Value,
                    "sort_pairs: bits must be 1 to 31, got " + std::to_string(bits));
    if (count > INT32_MAX) throw Error(ErrorKind::Value, "sort_pairs: more than 2^31 - 1 pairs");
    if (count <= 1) return;
    const Device device = keys.device();
    const int32_t n = static_cast<int32_t>(count);
    const int32_t tiles = (n + k_tile - 1) / k_tile;
    const int64_t table = int64_t{16} * tiles;
    if (table > INT32_MAX) throw Error(ErrorKind::Value, "sort_pairs: too many pairs");
    const Array counts = Array::empty(DType(ScalarType::Int32), {table}, device);
    const Array spare_keys = Array::empty(DType(ScalarType::Int32), {n}, device);
    const Array spare_values = Array::empty(DType(ScalarType::Int32), {n}, device);
    const Array* from[2] = {&keys, &values};
    const Array* to[2] = {&spare_keys, &spare_values};
    for (int shift = 0; shift < bits; shift += k_digit_bits) {
        const int32_t mask = (1 << std::min(k_digit_bits, bits - shift)) - 1;
        sort_kernel("sort_count", device)
            .launch({tiles}, *from[0], counts, n, k_tile, tiles, shift, mask);
        exclusive_scan(counts, table);
        sort_kernel("sort_move", device)
            .launch({tiles}, *from[0], *from[1], *to[0], *to[1], counts, n, k_tile, tiles, shift,
                    mask);
        std::swap(from, to);
    }
    if (from[0] != &keys)
        sort_kernel("copy_pairs", device).launch({n}, *from[0], *from[1], keys, values);
}

}  // namespace treadle::device_sort
