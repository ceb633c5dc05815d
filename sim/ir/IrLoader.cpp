#include "ir/IrLoader.h"

#include "common/JsonRead.h"
#include "ir/IrBinary.h"
#include "ir/IrChecks.h"
#include "ir/IrLimits.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace kl::sim {

namespace {

using Json = nlohmann::json;
namespace lim = ir_limits;

/// Thrown inside the parse callback to stop parsing with a user-facing error; never leaves this file.
struct LoadFailure {
    Error error;
};

[[noreturn]] void fail(ErrorCode code, std::string message) {
    throw LoadFailure{Error{code, std::move(message)}};
}

[[noreturn]] void failMismatch(std::string_view field, std::string_view expected, const Json& found) {
    fail(ErrorCode::Parse, kl::json::mismatch(field, expected, found));
}

/// "NAME.MESSAGE" (or "NAME: ..." when the message is about NAME itself).
std::string joinPath(const std::string& name, const std::string& message) {
    return message.starts_with(':') ? name + message : name + "." + message;
}

/// A field problem inside an object or a list ("attrs.moving_free: ...", "dst[1].part[0]: ..."): the prefix is
/// built only on failure.
template <typename Fn> void within(const char* name, Fn&& fn) {
    try {
        fn();
    } catch (const LoadFailure& f) {
        throw LoadFailure{Error{f.error.code, joinPath(name, f.error.message)}};
    }
}
template <typename Fn> void within(const char* list, std::size_t index, Fn&& fn) {
    try {
        fn();
    } catch (const LoadFailure& f) {
        throw LoadFailure{Error{f.error.code, joinPath(fmt::format("{}[{}]", list, index), f.error.message)}};
    }
}

std::int64_t intValue(const Json& v, std::string_view field, std::int64_t lo, std::int64_t hi) {
    if (const auto n = kl::json::integerIn(v, lo, hi)) {
        return *n;
    }
    failMismatch(field, kl::json::integerRange(lo, hi), v);
}

/// An optional integer field of `j` (absent: `fallback`).
std::int64_t intField(const Json& j, const char* key, std::int64_t lo, std::int64_t hi, std::int64_t fallback) {
    const auto it = j.find(key);
    return it == j.end() ? fallback : intValue(*it, key, lo, hi);
}

std::string stringField(const Json& j, const char* key, const std::string& fallback = {}) {
    const auto it = j.find(key);
    if (it == j.end()) {
        return fallback;
    }
    if (!it->is_string()) {
        failMismatch(key, "a string", *it);
    }
    return it->get<std::string>();
}

std::string requiredString(const Json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end()) {
        fail(ErrorCode::Parse, fmt::format("{}: missing (a string)", key));
    }
    if (!it->is_string()) {
        failMismatch(key, "a string", *it);
    }
    return it->get<std::string>();
}

/// The array under `key`, nullptr when absent or null; anything else is an error. At most `maxSize` elements.
const Json* arrayField(const Json& j, const char* key, std::int64_t maxSize) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        return nullptr;
    }
    if (!it->is_array() || static_cast<std::int64_t>(it->size()) > maxSize) {
        failMismatch(key, fmt::format("an array of at most {} elements", maxSize), *it);
    }
    return &*it;
}

void requireObject(const Json& j, std::string_view what) {
    if (!j.is_object()) {
        failMismatch(what, "an object", j);
    }
}

SourceLoc readLoc(const Json& j) {
    requireObject(j, "location");
    SourceLoc loc;
    loc.file = static_cast<std::uint32_t>(intField(j, "file", 0, lim::kMaxId, kNoIndex));
    loc.line = static_cast<std::uint32_t>(intField(j, "line", 0, lim::kMaxLine, 0));
    return loc;
}

std::vector<std::int64_t> readInts(const Json* list, const char* name, std::int64_t hi) {
    std::vector<std::int64_t> out;
    if (list != nullptr) {
        for (std::size_t i = 0; i < list->size(); ++i) {
            within(name, i, [&] { out.push_back(intValue((*list)[i], "", 0, hi)); });
        }
    }
    return out;
}

/// Converts parsed JSON objects into the compact KernelIr, one instruction at a time. Every number is checked
/// against ir_limits before it is stored, so the simulator can use them without checks.
class IrBuilder {
public:
    KernelIr ir;

