# src/frontend/sources.cmake -- sources of src/frontend
list(APPEND TREADLE_SOURCES
  src/frontend/ast.cpp
  src/frontend/ast_dump.cpp
  src/frontend/lexer.cpp
  src/frontend/parser.cpp
  src/frontend/parser_expr.cpp
  src/frontend/parser_stmt.cpp
)
