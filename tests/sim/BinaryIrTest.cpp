// The binary Kernel IR (docs/kernel-ir.md, "Binary form"): it loads to the same program as the JSON form of the
// same trace, and a truncated, corrupted or foreign file is refused with the byte offset, never read past.
#include "IrCompare.h"

#include "ir/IrBinary.h"
#include "ir/IrLoader.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace kl::sim {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(KL_SOURCE_DIR) / "tests" / "sim" / "data";

std::vector<std::byte> readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    const std::string s = out.str();
    std::vector<std::byte> bytes(s.size());
    std::memcpy(bytes.data(), s.data(), s.size());
    return bytes;
}

/// A scratch copy of a file in the temporary folder, removed at the end of the test.
struct ScratchFile {
    fs::path path;
    explicit ScratchFile(const std::vector<std::byte>& bytes, const std::string& name)
        : path(fs::temp_directory_path() / (name + std::to_string(::getpid()) + ".klir")) {
        std::ofstream(path, std::ios::binary | std::ios::trunc)
            .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    ~ScratchFile() {
        std::error_code ec;
        fs::remove(path, ec);
    }
};

Expected<KernelIr> load(const std::vector<std::byte>& bytes) {
    return BinaryIrReader::loadBytes(bytes, "test.klir");
}

/// A binary IR written here field by field (docs/kernel-ir.md, "Binary form"): `n` tiles, each loaded by a dma_copy
/// from its own HBM rows, with its own operands, frame and loop value, so that every pool spans several of the
/// reader's blocks of records. With `kinds` above 1 the tiles take `kinds` names in turn and their loads as many
/// attribute sets (`moving_free` 1, 2, ...): records that repeat in cycles, as a loop body's tiles do.
class ManyTiles {
public:
    explicit ManyTiles(std::uint32_t n, std::uint32_t kinds = 1) : m_n(n), m_kinds(kinds) {}

