// src/frontend/lexer.cpp -- tokenizer for the kernel subset of Python
#include "frontend/lexer.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace treadle::frontend {

namespace {

constexpr size_t k_max_brackets = 200;  // like CPython's MAXLEVEL
constexpr size_t k_max_indents = 100;   // like CPython's MAXINDENT

const char* const k_keywords[] = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield",
};

const char* const k_ops3[] = {"**=", "//=", ">>=", "<<=", "..."};
const char* const k_ops2[] = {"**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", "+=",
                              "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":="};
const char k_ops1[] = "+-*/%@&|^~<>()[]{},:.;=";

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (unsigned char)c >= 0x80;
}

bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// r, u, b, f, br, rb, fr, rf in any case.
bool is_string_prefix(std::string_view word) {
    if (word.empty() || word.size() > 2) return false;
    bool r = false, b = false, u = false, f = false;
    for (char c : word) {
        switch (c | 0x20) {
            case 'r':
                if (r) return false;
                r = true;
                break;
            case 'b':
                if (b) return false;
                b = true;
                break;
            case 'u':
                if (u) return false;
                u = true;
                break;
            case 'f':
                if (f) return false;
                f = true;
                break;
            default:
                return false;
        }
    }
    if (u) return word.size() == 1;
    return !(b && f);
}

void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += (char)cp;
    } else if (cp < 0x800) {
        out += (char)(0xC0 | (cp >> 6));
        out += (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += (char)(0xE0 | (cp >> 12));
        out += (char)(0x80 | ((cp >> 6) & 0x3F));
        out += (char)(0x80 | (cp & 0x3F));
    } else {
        out += (char)(0xF0 | (cp >> 18));
        out += (char)(0x80 | ((cp >> 12) & 0x3F));
        out += (char)(0x80 | ((cp >> 6) & 0x3F));
        out += (char)(0x80 | (cp & 0x3F));
    }
}

/// Parses "digits[.digits][e[+-]digits]" (no underscores); out-of-range values become
/// infinity or zero as in Python.
double parse_float(const std::string& s) {
    double value = 0.0;
    auto res = std::from_chars(s.data(), s.data() + s.size(), value);
    if (res.ec == std::errc()) return value;
    size_t epos = s.find_first_of("eE");
    std::string mant = s.substr(0, epos);
    long exp = 0;
    if (epos != std::string::npos) {
        size_t i = epos + 1;
        bool neg = i < s.size() && s[i] == '-';
        if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
        for (; i < s.size(); ++i) exp = std::min(exp * 10 + (s[i] - '0'), 100000000L);
        if (neg) exp = -exp;
    }
    size_t dot = mant.find('.');
    std::string int_part = mant.substr(0, dot);
    std::string frac = dot == std::string::npos ? "" : mant.substr(dot + 1);
    long magnitude;
    size_t nz = int_part.find_first_not_of('0');
    if (nz != std::string::npos) {
        magnitude = (long)(int_part.size() - nz) - 1;
    } else {
        size_t fz = frac.find_first_not_of('0');
        if (fz == std::string::npos) return 0.0;
        magnitude = -(long)fz - 1;
    }
    return magnitude + exp > 0 ? std::numeric_limits<double>::infinity() : 0.0;
}

}  // namespace

const char* token_kind_name(TokenKind kind) {
    switch (kind) {
        case TokenKind::Name:
            return "NAME";
        case TokenKind::Number:
            return "NUMBER";
        case TokenKind::String:
            return "STRING";
        case TokenKind::Op:
            return "OP";
        case TokenKind::Newline:
            return "NEWLINE";
        case TokenKind::Indent:
            return "INDENT";
        case TokenKind::Dedent:
            return "DEDENT";
        case TokenKind::EndMarker:
            return "ENDMARKER";
    }
    return "?";
}

bool is_keyword(std::string_view name) {
    for (const char* kw : k_keywords)
        if (name == kw) return true;
    return false;
}

