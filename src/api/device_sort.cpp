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

// CUDA: a block of 256 threads per tile of 1,024 keys and 8-bit digits. The block counts its
// tile's digits with shared-memory atomics; then, four keys a thread in tile order, each warp
// groups its lanes by digit (__match_any_sync), so a key's place is its tile's first slot for
// the digit, plus the keys of that digit in earlier rounds and warps, plus its rank among its
// warp's peers: stable, and the same on every run.
const char* const k_cuda_source = R"(import treadle as wp


@wp.func_native("""
#if WP_DEVICE_CODE
    __shared__ int hist[256];
    const int t = threadIdx.x;
    hist[t] = 0;
    __syncthreads();
    const int* k = reinterpret_cast<const int*>(keys.data);
    const long long base = (long long)tile * 1024;
    for (int r = 0; r < 4; ++r) {
        const long long i = base + r * 256 + t;
        if (i < count) atomicAdd(&hist[(k[i] >> shift) & mask], 1);
    }
    __syncthreads();
    reinterpret_cast<int*>(counts.data)[(long long)t * tiles + tile] = hist[t];
#endif
""")
def tile_histogram(keys: wp.array(dtype=wp.int32), counts: wp.array(dtype=wp.int32),
                   count: wp.int32, tiles: wp.int32, shift: wp.int32, mask: wp.int32,
                   tile: wp.int32):
    ...


@wp.func_native("""
#if WP_DEVICE_CODE
    __shared__ int first[256];
    __shared__ int before[8][256];
    const int t = threadIdx.x, warp = t >> 5, lane = t & 31;
    const unsigned below = (1u << lane) - 1u;
    const int* k = reinterpret_cast<const int*>(keys.data);
    const int* v = reinterpret_cast<const int*>(values.data);
    int* ko = reinterpret_cast<int*>(keys_out.data);
    int* vo = reinterpret_cast<int*>(values_out.data);
    first[t] = reinterpret_cast<const int*>(offsets.data)[(long long)t * tiles + tile];
    for (int w = 0; w < 8; ++w) before[w][t] = 0;
    __syncthreads();
    const long long base = (long long)tile * 1024;
    for (int r = 0; r < 4; ++r) {
        const long long i = base + r * 256 + t;
        const bool valid = i < count;
        const int key = valid ? k[i] : 0;
        const int value = valid ? v[i] : 0;
        const int digit = (key >> shift) & mask;
        const unsigned peers = __match_any_sync(0xffffffffu, valid ? digit : 0x10000);
        const int rank = __popc(peers & below);
        if (valid && rank == 0) before[warp][digit] = __popc(peers);
        __syncthreads();
        int run = first[t];  // digit t: the warps' first slots in this round
        for (int w = 0; w < 8; ++w) {
            const int c = before[w][t];
            before[w][t] = run;
            run += c;
        }
        first[t] = run;
        __syncthreads();
        if (valid) {
            const int slot = before[warp][digit] + rank;
            ko[slot] = key;
            vo[slot] = value;
        }
        __syncthreads();
        for (int w = 0; w < 8; ++w) before[w][t] = 0;
        __syncthreads();
    }
#endif
""")
def tile_scatter(keys: wp.array(dtype=wp.int32), values: wp.array(dtype=wp.int32),
                 keys_out: wp.array(dtype=wp.int32), values_out: wp.array(dtype=wp.int32),
                 offsets: wp.array(dtype=wp.int32), count: wp.int32, tiles: wp.int32,
                 shift: wp.int32, mask: wp.int32, tile: wp.int32):
    ...


@wp.func_native("""
#if WP_DEVICE_CODE
    __shared__ int warp_first[8];
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    int* a = reinterpret_cast<int*>(values.data);
    const long long base = (long long)block * 1024 + t * 4;
    int x[4];
    int sum = 0;
    for (int j = 0; j < 4; ++j) {
        x[j] = base + j < count ? a[base + j] : 0;
        sum += x[j];
    }
    int inclusive = sum;  // over the warp's threads
    for (int o = 1; o < 32; o <<= 1) {
        const int y = __shfl_up_sync(0xffffffffu, inclusive, o);
        if (lane >= o) inclusive += y;
    }
    if (lane == 31) warp_first[warp] = inclusive;
    __syncthreads();
    if (t < 8) {
        const int own = warp_first[t];
        int w = own;
        for (int o = 1; o < 8; o <<= 1) {
            const int y = __shfl_up_sync(0xffu, w, o);
            if (t >= o) w += y;
        }
        warp_first[t] = w - own;
    }
    __syncthreads();
    int run = warp_first[warp] + inclusive - sum;
    for (int j = 0; j < 4; ++j) {
        if (base + j < count) a[base + j] = run;
        run += x[j];
    }
    if (t == 255) reinterpret_cast<int*>(totals.data)[block] = run;
#endif
""")
def block_scan_tile(values: wp.array(dtype=wp.int32), count: wp.int32,
                    totals: wp.array(dtype=wp.int32), block: wp.int32):
    ...