    [[nodiscard]] std::vector<std::byte> bytes() const {
        std::vector<std::byte> out;
        put(out, std::string_view("KLIRBIN\0", 8));
        put32(out, 1);
        put32(out, 1);
        put32(out, 10);
        put32(out, 0);
        section(out, "META", 0, 1, meta());
        section(out, "STRS", 0, stringCount(), strings());
        section(out, "BUFS", 32, m_n + 1, buffers());
        section(out, "SHPE", 8, 4, i64s({std::int64_t{m_n} * 128, 64, 128, 64}));
        section(out, "DIMS", 16, 2, i64s({64, 128, 1, 64}));
        section(out, "OPND", 32, 2 * std::uint64_t{m_n}, operands());
        section(out, "OPLS", 4, 2 * std::uint64_t{m_n}, lists());
        section(out, "LOCS", 8, m_n, locs());
        section(out, "INTS", 4, m_n, ints());
        section(out, "INST", 52, m_n, instructions());
        return out;
    }

private:
    using Bytes = std::vector<std::byte>;
    static void put(Bytes& b, std::string_view s) {
        for (const char c : s) {
            b.push_back(static_cast<std::byte>(c));
        }
    }
    template <typename T> static void putInt(Bytes& b, T v) {
        for (std::size_t i = 0; i < sizeof v; ++i) {
            b.push_back(static_cast<std::byte>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff));
        }
    }
    static void put32(Bytes& b, std::uint32_t v) { putInt(b, v); }
    static void section(Bytes& out, std::string_view tag, std::uint32_t recordSize, std::uint64_t count,
                        Bytes payload) {
        while (payload.size() % 8 != 0) {
            payload.push_back(std::byte{0});
        }
        put(out, tag);
        put32(out, recordSize);
        putInt<std::uint64_t>(out, count);
        putInt<std::uint64_t>(out, payload.size());
        out.insert(out.end(), payload.begin(), payload.end());
    }
    static Bytes i64s(std::initializer_list<std::int64_t> values) {
        Bytes b;
        for (const std::int64_t v : values) {
            putInt(b, v);
        }
        return b;
    }
    static Bytes meta() {
        Bytes b;
        put(b, R"({"kernel":{"name":"many","file":0,"api":"legacy","grid":[1],"args":[]},"files":["k.py"],)"
               R"("diagnostics":[]})");
        return b;
    }
    [[nodiscard]] std::uint32_t stringCount() const { return m_kinds > 1 ? 5 + 2 * m_kinds : 5; }
    /// The string index of tile `i`'s name and of its load's attributes (0xffffffff: none).
    [[nodiscard]] std::uint32_t tileName(std::uint32_t i) const { return m_kinds > 1 ? 5 + 2 * (i % m_kinds) : 2; }
    [[nodiscard]] std::uint32_t loadAttrs(std::uint32_t i) const {
        return m_kinds > 1 ? 6 + 2 * (i % m_kinds) : 0xffffffffu;
    }
    [[nodiscard]] Bytes strings() const {
        // 0 "a", 1 "float32", 2 "t", 3 "dma_copy", 4 "dma", then per kind k a name "tk" and attributes
        std::vector<std::string> text{"a", "float32", "t", "dma_copy", "dma"};
        for (std::uint32_t k = 0; m_kinds > 1 && k < m_kinds; ++k) {
            text.push_back("t" + std::to_string(k));
            text.push_back(R"({"moving_free":)" + std::to_string(k + 1) + "}");
        }
        Bytes b;
        std::uint32_t end = 0;
        put32(b, 0);
        for (const auto& t : text) {
            end += static_cast<std::uint32_t>(t.size());
            put32(b, end);
        }
        for (const auto& t : text) {
            put(b, t);
        }
        return b;
    }
    [[nodiscard]] Bytes buffers() const {
        Bytes b;
        const auto buffer = [&](std::uint32_t name, std::uint32_t shape, std::uint8_t memory, std::uint8_t role) {
            for (const std::uint32_t v : {name, 1u, shape, 4u, 0u, 3u}) {
                put32(b, v);
            }
            for (const std::uint8_t v : {memory, role, std::uint8_t{2}, std::uint8_t{0}, std::uint8_t{0},
                                         std::uint8_t{0}, std::uint8_t{0}, std::uint8_t{0}}) {
                b.push_back(std::byte{v});
            }
        };
        buffer(0, 0, 0, 0); // the HBM input a: [n * 128, 64]
        for (std::uint32_t i = 0; i < m_n; ++i) {
            buffer(tileName(i), 2, 1, 2); // tile t: [128, 64] in SBUF
        }
        return b;
    }
    [[nodiscard]] Bytes operands() const {
        Bytes b;
        const auto operand = [&](std::int64_t offset, std::uint32_t buffer, std::uint32_t dims, bool onChip) {
            putInt(b, offset);
            for (const std::uint32_t v : {buffer, dims, 1u}) {
                put32(b, v);
            }
            putInt<std::uint16_t>(b, 0);
            putInt<std::uint16_t>(b, onChip ? 128 : 0);
            for (const std::uint8_t v :
                 {static_cast<std::uint8_t>(onChip ? 1 : 2), static_cast<std::uint8_t>(onChip ? 1 : 0), std::uint8_t{0},
                  std::uint8_t{0}, std::uint8_t{0}, std::uint8_t{0}, std::uint8_t{0}, std::uint8_t{0}}) {
                b.push_back(std::byte{v});
            }
        };
        for (std::uint32_t i = 0; i < m_n; ++i) {
            operand(0, 1 + i, 1, true);                       // the tile, whole
            operand(std::int64_t{i} * 128 * 64, 0, 0, false); // its rows of a
        }
        return b;
    }
    [[nodiscard]] Bytes lists() const {
        Bytes b;
        for (std::uint32_t i = 0; i < 2 * m_n; ++i) {
            put32(b, i);
        }
        return b;
    }
    [[nodiscard]] Bytes locs() const {
        Bytes b;
        for (std::uint32_t i = 0; i < m_n; ++i) {
            put32(b, 0);
            put32(b, 10 + i);
        }
        return b;
    }
    [[nodiscard]] Bytes ints() const {
        Bytes b;
        for (std::uint32_t i = 0; i < m_n; ++i) {
            put32(b, i);
        }
        return b;
    }
    [[nodiscard]] Bytes instructions() const {
        Bytes b;
        for (std::uint32_t i = 0; i < m_n; ++i) {
            putInt<std::int64_t>(b, 128 * 64);
            putInt<std::int64_t>(b, 128 * 64 * 4);
            for (const std::uint32_t v : {i, 3u, 4u, loadAttrs(i), 2 * i, i, i}) {
                put32(b, v);
            }
            for (const std::uint8_t v : {1, 1, 1, 1, 0, 0, 0, 0}) {
                b.push_back(std::byte{v});
            }
        }
        return b;
    }

