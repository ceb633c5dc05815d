#include "ir/IrLoader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

namespace kl::sim {

namespace {

using Json = nlohmann::json;

/// Thrown inside the parse callback to stop parsing with a user-facing error; never leaves this file.
struct LoadFailure {
    Error error;
};

[[noreturn]] void fail(ErrorCode code, std::string message) {
    throw LoadFailure{Error{code, std::move(message)}};
}

SourceLoc readLoc(const Json& j) {
    SourceLoc loc;
    if (j.is_object()) {
        loc.file = j.value("file", kNoIndex);
        loc.line = j.value("line", 0u);
    }
    return loc;
}

std::vector<std::int64_t> readInts(const Json& j) {
    std::vector<std::int64_t> out;
    if (j.is_array()) {
        for (const Json& v : j) {
            out.push_back(v.get<std::int64_t>());
        }
    }
    return out;
}

/// Converts parsed JSON objects into the compact KernelIr, one instruction at a time.
class IrBuilder {
public:
    KernelIr ir;

    void addBuffer(const Json& j) {
        Buffer b;
        const auto id = j.at("id").get<std::int64_t>();
        b.name = j.value("name", std::string{});
        if (!parseMemory(j.at("memory").get<std::string>(), b.memory)) {
            fail(ErrorCode::Parse, fmt::format("buffer {} has unknown memory '{}'", id, j.at("memory").dump()));
        }
        b.shape = readInts(j.at("shape"));
        b.dtype = parseDType(j.value("dtype", std::string{}));
        b.dtypeBytes = j.value("dtype_bytes", dtypeBytes(b.dtype));
        b.role = parseRole(j.value("role", std::string{"tile"}));
        if (j.contains("decl")) {
            b.decl = readLoc(j["decl"]);
        }
        if (b.memory != Memory::Hbm && (b.shape.empty() || b.shape[0] < 1 || b.shape[0] > 128)) {
            fail(ErrorCode::Parse,
                 fmt::format("buffer {} ('{}'): on-chip partition dimension must be 1..128", id, b.name));
        }
        m_bufferIndex[id] = ir.addBuffer(std::move(b));
    }

    void addInstruction(const Json& j) {
        Instruction in;
        in.id = j.value("id", static_cast<std::uint32_t>(ir.instructions().size()));
        const std::string opText = j.at("op").get<std::string>();
        in.op = parseOp(opText);
        if (in.op == Op::Unknown) {
            ++m_unknownOps[opText];
        }
        const std::string engineText = j.at("engine").get<std::string>();
        if (!parseEngine(engineText, in.engine)) {
            fail(ErrorCode::Parse, fmt::format("unknown engine '{}'", engineText));
        }
        in.elements = j.value("elements", std::int64_t{0});
        in.bytes = j.value("bytes", std::int64_t{0});
        if (const auto it = j.find("attrs"); it != j.end() && it->is_object()) {
            readAttrs(*it, in.attrs);
        }
        m_dst.clear();
        m_src.clear();
        readOperands(j, "dst", m_dst);
        readOperands(j, "src", m_src);
        m_locs.clear();
        if (const auto it = j.find("loc"); it != j.end() && it->is_array()) {
            for (const Json& l : *it) {
                m_locs.push_back(readLoc(l));
            }
        }
        m_iter.clear();
        m_pid.clear();
        readInt32s(j, "iter", m_iter);
        readInt32s(j, "pid", m_pid);
        ir.addInstruction(in, m_dst, m_src, m_locs, m_iter, m_pid);
    }

    /// Operands refer to buffers by id; resolved to indices once all buffers are known (the spec orders
    /// buffers first, but a reader should not depend on key order).
    Expected<void> finish() {
        // The spec writes `buffers` before `instructions`; an operand naming a buffer not declared before
        // it is an error either way, so no second pass is needed.
        for (const auto& [id, count] : m_pendingBufferIds) {
            return makeError(
                ErrorCode::Parse,
                fmt::format("{} operand(s) refer to buffer id {}, which is not declared in 'buffers' before them",
                            count, id));
        }
        for (const auto& [op, count] : m_unknownOps) {
            ir.diagnostics.push_back(
                {"warning",
                 fmt::format("op '{}' ({} instructions) is not known to the simulator; costed as an element-wise op",
                             op, count),
                 {}});
        }
        return {};
    }