    void addBuffer(const Json& j) {
        requireObject(j, "buffer");
        if (static_cast<std::int64_t>(ir.buffers().size()) >= lim::kMaxBuffers) {
            fail(ErrorCode::Unsupported, fmt::format("more than {} buffers", lim::kMaxBuffers));
        }
        Buffer b;
        const auto idIt = j.find("id");
        if (idIt == j.end()) {
            fail(ErrorCode::Parse, "id: missing (an integer)");
        }
        const std::int64_t id = intValue(*idIt, "id", -lim::kMaxId, lim::kMaxId);
        b.name = stringField(j, "name");
        const std::string memory = requiredString(j, "memory");
        if (!parseMemory(memory, b.memory)) {
            fail(ErrorCode::Parse, fmt::format("buffer {} has unknown memory {}", id, kl::json::inQuotes(memory)));
        }
        const Json* shape = arrayField(j, "shape", lim::kMaxPatternDims);
        if (shape == nullptr) {
            fail(ErrorCode::Parse, fmt::format("buffer {}: shape: missing (an array of sizes)", id));
        }
        b.shape = readInts(shape, "shape", lim::kMaxSize);
        b.dtype = parseDType(stringField(j, "dtype"));
        b.dtypeBytes =
            static_cast<std::int32_t>(intField(j, "dtype_bytes", 0, lim::kMaxDtypeBytes, dtypeBytes(b.dtype)));
        b.role = parseRole(stringField(j, "role", "tile"));
        if (const auto it = j.find("decl"); it != j.end() && !it->is_null()) {
            b.decl = readLoc(*it);
        }
        if (auto problem = ir_checks::bufferProblem(id, b)) {
            fail(ErrorCode::Parse, std::move(*problem));
        }
        m_bufferIndex[id] = ir.addBuffer(std::move(b));
    }

    void addInstruction(const Json& j) {
        requireObject(j, "instruction");
        if (static_cast<std::int64_t>(ir.instructions().size()) >= lim::kMaxInstructions ||
            ir.largestPool() > kMaxPoolEntries) {
            fail(ErrorCode::Unsupported,
                 fmt::format("more than {} instructions, or operands, in one Kernel IR", ir.instructions().size()));
        }
        Instruction in;
        const auto index = ir.instructions().size();
        const auto id = static_cast<std::uint32_t>(intField(j, "id", 0, lim::kMaxId, static_cast<std::int64_t>(index)));
        const std::string opText = requiredString(j, "op");
        in.op = parseOp(opText);
        if (in.op == Op::Unknown) {
            ++m_unknownOps[opText];
        }
        const std::string engineText = requiredString(j, "engine");
        if (!parseEngine(engineText, in.engine)) {
            fail(ErrorCode::Parse, fmt::format("unknown engine {}", kl::json::inQuotes(engineText)));
        }
        in.elements = intField(j, "elements", 0, lim::kMaxSize, 0);
        in.bytes = intField(j, "bytes", 0, lim::kMaxSize, 0);
        if (const auto it = j.find("attrs"); it != j.end() && it->is_object()) {
            within("attrs", [&] {
                in.attrsIndex = ir.addAttrs(readAttrs(*it));
                if (ir.attrsCount() > kMaxAttrSets) {
                    fail(ErrorCode::Unsupported, fmt::format("more than {} distinct attribute sets", kMaxAttrSets));
                }
            });
        }
        m_dst.clear();
        m_src.clear();
        readOperands(j, "dst", m_dst);
        readOperands(j, "src", m_src);
        m_locs.clear();
        if (const Json* locs = arrayField(j, "loc", lim::kMaxListValues)) {
            for (std::size_t i = 0; i < locs->size(); ++i) {
                within("loc", i, [&] { m_locs.push_back(readLoc((*locs)[i])); });
            }
        }
        m_iter.clear();
        m_pid.clear();
        readInt32s(j, "iter", m_iter);
        readInt32s(j, "pid", m_pid);
        ir.addInstruction(in, m_dst, m_src, m_locs, m_iter, m_pid);
        ir.setId(index, id);
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
            ir.diagnostics.push_back({"warning", ir_checks::unknownOpWarning(op, count), {}});
        }
        return {};
    }

    std::uint32_t resolve(std::int64_t id) {
        if (const auto it = m_bufferIndex.find(id); it != m_bufferIndex.end()) {
            return it->second;
        }
        ++m_pendingBufferIds[id];
        return AccessPattern::kNoBuffer;
    }

