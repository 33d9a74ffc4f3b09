# src/sema/sources.cmake -- sources of src/sema
list(APPEND TREADLE_SOURCES
  src/sema/infer.cpp
  src/sema/infer_call.cpp
  src/sema/infer_expr.cpp
  src/sema/infer_func.cpp
  src/sema/infer_stmt.cpp
  src/sema/infer_struct.cpp
  src/sema/resolver_memo.cpp
  src/sema/specialise.cpp
)
