#include "ir/IrBinary.h"

#include "ir/HugePages.h"
#include "ir/IrBinarySections.h"
#include "ir/IrChecks.h"
#include "ir/IrLimits.h"
#include "ir/IrLoader.h"
#include "ir/RecentCache.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace kl::sim {

static_assert(std::endian::native == std::endian::little, "the binary Kernel IR is read in place as little-endian");
// What the readers accept fits AccessPattern's bit-fields (checked before they are stored).
static_assert(ir_limits::kMaxBuffers < AccessPattern::kNoBuffer && ir_limits::kMaxExtent < (std::int64_t{1} << 49) &&
              ir_limits::kMaxPatternDims < 32 && ir_limits::kMaxPartitions <= 128);

namespace {

using namespace binary_ir; // the reader's own file layer (IrBinarySections.h)
namespace lim = ir_limits;

/// Converts the sections into a KernelIr; each distinct string, attribute object and operand is decoded once.
class Decoder {
public:
    Decoder(const std::map<std::string, Section>& sections, ByteSource& source, std::size_t parallelFrom)
        : m_sections(sections), m_source(source), m_parallelFrom(parallelFrom) {}

    KernelIr run() {
        readStrings();
        readMeta();
        if (const Section* instructions = splittable()) {
            readAlongsideInstructions(*instructions);
        } else {
            readBuffers();
            readOperandPools();
            readFramePools();
            readOperandLists(m_source);
            readInstructions(m_source, require(m_sections, "INST", kInstrRecord));
        }
        for (const auto& [index, id] : m_ids) {
            m_ir.setId(index, id);
        }
        m_ir.recordOperandUses(m_operandUses);
        m_operandUses = {};
        for (const auto& [op, count] : m_unknownOps) {
            m_ir.diagnostics.push_back({"warning", ir_checks::unknownOpWarning(op, count), {}});
        }
        return std::move(m_ir);
    }

private:
    std::string_view str(std::uint32_t i, const char* what) const {
        if (i >= m_strings.size()) {
            fail(ErrorCode::Parse,
                 fmt::format("{}: string {} is not in the string table ({} strings)", what, i, m_strings.size()));
        }
        return m_strings[i];
    }

    void readStrings() {
        const Section& s = require(m_sections, "STRS", 0);
        if (s.count >= s.bytes / 4) {
            fail(ErrorCode::Parse, fmt::format("corrupted binary Kernel IR: string table at byte offset {}", s.offset));
        }
        // Kept whole: the strings are read by index while the other sections are converted.
        m_stringData.resize(s.bytes);
        std::memcpy(m_stringData.data(), m_source.view(s.offset, s.bytes), s.bytes);
        const std::byte* data = m_stringData.data();
        const std::size_t table = (s.count + 1) * 4;
        const char* text = reinterpret_cast<const char*>(data + table);
        std::uint32_t previous = 0;
        for (std::uint64_t i = 0; i <= s.count; ++i) {
            const auto end = load<std::uint32_t>(data + i * 4);
            if (end < previous || end > s.bytes - table) {
                fail(ErrorCode::Parse,
                     fmt::format("corrupted binary Kernel IR: string {} at byte offset {}", i, s.offset + i * 4));
            }
            if (i > 0) {
                m_strings.emplace_back(text + previous, end - previous);
            }
            previous = end;
        }
    }

    /// The kernel, files and diagnostics are a small JSON document read by the JSON reader's own checks.
    void readMeta() {
        const Section& s = require(m_sections, "META", 0);
        const std::string_view text(reinterpret_cast<const char*>(m_source.view(s.offset, s.bytes)), s.bytes);
        const auto json = nlohmann::json::parse(text.substr(0, text.find('\0')), nullptr, false);
        if (json.is_discarded() || !json.is_object()) {
            fail(ErrorCode::Parse, fmt::format("corrupted binary Kernel IR: META at byte offset {} is not a JSON "
                                               "object",
                                               s.offset));
        }
        nlohmann::json doc = json;
        doc["ir_version"] = kSupportedIrVersion;
        auto header = IrLoader::loadString(doc.dump(), "META");
        if (!header) {
            fail(header.error().code, "META: " + header.error().message);
        }
        m_ir.kernelName = std::move(header->kernelName);
        m_ir.api = std::move(header->api);
        m_ir.grid = std::move(header->grid);
        m_ir.lnc = header->lnc;
        m_ir.args = std::move(header->args);
        m_ir.files = std::move(header->files);
        m_ir.diagnostics = std::move(header->diagnostics);
    }

