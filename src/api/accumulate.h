// src/api/accumulate.h -- into += from, elementwise on any device (the backward pass of a copy)
#pragma once

#include "treadle/array.h"

namespace treadle {

/// Adds `from` into `into` element by element (same shape and dtype; `from` is copied to
/// `into`'s device first when it lives elsewhere), with a kernel compiled once per scalar type
/// and device. ErrorKind::Value when shapes or dtypes differ, Type for struct elements.
void accumulate_into(Array& into, const Array& from);

}  // namespace treadle
