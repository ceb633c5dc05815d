#pragma once

#include "common/Error.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

// The binary Kernel IR's file layer, shared by the reader's translation units only: the header and section table
// (docs/kernel-ir.md, "Binary form"), where the bytes come from, and how a failure leaves the reader. What the
// records mean is IrBinary.cpp's Decoder.
namespace kl::sim::binary_ir {

// Record layouts; sizes in bytes.
constexpr std::size_t kHeaderSize = 24;
constexpr std::size_t kSectionHeaderSize = 24;
constexpr std::size_t kBufferRecord = 32;
constexpr std::size_t kOperandRecord = 32;
constexpr std::size_t kInstrRecord = 52;
constexpr std::uint32_t kNone = 0xffffffffu;
/// A BUFS record as it is compared with the records before it.
using BufferRecord = std::array<std::uint64_t, kBufferRecord / 8>;
/// Pool offsets in a KernelIr are 32-bit.
constexpr std::uint64_t kMaxPoolEntries = 0x7fffffffu;
/// Records converted per block: large enough that a read costs little per record, small enough to stay in cache.
constexpr std::size_t kBlockBytes = std::size_t{1} << 18;

/// Thrown while reading to stop with a user-facing error; never leaves the reader (BinaryIrReader catches it).
struct ReadFailure {
    Error error;
};

[[noreturn]] void fail(ErrorCode code, std::string message);

template <typename T> T load(const std::byte* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// One section: its records start at byte `offset` of the file.
struct Section {
    std::uint64_t offset = 0;
    std::uint64_t count = 0;
    std::uint32_t recordSize = 0;
    std::uint64_t bytes = 0;
};

/// Where the bytes come from: memory (loadBytes: tests, fuzzing) or a file read in large blocks (loadFile). The
/// file is read, not mapped: a mapped file that another process truncates while it is being converted would kill
/// this one with SIGBUS; a short read is an error instead. Callers keep offset + bytes within size().
class ByteSource {
public:
    virtual ~ByteSource() = default;
    [[nodiscard]] virtual std::uint64_t size() const = 0;
    /// `bytes` bytes from `offset`, valid until the next call.
    [[nodiscard]] virtual const std::byte* view(std::uint64_t offset, std::size_t bytes) = 0;
    /// Copies `bytes` bytes from `offset` to `out` (a section read straight into its final place).
    virtual void readInto(std::uint64_t offset, std::size_t bytes, std::byte* out) = 0;
    /// Another source of the same bytes with its own block, for a second thread reading other sections.
    [[nodiscard]] virtual std::unique_ptr<ByteSource> twin() const = 0;
};

class MemorySource final : public ByteSource {
public:
    explicit MemorySource(std::span<const std::byte> data) : m_data(data) {}
    [[nodiscard]] std::uint64_t size() const override { return m_data.size(); }
    [[nodiscard]] const std::byte* view(std::uint64_t offset, std::size_t) override { return m_data.data() + offset; }
    void readInto(std::uint64_t offset, std::size_t bytes, std::byte* out) override {
        std::memcpy(out, m_data.data() + offset, bytes);
    }
    [[nodiscard]] std::unique_ptr<ByteSource> twin() const override { return std::make_unique<MemorySource>(m_data); }

private:
    std::span<const std::byte> m_data;
};

/// Reads with pread into one reused block, so the file is never in memory whole beside the IR built from it.
class FileSource final : public ByteSource {
public:
    FileSource(int fd, std::uint64_t size) : m_fd(fd), m_size(size) {}
    [[nodiscard]] std::uint64_t size() const override { return m_size; }
    [[nodiscard]] const std::byte* view(std::uint64_t offset, std::size_t bytes) override;
    void readInto(std::uint64_t offset, std::size_t bytes, std::byte* out) override;
    /// pread has no file position, so two sources may read one descriptor at once.
    [[nodiscard]] std::unique_ptr<ByteSource> twin() const override {
        return std::make_unique<FileSource>(m_fd, m_size);
    }

private:
    int m_fd;
    std::uint64_t m_size;
    std::vector<std::byte> m_block;
};

// Defined here, not in the .cpp: the decoder's per-block reads stay visible to the compiler (measured: the
// out-of-line form loaded the 1 M-instruction file about 5 % slower).
inline const std::byte* FileSource::view(std::uint64_t offset, std::size_t bytes) {
    if (m_block.size() < bytes) {
        m_block.resize(bytes);
    }
    readInto(offset, bytes, m_block.data());
    return m_block.data();
}

inline void FileSource::readInto(std::uint64_t offset, std::size_t bytes, std::byte* out) {
    std::size_t done = 0;
    while (done < bytes) {
        const auto n = ::pread(m_fd, out + done, bytes - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            fail(ErrorCode::Io, fmt::format("the Kernel IR file changed or could not be read while loading: {} "
                                            "bytes at byte offset {} are missing (write it again)",
                                            bytes - done, offset + done));
        }
        done += static_cast<std::size_t>(n);
    }
}

/// Calls `f(index, record)` for every record of `s`, reading them a block at a time.
template <typename F> void forEachRecord(ByteSource& source, const Section& s, F&& f) {
    const std::uint64_t perBlock = std::max<std::uint64_t>(1, kBlockBytes / std::max<std::uint32_t>(s.recordSize, 1));
    for (std::uint64_t first = 0; first < s.count; first += perBlock) {
        const std::uint64_t n = std::min(perBlock, s.count - first);
        const std::byte* block = source.view(s.offset + first * s.recordSize, n * s.recordSize);
        for (std::uint64_t i = 0; i < n; ++i) {
            f(first + i, block + i * s.recordSize);
        }
    }
}

/// Splits the file into its sections after checking the header; every section lies inside the file.
std::map<std::string, Section> readSections(ByteSource& file);
/// The section named `tag`, whose records must be `recordSize` bytes (0: a section of bytes) and fit the pools.
const Section& require(const std::map<std::string, Section>& sections, const char* tag, std::uint32_t recordSize);

} // namespace kl::sim::binary_ir