    void readBuffers() {
        const Section& s = require(m_sections, "BUFS", kBufferRecord);
        const Section& shapes = require(m_sections, "SHPE", 8);
        if (static_cast<std::int64_t>(s.count) > lim::kMaxBuffers) {
            fail(ErrorCode::Unsupported, fmt::format("more than {} buffers", lim::kMaxBuffers));
        }
        // A loop's tiles are a new buffer per iteration with the same record: each distinct record is checked and
        // turned into a buffer kind once.
        m_shapes.resize(shapes.count);
        std::memcpy(m_shapes.data(), m_source.view(shapes.offset, shapes.count * 8), shapes.count * 8);
        std::unordered_map<std::string, std::uint32_t> kindOfRecord;
        m_ir.reserveBuffers(s.count);
        // A loop's tiles come in short cycles of kinds (a matmul's three tiles in turn): the last few distinct
        // records are compared first, the map only for the others.
        RecentCache<BufferRecord, std::uint32_t, 8> recent;
        forEachRecord(m_source, s, [&](std::uint64_t i, const std::byte* r) {
            BufferRecord record;
            std::memcpy(record.data(), r, kBufferRecord);
            const std::uint32_t* kind = recent.find(record);
            if (kind == nullptr) {
                const std::string key(reinterpret_cast<const char*>(r), kBufferRecord);
                auto it = kindOfRecord.find(key);
                if (it == kindOfRecord.end()) {
                    it = kindOfRecord.emplace(key, m_ir.addBufferKind(buffer(s, r, i))).first;
                }
                recent.add(record, it->second);
                kind = &it->second;
            }
            m_ir.addBufferOfKind(*kind);
        });
        m_shapes = {};
    }

    Buffer buffer(const Section& s, const std::byte* r, std::uint64_t i) const {
        Buffer b;
        const auto at = [&](const char* what) {
            return fmt::format("buffer #{} (byte offset {}): {}", i, s.offset + i * kBufferRecord, what);
        };
        b.name = std::string(str(load<std::uint32_t>(r), "buffer name"));
        b.dtype = parseDType(str(load<std::uint32_t>(r + 4), "buffer dtype"));
        const auto shapeBegin = load<std::uint32_t>(r + 8);
        const auto dtypeBytes = load<std::uint32_t>(r + 12);
        b.decl = location(load<std::uint32_t>(r + 16), load<std::uint32_t>(r + 20), at("decl").c_str());
        const auto memory = std::to_integer<std::uint8_t>(r[24]);
        const auto role = std::to_integer<std::uint8_t>(r[25]);
        const auto dims = std::to_integer<std::uint8_t>(r[26]);
        if (memory > 2 || role > 3 || dims > lim::kMaxPatternDims || dtypeBytes > lim::kMaxDtypeBytes ||
            std::uint64_t{shapeBegin} + dims > m_shapes.size()) {
            fail(ErrorCode::Parse, at("memory, role, dimension count, dtype size or shape out of range"));
        }
        b.memory = static_cast<Memory>(memory);
        b.role = static_cast<BufferRole>(role);
        b.dtypeBytes = static_cast<std::int32_t>(dtypeBytes);
        for (std::uint32_t d = 0; d < dims; ++d) {
            const auto size = m_shapes[shapeBegin + d];
            if (size < 0 || size > lim::kMaxSize) {
                fail(ErrorCode::Parse, at("shape: a size outside 0..2^40"));
            }
            b.shape.push_back(size);
        }
        if (auto problem = ir_checks::bufferProblem(static_cast<std::int64_t>(i), b)) {
            fail(ErrorCode::Parse, std::move(*problem));
        }
        return b;
    }

