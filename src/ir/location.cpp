// src/ir/location.cpp -- the Python source location of an instruction, for error reports
#include "ir/ir.h"

namespace treadle::ir {

SourceLocation source_location(const Function& f, int line, int col) {
    SourceLocation where;
    if (!f.source) return where;
    where.file = f.source->path;
    where.line = line;
    where.line_text = f.source->line_text(line);
    size_t first = where.line_text.find_first_not_of(" \t");
    where.col = col > 0 ? col : first == std::string::npos ? 1 : (int)first + 1;
    return where;
}

}  // namespace treadle::ir