@wp.kernel(enable_backward=False)
def block_scan(values: wp.array(dtype=wp.int32), count: wp.int32,
               totals: wp.array(dtype=wp.int32)):
    block_scan_tile(values, count, totals, wp.tid() // 256)


@wp.kernel(enable_backward=False)
def block_count(keys: wp.array(dtype=wp.int32), counts: wp.array(dtype=wp.int32),
                count: wp.int32, tiles: wp.int32, shift: wp.int32, mask: wp.int32):
    tile_histogram(keys, counts, count, tiles, shift, mask, wp.tid() // 256)


@wp.kernel(enable_backward=False)
def block_move(keys: wp.array(dtype=wp.int32), values: wp.array(dtype=wp.int32),
               keys_out: wp.array(dtype=wp.int32), values_out: wp.array(dtype=wp.int32),
               offsets: wp.array(dtype=wp.int32), count: wp.int32, tiles: wp.int32,
               shift: wp.int32, mask: wp.int32):
    tile_scatter(keys, values, keys_out, values_out, offsets, count, tiles, shift, mask,
                 wp.tid() // 256)
)";

constexpr int32_t k_tile = 32;         ///< keys a thread counts and moves in a pass (CPU)
constexpr int32_t k_cuda_tile = 1024;  ///< keys a block of 256 threads sorts in a pass (CUDA)
constexpr int k_cuda_digit_bits = 8;
constexpr int32_t k_scan_chunk = 32;  ///< values a thread scans
constexpr int k_digit_bits = 4;

Kernel sort_kernel(const char* name, Device device) {
    if (device.is_cuda()) {
        const std::string n(name);
        if (n == "block_count" || n == "block_move" || n == "block_scan")
            return internal_kernel("<device_sort_cuda>", k_cuda_source, name, device);
    }
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

const char* cuda_kernel_source() { return k_cuda_source; }

void exclusive_scan(const Array& values, int64_t count) {
    check(values, count, "values");
    if (count <= 0) return;
    if (count > INT32_MAX)
        throw Error(ErrorKind::Value, "exclusive_scan: more than 2^31 - 1 values");
    const Device device = values.device();
    const int32_t n = static_cast<int32_t>(count);
    if (device.is_cuda()) {
        // blocks of 256 threads scan 1,024 values in shared memory; then their totals
        const int32_t blocks = (n + k_cuda_tile - 1) / k_cuda_tile;
        const Array totals = Array::empty(DType(ScalarType::Int32), {blocks}, device);
        sort_kernel("block_scan", device).launch({int64_t{256} * blocks}, values, n, totals);
        if (blocks == 1) return;
        exclusive_scan(totals, blocks);
        sort_kernel("scan_add", device).launch({n}, values, k_cuda_tile, totals);
        return;
    }
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
    const bool cuda = device.is_cuda();
    const int digit_bits = cuda ? k_cuda_digit_bits : k_digit_bits;
    const int32_t tile = cuda ? k_cuda_tile : k_tile;
    const int32_t tiles = (n + tile - 1) / tile;
    const int64_t table = (int64_t{1} << digit_bits) * tiles;
    if (table > INT32_MAX) throw Error(ErrorKind::Value, "sort_pairs: too many pairs");
    const Array counts = Array::empty(DType(ScalarType::Int32), {table}, device);
    const Array spare_keys = Array::empty(DType(ScalarType::Int32), {n}, device);
    const Array spare_values = Array::empty(DType(ScalarType::Int32), {n}, device);
    const Array* from[2] = {&keys, &values};
    const Array* to[2] = {&spare_keys, &spare_values};
    for (int shift = 0; shift < bits; shift += digit_bits) {
        const int32_t mask = (1 << std::min(digit_bits, bits - shift)) - 1;
        if (cuda) {
            const int64_t threads = int64_t{256} * tiles;  // whole blocks of 256
            sort_kernel("block_count", device)
                .launch({threads}, *from[0], counts, n, tiles, shift, mask);
            exclusive_scan(counts, table);
            sort_kernel("block_move", device)
                .launch({threads}, *from[0], *from[1], *to[0], *to[1], counts, n, tiles, shift,
                        mask);
        } else {
            sort_kernel("sort_count", device)
                .launch({tiles}, *from[0], counts, n, k_tile, tiles, shift, mask);
            exclusive_scan(counts, table);
            sort_kernel("sort_move", device)
                .launch({tiles}, *from[0], *from[1], *to[0], *to[1], counts, n, k_tile, tiles,
                        shift, mask);
        }
        std::swap(from, to);
    }
    if (from[0] != &keys)
        sort_kernel("copy_pairs", device).launch({n}, *from[0], *from[1], keys, values);
}

}  // namespace treadle::device_sort