    std::uint32_t resolve(std::int64_t id) {
        if (const auto it = m_bufferIndex.find(id); it != m_bufferIndex.end()) {
            return it->second;
        }
        ++m_pendingBufferIds[id];
        return kNoIndex;
    }

private:
    void readAttrs(const Json& a, InstrAttrs& attrs) {
        attrs.movingFree = a.value("moving_free", 0u);
        attrs.stationaryFree = a.value("stationary_free", 0u);
        attrs.contraction = a.value("contraction", 0u);
        attrs.accumulate = a.value("accumulate", false);
        attrs.isTranspose = a.value("is_transpose", false);
        if (const auto it = a.find("dtype_in"); it != a.end() && it->is_string()) {
            attrs.dtypeIn = parseDType(it->get<std::string>());
        }
        if (const auto it = a.find("op0"); it != a.end() && it->is_string()) {
            attrs.op0 = parseAluOp(it->get<std::string>());
        }
    }

    void readOperands(const Json& j, const char* key, std::vector<AccessPattern>& out) {
        const auto it = j.find(key);
        if (it == j.end() || it->is_null()) {
            return;
        }
        for (const Json& o : *it) {
            AccessPattern ap;
            ap.buffer = resolve(o.at("buf").get<std::int64_t>());
            if (const auto p = o.find("part"); p != o.end() && p->is_array() && p->size() == 2) {
                ap.partStart = (*p)[0].get<std::uint16_t>();
                ap.partCount = (*p)[1].get<std::uint16_t>();
            }
            ap.offset = o.value("offset", std::int64_t{0});
            m_dims.clear();
            if (const auto p = o.find("pattern"); p != o.end() && p->is_array()) {
                for (const Json& d : *p) {
                    m_dims.push_back({d.at(0).get<std::int64_t>(), d.at(1).get<std::int64_t>()});
                }
            }
            ap.patternBegin = ir.addPattern(m_dims);
            ap.patternCount = static_cast<std::uint8_t>(m_dims.size());
            ap.dtype = parseDType(o.value("dtype", std::string{}));
            out.push_back(ap);
        }
    }

    static void readInt32s(const Json& j, const char* key, std::vector<std::int32_t>& out) {
        if (const auto it = j.find(key); it != j.end() && it->is_array()) {
            for (const Json& v : *it) {
                out.push_back(v.get<std::int32_t>());
            }
        }
    }

