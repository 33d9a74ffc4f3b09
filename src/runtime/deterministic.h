// src/runtime/deterministic.h -- launching deterministic builds: records, then sorted updates
//
// A deterministic build (CompiledKernel::det_per_thread > 0) records its float atomics instead
// of applying them (native/treadle/det_record.h). These run such a launch: give it record
// slots, run it, refuse it when a thread overflowed its slots (nothing applied), then apply
// each address's records in (launch index, emission) order: on the CPU in one pass on the
// calling thread, on CUDA by sorting (address, slot) keys on the device first. The order, and
// the scalar operations, are the same on both devices, so the bits are too.
#pragma once

#include <memory>

#include "runtime/launch.h"

namespace treadle {

/// CUDA record buffers of one kernel, kept between its launches (one set per stream).
std::shared_ptr<DetScratch> make_det_scratch(int ordinal);

/// Runs a deterministic CPU build over `bounds` (launch indices in order on this thread when
/// `serial`, else on the pool) and applies its records.
void run_cpu_deterministic(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
                           CpuEntry entry, bool serial);

/// Enqueues a deterministic CUDA build on `stream` (grid of `blocks` x `block_dim`), then the
/// sort and the application of its records. Outside a capture it waits for the launch to
/// check for overflow.
void run_cuda_deterministic(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
                            void* stream, void* function, unsigned blocks, unsigned block_dim);

}  // namespace treadle
