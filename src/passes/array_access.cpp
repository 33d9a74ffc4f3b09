// src/passes/array_access.cpp -- finds the array parameters a kernel reads and writes
#include "passes/array_access.h"

#include <map>
#include <string_view>

namespace treadle::passes {

namespace {

using ir::InstrKind;
using ir::VarId;

/// `if a:` on an array: the front end's null test, which makes None a valid argument.
bool is_null_test(const ir::Instr& in) {
    return in.builtin && std::string_view(in.builtin->name) == "array_nonnull";
}

/// One walk of a function's body in source order. `root` maps array variables (parameters
/// and views of them) to the index of the parameter they view; callees are analysed once each
/// (`done`), so recursion through the call graph stays linear.
class AccessWalk {
public:
    AccessWalk(std::map<const ir::Function*, std::vector<uint8_t>>& done) : m_done(done) {}

    std::vector<uint8_t> run(const ir::Function& fn) {
        m_access.assign(fn.params.size(), 0);
        for (size_t i = 0; i < fn.params.size(); ++i)
            if (fn.type_of(fn.params[i])->is_array()) m_root[fn.params[i]] = i;
        // What native code does with the arrays it is given is unknown: they count as neither
        // read nor written (so the tape's overwrite check, which would refuse every array
        // that might be both, does not see them).
        if (fn.native) return m_access;
        walk(fn.body);
        return m_access;
    }

private:
    void mark(VarId v, uint8_t bits) {
        auto it = m_root.find(v);
        if (it == m_root.end()) return;
        uint8_t& a = m_access[it->second];
        if ((bits & k_access_write) && (a & k_access_read)) a |= k_access_write_after_read;
        a |= bits;
    }

    /// The access bits of callee `f`'s parameters.
    const std::vector<uint8_t>& callee(const ir::Function& f) {
        auto it = m_done.find(&f);
        if (it != m_done.end()) return it->second;
        m_done[&f] = std::vector<uint8_t>(f.params.size(), k_access_read | k_access_write);
        AccessWalk inner(m_done);
        std::vector<uint8_t> bits = inner.run(f);
        return m_done[&f] = std::move(bits);
    }

    void walk(const ir::Block& b) {
        for (const ir::Instr& in : b) {
            switch (in.kind) {
                case InstrKind::View:
                case InstrKind::Copy:
                case InstrKind::Assign:
                    if (!in.args.empty() && m_root.count(in.args[0]) && !in.dsts.empty())
                        m_root[in.dsts[0]] = m_root[in.args[0]];
                    break;
                case InstrKind::Load:
                    mark(in.args[0], k_access_read);
                    break;
                case InstrKind::Store:
                case InstrKind::StoreField:
                    mark(in.args[0], k_access_write);
                    break;
                case InstrKind::Call:
                    if (is_null_test(in)) mark(in.args[0], k_access_null_tested);
                    if (ir::is_atomic_call(in) || ir::writes_first_array(in))
                        mark(in.args[0], k_access_write);
                    else if (in.builtin && in.builtin->kind == builtins::BuiltinKind::Tile)
                        for (VarId a : in.args) mark(a, k_access_read);  // tile_load
                    if (ir::writes_last_array(in)) {
                        for (size_t i = 0; i + 1 < in.args.size(); ++i)
                            mark(in.args[i], k_access_read);
                        mark(in.args.back(), k_access_write);
                    }
                    break;
                case InstrKind::CallFunc: {
                    // a callee that writes after it reads does so here too; one that both
                    // reads and writes, but never after a read, writes first
                    const std::vector<uint8_t>* bits = in.func ? &callee(*in.func) : nullptr;
                    for (size_t i = 0; i < in.args.size(); ++i) {
                        uint8_t a =
                            bits && i < bits->size() ? (*bits)[i] : k_access_read | k_access_write;
                        const bool writes_first = !(a & k_access_write_after_read);
                        if (!writes_first) mark(in.args[i], a & k_access_read);
                        mark(in.args[i], a & (k_access_write | k_access_write_after_read));
                        if (writes_first) mark(in.args[i], a & k_access_read);
                        mark(in.args[i], a & k_access_null_tested);
                    }
                    break;
                }
                default:
                    break;
            }
            walk(in.body);
            // a loop's next iteration writes after this one read
            if (in.kind == InstrKind::ForRange || in.kind == InstrKind::Loop) walk(in.body);
            walk(in.orelse);
        }
    }

    std::map<const ir::Function*, std::vector<uint8_t>>& m_done;
    std::map<VarId, size_t> m_root;
    std::vector<uint8_t> m_access;
};

/// Like AccessWalk, for the arrays inside struct parameters: `root` maps a variable to the
/// parameter and field path it came from ("" for the parameter itself).
class FieldWalk {
public:
    using Fields = std::vector<std::map<std::string, uint8_t>>;