Lexer::Lexer(const ast::SourceFile& src, bool function_mode)
    : m_src(src), m_function_mode(function_mode) {
    for (size_t row = 0; row < m_src.lines.size(); ++row) {
        size_t nul = m_src.lines[row].find('\0');
        if (nul != std::string::npos)
            fail((int)row + m_src.first_line, (int)nul + 1,
                 "source code cannot contain null bytes");
    }
    if (!m_src.lines.empty() && m_src.lines[0].rfind("\xEF\xBB\xBF", 0) == 0) m_col = 3;  // BOM
}

char Lexer::ch(size_t ahead) const {
    if (m_row >= m_src.lines.size()) return '\0';
    const std::string& text = m_src.lines[m_row];
    size_t i = m_col + ahead;
    if (i < text.size()) return text[i];
    if (i == text.size() && m_row + 1 < m_src.lines.size()) return '\n';
    return '\0';
}

void Lexer::advance() {
    if (m_row >= m_src.lines.size()) return;
    if (m_col < m_src.lines[m_row].size()) {
        ++m_col;
    } else if (m_row + 1 < m_src.lines.size()) {
        ++m_row;
        m_col = 0;
    }
}

void Lexer::fail(int line, int col, const std::string& message) const {
    throw Error(ErrorKind::Syntax, message,
                SourceLocation{m_src.path, line, col, m_src.line_text(line)});
}

Token Lexer::make(TokenKind kind, std::string text, int line, int col) {
    Token tok;
    tok.kind = kind;
    tok.text = std::move(text);
    tok.span = ast::Span{line, col, line, col};
    if (kind != TokenKind::Newline && kind != TokenKind::Indent && kind != TokenKind::Dedent &&
        kind != TokenKind::EndMarker)
        m_line_has_tokens = true;
    return tok;
}

Token Lexer::next() {
    for (;;) {
        if (!m_pending.empty()) {
            Token tok = std::move(m_pending.front());
            m_pending.pop_front();
            return tok;
        }
        if (m_done) return make(TokenKind::EndMarker, "", line(), col());
        if (m_at_line_start) {
            handle_line_start();
            continue;
        }
        char c = ch();
        if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
            advance();
        } else if (c == '#') {
            m_col = m_src.lines[m_row].size();
        } else if (c == '\\') {
            char n = ch(1);
            if (n == '\n') {
                advance();
                advance();
            } else if (n == '\0') {
                fail(line(), col(), "unexpected EOF while parsing");
            } else {
                fail(line(), col() + 1, "unexpected character after line continuation character");
            }
        } else if (c == '\n') {
            if (!m_brackets.empty()) {
                advance();
            } else if (!m_line_has_tokens) {
                advance();
                m_at_line_start = true;
            } else {
                Token tok = make(TokenKind::Newline, "", line(), col());
                tok.span.end_col = col() + 1;
                advance();
                m_at_line_start = true;
                m_line_has_tokens = false;
                return tok;
            }
        } else if (c == '\0') {
            return end_of_file();
        } else if (is_ident_start(c)) {
            return lex_name_or_string();
        } else if (is_digit(c) || (c == '.' && is_digit(ch(1)))) {
            return lex_number();
        } else if (c == '\'' || c == '"') {
            return lex_string(m_col, "");
        } else {
            return lex_operator();
        }
    }
}

