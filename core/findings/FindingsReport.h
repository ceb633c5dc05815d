#pragma once

#include "findings/Finding.h"

#include <string>
#include <vector>

namespace kl::core::findings {

/// What a findings report says it is about.
struct FindingsContext {
    std::string kernel;
    std::string hardware;
    std::vector<std::string> rules; ///< ids of the rules that ran
};

/// The findings as JSON (docs/findings.md): {"schema_version", "kernel", "hardware", "rules", "findings": [...]}.
/// Deterministic: keys in a fixed order, numbers rounded to 1e-4.
[[nodiscard]] std::string findingsJson(const std::vector<Finding>& findings, const FindingsContext& context);

/// A readable list, most severe first:
///
///     Findings for nki_matmul_basic_tiled on trn1: 5 (2 major, 2 minor, 1 nit)
///
///     major  dma-small-transfers  Small DMA transfers  [perf.dma]
///            small_transfer_time_pct 100 % (threshold 25 %), median_bytes_per_partition 1 KiB (threshold 2 KiB)
///            - kernel.py:26: 32768 transfers of 256 B per partition ...  #1-#2, #5-#6 ... (32768 instructions)
///            fix: Move at least 2 KiB per partition in each DMA ...
[[nodiscard]] std::string findingsText(const std::vector<Finding>& findings, const FindingsContext& context);

} // namespace kl::core::findings
