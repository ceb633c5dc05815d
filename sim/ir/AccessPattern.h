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
/// access pattern is a fixed 24-byte value (KernelIr keeps each distinct one once).
struct AccessPattern {
    std::uint32_t buffer = 0xffffffffu; ///< kNoIndex when none
    std::uint32_t patternBegin = 0;
    std::int64_t offset = 0;
    std::uint16_t partStart = 0;
    std::uint16_t partCount = 1;
    std::uint8_t patternCount = 0;
    DType dtype = DType::Unknown;
};
static_assert(sizeof(AccessPattern) == 24);

} // namespace kl::sim