    SourceLoc location(std::uint32_t file, std::uint32_t line, const char* what) const {
        if ((file != kNone && file > lim::kMaxId) || line > lim::kMaxLine) {
            fail(ErrorCode::Parse, fmt::format("{}: file {} / line {} out of range", what, file, line));
        }
        return {file, line};
    }

    /// Pattern dimensions and operands, each checked once (the pools the buffer uses are recorded from, with the
    /// operand lists).
    void readOperandPools() {
        const Section& dims = require(m_sections, "DIMS", 16);
        if (dims.count > AccessPattern::kMaxPatternPool) {
            fail(ErrorCode::Unsupported, fmt::format("section DIMS at byte offset {} holds {} pattern dimensions; at "
                                                     "most {} are read",
                                                     dims.offset, dims.count, AccessPattern::kMaxPatternPool));
        }
        std::vector<PatternDim> all(dims.count);
        forEachRecord(m_source, dims, [&](std::uint64_t i, const std::byte* r) {
            all[i] = {load<std::int64_t>(r), load<std::int64_t>(r + 8)};
            if (all[i].stride < -lim::kMaxExtent || all[i].stride > lim::kMaxExtent || all[i].count < 0 ||
                all[i].count > lim::kMaxSize) {
                fail(ErrorCode::Parse, fmt::format("pattern dimension #{} (byte offset {}): stride or count out of "
                                                   "range",
                                                   i, dims.offset + i * 16));
            }
        });
        const std::uint32_t base = all.empty() ? 0 : m_ir.addPattern(all);
        const Section& ops = require(m_sections, "OPND", kOperandRecord);
        reservePools();
        m_dtypeOf.assign(m_strings.size(), std::nullopt);
        std::uint32_t operandBase = 0;
        appendInBlocks<AccessPattern>(
            m_source, ops, operandBase,
            [&](std::uint64_t i, const std::byte* r) { return operand(ops, i, r, all, base); },
            [this](std::span<const AccessPattern> block) { return m_ir.appendOperands(block); });
        // The KernelIr is this reader's own and new: every pool begins at 0, so the file's indices are the pools'
        // (the instructions, decoded perhaps on another thread meanwhile, take them as they are).
        assert(operandBase == 0);
    }

    /// Each pool goes into the KernelIr, reserved at its final size, a block of records at a time (no array of its
    /// own here): every instruction then points into them, so instructions that share operands, frames or loop
    /// values share one copy. Done once, before any pool is appended to (readAlongsideInstructions fills them on
    /// two threads).
    void reservePools() {
        if (m_poolsReserved) {
            return;
        }
        const Section& ops = require(m_sections, "OPND", kOperandRecord);
        const Section& locs = require(m_sections, "LOCS", 8);
        const Section& ints = require(m_sections, "INTS", 4);
        const Section& lists = require(m_sections, "OPLS", 4);
        m_ir.reservePools(ops.count, lists.count, locs.count, ints.count);
        m_poolsReserved = true;
    }

    /// Locations and loop values, each checked once.
    void readFramePools() {
        const Section& locs = require(m_sections, "LOCS", 8);
        const Section& ints = require(m_sections, "INTS", 4);
        reservePools();
        std::uint32_t locBase = 0;
        appendInBlocks<SourceLoc>(
            m_source, locs, locBase,
            [&](std::uint64_t, const std::byte* r) {
                return location(load<std::uint32_t>(r), load<std::uint32_t>(r + 4), "location");
            },
            [this](std::span<const SourceLoc> block) { return m_ir.appendLocs(block); });
        // Loop values and operand lists are stored as the KernelIr keeps them: read from the file straight into their
        // pools (no block to copy from, no zeroing first), then checked in place.
        const auto values = m_ir.appendIntsInPlace(ints.count);
        readInto(m_source, ints, values.entries);
        assert(locBase == 0 && values.begin == 0); // as the operands' (readOperandPools)
    }

