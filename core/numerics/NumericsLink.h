#pragma once

#include "ir/KernelIr.h"
#include "numerics/NumericsResult.h"

#include <cstdint>
#include <optional>

namespace kl::core {

/// True when the numerics run executed the kernel with the same arguments (names, shapes, dtypes, in order) as
/// the traced IR: then its instruction indices are the IR's and link to that run's timeline.
[[nodiscard]] bool sameArguments(const NumericsResult& numerics, const std::vector<sim::KernelArg>& irArgs);

/// The IR instruction a top-error instruction is, when the numerics run and `ir` traced the same arguments and
/// the index exists in `ir`; otherwise nothing (link to the instruction's file:line instead).
[[nodiscard]] std::optional<std::uint32_t>
irInstructionOf(const NumericsResult& numerics, const NumericsInstruction& instruction, const sim::KernelIr& ir);

} // namespace kl::core
