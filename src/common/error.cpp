// src/common/error.cpp -- formatting of user-facing errors with a source caret
#include "treadle/error.h"

namespace treadle {

std::string format_error(const std::string& message, const SourceLocation& where) {
    if (where.line <= 0) return message;
    std::string out = where.file + ":" + std::to_string(where.line) + ":" +
                      std::to_string(where.col) + ": " + message;
    if (!where.line_text.empty()) {
        out += "\n    " + where.line_text + "\n    ";
        for (int i = 1; i < where.col && i <= (int)where.line_text.size(); ++i)
            out += where.line_text[i - 1] == '\t' ? '\t' : ' ';
        out += "^";
    }
    return out;
}

Error::Error(ErrorKind kind, std::string message, SourceLocation where)
    : std::runtime_error(format_error(message, where)),
      m_kind(kind),
      m_message(std::move(message)),
      m_where(std::move(where)) {}

}  // namespace treadle
