#pragma once

#include "result/SimResult.h"

#include <string>

namespace kl::sim {

/// The JSON form of a SimResult, schema documented in docs/simulator.md ("JSON output"). Keys are
/// written in a fixed order and numbers are derived from integer picoseconds, so the same IR and
/// profile give byte-identical text.
class ResultJson {
public:
    struct Options {
        bool instructions = true; ///< the per-instruction table
        bool series = true;       ///< occupancy and DMA series
        int indent = 1;
    };
    [[nodiscard]] static std::string write(const SimResult& r, const Options& options);
    [[nodiscard]] static std::string write(const SimResult& r) { return write(r, Options{}); }
    static constexpr int kSchemaVersion = 1;
};

} // namespace kl::sim
