#pragma once

#include "result/SimResult.h"

#include <string>
#include <vector>

namespace kl::views {

using sim::TimePs;

/// Ticks for a time ruler: a 1-2-5 step chosen so labels are at least `minSpacingPx` apart.
struct TimeTicks {
    TimePs step = 0;
    std::vector<TimePs> ticks;
};

[[nodiscard]] TimeTicks computeTimeTicks(TimePs t0, TimePs t1, double widthPx, double minSpacingPx);

/// "0", "250 ns", "1.5 us", "12.25 ms": the unit follows the magnitude, digits follow the step so adjacent
/// labels always differ.
[[nodiscard]] std::string formatTime(TimePs t, TimePs step = 0);

} // namespace kl::views