    std::uint32_t m_n;
    std::uint32_t m_kinds;
};

/// Where the records of section `tag` start in `file`.
std::size_t sectionRecords(const std::vector<std::byte>& file, std::string_view tag) {
    const std::string_view view(reinterpret_cast<const char*>(file.data()), file.size());
    const auto at = view.find(tag);
    EXPECT_NE(at, std::string_view::npos) << tag;
    return at + 24;
}

TEST(BinaryIr, PoolsLargerThanAReadBlockLoadWhole) {
    // 20,000 instructions: operands, frames and operand lists each span several blocks of the reader.
    constexpr std::uint32_t kTiles = 20'000;
    const std::vector<std::byte> file = ManyTiles(kTiles).bytes();
    auto ir = load(file);
    ASSERT_TRUE(ir) << ir.error().message;
    ASSERT_EQ(ir->instructions().size(), kTiles);
    for (const std::uint32_t i : {0u, 4095u, 4096u, 8193u, kTiles - 1}) {
        const Instruction& in = ir->instructions()[i];
        EXPECT_EQ(ir->id(i), i);
        EXPECT_EQ(in.op, Op::DmaCopy);
        EXPECT_EQ(in.bytes, 128 * 64 * 4);
        ASSERT_EQ(ir->dsts(in).size(), 1u);
        ASSERT_EQ(ir->srcs(in).size(), 1u);
        EXPECT_EQ(ir->dsts(in)[0].buffer, 1 + i);
        EXPECT_EQ(ir->srcs(in)[0].offset, std::int64_t{i} * 128 * 64);
        EXPECT_EQ(ir->innermostLoc(in).line, 10 + i);
        ASSERT_EQ(ir->iter(in).size(), 1u);
        EXPECT_EQ(ir->iter(in)[0], static_cast<std::int32_t>(i));
        EXPECT_EQ(ir->bufferFacts()[1 + i].lastUse, i);
        EXPECT_TRUE(ir->bufferFacts()[1 + i].written);
    }
    EXPECT_FALSE(ir->bufferFacts()[0].written);
    // No growth by doubling and no copy left behind: what the layout promises (docs/kernel-ir.md, "In memory"), 32
    // bytes per instruction, 16 per distinct operand (two each here, where a real loop shares most), 4 per operand
    // use, 8 per buffer, 8 per frame and 4 per loop value: 92.
    const double perInstruction = static_cast<double>(ir->memoryBytes()) / kTiles;
    EXPECT_LE(perInstruction, 93.0) << perInstruction << " bytes per instruction";
}

TEST(BinaryIr, RecordsThatRepeatInCyclesKeepTheirOwnKinds) {
    // The reader compares each buffer and instruction record with the last few distinct ones before decoding it:
    // with more kinds in the cycle than it remembers (and fewer), every tile still gets its own name and every
    // load its own attributes.
    for (const std::uint32_t kinds : {2u, 3u, 8u, 9u, 17u}) {
        constexpr std::uint32_t kTiles = 5'000;
        auto ir = load(ManyTiles(kTiles, kinds).bytes());
        ASSERT_TRUE(ir) << ir.error().message;
        for (std::uint32_t i = 0; i < kTiles; i += 7) {
            const Instruction& in = ir->instructions()[i];
            EXPECT_EQ(ir->buffers()[1 + i].name, "t" + std::to_string(i % kinds)) << kinds << " kinds, tile " << i;
            EXPECT_EQ(ir->attrs(in).movingFree, i % kinds + 1) << kinds << " kinds, tile " << i;
            EXPECT_EQ(in.op, Op::DmaCopy);
            EXPECT_EQ(in.engine, Engine::Dma);
            EXPECT_EQ(ir->dsts(in)[0].buffer, 1 + i);
        }
        EXPECT_EQ(ir->attrsCount(), kinds + 1); // and the default
    }
}

