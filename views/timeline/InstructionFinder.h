#pragma once

#include "result/SimResult.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kl::views {

/// Finds instructions by what a reviewer types: `41` or `line 41` or `:41` (source line), `30-35` (a line
/// range), otherwise a case-insensitive part of an operation name (`matmul`, `dma`, `tensor_s`).
/// Results are program-order indices, ascending.
[[nodiscard]] std::vector<std::uint32_t> findInstructions(const sim::SimResult& result, const std::string& query);

} // namespace kl::views
