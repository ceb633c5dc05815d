#pragma once

#include "compat/CompatTypes.h"

#include <cstddef>
#include <string>
#include <vector>

namespace kl::core {

/// Renders compat results for people (table, progress, summary) and for programs (JSON, docs/compat.md).
/// Deterministic except for the JSON's "seconds".
///
///   FILE                  KERNEL  STATUS     INSTR  TIME      PROBLEM
///   tests/compat/copy.py  copy    simulated      4  1.234 us
///   tests/compat/fail.py  boom    failed         -  -         fail.py:14: kernel_error: the tile is too big
///   tests/compat/mm.py    mm      skipped        -  -         needs arguments: a, b (give a manifest)
class CompatReport {
public:
    [[nodiscard]] static std::string table(const std::vector<CompatResult>& results);
    /// "[3/40] core/cumsum/cumsum.py:cumsum ... " (written before the kernel runs).
    [[nodiscard]] static std::string progressStart(std::size_t index, std::size_t total, const CompatJob& job);
    /// "simulated, 1,234 instr, 12.300 us" / "failed: f.py:3: kernel_error: ..." / "skipped: needs ...".
    [[nodiscard]] static std::string outcome(const CompatResult& result);
    /// "3 simulated, 1 failed, 2 skipped" (with "N traced-only" after "simulated" when there are any).
    [[nodiscard]] static std::string summaryLine(const CompatSummary& summary);
    /// {"hw", "summary": {...}, "results": [...]}, keys in a fixed order.
    [[nodiscard]] static std::string json(const std::string& hardware, const std::vector<CompatResult>& results);
    /// "f.py:3: kernel_error: message" (first line of the message only), or the skip reason.
    [[nodiscard]] static std::string problem(const CompatResult& result);
    /// 1234567 -> "1,234,567".
    [[nodiscard]] static std::string groupDigits(std::uint64_t value);
};

} // namespace kl::core