private:
    /// Offsets into the KernelIr pools are 32-bit; one instruction adds at most a few thousand entries.
    static constexpr std::size_t kMaxPoolEntries = 0xffffffffu - (1u << 16);

    static InstrAttrs readAttrs(const Json& a) {
        auto read = ir_checks::readAttrs(a);
        if (!read) {
            fail(ErrorCode::Parse, std::move(read.error()));
        }
        return *read;
    }

    void readOperands(const Json& j, const char* key, std::vector<AccessPattern>& out) {
        if (const Json* list = arrayField(j, key, lim::kMaxOperands)) {
            for (std::size_t i = 0; i < list->size(); ++i) {
                within(key, i, [&] { out.push_back(readOperand((*list)[i])); });
            }
        }
    }

    AccessPattern readOperand(const Json& o) {
        requireObject(o, "operand");
        AccessPattern ap;
        const auto buf = o.find("buf");
        if (buf == o.end()) {
            fail(ErrorCode::Parse, "buf: missing (a buffer id)");
        }
        ap.buffer = resolve(intValue(*buf, "buf", -lim::kMaxId, lim::kMaxId));
        if (const auto p = o.find("part"); p != o.end() && !p->is_null()) {
            if (!p->is_array() || p->size() != 2) {
                failMismatch("part", "[first partition, partition count]", *p);
            }
            const std::int64_t first = intValue((*p)[0], "part[0]", 0, lim::kMaxPartitions - 1);
            ap.partStart = static_cast<std::uint32_t>(first);
            ap.partCount = static_cast<std::uint64_t>(intValue((*p)[1], "part[1]", 0, lim::kMaxPartitions - first));
        }
        ap.offset = intField(o, "offset", -lim::kMaxExtent, lim::kMaxExtent, 0);
        m_dims.clear();
        if (const Json* pattern = arrayField(o, "pattern", lim::kMaxPatternDims)) {
            for (std::size_t i = 0; i < pattern->size(); ++i) {
                within("pattern", i, [&] { m_dims.push_back(readDim((*pattern)[i])); });
            }
        }
        checkExtent(ap.offset);
        const std::uint32_t begin = ir.addPattern(m_dims);
        if (begin + m_dims.size() > AccessPattern::kMaxPatternPool) {
            fail(ErrorCode::Unsupported,
                 fmt::format("more than {} pattern dimensions in one Kernel IR", AccessPattern::kMaxPatternPool));
        }
        ap.patternBegin = begin;
        ap.patternCount = static_cast<std::uint8_t>(m_dims.size());
        ap.dtype = parseDType(stringField(o, "dtype"));
        return ap;
    }

    static PatternDim readDim(const Json& d) {
        if (!d.is_array() || d.size() != 2) {
            failMismatch("", "[stride, count]", d);
        }
        return {intValue(d[0], "stride", -lim::kMaxExtent, lim::kMaxExtent), intValue(d[1], "count", 0, lim::kMaxSize)};
    }

    void checkExtent(std::int64_t offset) const {
        if (auto problem = ir_checks::patternProblem(offset, m_dims)) {
            fail(ErrorCode::Parse, std::move(*problem));
        }
    }

    static void readInt32s(const Json& j, const char* key, std::vector<std::int32_t>& out) {
        if (const Json* list = arrayField(j, key, lim::kMaxListValues)) {
            for (std::size_t i = 0; i < list->size(); ++i) {
                within(key, i, [&] {
                    out.push_back(static_cast<std::int32_t>(intValue((*list)[i], "", INT32_MIN, INT32_MAX)));
                });
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
        within("kernel", [&] {
            ir.kernelName = stringField(*it, "name");
            ir.api = stringField(*it, "api");
            ir.lnc = static_cast<int>(intField(*it, "lnc", 1, 2, 1));
        });
        within("kernel",
               [&] { ir.grid = readInts(arrayField(*it, "grid", lim::kMaxPatternDims), "grid", lim::kMaxGrid); });
        if (const Json* args = arrayField(*it, "args", lim::kMaxBuffers)) {
            for (std::size_t i = 0; i < args->size(); ++i) {
                within("kernel.args", i, [&] {
                    const Json& arg = (*args)[i];
                    requireObject(arg, "argument");
                    ir.args.push_back({stringField(arg, "name"),
                                       readInts(arrayField(arg, "shape", lim::kMaxPatternDims), "shape", lim::kMaxSize),
                                       stringField(arg, "dtype")});
                });
            }
        }
    }
    if (const Json* files = arrayField(root, "files", lim::kMaxId)) {
        for (std::size_t i = 0; i < files->size(); ++i) {
            within("files", i, [&] {
                if (!(*files)[i].is_string()) {
                    failMismatch("", "a file path", (*files)[i]);
                }
                ir.files.push_back((*files)[i].get<std::string>());
            });
        }
    }
    if (const Json* diagnostics = arrayField(root, "diagnostics", lim::kMaxId)) {
        for (std::size_t i = 0; i < diagnostics->size(); ++i) {
            within("diagnostics", i, [&] {
                const Json& d = (*diagnostics)[i];
                requireObject(d, "diagnostic");
                ir.diagnostics.push_back(
                    {stringField(d, "severity", "warning"), stringField(d, "message"), readLoc(d)});
            });
        }
    }
}

} // namespace

