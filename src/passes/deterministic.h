// src/passes/deterministic.h -- what deterministic mode needs to know about a kernel
#pragma once

#include <cstdint>

#include "ir/ir.h"

namespace treadle::passes {

/// A deterministic build's analysis of a kernel and its callees (see
/// native/treadle/det_record.h for the records it sizes).
struct DeterministicPlan {
    /// Float atomics (add/sub/min/max, scalars or composites) in the forward code or, for an
    /// adjoint build, the adjoint accumulations of the backward pass (custom adjoints
    /// included): launches record them.
    bool records = false;
    /// Scalar records one launch index emits at most, as far as the code shows: every float
    /// atomic counts its components once per visit, a dynamic loop's body once (its trip count
    /// is unknown: a launch that emits more reports an overflow, and the module option
    /// deterministic_max_records raises the bound). At least 1.
    uint32_t per_thread = 0;
    /// An integer atomic whose old value the kernel reads (a counter handing out slots): its
    /// results depend on the order threads run in. 0 when none; else that atomic's line.
    int counter_line = 0;
    int counter_col = 0;
    /// Counter kernels: int32 atomic_add calls one launch index makes at most (counted as
    /// per_thread is), the records of the CUDA counting pass.
    uint32_t counter_per_thread = 0;
};

/// Analyses `program` for a deterministic build (`adjoint`: with the backward pass). Throws a
/// treadle::Error (ErrorKind::Compile, at the atomic's line) for a float atomic whose old
/// value the kernel reads: it is not known until the launch has ended; float reductions of
/// two families on one array; a counter inside a custom adjoint. With `two_pass` (CUDA
/// counters, run as a counting pass and a replay) it also refuses, at their lines, a consumed
/// integer atomic other than an int32 atomic_add and another integer atomic on a counter's
/// array.
DeterministicPlan plan_deterministic(const ir::Program& program, bool adjoint,
                                     bool two_pass = false);

}  // namespace treadle::passes
