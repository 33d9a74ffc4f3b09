// src/types/const_value.h -- compile-time constant values of the kernel language
#pragma once

#include <cstdint>

#include "types/types.h"

namespace treadle::types {

/// A compile-time constant value. Python ints and floats are *weak* (they adopt the type of
/// the other operand, like literals); typed constants (wp.float64(2.0), wp.constant) are not.
struct ConstValue {
    const Type* type = nullptr;
    bool weak = false;
    int64_t i = 0;   ///< integers and bool (unsigned values are stored bit-identical)
    double f = 0.0;  ///< floats
};

}  // namespace treadle::types
