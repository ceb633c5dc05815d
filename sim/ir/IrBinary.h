#pragma once

#include "common/Error.h"
#include "ir/KernelIr.h"

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <span>
#include <string_view>

namespace kl::sim {

/// Reads the binary form of the Kernel IR (docs/kernel-ir.md, "Binary form"), the format the front end writes
/// for KernelLens: a header, then sections of fixed-size little-endian records (buffers, pooled operands,
/// operand lists, source locations, loop values, instructions) and one string table. Every index and every
/// number is checked against the section it points into and against ir_limits before use, with the same
/// per-field checks as the JSON reader (ir/IrChecks.h); a truncated or corrupted file is refused with the byte
/// offset of what is wrong, never read past its end.
///
/// The file is read in blocks of a few hundred kilobytes, not mapped (a mapped file cut short by another process
/// while it is read would end this one with SIGBUS; a short read is an error naming the offset), and never held
/// whole; instructions are converted record by record with no parsing: attribute objects, op names and engines
/// are decoded once per distinct string. A file of many instructions is read on two threads: the instructions on
/// one, the buffers and pools on the other (the same program and the same first error as reading in order).
class BinaryIrReader {
public:
    static constexpr std::string_view kMagic{"KLIRBIN\0", 8};
    static constexpr std::uint32_t kFormatVersion = 1;

    /// True when the stream starts with kMagic; the stream is rewound either way.
    [[nodiscard]] static bool startsWithMagic(std::istream& in);
    /// From this many instructions on, they are decoded on a second thread (below, starting one costs more than it
    /// saves: about 0.1 ms against 20-100 ns an instruction).
    static constexpr std::size_t kParallelFrom = 16'384;

    /// `parallelFrom` as kParallelFrom (tests and the load benchmark compare both ways).
    [[nodiscard]] static Expected<KernelIr> loadFile(const std::filesystem::path& path,
                                                     std::size_t parallelFrom = kParallelFrom);
    /// `origin` names the data in error messages.
    [[nodiscard]] static Expected<KernelIr> loadBytes(std::span<const std::byte> data, std::string_view origin,
                                                      std::size_t parallelFrom = kParallelFrom);
};

} // namespace kl::sim
