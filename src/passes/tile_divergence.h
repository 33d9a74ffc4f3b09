// src/passes/tile_divergence.h -- refuses block-wide tile operations in per-thread branches
#pragma once

#include "ir/ir.h"

namespace treadle::passes {

/// Checks a CUDA build of `program` for a tile operation that the threads of a block run
/// together (it exchanges elements through shared memory between barriers: extracting or
/// updating one element, reductions, scans, products, views, ...) inside an `if`, loop or
/// early exit whose condition can differ between the threads of one block (it depends on the
/// thread's position in the block, on an atomic's result, or on data read at such an index).
/// Treadle's tiles are spread over the block's registers, so such an operation would wait at
/// a barrier the other threads never reach (a hang) or read elements they never shared.
/// Throws a treadle::Error (ErrorKind::Compile) at the operation's line naming the branch's
/// line. Operations each thread does on its own elements (loads, stores, elementwise
/// arithmetic, tile_map, construction) are allowed anywhere. Blocks of one thread (the CPU)
/// have nothing to check: callers skip them.
void check_tile_divergence(const ir::Program& program);

}  // namespace treadle::passes
