# src/sema/sources.cmake -- sources of src/sema
# Inference: one file per area of the language, behind sema/infer_internal.h.
list(APPEND TREADLE_SOURCES
  src/sema/infer.cpp
  src/sema/infer_assign.cpp
  src/sema/infer_call.cpp
  src/sema/infer_construct.cpp
  src/sema/infer_construct_rigid.cpp
  src/sema/infer_expr.cpp
  src/sema/infer_func.cpp
  src/sema/infer_grad.cpp
  src/sema/infer_index.cpp
  src/sema/infer_keywords.cpp
  src/sema/infer_loop.cpp
  src/sema/infer_operator.cpp
  src/sema/infer_overload.cpp
  src/sema/infer_query.cpp
  src/sema/infer_slice.cpp
  src/sema/infer_starred.cpp
  src/sema/infer_stmt.cpp
  src/sema/infer_struct.cpp
  src/sema/infer_tile.cpp
  src/sema/infer_tile_block.cpp
  src/sema/infer_tile_indexed.cpp
  src/sema/infer_tile_math.cpp
  src/sema/infer_type_values.cpp
)
# Resolver answers memoised per build, and what a generic kernel specialises to.
list(APPEND TREADLE_SOURCES
  src/sema/resolver_memo.cpp
  src/sema/specialise.cpp
)
