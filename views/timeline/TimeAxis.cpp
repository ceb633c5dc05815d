#include "timeline/TimeAxis.h"

#include <fmt/format.h>

#include <cmath>

namespace kl::views {

TimeTicks computeTimeTicks(TimePs t0, TimePs t1, double widthPx, double minSpacingPx) {
    TimeTicks out;
    if (t1 <= t0 || widthPx <= 0) {
        return out;
    }
    const double minStep = static_cast<double>(t1 - t0) * minSpacingPx / widthPx;
    TimePs step = 1;
    for (TimePs decade = 1; step < minStep; decade *= 10) {
        for (TimePs m : {1, 2, 5}) {
            step = decade * m;
            if (static_cast<double>(step) >= minStep) {
                break;
            }
        }
    }
    out.step = step;
    for (TimePs t = (t0 + step - 1) / step * step; t <= t1; t += step) {
        out.ticks.push_back(t);
    }
    return out;
}

std::string formatTime(TimePs t, TimePs step) {
    struct Unit {
        TimePs ps;
        const char* name;
    };
    static constexpr Unit kUnits[] = {{1'000'000'000, "ms"}, {1'000'000, "us"}, {1'000, "ns"}, {1, "ps"}};
    if (t == 0) {
        return "0";
    }
    const TimePs magnitude = std::max<TimePs>(std::llabs(t), step);
    for (const Unit& unit : kUnits) {
        if (magnitude >= unit.ps || unit.ps == 1) {
            // Enough decimals that the step is visible in this unit.
            int decimals = 0;
            if (step > 0) {
                // As many decimals as the step needs to be exact in this unit (deep zoom far into a long run
                // needs up to nine: ticks 1 ns apart at 1.38 ms), so adjacent labels never read the same.
                for (TimePs quantum = unit.ps; step % quantum != 0 && decimals < 9 && quantum >= 10; quantum /= 10) {
                    ++decimals;
                }
            } else {
                decimals = 2;
            }
            return fmt::format("{:.{}f} {}", static_cast<double>(t) / static_cast<double>(unit.ps), decimals,
                               unit.name);
        }
    }
    return fmt::format("{} ps", t);
}

TimePs resolutionFor(TimePs span) {
    TimePs resolution = 1;
    while (resolution * 1000 <= std::llabs(span)) {
        resolution *= 10;
    }
    return resolution;
}

std::string formatTimeFor(TimePs t, TimePs span) {
    return formatTime(t, resolutionFor(span));
}

std::string formatBytes(double bytes) {
    static constexpr const char* kUnits[] = {"kB", "MB", "GB", "TB"};
    if (std::abs(bytes) < 1000) {
        return fmt::format("{:.0f} B", bytes);
    }
    double value = bytes / 1000;
    std::size_t unit = 0;
    while (std::abs(value) >= 999.95 && unit + 1 < std::size(kUnits)) {
        value /= 1000;
        ++unit;
    }
    return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

} // namespace kl::views