    /// The operand lists, read from `source` and checked against the operand count the section table gives. Touches
    /// only that pool (readAlongsideInstructions runs it beside the other pools).
    void readOperandLists(ByteSource& source) {
        const std::uint64_t operandCount = require(m_sections, "OPND", kOperandRecord).count;
        const Section& lists = require(m_sections, "OPLS", 4);
        reservePools();
        const auto entries = m_ir.appendOperandIndicesInPlace(lists.count);
        m_listEntries = entries.entries;
        // Read and checked a block at a time, while the block is in cache: the largest entry first (a loop the
        // compiler vectorizes), the culprit only when one is out of range.
        const std::size_t perBlock = kBlockBytes / sizeof(std::uint32_t);
        for (std::size_t first = 0; first < entries.entries.size(); first += perBlock) {
            const auto block = entries.entries.subspan(first, std::min(perBlock, entries.entries.size() - first));
            source.readInto(lists.offset + first * sizeof(std::uint32_t), block.size_bytes(),
                            reinterpret_cast<std::byte*>(block.data()));
            if (std::ranges::max(block) >= operandCount) {
                const auto bad = std::ranges::find_if(block, [&](std::uint32_t e) { return e >= operandCount; });
                const auto k = first + static_cast<std::size_t>(bad - block.begin());
                fail(ErrorCode::Parse, fmt::format("operand list entry #{} (byte offset {}) names operand {} of {}", k,
                                                   lists.offset + k * 4, *bad, operandCount));
            }
        }
        assert(entries.begin == 0); // as the operands' (readOperandPools)
    }

    /// Converts the records of `s` with `convert(index, record)` into a reused block and hands each full block to
    /// `append` (which returns where the block went); `first` gets the first block's place.
    template <typename T, typename Convert, typename Append>
    void appendInBlocks(ByteSource& source, const Section& s, std::uint32_t& first, Convert&& convert,
                        Append&& append) {
        constexpr std::size_t kBlock = 4096;
        std::vector<T> block;
        block.reserve(std::min<std::uint64_t>(s.count, kBlock));
        first = 0;
        bool any = false;
        const auto flush = [&] {
            const std::uint32_t at = append(std::span<const T>(block));
            first = any ? first : at;
            any = true;
            block.clear();
        };
        forEachRecord(source, s, [&](std::uint64_t i, const std::byte* r) {
            block.push_back(convert(i, r));
            if (block.size() == kBlock) {
                flush();
            }
        });
        if (!block.empty() || !any) {
            flush();
        }
    }

    AccessPattern operand(const Section& s, std::uint64_t i, const std::byte* r, std::span<const PatternDim> dims,
                          std::uint32_t base) {
        const auto offset = load<std::int64_t>(r);
        const auto buffer = load<std::uint32_t>(r + 8);
        const auto patternBegin = load<std::uint32_t>(r + 12);
        const DType dtype = dtypeOf(load<std::uint32_t>(r + 16));
        const auto partStart = load<std::uint16_t>(r + 20);
        const auto partCount = load<std::uint16_t>(r + 22);
        const auto patternCount = std::to_integer<std::uint8_t>(r[24]);
        const bool hasPart = std::to_integer<std::uint8_t>(r[25]) != 0;
        // Checked before they go into the bit-fields (AccessPattern), which would otherwise cut them.
        const bool bad = buffer >= m_ir.buffers().size() || patternCount > lim::kMaxPatternDims ||
                         std::uint64_t{patternBegin} + patternCount > dims.size() || offset < -lim::kMaxExtent ||
                         offset > lim::kMaxExtent ||
                         (hasPart && (partStart >= lim::kMaxPartitions || partCount > lim::kMaxPartitions - partStart));
        std::optional<std::string> problem;
        if (!bad && !fitsKnownPattern(offset, patternBegin, patternCount, dims)) {
            problem = ir_checks::patternProblem(offset, dims.subspan(patternBegin, patternCount));
        }
        if (bad || problem) {
            fail(ErrorCode::Parse, fmt::format("operand #{} (byte offset {}): {}", i, s.offset + i * kOperandRecord,
                                               problem ? *problem
                                                       : "buffer, partitions, offset or pattern out of "
                                                         "range"));
        }
        // Built in one initializer, not field by field: see decodeInstruction (the same stall on the bit-fields).
        return AccessPattern{.offset = offset,
                             .partCount = hasPart ? partCount : 1u,
                             .patternCount = patternCount,
                             .buffer = buffer,
                             .dtype = dtype,
                             .patternBegin = base + patternBegin,
                             .partStart = hasPart ? partStart : 0u};
    }

