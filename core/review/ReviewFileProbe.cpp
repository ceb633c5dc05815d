#include "review/ReviewFileProbe.h"

#include "review/ReviewSchema.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace kl::core {

namespace {

constexpr std::size_t kHeaderSize = 100;
constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};
constexpr const char* kNotReviewHint = "open a .klreview file made by `kernellens-cli review new` or the GUI";

std::uint32_t bigEndian32(const unsigned char* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
}

} // namespace

Expected<ReviewFileHeader> probeReviewFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        return makeError(ErrorCode::NotFound, "review file does not exist", path, 0,
                         "create one with `kernellens-cli review new FILE`");
    }
    if (!std::filesystem::is_regular_file(path, ec)) {
        return makeError(ErrorCode::Io, "not a regular file", path);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return makeError(ErrorCode::Io, "cannot read review file (permissions?)", path);
    }
    std::array<unsigned char, kHeaderSize> header{};
    in.read(reinterpret_cast<char*>(header.data()), header.size());
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) {
        return makeError(ErrorCode::Parse, "not a KernelLens review file: the file is empty", path, 0, kNotReviewHint);
    }
    if (got < kHeaderSize || std::memcmp(header.data(), kSqliteMagic.data(), kSqliteMagic.size()) != 0) {
        return makeError(ErrorCode::Parse, "not a KernelLens review file: not an SQLite database", path, 0,
                         kNotReviewHint);
    }
    ReviewFileHeader result;
    result.applicationId = static_cast<std::int32_t>(bigEndian32(&header[68]));
    result.userVersion = static_cast<int>(bigEndian32(&header[60]));
    result.walMode = header[18] == 2 && header[19] == 2;
    if (result.applicationId != ReviewSchema::kApplicationId) {
        return makeError(ErrorCode::Parse,
                         fmt::format("not a KernelLens review file: SQLite database with application id 0x{:08X} "
                                     "(a review has 0x{:08X})",
                                     static_cast<std::uint32_t>(result.applicationId),
                                     static_cast<std::uint32_t>(ReviewSchema::kApplicationId)),
                         path, 0, kNotReviewHint);
    }
    return result;
}

} // namespace kl::core
