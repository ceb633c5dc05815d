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

/// A time precise enough to tell apart two instants `span` apart: "1.380218 ms" for the start of a 218 ns
/// instruction at 1.38 ms (three significant digits of the span survive), where formatTime() says "1.38 ms".
[[nodiscard]] std::string formatTimeFor(TimePs t, TimePs span);

/// The step formatTimeFor() resolves for a span: a power of ten two decades below it, at least 1 ps.
[[nodiscard]] TimePs resolutionFor(TimePs span);

/// "181.3 MB", "4.0 KiB"-free decimal units (B, kB, MB, GB, TB) with one decimal from kB on.
[[nodiscard]] std::string formatBytes(double bytes);

} // namespace kl::views
