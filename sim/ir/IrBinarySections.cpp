#include "ir/IrBinarySections.h"

#include "ir/IrBinary.h"
#include "ir/IrLoader.h"

#include <fmt/format.h>

namespace kl::sim::binary_ir {

namespace {

std::string tagName(const std::byte* p) {
    std::string s(reinterpret_cast<const char*>(p), 4);
    for (char& c : s) {
        if (c < 32 || c > 126) {
            c = '?';
        }
    }
    return s;
}

} // namespace

void fail(ErrorCode code, std::string message) {
    throw ReadFailure{Error{code, std::move(message)}};
}

std::map<std::string, Section> readSections(ByteSource& file) {
    if (file.size() < kHeaderSize) {
        fail(ErrorCode::Parse,
             fmt::format("truncated binary Kernel IR: {} bytes, the header alone is {}", file.size(), kHeaderSize));
    }
    const std::byte* head = file.view(0, kHeaderSize);
    if (std::memcmp(head, BinaryIrReader::kMagic.data(), BinaryIrReader::kMagic.size()) != 0) {
        fail(ErrorCode::Parse, "not a binary Kernel IR (no KLIRBIN magic)");
    }
    const auto version = load<std::uint32_t>(head + 8);
    if (version != BinaryIrReader::kFormatVersion) {
        fail(ErrorCode::Unsupported, fmt::format("binary Kernel IR format {} is not supported: this simulator reads "
                                                 "format {} (trace the kernel again with this build's front end)",
                                                 version, BinaryIrReader::kFormatVersion));
    }
    const auto irVersion = load<std::uint32_t>(head + 12);
    if (irVersion != static_cast<std::uint32_t>(kSupportedIrVersion)) {
        fail(ErrorCode::Unsupported, fmt::format("Kernel IR version {} is not supported: this simulator reads "
                                                 "version {}",
                                                 irVersion, kSupportedIrVersion));
    }
    const auto count = load<std::uint32_t>(head + 16);
    if (count > 64) {
        fail(ErrorCode::Parse, fmt::format("corrupted binary Kernel IR: {} sections at byte offset 16", count));
    }
    std::map<std::string, Section> sections;
    std::uint64_t at = kHeaderSize;
    for (std::uint32_t i = 0; i < count; ++i) {
        if (file.size() - at < kSectionHeaderSize) {
            fail(ErrorCode::Parse,
                 fmt::format("truncated binary Kernel IR: section {} header at byte offset {}", i, at));
        }
        const std::byte* h = file.view(at, kSectionHeaderSize);
        Section s;
        const std::string tag = tagName(h);
        s.recordSize = load<std::uint32_t>(h + 4);
        s.count = load<std::uint64_t>(h + 8);
        s.bytes = load<std::uint64_t>(h + 16);
        s.offset = at + kSectionHeaderSize;
        if (s.bytes > file.size() - s.offset || s.bytes % 8 != 0) {
            fail(ErrorCode::Parse, fmt::format("truncated binary Kernel IR: section {} at byte offset {} claims {} "
                                               "bytes, {} remain",
                                               tag, at, s.bytes, file.size() - s.offset));
        }
        if (s.recordSize != 0 && (s.count > s.bytes / s.recordSize || s.bytes - s.count * s.recordSize >= 8)) {
            fail(ErrorCode::Parse, fmt::format("corrupted binary Kernel IR: section {} at byte offset {}: {} records "
                                               "of {} bytes do not fill its {} bytes",
                                               tag, at, s.count, s.recordSize, s.bytes));
        }
        if (!sections.emplace(tag, s).second) {
            fail(ErrorCode::Parse,
                 fmt::format("corrupted binary Kernel IR: section {} twice (byte offset {})", tag, at));
        }
        at = s.offset + s.bytes;
    }
    return sections;
}

const Section& require(const std::map<std::string, Section>& sections, const char* tag, std::uint32_t recordSize) {
    const auto it = sections.find(tag);
    if (it == sections.end()) {
        fail(ErrorCode::Parse, fmt::format("corrupted binary Kernel IR: no {} section", tag));
    }
    if (it->second.recordSize != recordSize) {
        fail(ErrorCode::Parse, fmt::format("corrupted binary Kernel IR: section {} at byte offset {} has records of "
                                           "{} bytes, expected {}",
                                           tag, it->second.offset, it->second.recordSize, recordSize));
    }
    if (it->second.count > kMaxPoolEntries) {
        fail(ErrorCode::Unsupported, fmt::format("section {} at byte offset {} holds {} records; at most {} are read",
                                                 tag, it->second.offset, it->second.count, kMaxPoolEntries));
    }
    return it->second;
}

} // namespace kl::sim::binary_ir
