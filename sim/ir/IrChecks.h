#pragma once

#include "ir/KernelIr.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kl::sim::ir_checks {

/// The checks both Kernel IR readers (IrLoader for JSON, BinaryIrReader for the binary form) apply to what they
/// read, so that a program is accepted or refused, with the same message, whichever form it came in. Each
/// returns the problem as a message (without the instruction or buffer context, which the reader adds).

/// The pattern's element count stays within 2^40 and its extent, from `offset`, within 2^48 elements (so that
/// elementCount and elementRange cannot overflow).
[[nodiscard]] std::optional<std::string> patternProblem(std::int64_t offset, std::span<const PatternDim> dims);

/// An on-chip buffer's partition dimension is 1..128 and every buffer's bytes (per partition on chip) stay
/// within 2^40. `id` is the buffer's id as written, for the message.
[[nodiscard]] std::optional<std::string> bufferProblem(std::int64_t id, const Buffer& buffer);

/// The fields of an instruction's `attrs` object the cost model reads (moving_free, stationary_free,
/// contraction, accumulate, is_transpose, dtype_in, op0, op1, isa, a zero `value`); other keys are ignored.
/// The message names the field.
[[nodiscard]] std::expected<InstrAttrs, std::string> readAttrs(const nlohmann::json& attrs);

/// The diagnostic for an op the simulator does not know, seen `count` times.
[[nodiscard]] std::string unknownOpWarning(std::string_view op, int count);

} // namespace kl::sim::ir_checks