TEST(BinaryIr, AnOffsetThatTakesAKnownPatternPastTheLimitIsRefused) {
    // A pattern's reach is worked out once and then checked against each operand's offset: an operand far into
    // the operand pool, whose pattern was accepted thousands of times before, is still refused when its offset
    // takes the pattern past 2^48 elements, and so is one only just past.
    for (const std::int64_t offset : {std::int64_t{1} << 48, (std::int64_t{1} << 48) - 64 * 127 - 63 + 1}) {
        std::vector<std::byte> file = ManyTiles(20'000).bytes();
        const std::size_t opnd = sectionRecords(file, "OPND");
        std::memcpy(file.data() + opnd + 15'001 * 32, &offset, 8); // tile 7,500's rows of a: 2 dimensions
        auto ir = load(file);
        ASSERT_FALSE(ir) << offset;
        EXPECT_NE(ir.error().message.find("operand #15001"), std::string::npos) << ir.error().message;
        EXPECT_NE(ir.error().message.find("2^48"), std::string::npos) << ir.error().message;
    }
    // Just inside: accepted.
    std::vector<std::byte> file = ManyTiles(20'000).bytes();
    const std::int64_t inside = (std::int64_t{1} << 48) - 64 * 127 - 63;
    std::memcpy(file.data() + sectionRecords(file, "OPND") + 15'001 * 32, &inside, 8);
    auto ir = load(file);
    ASSERT_TRUE(ir) << ir.error().message;
    EXPECT_EQ(ir->srcs(ir->instructions()[7'500])[0].offset, inside);
}

TEST(BinaryIr, APatternOutOfRangeFromZeroIsJudgedWithEachOffset) {
    // A pattern that reaches below -2^48 from offset 0 is in range from a large enough offset: such a pattern is
    // never taken as known-good or known-bad, each operand is checked with its own offset.
    std::vector<std::byte> file = ManyTiles(10'000).bytes();
    const std::int64_t stride = -((std::int64_t{1} << 41) + (std::int64_t{1} << 35)); // x 127: below -2^48
    std::memcpy(file.data() + sectionRecords(file, "DIMS"), &stride, 8);
    const std::size_t opnd = sectionRecords(file, "OPND");
    const std::int64_t far = std::int64_t{1} << 43;
    for (std::uint32_t i = 0; i < 10'000; ++i) {
        std::memcpy(file.data() + opnd + (2 * std::size_t{i} + 1) * 32, &far, 8);
    }
    auto ir = load(file);
    ASSERT_TRUE(ir) << ir.error().message;
    EXPECT_EQ(ir->srcs(ir->instructions()[9'999])[0].offset, far);
    const std::int64_t zero = 0;
    std::memcpy(file.data() + opnd + (2 * std::size_t{6'000} + 1) * 32, &zero, 8);
    auto bad = load(file);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("operand #12001"), std::string::npos) << bad.error().message;
}

TEST(BinaryIr, AnOperandListEntryOutOfRangeInALaterBlockIsNamed) {
    // Operand lists are read straight into their pool and checked a block at a time (65,536 entries).
    std::vector<std::byte> file = ManyTiles(50'000).bytes();
    const std::uint32_t beyond = 100'000; // the pool holds 100,000 operands
    std::memcpy(file.data() + sectionRecords(file, "OPLS") + 70'001 * 4, &beyond, 4);
    auto ir = load(file);
    ASSERT_FALSE(ir);
    EXPECT_NE(ir.error().message.find("operand list entry #70001"), std::string::npos) << ir.error().message;
    EXPECT_NE(ir.error().message.find("names operand 100000 of 100000"), std::string::npos) << ir.error().message;
}

TEST(BinaryIr, UnknownOpsAreCountedPerInstructionWhenTheirRecordRepeats) {
    // The op name of a repeated record is decoded once; the warning still counts every instruction with it.
    std::vector<std::byte> file = ManyTiles(3'000, 3).bytes();
    const std::size_t strs = sectionRecords(file, "STRS");
    // "dma_copy" (string 3) becomes "dma_cop?", an op this simulator does not know.
    const std::string_view view(reinterpret_cast<const char*>(file.data()) + strs, file.size() - strs);
    const auto at = view.find("dma_copy");
    ASSERT_NE(at, std::string_view::npos);
    file[strs + at + 7] = std::byte{'?'};
    auto ir = load(file);
    ASSERT_TRUE(ir) << ir.error().message;
    ASSERT_FALSE(ir->diagnostics.empty());
    EXPECT_NE(ir->diagnostics.back().message.find("3000"), std::string::npos) << ir->diagnostics.back().message;
    EXPECT_EQ(ir->instructions()[2'999].op, Op::Unknown);
}

/// Loads `rounds` copies of `whole`, each with 1 to 4 random bits flipped (seeded: the same flips every run), and
/// counts the refusals; a refusal must never be an internal error, and nothing may crash.
int refusedAfterRandomFlips(const std::vector<std::byte>& whole, std::uint64_t seed, int rounds) {
    std::mt19937_64 rng(seed);
    int refused = 0;
    for (int i = 0; i < rounds; ++i) {
        auto bytes = whole;
        const int flips = 1 + static_cast<int>(rng() % 4);
        for (int f = 0; f < flips; ++f) {
            bytes[rng() % bytes.size()] ^= std::byte{static_cast<unsigned char>(1u << (rng() % 8))};
        }
        auto ir = load(bytes);
        refused += ir ? 0 : 1;
        if (!ir) {
            EXPECT_NE(ir.error().code, ErrorCode::Internal) << ir.error().message;
        }
    }
    return refused;
}

TEST(BinaryIr, RandomByteFlipsInCyclingRecordsNeverCrash) {
    // The fuzz below on a file whose buffers, operands and instructions repeat in cycles (the reader's recent-record
    // comparisons): a flipped byte is a refusal or a program, never a crash or an internal error.
    EXPECT_GT(refusedAfterRandomFlips(ManyTiles(600, 5).bytes(), 20261202, 1500), 0);
}

TEST(BinaryIr, IdsThatDifferFromTheirIndexSurviveTheBlocks) {
    // Instructions are handed to the KernelIr a block of 4,096 at a time; an id unlike its index is set after its
    // block, in any block.
    constexpr std::uint32_t kTiles = 20'000;
    std::vector<std::byte> file = ManyTiles(kTiles).bytes();
    const std::size_t inst = file.size() - std::size_t{kTiles} * 52;
    for (const std::uint32_t i : {5000u, 12'345u}) {
        const std::uint32_t id = 100'000 + i;
        std::memcpy(file.data() + inst + std::size_t{i} * 52 + 16, &id, 4);
    }
    auto ir = load(file);
    ASSERT_TRUE(ir) << ir.error().message;
    EXPECT_EQ(ir->id(5000), 105'000u);
    EXPECT_EQ(ir->id(12'345), 112'345u);
    for (const std::uint32_t i : {0u, 4999u, 5001u, 8192u, 12'344u, kTiles - 1}) {
        EXPECT_EQ(ir->id(i), i);
    }
}

/// Loads `bytes` on one thread and, where it holds enough instructions, with the instructions on a second thread.
std::pair<Expected<KernelIr>, Expected<KernelIr>> loadBothWays(const std::vector<std::byte>& bytes) {
    return {BinaryIrReader::loadBytes(bytes, "test.klir", SIZE_MAX), BinaryIrReader::loadBytes(bytes, "test.klir", 1)};
}

/// Everything a reader fills in besides what test::firstDifference compares: buffer uses, engine bookkeeping, size.
void expectSameBookkeeping(const KernelIr& a, const KernelIr& b) {
    ASSERT_EQ(a.bufferUses().size(), b.bufferUses().size());
    for (std::size_t i = 0; i < a.bufferUses().size(); ++i) {
        ASSERT_EQ(a.bufferUses()[i].lastUse, b.bufferUses()[i].lastUse) << "buffer " << i;
        ASSERT_EQ(a.bufferUses()[i].written(), b.bufferUses()[i].written()) << "buffer " << i;
    }
    EXPECT_EQ(a.dmaCount(), b.dmaCount());
    EXPECT_EQ(a.matmulCount(), b.matmulCount());
    EXPECT_EQ(a.lastMatmul(), b.lastMatmul());
    for (int e = 0; e < static_cast<int>(Engine::Count); ++e) {
        EXPECT_EQ(a.lastOn(static_cast<Engine>(e)), b.lastOn(static_cast<Engine>(e)));
    }
    EXPECT_EQ(a.memoryBytes(), b.memoryBytes());
}

TEST(BinaryIr, TheSecondThreadReadsTheSameProgram) {
    // Instructions decoded on their own thread while the buffers and pools are read: the same program, ids (two set
    // apart from their index), attribute sets, buffer uses and engine counts as reading in order.
    std::vector<std::byte> file = ManyTiles(20'000, 5).bytes();
    const std::size_t inst = file.size() - std::size_t{20'000} * 52;
    for (const std::uint32_t i : {3u, 19'999u}) {
        const std::uint32_t id = 500'000 + i;
        std::memcpy(file.data() + inst + std::size_t{i} * 52 + 16, &id, 4);
    }
    auto [serial, parallel] = loadBothWays(file);
    ASSERT_TRUE(serial) << serial.error().message;
    ASSERT_TRUE(parallel) << parallel.error().message;
    EXPECT_EQ(test::firstDifference(*serial, *parallel), std::nullopt);
    expectSameBookkeeping(*serial, *parallel);
    EXPECT_EQ(parallel->id(19'999), 519'999u);
    // And from a file, through the descriptor both threads read.
    const ScratchFile written(file, "kl-parallel-");
    auto fromFile = BinaryIrReader::loadFile(written.path, 1);
    ASSERT_TRUE(fromFile) << fromFile.error().message;
    EXPECT_EQ(test::firstDifference(*serial, *fromFile), std::nullopt);
    expectSameBookkeeping(*serial, *fromFile);
}

TEST(BinaryIr, TheSecondThreadReportsTheErrorReadingInOrderWould) {
    // A bad operand (a pool, read first) and a bad instruction: the operand is named, as reading in order names it,
    // whichever thread stops first.
    const std::vector<std::byte> good = ManyTiles(20'000).bytes();
    std::vector<std::byte> file = good;
    const std::size_t inst = file.size() - std::size_t{20'000} * 52;
    const std::size_t opnd =
        file.size() - 20'000 * 52 - 24 - 20'000 * 4 - 24 - 20'000 * 8 - 24 - 2 * 20'000 * 4 - 24 - 2 * 20'000 * 32;
    file[opnd + 19'000 * 32 + 8] = std::byte{0xff};
    file[opnd + 19'000 * 32 + 9] = std::byte{0xff};
    const std::uint32_t huge = 0x7fffffffu;
    std::memcpy(file.data() + inst + 10 * 52 + 32, &huge, 4);
    auto [serial, parallel] = loadBothWays(file);
    ASSERT_FALSE(serial);
    ASSERT_FALSE(parallel);
    EXPECT_NE(parallel.error().message.find("operand #19000"), std::string::npos) << parallel.error().message;
    EXPECT_EQ(parallel.error().message, serial.error().message);
    // Random flips anywhere (sections, counts, records, both threads' parts at once): each way the same program or
    // the same refusal, word for word.
    std::mt19937_64 rng(20261203);
    int refused = 0;
    for (int round = 0; round < 150; ++round) {
        std::vector<std::byte> bytes = good;
        const int flips = 1 + static_cast<int>(rng() % 4);
        for (int f = 0; f < flips; ++f) {
            bytes[rng() % bytes.size()] ^= std::byte{static_cast<unsigned char>(1u << (rng() % 8))};
        }
        auto [a, b] = loadBothWays(bytes);
        ASSERT_EQ(a.has_value(), b.has_value()) << "round " << round;
        if (!a) {
            ++refused;
            ASSERT_EQ(a.error().message, b.error().message) << "round " << round;
            EXPECT_NE(a.error().code, ErrorCode::Internal) << a.error().message;
        } else {
            ASSERT_EQ(test::firstDifference(*a, *b), std::nullopt) << "round " << round;
        }
    }
    EXPECT_GT(refused, 0);
}

TEST(BinaryIr, AnElementCountPastItsFieldIsRefusedNotCut) {
    // An instruction keeps its element and byte counts in 42 bits: 2^42 + 5 must be refused, not read as 5.
    std::vector<std::byte> file = ManyTiles(100).bytes();
    const std::size_t inst = file.size() - std::size_t{100} * 52;
    const std::int64_t huge = (std::int64_t{1} << 42) + 5;
    std::memcpy(file.data() + inst + 7 * 52, &huge, 8);
    auto ir = load(file);
    ASSERT_FALSE(ir);
    EXPECT_NE(ir.error().message.find("instruction #7"), std::string::npos) << ir.error().message;
}

TEST(BinaryIr, ABufferIndexBeyondTheOperandFieldIsRefused) {
    // The in-memory operand keeps a buffer index in 27 bits: 2^27 + 1 must be refused, not read as buffer 1.
    std::vector<std::byte> file = ManyTiles(20'000).bytes();
    const std::size_t opnd =
        file.size() - 20'000 * 52 - 24 - 20'000 * 4 - 24 - 20'000 * 8 - 24 - 2 * 20'000 * 4 - 24 - 2 * 20'000 * 32;
    const std::uint32_t buffer = (1u << 27) + 1;
    std::memcpy(file.data() + opnd + 9'000 * 32 + 8, &buffer, 4);
    auto ir = load(file);
    ASSERT_FALSE(ir);
    EXPECT_NE(ir.error().message.find("operand #9000"), std::string::npos) << ir.error().message;
}

TEST(BinaryIr, APoolCutInALaterBlockIsRefused) {
    const std::vector<std::byte> file = ManyTiles(20'000).bytes();
    // Cuts all through the file (each pool's later blocks included): never a crash, always an error.
    for (std::size_t cut = 24; cut < file.size(); cut += file.size() / 97) {
        auto ir = BinaryIrReader::loadBytes(std::span(file.data(), cut), "test.klir");
        ASSERT_FALSE(ir) << "cut at " << cut;
        EXPECT_NE(ir.error().message.find("truncated"), std::string::npos) << ir.error().message;
    }
    // A bad operand deep in the operand pool (its buffer index) is named with its own index.
    std::vector<std::byte> bad = file;
    const std::size_t opnd =
        bad.size() - 20'000 * 52 - 24 - 20'000 * 4 - 24 - 20'000 * 8 - 24 - 2 * 20'000 * 4 - 24 - 2 * 20'000 * 32;
    bad[opnd + 9'000 * 32 + 8] = std::byte{0xff};
    bad[opnd + 9'000 * 32 + 9] = std::byte{0xff};
    auto ir = load(bad);
    ASSERT_FALSE(ir);
    EXPECT_NE(ir.error().message.find("operand #9000"), std::string::npos) << ir.error().message;
}

TEST(BinaryIr, SameProgramAsTheJsonFormOfTheSameTrace) {
    auto binary = IrLoader::loadFile(kData / "softmax_small.klir"); // recognised by its magic
    auto json = IrLoader::loadFile(kData / "softmax_small.ir.json");
    ASSERT_TRUE(binary) << formatError(binary.error());
    ASSERT_TRUE(json) << formatError(json.error());
    EXPECT_EQ(binary->instructions().size(), 12u);
    EXPECT_EQ(binary->kernelName, "nki_softmax");
    EXPECT_EQ(test::firstDifference(*binary, *json), std::nullopt);
}

TEST(BinaryIr, ComparisonNoticesADifferentProgram) {
    // The comparison the format tests rest on must see a change in one operand's offset.
    auto a = IrLoader::loadFile(kData / "softmax_small.ir.json");
    ASSERT_TRUE(a);
    std::ifstream in(kData / "softmax_small.ir.json");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.rfind("\"offset\":0");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 10, "\"offset\":1");
    auto b = IrLoader::loadString(text);
    ASSERT_TRUE(b) << formatError(b.error());
    EXPECT_NE(test::firstDifference(*a, *b), std::nullopt);
}

TEST(BinaryIr, EveryTruncationIsRefusedWithoutReadingPastTheEnd) {
    const auto whole = readBytes(kData / "softmax_small.klir");
    ASSERT_GT(whole.size(), 200u);
    for (std::size_t n = 0; n < whole.size(); ++n) {
        // A copy of exactly n bytes: a read past it would be caught by the sanitizer builds and, here, by the
        // error the reader must give instead.
        const std::vector<std::byte> cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(n));
        auto ir = load(cut);
        ASSERT_FALSE(ir) << "a file cut to " << n << " bytes loaded";
        EXPECT_EQ(ir.error().file, "test.klir");
        EXPECT_NE(ir.error().code, ErrorCode::Internal);
    }
}

TEST(BinaryIr, AFileLoadsToTheSameProgramAsItsBytes) {
    // loadFile reads in blocks; loadBytes reads one span: the two paths must build the same program.
    const auto whole = readBytes(kData / "softmax_small.klir");
    auto fromFile = BinaryIrReader::loadFile(kData / "softmax_small.klir");
    auto fromBytes = load(whole);
    ASSERT_TRUE(fromFile) << formatError(fromFile.error());
    ASSERT_TRUE(fromBytes) << formatError(fromBytes.error());
    EXPECT_EQ(test::firstDifference(*fromFile, *fromBytes), std::nullopt);
}

TEST(BinaryIr, EveryTruncatedFileIsRefusedWithItsPath) {
    const auto whole = readBytes(kData / "softmax_small.klir");
    for (std::size_t n = 0; n < whole.size(); n += 7) {
        const ScratchFile cut({whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(n)}, "kl-cut-");
        auto ir = BinaryIrReader::loadFile(cut.path);
        ASSERT_FALSE(ir) << "a file cut to " << n << " bytes loaded";
        EXPECT_EQ(ir.error().file, cut.path.string());
        EXPECT_NE(ir.error().code, ErrorCode::Internal);
    }
}

TEST(BinaryIr, TruncatingTheFileAfterLoadingLeavesTheProgramIntact) {
    // The reader owns what it read (no mapping): cutting or emptying the file afterwards cannot reach the IR (a
    // mapped file would raise SIGBUS on the next touch of a page past the new end).
    const auto whole = readBytes(kData / "softmax_small.klir");
    const ScratchFile file(whole, "kl-shrunk-");
    auto ir = BinaryIrReader::loadFile(file.path);
    ASSERT_TRUE(ir) << formatError(ir.error());
    fs::resize_file(file.path, 0);
    auto expected = load(whole);
    ASSERT_TRUE(expected);
    EXPECT_EQ(test::firstDifference(*ir, *expected), std::nullopt);
    EXPECT_EQ(ir->instructions().size(), 12u);
    auto again = BinaryIrReader::loadFile(file.path);
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find("magic"), std::string::npos) << again.error().message;
}

TEST(BinaryIr, TheReaderKeepsNoSpareCapacity) {
    // Pools and arrays are sized once from the section counts: the IR read from the file holds what the same
    // program holds when read from memory, and less than the JSON reader's (which grows as it parses).
    auto fromFile = BinaryIrReader::loadFile(kData / "softmax_small.klir");
    auto fromBytes = load(readBytes(kData / "softmax_small.klir"));
    auto fromJson = IrLoader::loadFile(kData / "softmax_small.ir.json");
    ASSERT_TRUE(fromFile && fromBytes && fromJson);
    EXPECT_EQ(fromFile->memoryBytes(), fromBytes->memoryBytes());
    EXPECT_LT(fromFile->memoryBytes(), fromJson->memoryBytes());
    // 257 bytes per instruction when written: with 12 instructions the tables' fixed sizes dominate (a loop of a
    // million instructions takes 98, docs/simulator.md); the bound guards this file's figure against growth.
    const double perInstruction =
        static_cast<double>(fromFile->memoryBytes()) / static_cast<double>(fromFile->instructions().size());
    EXPECT_LE(perInstruction, 265.0) << perInstruction << " bytes per instruction";
}

TEST(BinaryIr, ATruncatedSectionNamesItsOffset) {
    auto bytes = readBytes(kData / "softmax_small.klir");
    bytes.resize(bytes.size() - 8);
    auto ir = load(bytes);
    ASSERT_FALSE(ir);
    EXPECT_NE(ir.error().message.find("truncated"), std::string::npos) << ir.error().message;
    EXPECT_NE(ir.error().message.find("byte offset"), std::string::npos) << ir.error().message;
}

TEST(BinaryIr, ForeignMagicAndNewerFormatsAreRefused) {
    auto bytes = readBytes(kData / "softmax_small.klir");
    auto foreign = bytes;
    foreign[0] = std::byte{'X'};
    auto a = load(foreign);
    ASSERT_FALSE(a);
    EXPECT_NE(a.error().message.find("magic"), std::string::npos);
    auto newer = bytes;
    newer[8] = std::byte{2}; // format version 2
    auto b = load(newer);
    ASSERT_FALSE(b);
    EXPECT_EQ(b.error().code, ErrorCode::Unsupported);
    EXPECT_NE(b.error().message.find("format 2"), std::string::npos) << b.error().message;
}

TEST(BinaryIr, AnOperandIndexOutsideItsPoolIsAnErrorWithTheInstruction) {
    auto bytes = readBytes(kData / "softmax_small.klir");
    // The INST section's first record: its operand list begin (byte 32 of the record) set past the pool.
    const std::string_view view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const auto inst = view.find("INST");
    ASSERT_NE(inst, std::string_view::npos);
    const std::size_t record = inst + 24;
    const std::uint32_t huge = 0x7fffffffu;
    std::memcpy(bytes.data() + record + 32, &huge, 4);
    auto ir = load(bytes);
    ASSERT_FALSE(ir);
    EXPECT_NE(ir.error().message.find("instruction #0"), std::string::npos) << ir.error().message;
}

TEST(BinaryIr, RandomByteFlipsNeverCrash) {
    // most flips land in checked fields
    EXPECT_GT(refusedAfterRandomFlips(readBytes(kData / "softmax_small.klir"), 20261201, 3000), 0);
}

} // namespace
} // namespace kl::sim