    /// True when ir_checks::patternProblem(offset, that pattern) would find nothing, answered from the pattern's reach
    /// (worked out once for each of the last few patterns: a loop's operands share a handful). False means "ask
    /// patternProblem", which also words the error. The reach is the sum of the dimensions' negative and positive
    /// extents: patternProblem's low and high marks only fall and rise, so the pattern is in range from `offset` when
    /// its last marks are; a pattern whose counts or extents are out of range from offset 0 is not kept.
    bool fitsKnownPattern(std::int64_t offset, std::uint32_t begin, std::uint32_t count,
                          std::span<const PatternDim> dims) {
        const std::uint64_t key = (std::uint64_t{begin} << 8) | count;
        const PatternReach* reach = m_recentPatterns.find(key);
        if (reach == nullptr) {
            const auto pattern = dims.subspan(begin, count);
            if (ir_checks::patternProblem(0, pattern)) {
                return false;
            }
            PatternReach r;
            for (const PatternDim& d : pattern) {
                const std::int64_t extent = d.stride * std::max<std::int64_t>(d.count - 1, 0); // checked just above
                (extent < 0 ? r.below : r.above) += extent;
            }
            m_recentPatterns.add(key, r);
            reach = m_recentPatterns.find(key);
        }
        return offset + reach->below >= -lim::kMaxExtent && offset + reach->above <= lim::kMaxExtent;
    }

    /// The INST section when its instructions are many enough to decode on a second thread while this one reads
    /// the buffers and pools, and every section either side needs is there as `require` wants it. Otherwise
    /// nullptr: everything is read in order, which also words any error about a missing section.
    [[nodiscard]] const Section* splittable() const {
        const auto wellFormed = [&](const char* tag, std::uint32_t recordSize) {
            const auto it = m_sections.find(tag);
            return it != m_sections.end() && it->second.recordSize == recordSize && it->second.count <= kMaxPoolEntries;
        };
        if (!wellFormed("BUFS", kBufferRecord) || !wellFormed("SHPE", 8) || !wellFormed("DIMS", 16) ||
            !wellFormed("OPND", kOperandRecord) || !wellFormed("LOCS", 8) || !wellFormed("INTS", 4) ||
            !wellFormed("OPLS", 4) || !wellFormed("INST", kInstrRecord)) {
            return nullptr;
        }
        const Section& instructions = m_sections.at("INST");
        return instructions.count >= m_parallelFrom ? &instructions : nullptr;
    }

    /// Reads the operand lists and decodes the instructions on a second thread while this one reads the buffers,
    /// pattern dimensions, operands, locations and loop values (about as long each: on the 1 M kernel, 30-40 ms of
    /// CPU). An instruction's checks need only the pools' sizes, which the section table gives. The error is the
    /// one reading in order gives: this thread's sections come first (the other stops at its next block of
    /// instructions), then the other's in their order. The other thread also notes which operands each instruction
    /// names and counts the engines; the buffer uses are recorded from the operands afterwards
    /// (KernelIr::recordOperandUses).
    void readAlongsideInstructions(const Section& instructions) {
        const std::unique_ptr<ByteSource> source = m_source.twin();
        std::exception_ptr decoderFailed;
        reservePools(); // before either thread appends to a pool
        std::thread decoder([&] {
            try {
                readOperandLists(*source);
                readInstructions(*source, instructions);
            } catch (...) {
                decoderFailed = std::current_exception();
            }
        });
        try {
            readBuffers();
            readOperandPools();
            readFramePools();
        } catch (...) {
            m_abandon.store(true, std::memory_order_relaxed);
            decoder.join();
            throw;
        }
        decoder.join();
        if (decoderFailed) {
            std::rethrow_exception(decoderFailed);
        }
    }