void Lexer::handle_line_start() {
    int width = 0, alt = 0;
    for (;;) {
        char c = ch();
        if (c == ' ') {
            ++width;
            ++alt;
        } else if (c == '\t') {
            width = (width / 8 + 1) * 8;
            ++alt;
        } else if (c == '\f') {
            width = alt = 0;
        } else if (c != '\r') {
            break;
        }
        advance();
    }
    char c = ch();
    if (c == '#') {
        m_col = m_src.lines[m_row].size();
        c = ch();
    }
    if (c == '\n') {  // blank or comment-only line: no tokens, no indentation change
        advance();
        return;
    }
    m_at_line_start = false;
    if (c == '\0') return;  // end of file: next() finishes
    if (m_function_mode && !m_base_set) {
        m_indents = {width};
        m_alt_indents = {alt};
        m_base_set = true;
        return;
    }
    const char* tab_error = "inconsistent use of tabs and spaces in indentation";
    int l = line(), cl = col();
    if (width == m_indents.back()) {
        if (alt != m_alt_indents.back()) fail(l, cl, tab_error);
    } else if (width > m_indents.back()) {
        if (alt <= m_alt_indents.back()) fail(l, cl, tab_error);
        if (m_indents.size() > k_max_indents) fail(l, cl, "too many levels of indentation");
        m_indents.push_back(width);
        m_alt_indents.push_back(alt);
        m_pending.push_back(make(TokenKind::Indent, "", l, cl));
    } else {
        while (m_indents.size() > 1 && width < m_indents.back()) {
            m_indents.pop_back();
            m_alt_indents.pop_back();
            m_pending.push_back(make(TokenKind::Dedent, "", l, cl));
        }
        if (width != m_indents.back())
            fail(l, cl, "unindent does not match any outer indentation level");
        if (alt != m_alt_indents.back()) fail(l, cl, tab_error);
    }
}

Token Lexer::end_of_file() {
    if (!m_brackets.empty()) {
        const Bracket& b = m_brackets.back();
        fail(b.line, b.col, std::string("'") + b.ch + "' was never closed");
    }
    int l = line(), c = col();
    if (m_line_has_tokens) {
        m_pending.push_back(make(TokenKind::Newline, "", l, c));
        m_line_has_tokens = false;
    }
    while (m_indents.size() > 1) {
        m_indents.pop_back();
        m_alt_indents.pop_back();
        m_pending.push_back(make(TokenKind::Dedent, "", l, c));
    }
    m_pending.push_back(make(TokenKind::EndMarker, "", l, c));
    m_done = true;
    Token tok = std::move(m_pending.front());
    m_pending.pop_front();
    return tok;
}

Token Lexer::lex_name_or_string() {
    const std::string& text = m_src.lines[m_row];
    size_t start = m_col, i = m_col;
    while (i < text.size() && is_ident_char(text[i])) ++i;
    std::string_view word(text.data() + start, i - start);
    char q = i < text.size() ? text[i] : '\0';
    m_col = i;
    if ((q == '\'' || q == '"') && is_string_prefix(word)) return lex_string(start, word);
    Token tok = make(TokenKind::Name, std::string(word), line(), (int)start + 1);
    tok.span.end_col = (int)i + 1;
    return tok;
}