namespace {

/// "instruction #3 (id 17): MESSAGE"; the id as written, if it is a plain value.
std::string instructionContext(std::size_t index, const Json& parsed, const std::string& message) {
    std::string id = "none";
    if (parsed.is_object()) {
        if (const auto it = parsed.find("id"); it != parsed.end()) {
            id = it->is_number() ? it->dump() : kl::json::describe(*it);
        }
    }
    return fmt::format("instruction #{} (id {}): {}", index, id, message);
}

/// Parses from either a character range or a stream (a file is read as it is parsed, never held whole).
template <typename ParseFn> Expected<KernelIr> loadWith(ParseFn&& parse, std::string_view origin) {
    IrBuilder builder;
    std::string topKey;
    bool sawVersion = false;
    std::size_t instructionIndex = 0;
    std::size_t bufferIndex = 0;
    auto callback = [&](int depth, Json::parse_event_t event, Json& parsed) -> bool {
        using Event = Json::parse_event_t;
        if (depth == 1 && event == Event::key) {
            topKey = parsed.get<std::string>();
            return true;
        }
        const bool list = topKey == "instructions" || topKey == "buffers";
        if (depth == 1 && event == Event::value && topKey == "ir_version") {
            sawVersion = true;
            if (!parsed.is_number_integer() || parsed.get<std::int64_t>() != kSupportedIrVersion) {
                throw LoadFailure{Error{
                    ErrorCode::Unsupported,
                    fmt::format("Kernel IR version {} is not supported: this simulator reads version {}",
                                parsed.is_number() ? parsed.dump() : kl::json::describe(parsed), kSupportedIrVersion),
                    {},
                    0,
                    "trace the kernel again with the front end shipped with this build"}};
            }
            return true;
        }
        if (depth == 1 && list && (event == Event::object_start || event == Event::value)) {
            fail(ErrorCode::Parse, fmt::format("{}: expected an array of objects, found {}", topKey,
                                               event == Event::value ? kl::json::describe(parsed) : "an object"));
        }
        if (depth != 2 || !list || (event != Event::object_end && event != Event::value && event != Event::array_end)) {
            return true;
        }
        if (topKey == "instructions") {
            try {
                builder.addInstruction(parsed);
            } catch (const LoadFailure& f) {
                throw LoadFailure{Error{f.error.code, instructionContext(instructionIndex, parsed, f.error.message)}};
            }
            ++instructionIndex;
            return false; // drop the parsed JSON: the compact copy is kept
        }
        try {
            builder.addBuffer(parsed);
        } catch (const LoadFailure& f) {
            throw LoadFailure{Error{f.error.code, fmt::format("buffer #{}: {}", bufferIndex, f.error.message)}};
        }
        ++bufferIndex;
        return false;
    };
    Json root;
    try {
        root = parse(callback);
        if (!root.is_object()) {
            fail(ErrorCode::Parse, kl::json::mismatch("Kernel IR", "a JSON object", root));
        }
        if (!sawVersion) {
            fail(ErrorCode::Parse,
                 fmt::format("missing 'ir_version' (this simulator reads version {})", kSupportedIrVersion));
        }
        readHeader(root, builder.ir);
    } catch (const LoadFailure& f) {
        Error e = f.error;
        e.file = std::string(origin);
        return std::unexpected(std::move(e));
    } catch (const Json::exception& e) { // syntax errors, and numbers such as 1e999 (out_of_range)
        return makeError(ErrorCode::Parse, fmt::format("not valid Kernel IR JSON: {}", e.what()), std::string(origin));
    } catch (const std::bad_alloc&) {
        return makeError(ErrorCode::Io, "not enough memory to load this Kernel IR", std::string(origin));
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
    if (BinaryIrReader::startsWithMagic(in)) {
        return BinaryIrReader::loadFile(path);
    }
    return loadWith([&](const auto& callback) { return Json::parse(in, callback); }, path.string());
}

} // namespace kl::sim