    /// Decodes the instructions of `s` from `source` into place, a block at a time, noting the operands each names
    /// (m_operandUses) and counting the engines; touches only the instructions, their counts, the attribute sets and
    /// this reader's op, engine, attribute and operand-use tables (readAlongsideInstructions runs it beside
    /// readBuffers and readOperandPools). Needs the operand lists read. Ids that differ from their index are kept
    /// in m_ids.
    void readInstructions(ByteSource& source, const Section& s) {
        if (static_cast<std::int64_t>(s.count) > lim::kMaxInstructions) {
            fail(ErrorCode::Unsupported, fmt::format("more than {} instructions", lim::kMaxInstructions));
        }
        m_listCount = require(m_sections, "OPLS", 4).count;
        m_locCount = require(m_sections, "LOCS", 8).count;
        m_intCount = require(m_sections, "INTS", 4).count;
        m_ir.reserveInstructions(s.count);
        adviseHugePages(m_ir.instructions().data(), s.count * sizeof(Instruction));
        m_opOf.assign(m_strings.size(), std::nullopt);
        m_engineOf.assign(m_strings.size(), std::nullopt);
        m_attrsOf.assign(m_strings.size(), std::nullopt);
        // The operands each instruction names are noted as it is decoded (the lists were read before): what is left
        // for the buffer uses once the operands are read is one pass over the operands, not over the instructions.
        m_operandUses.assign(require(m_sections, "OPND", kOperandRecord).count, 0);
        const std::uint64_t perBlock = kBlockBytes / kInstrRecord;
        for (std::uint64_t first = 0; first < s.count; first += perBlock) {
            if (m_abandon.load(std::memory_order_relaxed)) {
                return;
            }
            const std::uint64_t n = std::min(perBlock, s.count - first);
            const std::byte* block = source.view(s.offset + first * kInstrRecord, n * kInstrRecord);
            const std::span<Instruction> out = m_ir.appendInstructionsInPlace(n);
            for (std::uint64_t k = 0; k < n; ++k) {
                const std::uint64_t i = first + k;
                try {
                    std::uint32_t id = 0;
                    out[k] = decodeInstruction(block + k * kInstrRecord, static_cast<std::uint32_t>(i), id);
                    if (id != i) [[unlikely]] {
                        m_ids.emplace_back(static_cast<std::uint32_t>(i), id);
                    }
                } catch (const ReadFailure& f) {
                    throw ReadFailure{Error{f.error.code, fmt::format("instruction #{} (byte offset {}): {}", i,
                                                                      s.offset + i * kInstrRecord, f.error.message)}};
                }
            }
        }
        m_ir.countPooledInstructions(0);
    }