Token Lexer::lex_number() {
    const std::string& text = m_src.lines[m_row];
    auto at = [&](size_t i) { return i < text.size() ? text[i] : '\0'; };
    const size_t start = m_col;
    const int l = line(), c0 = (int)start + 1;
    auto bad = [&](const std::string& message) { fail(l, c0, message); };
    const char* too_large = "integer literal is too large";
    size_t i = start;
    Token tok;
    char p = at(i + 1) | 0x20;
    if (at(i) == '0' && (p == 'x' || p == 'o' || p == 'b')) {
        int base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
        std::string name = p == 'x' ? "hexadecimal" : p == 'o' ? "octal" : "binary";
        i += 2;
        uint64_t value = 0;
        bool any = false, overflow = false;
        for (;;) {
            char c = at(i);
            if (c == '_') {
                ++i;
                c = at(i);
                int d = hex_value(c);
                if (d < 0 || (d >= base && !is_digit(c))) bad("invalid " + name + " literal");
            }
            int d = hex_value(c);
            if (d < 0 || d >= base) {
                if (is_digit(c))
                    bad(std::string("invalid digit '") + c + "' in " + name + " literal");
                break;
            }
            if (value > (std::numeric_limits<uint64_t>::max() - (uint64_t)d) / (uint64_t)base)
                overflow = true;
            value = value * (uint64_t)base + (uint64_t)d;
            any = true;
            ++i;
        }
        if (!any || is_ident_char(at(i))) bad("invalid " + name + " literal");
        if (overflow) bad(too_large);
        tok = make(TokenKind::Number, text.substr(start, i - start), l, c0);
        tok.int_value = value;
    } else {
        // digit ('_'? digit)*
        auto read_digits = [&]() {
            if (!is_digit(at(i))) return false;
            for (;;) {
                while (is_digit(at(i))) ++i;
                if (at(i) != '_') break;
                if (!is_digit(at(i + 1))) bad("invalid decimal literal");
                ++i;
            }
            return true;
        };
        read_digits();
        size_t int_end = i;
        bool is_float = false;
        if (at(i) == '.') {
            is_float = true;
            ++i;
            if (at(i) == '_') bad("invalid decimal literal");
            read_digits();
        }
        if ((at(i) | 0x20) == 'e') {
            size_t j = i + 1;
            if (at(j) == '+' || at(j) == '-') ++j;
            if (!is_digit(at(j))) bad("invalid decimal literal");
            i = j;
            read_digits();
            is_float = true;
        }
        if ((at(i) | 0x20) == 'j') bad("imaginary literals are not supported");
        if (is_ident_char(at(i))) bad("invalid decimal literal");
        std::string digits;
        for (size_t k = start; k < i; ++k)
            if (text[k] != '_') digits += text[k];
        tok = make(TokenKind::Number, text.substr(start, i - start), l, c0);
        tok.is_float = is_float;
        if (is_float) {
            tok.float_value = parse_float(digits);
        } else {
            if (int_end > start && text[start] == '0' &&
                digits.find_first_not_of('0') != std::string::npos)
                bad("leading zeros in decimal integer literals are not permitted; "
                    "use an 0o prefix for octal integers");
            uint64_t value = 0;
            for (char d : digits) {
                uint64_t v = (uint64_t)(d - '0');
                if (value > (std::numeric_limits<uint64_t>::max() - v) / 10) bad(too_large);
                value = value * 10 + v;
            }
            tok.int_value = value;
        }
    }
    m_col = i;
    tok.span.end_col = (int)i + 1;
    return tok;
}

Token Lexer::lex_string(size_t start_col, std::string_view prefix) {
    bool raw = false, bytes = false, fmt = false;
    for (char p : prefix) {
        raw |= (p | 0x20) == 'r';
        bytes |= (p | 0x20) == 'b';
        fmt |= (p | 0x20) == 'f';
    }
    const int l = line(), c0 = (int)start_col + 1;
    if (fmt) fail(l, c0, "f-strings are not supported");
    const char q = ch();
    const bool triple = ch(1) == q && ch(2) == q;
    for (int k = 0; k < (triple ? 3 : 1); ++k) advance();
    std::string out;
    for (;;) {
        char c = ch();
        if (c == '\0' || (c == '\n' && !triple)) {
            fail(l, c0,
                 std::string(triple ? "unterminated triple-quoted string literal"
                                    : "unterminated string literal") +
                     " (detected at line " + std::to_string(line()) + ")");
        }
        if (c == q) {
            if (!triple) {
                advance();
                break;
            }
            if (ch(1) == q && ch(2) == q) {
                advance();
                advance();
                advance();
                break;
            }
        } else if (c == '\\') {
            if (!raw) {
                lex_escape(out, bytes);
                continue;
            }
            out += '\\';
            advance();
            c = ch();
            if (c == '\0') continue;
        }
        if (bytes && (unsigned char)c >= 0x80)
            fail(line(), col(), "bytes can only contain ASCII literal characters");
        out += c;
        advance();
    }
    Token tok = make(TokenKind::String, std::move(out), l, c0);
    tok.span.end_line = line();
    tok.span.end_col = col();
    tok.is_bytes = bytes;
    return tok;
}

