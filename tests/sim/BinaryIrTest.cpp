// The binary Kernel IR (docs/kernel-ir.md, "Binary form"): it loads to the same program as the JSON form of the
// same trace, and a truncated, corrupted or foreign file is refused with the byte offset, never read past.
#include "IrCompare.h"

#include "ir/IrBinary.h"
#include "ir/IrLoader.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
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

Expected<KernelIr> load(const std::vector<std::byte>& bytes) {
    return BinaryIrReader::loadBytes(bytes, "test.klir");
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
    const auto whole = readBytes(kData / "softmax_small.klir");
    std::mt19937_64 rng(20261201);
    int refused = 0;
    for (int i = 0; i < 3000; ++i) {
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
    EXPECT_GT(refused, 0); // most flips land in checked fields
}

} // namespace
} // namespace kl::sim