    /// Built in one initializer, not field by field: assigned one at a time, the bit-fields were written a byte at
    /// a time and read back as a word (a store-forwarding stall that perf put at 40 % of the instructions' loop).
    /// Also notes the operands instruction `index` names (m_operandUses), from the values as read.
    Instruction decodeInstruction(const std::byte* r, std::uint32_t index, std::uint32_t& idOut) {
        const auto elements = load<std::int64_t>(r);
        const auto bytes = load<std::int64_t>(r + 8);
        const auto id = load<std::uint32_t>(r + 16);
        const auto op = load<std::uint32_t>(r + 20);
        const auto engine = load<std::uint32_t>(r + 24);
        const auto attrs = load<std::uint32_t>(r + 28);
        const auto lists = load<std::uint32_t>(r + 32);
        const auto locs = load<std::uint32_t>(r + 36);
        const auto ints = load<std::uint32_t>(r + 40);
        const auto dsts = std::to_integer<std::uint8_t>(r[44]);
        const auto srcs = std::to_integer<std::uint8_t>(r[45]);
        const auto nlocs = std::to_integer<std::uint8_t>(r[46]);
        const auto iters = std::to_integer<std::uint8_t>(r[47]);
        const auto pids = std::to_integer<std::uint8_t>(r[48]);
        // Checked as read, before the 42-bit fields could cut them.
        if (elements < 0 || elements > lim::kMaxSize || bytes < 0 || bytes > lim::kMaxSize || id > lim::kMaxId ||
            dsts > lim::kMaxOperands || srcs > lim::kMaxOperands || std::uint64_t{lists} + dsts + srcs > m_listCount ||
            std::uint64_t{locs} + nlocs > m_locCount || std::uint64_t{ints} + iters + pids > m_intCount) {
            fail(ErrorCode::Parse, "a size, id or pool range out of range");
        }
        // A loop's instructions are a few (op, engine, attributes) triples in turn: each is decoded once.
        const InstrKindKey key{op, engine, attrs};
        const InstrKind* kind = m_recentKinds.find(key);
        if (kind == nullptr) {
            m_recentKinds.add(key, {opOf(op), engineOf(engine), attrs != kNone ? attrsOf(attrs) : 0u});
            kind = m_recentKinds.find(key);
        } else if (kind->op == Op::Unknown) [[unlikely]] {
            opOf(op); // counted per instruction for the warning
        }
        idOut = id;
        KernelIr::noteOperandUses(m_operandUses, m_listEntries.subspan(lists, std::size_t{dsts} + srcs), dsts, index);
        return Instruction{.op = kind->op,
                           .engine = kind->engine,
                           .locCount = nlocs,
                           .iterCount = iters,
                           .operandBegin = lists,
                           .locBegin = locs,
                           .iterBegin = ints,
                           .elements = elements,
                           .pidCount = pids,
                           .dstCount = dsts,
                           .srcCount = srcs,
                           .bytes = bytes,
                           .attrsIndex = kind->attrsIndex};
    }

    DType dtypeOf(std::uint32_t i) {
        const std::string_view name = str(i, "operand dtype");
        if (!m_dtypeOf[i]) {
            m_dtypeOf[i] = parseDType(name);
        }
        return *m_dtypeOf[i];
    }

    Op opOf(std::uint32_t i) {
        const std::string_view name = str(i, "op");
        if (!m_opOf[i]) {
            m_opOf[i] = parseOp(name);
        }
        if (*m_opOf[i] == Op::Unknown) {
            ++m_unknownOps[std::string(name)];
        }
        return *m_opOf[i];
    }

    Engine engineOf(std::uint32_t i) {
        const std::string_view name = str(i, "engine");
        if (!m_engineOf[i]) {
            Engine e{};
            if (!parseEngine(name, e)) {
                fail(ErrorCode::Parse, fmt::format("unknown engine \"{}\"", name));
            }
            m_engineOf[i] = e;
        }
        return *m_engineOf[i];
    }

    std::uint32_t attrsOf(std::uint32_t i) {
        const std::string_view text = str(i, "attrs");
        if (!m_attrsOf[i]) {
            const auto json = nlohmann::json::parse(text, nullptr, false);
            if (json.is_discarded() || !json.is_object()) {
                fail(ErrorCode::Parse, "attrs: not a JSON object");
            }
            auto read = ir_checks::readAttrs(json);
            if (!read) {
                fail(ErrorCode::Parse, "attrs." + read.error());
            }
            m_attrsOf[i] = m_ir.addAttrs(*read);
            if (m_ir.attrsCount() > kMaxAttrSets) {
                fail(ErrorCode::Unsupported, fmt::format("more than {} distinct attribute sets", kMaxAttrSets));
            }
        }
        return *m_attrsOf[i];
    }

    /// Reads the records of `s` into `out` (one 4-byte value per record).
    template <typename T> void readInto(ByteSource& source, const Section& s, std::span<T> out) {
        static_assert(sizeof(T) == 4);
        assert(out.size() == s.count);
        source.readInto(s.offset, s.count * sizeof(T), reinterpret_cast<std::byte*>(out.data()));
    }