void Lexer::lex_escape(std::string& out, bool bytes) {
    const int bl = line(), bc = col();
    advance();  // the backslash
    const char c = ch();
    auto read_hex = [&](int count, const char* error) {
        uint32_t value = 0;
        for (int k = 1; k <= count; ++k) {
            int d = hex_value(ch((size_t)k));
            if (d < 0) fail(bl, bc, error);
            value = value * 16 + (uint32_t)d;
        }
        for (int k = 0; k <= count; ++k) advance();
        return value;
    };
    const char* simple = strchr("abfnrtv", c);
    if (c == '\0') return;  // the caller reports the unterminated string
    if (c == '\n') {
        advance();  // backslash-newline continues the string
    } else if (c == '\\' || c == '\'' || c == '"') {
        out += c;
        advance();
    } else if (simple) {
        out += "\a\b\f\n\r\t\v"[simple - "abfnrtv"];
        advance();
    } else if (c >= '0' && c <= '7') {
        uint32_t value = 0;
        for (int n = 0; n < 3 && ch() >= '0' && ch() <= '7'; ++n) {
            value = value * 8 + (uint32_t)(ch() - '0');
            advance();
        }
        if (!bytes) {
            append_utf8(out, value);
        } else if (value > 0xFF) {
            fail(bl, bc, "octal escape value out of range in bytes literal");
        } else {
            out += (char)value;
        }
    } else if (c == 'x') {
        uint32_t value = read_hex(2, "truncated \\xXX escape");
        if (bytes) {
            out += (char)value;
        } else {
            append_utf8(out, value);
        }
    } else if (!bytes && (c == 'u' || c == 'U')) {
        uint32_t value = c == 'u' ? read_hex(4, "truncated \\uXXXX escape")
                                  : read_hex(8, "truncated \\UXXXXXXXX escape");
        if (value > 0x10FFFF) fail(bl, bc, "illegal Unicode character");
        append_utf8(out, value);
    } else if (!bytes && c == 'N') {
        fail(bl, bc, "\\N{...} escapes are not supported");
    } else {
        // Unknown escape: Python keeps the backslash.
        if (bytes && (unsigned char)c >= 0x80)
            fail(line(), col(), "bytes can only contain ASCII literal characters");
        out += '\\';
        out += c;
        advance();
    }
}

Token Lexer::lex_operator() {
    const int l = line(), c0 = col();
    size_t len = 0;
    for (const char* op : k_ops3)
        if (ch(0) == op[0] && ch(1) == op[1] && ch(2) == op[2]) len = 3;
    if (len == 0)
        for (const char* op : k_ops2)
            if (ch(0) == op[0] && ch(1) == op[1]) len = 2;
    const char c = ch();
    if (len == 0 && c != '\0' && strchr(k_ops1, c)) len = 1;
    if (len == 0) {
        unsigned char u = (unsigned char)c;
        char buf[64];
        if (u >= 0x20 && u < 0x7F) {
            snprintf(buf, sizeof buf, "invalid character '%c' (U+%04X)", c, u);
        } else {
            snprintf(buf, sizeof buf, "invalid character (byte 0x%02X)", u);
        }
        fail(l, c0, buf);
    }
    std::string text = m_src.lines[m_row].substr(m_col, len);
    if (len == 1 && (c == '(' || c == '[' || c == '{')) {
        if (m_brackets.size() >= k_max_brackets) fail(l, c0, "too many nested parentheses");
        m_brackets.push_back(Bracket{c, l, c0});
    } else if (len == 1 && (c == ')' || c == ']' || c == '}')) {
        if (m_brackets.empty()) fail(l, c0, std::string("unmatched '") + c + "'");
        const Bracket open = m_brackets.back();
        char expected = open.ch == '(' ? ')' : open.ch == '[' ? ']' : '}';
        if (c != expected) {
            std::string message = std::string("closing parenthesis '") + c +
                                  "' does not match opening parenthesis '" + open.ch + "'";
            if (open.line != l) message += " on line " + std::to_string(open.line);
            fail(l, c0, message);
        }
        m_brackets.pop_back();
    }
    for (size_t k = 0; k < len; ++k) advance();
    Token tok = make(TokenKind::Op, std::move(text), l, c0);
    tok.span.end_col = c0 + (int)len;
    return tok;
}

std::vector<Token> tokenize(const ast::SourceFile& src, bool function_mode) {
    Lexer lexer(src, function_mode);
    std::vector<Token> out;
    do {
        out.push_back(lexer.next());
    } while (out.back().kind != TokenKind::EndMarker);
    return out;
}

}  // namespace treadle::frontend
