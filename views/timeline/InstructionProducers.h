#pragma once

#include "ir/KernelIr.h"

#include <cstdint>
#include <vector>

namespace kl::views {

/// Every earlier instruction the one at `index` (program order) depends on through its operands, nearest
/// first: for each input, the writes of an overlapping region (read-after-write); for each output, the reads
/// and writes of an overlapping region (write-after-read, write-after-write) — the rules the simulator's
/// DependencyTracker waits by. An operand's search stops at the first earlier write that covers it whole,
/// since everything older is hidden behind that write. At most `limit` instructions; Qt-free.
[[nodiscard]] std::vector<std::uint32_t> instructionProducers(const sim::KernelIr& ir, std::uint32_t index,
                                                              std::size_t limit = 64);

} // namespace kl::views