    std::unordered_map<std::int64_t, std::uint32_t> m_bufferIndex;
    std::map<std::int64_t, int> m_pendingBufferIds;
    std::map<std::string, int> m_unknownOps;
    std::vector<AccessPattern> m_dst, m_src;
    std::vector<PatternDim> m_dims;
    std::vector<SourceLoc> m_locs;
    std::vector<std::int32_t> m_iter, m_pid;
};

void readHeader(const Json& root, KernelIr& ir) {
    if (const auto it = root.find("kernel"); it != root.end() && it->is_object()) {
        ir.kernelName = it->value("name", std::string{});
        ir.api = it->value("api", std::string{});
        if (it->contains("grid")) {
            ir.grid = readInts((*it)["grid"]);
        }
        if (const auto a = it->find("args"); a != it->end() && a->is_array()) {
            for (const Json& arg : *a) {
                ir.args.push_back({arg.value("name", std::string{}), readInts(arg.value("shape", Json::array())),
                                   arg.value("dtype", std::string{})});
            }
        }
    }
    if (const auto it = root.find("files"); it != root.end() && it->is_array()) {
        for (const Json& f : *it) {
            ir.files.push_back(f.get<std::string>());
        }
    }
    if (const auto it = root.find("diagnostics"); it != root.end() && it->is_array()) {
        for (const Json& d : *it) {
            SourceLoc loc{d.value("file", kNoIndex), d.value("line", 0u)};
            ir.diagnostics.push_back(
                {d.value("severity", std::string{"warning"}), d.value("message", std::string{}), loc});
        }
    }
}

} // namespace

namespace {

/// Parses from either a character range or a stream (a file is read as it is parsed, never held whole).
template <typename ParseFn> Expected<KernelIr> loadWith(ParseFn&& parse, std::string_view origin) {
    IrBuilder builder;
    std::string topKey;
    bool sawVersion = false;
    std::size_t instructionIndex = 0;
    std::size_t bufferIndex = 0;
    auto callback = [&](int depth, Json::parse_event_t event, Json& parsed) -> bool {
        if (depth == 1 && event == Json::parse_event_t::key) {
            topKey = parsed.get<std::string>();
            return true;
        }
        if (depth == 1 && event == Json::parse_event_t::value && topKey == "ir_version") {
            sawVersion = true;
            if (!parsed.is_number_integer() || parsed.get<std::int64_t>() != kSupportedIrVersion) {
                throw LoadFailure{
                    Error{ErrorCode::Unsupported,
                          fmt::format("Kernel IR version {} is not supported: this simulator reads version {}",
                                      parsed.dump(), kSupportedIrVersion),
                          {},
                          0,
                          "trace the kernel again with the front end shipped with this build"}};
            }
            return true;
        }
        if (depth == 2 && event == Json::parse_event_t::object_end) {
            if (topKey == "instructions") {
                try {
                    builder.addInstruction(parsed);
                } catch (const LoadFailure& f) {
                    throw LoadFailure{
                        Error{f.error.code, fmt::format("instruction #{} (id {}): {}", instructionIndex,
                                                        parsed.value("id", Json{}).dump(), f.error.message)}};
                } catch (const Json::exception& e) {
                    throw LoadFailure{
                        Error{ErrorCode::Parse, fmt::format("instruction #{} (id {}): {}", instructionIndex,
                                                            parsed.value("id", Json{}).dump(), e.what())}};
                }
                ++instructionIndex;
                return false; // drop the parsed JSON: the compact copy is kept
            }
            if (topKey == "buffers") {
                try {
                    builder.addBuffer(parsed);
                } catch (const Json::exception& e) {
                    throw LoadFailure{Error{ErrorCode::Parse, fmt::format("buffer #{}: {}", bufferIndex, e.what())}};
                }
                ++bufferIndex;
                return false;
            }
        }
        return true;
    };
    Json root;
    try {
        root = parse(callback);
    } catch (const LoadFailure& f) {
        Error e = f.error;
        e.file = std::string(origin);
        return std::unexpected(std::move(e));
    } catch (const Json::exception& e) {
        return makeError(ErrorCode::Parse, fmt::format("not valid Kernel IR JSON: {}", e.what()), std::string(origin));
    }
    if (!root.is_object()) {
        return makeError(ErrorCode::Parse, "Kernel IR must be a JSON object", std::string(origin));
    }
    if (!sawVersion) {
        return makeError(ErrorCode::Parse,
                         fmt::format("missing 'ir_version' (this simulator reads version {})", kSupportedIrVersion),
                         std::string(origin));
    }
    try {
        readHeader(root, builder.ir);
    } catch (const Json::exception& e) {
        return makeError(ErrorCode::Parse, fmt::format("bad kernel header: {}", e.what()), std::string(origin));
    }
    if (auto done = builder.finish(); !done) {
        Error e = done.error();
        e.file = std::string(origin);
        return std::unexpected(std::move(e));
    }
    return std::move(builder.ir);
}

} // namespace

Expected<KernelIr> IrLoader::loadString(std::string_view text, std::string_view origin) {
    return loadWith([&](const auto& callback) { return Json::parse(text.begin(), text.end(), callback); }, origin);
}

Expected<KernelIr> IrLoader::loadFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return makeError(ErrorCode::NotFound, "cannot open Kernel IR file", path.string());
    }
    return loadWith([&](const auto& callback) { return Json::parse(in, callback); }, path.string());
}

} // namespace kl::sim