    explicit FieldWalk(std::map<const ir::Function*, Fields>& done) : m_done(done) {}

    Fields run(const ir::Function& fn) {
        m_access.assign(fn.params.size(), {});
        for (size_t i = 0; i < fn.params.size(); ++i)
            if (fn.type_of(fn.params[i])->is_struct()) m_root[fn.params[i]] = {i, ""};
        if (!fn.native) walk(fn.body);
        return m_access;
    }

private:
    struct Origin {
        size_t param;
        std::string path;
    };

    /// Marks field `sub` (a path relative to v; "" for v itself) of v's origin.
    void mark(VarId v, uint8_t bits, const std::string& sub = "") {
        auto it = m_root.find(v);
        if (it == m_root.end() || !bits) return;
        const std::string& base = it->second.path;
        std::string path = base.empty() ? sub : sub.empty() ? base : base + "." + sub;
        if (path.empty()) return;  // the struct parameter itself: not an array field
        m_access[it->second.param][path] |= bits;
    }

    const Fields& callee(const ir::Function& f) {
        auto it = m_done.find(&f);
        if (it != m_done.end()) return it->second;
        m_done[&f] = Fields(f.params.size());  // recursion: the callee's own walk decides
        FieldWalk inner(m_done);
        Fields fields = inner.run(f);
        return m_done[&f] = std::move(fields);
    }

    void walk(const ir::Block& b) {
        for (const ir::Instr& in : b) {
            const bool rooted = !in.args.empty() && m_root.count(in.args[0]);
            switch (in.kind) {
                case InstrKind::View:
                case InstrKind::Copy:
                case InstrKind::Assign:
                case InstrKind::WithField:
                    if (rooted && !in.dsts.empty()) m_root[in.dsts[0]] = m_root[in.args[0]];
                    break;
                case InstrKind::Field:
                    if (rooted && !in.dsts.empty()) {
                        const Origin& o = m_root[in.args[0]];
                        m_root[in.dsts[0]] = {o.param,
                                              o.path.empty() ? in.text : o.path + "." + in.text};
                    }
                    break;
                case InstrKind::Load:
                    mark(in.args[0], k_access_read);
                    break;
                case InstrKind::Store:
                case InstrKind::StoreField:
                    mark(in.args[0], k_access_write);
                    break;
                case InstrKind::Call:
                    if (ir::is_atomic_call(in) || ir::writes_first_array(in))
                        mark(in.args[0], k_access_write);
                    else if (in.builtin && in.builtin->kind == builtins::BuiltinKind::Tile)
                        for (VarId a : in.args) mark(a, k_access_read);  // tile_load
                    if (ir::writes_last_array(in)) {
                        for (size_t i = 0; i + 1 < in.args.size(); ++i)
                            mark(in.args[i], k_access_read);
                        mark(in.args.back(), k_access_write);
                    }
                    if (is_null_test(in)) mark(in.args[0], k_access_null_tested);
                    break;
                case InstrKind::CallFunc: {
                    if (!in.func) break;
                    const Fields& inner = callee(*in.func);
                    const std::vector<uint8_t>& arrays = array_bits(*in.func);
                    for (size_t i = 0; i < in.args.size(); ++i) {
                        // an array field passed as an array parameter, or a struct passed on
                        if (i < arrays.size()) mark(in.args[i], arrays[i]);
                        if (i < inner.size())
                            for (const auto& [path, bits] : inner[i]) mark(in.args[i], bits, path);
                    }
                    break;
                }
                default:
                    break;
            }
            walk(in.body);
            walk(in.orelse);
        }
    }

    const std::vector<uint8_t>& array_bits(const ir::Function& f) {
        auto it = m_arrays.find(&f);
        if (it == m_arrays.end()) it = m_arrays.emplace(&f, array_param_access(f)).first;
        return it->second;
    }

    std::map<const ir::Function*, Fields>& m_done;
    std::map<const ir::Function*, std::vector<uint8_t>> m_arrays;
    std::map<VarId, Origin> m_root;
    Fields m_access;
};

}  // namespace

std::vector<std::map<std::string, uint8_t>> struct_field_access(const ir::Function& fn) {
    std::map<const ir::Function*, FieldWalk::Fields> done;
    return FieldWalk(done).run(fn);
}

std::vector<uint8_t> array_param_access(const ir::Function& fn) {
    std::map<const ir::Function*, std::vector<uint8_t>> done;
    return AccessWalk(done).run(fn);
}

}  // namespace treadle::passes