    const std::map<std::string, Section>& m_sections;
    ByteSource& m_source;
    std::size_t m_parallelFrom; ///< instructions from which they are decoded on a second thread
    KernelIr m_ir;
    std::vector<std::byte> m_stringData; ///< the STRS section; m_strings point into it
    std::vector<std::string_view> m_strings;
    std::vector<std::int64_t> m_shapes; ///< the SHPE section, while buffers are read
    bool m_poolsReserved = false;
    std::span<const std::uint32_t> m_listEntries; ///< the operand lists, in the KernelIr (readOperandLists)
    std::vector<std::uint32_t> m_operandUses;     ///< per operand, KernelIr::noteOperandUses' table
    std::uint64_t m_listCount = 0;
    std::uint64_t m_locCount = 0;
    std::uint64_t m_intCount = 0;
    std::atomic<bool> m_abandon{false}; ///< the buffers or pools failed: the instructions' thread stops
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_ids; ///< (index, id) where the id is not the index
    std::vector<std::optional<DType>> m_dtypeOf;
    std::vector<std::optional<Op>> m_opOf;
    std::vector<std::optional<Engine>> m_engineOf;
    std::vector<std::optional<std::uint32_t>> m_attrsOf; ///< string -> KernelIr::attrs index
    std::map<std::string, int> m_unknownOps;
    /// How far a pattern reaches below and above its operand's offset (fitsKnownPattern), by its place in DIMS.
    struct PatternReach {
        std::int64_t below = 0;
        std::int64_t above = 0;
    };
    RecentCache<std::uint64_t, PatternReach, 8> m_recentPatterns;
    /// An instruction record's op, engine and attributes (string indices) and what they decode to.
    using InstrKindKey = std::array<std::uint32_t, 3>;
    struct InstrKind {
        Op op = Op::Unknown;
        Engine engine = Engine::Vector;
        std::uint32_t attrsIndex = 0;
    };
    RecentCache<InstrKindKey, InstrKind, 8> m_recentKinds;
};

} // namespace

bool BinaryIrReader::startsWithMagic(std::istream& in) {
    std::array<char, 8> head{};
    in.read(head.data(), head.size());
    const bool binary = in.gcount() == static_cast<std::streamsize>(head.size()) &&
                        std::string_view(head.data(), head.size()) == kMagic;
    in.clear();
    in.seekg(0);
    return binary;
}

namespace {

Expected<KernelIr> decode(ByteSource& source, std::string_view origin, std::size_t parallelFrom) {
    try {
        if (source.size() < BinaryIrReader::kMagic.size() ||
            std::memcmp(source.view(0, BinaryIrReader::kMagic.size()), BinaryIrReader::kMagic.data(),
                        BinaryIrReader::kMagic.size()) != 0) {
            fail(ErrorCode::Parse, "not a binary Kernel IR (no KLIRBIN magic)");
        }
        const auto sections = readSections(source);
        return Decoder(sections, source, parallelFrom).run();
    } catch (const ReadFailure& f) {
        Error e = f.error;
        e.file = std::string(origin);
        return std::unexpected(std::move(e));
    } catch (const std::bad_alloc&) {
        return makeError(ErrorCode::Io, "not enough memory to load this Kernel IR", std::string(origin));
    }
}

/// Closes a file descriptor on every path out.
struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
};

} // namespace

Expected<KernelIr> BinaryIrReader::loadBytes(std::span<const std::byte> data, std::string_view origin,
                                             std::size_t parallelFrom) {
    MemorySource source(data);
    return decode(source, origin, parallelFrom);
}

Expected<KernelIr> BinaryIrReader::loadFile(const std::filesystem::path& path, std::size_t parallelFrom) {
    // Read in blocks, not mapped (see ByteSource): the file is never in memory whole beside the IR, and a file cut
    // short while it is read is an error, never a SIGBUS.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return makeError(ErrorCode::NotFound, "cannot open Kernel IR file", path.string());
    }
    const FdCloser closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        return makeError(ErrorCode::Io, "cannot read the Kernel IR file", path.string());
    }
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > (std::uint64_t{1} << 36)) {
        return makeError(ErrorCode::Unsupported,
                         fmt::format("the Kernel IR file is {} bytes; the limit is 64 GiB", size), path.string());
    }
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    FileSource source(fd, size);
    return decode(source, path.string(), parallelFrom);
}

} // namespace kl::sim
