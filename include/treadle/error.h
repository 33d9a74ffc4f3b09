// include/treadle/error.h -- the exception types treadle throws for user mistakes
#pragma once

#include <stdexcept>
#include <string>

namespace treadle {

/// Where in the user's Python source something is. Lines and columns are 1-based;
/// `line == 0` means "no location".
struct SourceLocation {
    std::string file;
    int line = 0;
    int col = 0;
    std::string line_text;  ///< the full source line, for a caret display
};

/// What kind of user mistake an Error reports; the Python layer maps each to a Python
/// exception type (Syntax -> SyntaxError, Type -> TypeError, Value -> ValueError, ...).
enum class ErrorKind {
    Syntax,
    Type,
    Value,
    Compile,
    Launch,
    Runtime,
    OutOfMemory,
    Bounds,
    FloatingPoint,  ///< verify_fp: a kernel stored a NaN or Inf (Python: FloatingPointError)
    Overflow,       ///< a value out of its type's range, such as a launch argument (OverflowError)
    ArgumentType,   ///< a launch argument that is not the array its parameter takes: Warp's
                    ///< RuntimeError, also a TypeError (Python: LaunchArgumentError)
    Key,            ///< a name that kernel source uses and nothing defines (KeyError)
    Codegen,        ///< kernel source that cannot be compiled, of no more specific kind
                    ///< (Python: WarpCodegenError from the compiler, else RuntimeError)
    Attribute,      ///< an attribute that kernel source reads and its object lacks
                    ///< (Python: AttributeError)
};

/// Base of every exception a user can cause. `what()` is the full message including
/// "file:line:col" and a caret line when a location is known; `message()` is the bare text.
class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, std::string message, SourceLocation where = {});

    ErrorKind kind() const { return m_kind; }
    const std::string& message() const { return m_message; }
    const SourceLocation& where() const { return m_where; }

private:
    ErrorKind m_kind;
    std::string m_message;
    SourceLocation m_where;
};

/// Formats "file:line:col: message\n    source line\n    ^" (or just the message).
std::string format_error(const std::string& message, const SourceLocation& where);

}  // namespace treadle
