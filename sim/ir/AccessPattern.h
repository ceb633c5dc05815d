#pragma once

#include "ir/IrTypes.h"

#include <cstdint>

namespace kl::sim {

/// One dimension of an access pattern: `count` elements `stride` elements apart.
struct PatternDim {
    std::int64_t stride = 0;
    std::int64_t count = 0;
};

/// An operand: a region of a buffer. Pattern dimensions live in KernelIr::patternDims() so that an
/// access pattern is a fixed 16-byte value (KernelIr keeps each distinct one once): the fields are bit-fields
/// sized to what the readers accept (IrLimits: |offset| <= 2^48, at most 2^26 buffers, 16 dimensions, 128
/// partitions) and the pattern pool holds at most kMaxPatternPool dimensions.
struct AccessPattern {
    /// `buffer` when the operand names none (a buffer index never reaches it: IrLimits::kMaxBuffers is lower).
    static constexpr std::uint32_t kNoBuffer = (1u << 27) - 1;
    /// Entries the pattern dimension pool may hold (patternBegin is 25 bits): readers refuse an IR with more.
    static constexpr std::uint32_t kMaxPatternPool = 1u << 25;

    std::int64_t offset : 50 = 0;       ///< in elements; |offset| <= 2^48
    std::uint64_t partCount : 8 = 1;    ///< 0..128
    std::uint64_t patternCount : 5 = 0; ///< 0..16
    std::uint32_t buffer : 27 = kNoBuffer;
    DType dtype : 4 = DType::Unknown;
    std::uint32_t patternBegin : 25 = 0;
    std::uint32_t partStart : 7 = 0; ///< 0..127
};
static_assert(sizeof(AccessPattern) == 16);

} // namespace kl::sim
